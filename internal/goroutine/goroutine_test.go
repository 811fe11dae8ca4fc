package goroutine

import (
	"sync"
	"testing"
)

// check runs the identity tests on one implementation: an ID is stable
// within a goroutine and differs between goroutines that run together.
func check(t *testing.T, id func() ID) {
	t.Helper()
	self := id()
	if self == 0 || id() != self {
		t.Fatalf("ID %#x not stable within a goroutine", self)
	}
	const n = 16
	ids := make([]ID, n)
	var started, done sync.WaitGroup
	release := make(chan struct{})
	started.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			ids[i] = id()
			started.Done()
			<-release // all n run at once
			if id() != ids[i] {
				t.Errorf("goroutine %d: ID changed", i)
			}
		}()
	}
	started.Wait()
	seen := map[ID]bool{self: true}
	for i, x := range ids {
		if seen[x] {
			t.Errorf("goroutine %d shares ID %#x with another running goroutine", i, x)
		}
		seen[x] = true
	}
	close(release)
	done.Wait()
}

func TestCurrent(t *testing.T) { check(t, Current) }

func TestStackID(t *testing.T) { check(t, stackID) }
