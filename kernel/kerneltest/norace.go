//go:build !race

package kerneltest

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
