//go:build (amd64 || arm64) && !purego

package goroutine

// getg returns the address of the calling goroutine's runtime descriptor.
func getg() uintptr

func current() ID { return ID(getg()) }
