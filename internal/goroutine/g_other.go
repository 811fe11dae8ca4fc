//go:build !(amd64 || arm64) || purego

package goroutine

func current() ID { return stackID() }
