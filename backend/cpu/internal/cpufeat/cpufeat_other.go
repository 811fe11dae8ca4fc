//go:build !amd64 || purego

package cpufeat

// detect reports no instruction sets: without amd64 assembly every kernel
// runs its pure-Go twin.
func detect() Features { return Features{} }
