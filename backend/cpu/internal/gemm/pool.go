package gemm

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Note [Spinning workers]
//
// A goroutine started (or a parked worker woken) for a product took 100 µs
// to 1 ms to begin running on this project's 2-vCPU virtual machines: the
// idle vCPU halts and the host is slow to run it again, so a 256³ product
// (about 150 µs on two cores) would finish on the calling goroutine before
// its helper started. OpenBLAS's and OpenMP's threads avoid this by
// polling for work for a while after each job, and so do these workers:
// after a task a worker polls its mailbox for spinTime (yielding with
// runtime.Gosched between polls, so other goroutines still run on its P)
// before it parks on a channel. A task offered to a polling worker starts
// within a microsecond. The cost is up to spinTime of CPU on each helper
// after the last product of a burst.
//
// Work is never handed to a particular worker: a run is a list of parts
// that the caller and every worker it enlisted claim one at a time from an
// atomic counter, so a worker that starts late (or never, because all are
// busy with other callers' products) only means that the caller does more
// of the parts itself.

// spinTime is how long an idle worker polls before parking.
var spinTime = 500 * time.Microsecond

// worker is one long-lived helper goroutine.
type worker struct {
	busy     atomic.Bool            // claimed by a caller (task set or running)
	task     atomic.Pointer[func()] // the task to run, nil when none
	sleeping atomic.Bool            // parked or about to park on wake
	wake     chan struct{}          // one token per wake-up owed
}

var workers struct {
	mu   sync.Mutex
	list []*worker
}

// enlist hands fn to up to k idle workers (starting workers as needed, up
// to k in all) and returns how many took it.
func enlist(fn *func(), k int) int {
	if k <= 0 {
		return 0
	}
	workers.mu.Lock()
	for len(workers.list) < k {
		w := &worker{wake: make(chan struct{}, 1)}
		workers.list = append(workers.list, w)
		go w.loop()
	}
	list := workers.list
	workers.mu.Unlock()
	n := 0
	for _, w := range list {
		if n == k {
			break
		}
		if !w.busy.CompareAndSwap(false, true) {
			continue
		}
		w.task.Store(fn)
		if w.sleeping.CompareAndSwap(true, false) {
			w.wake <- struct{}{}
		}
		n++
	}
	return n
}

func (w *worker) loop() {
	for {
		fn := w.wait()
		(*fn)()
		w.task.Store(nil)
		w.busy.Store(false)
	}
}

// wait returns the next task, polling for spinTime before parking. The
// handshake with enlist: enlist stores the task, then wakes the worker only
// if it flips sleeping from true to false; the worker sets sleeping before
// its last look at the task, and takes back the flag (or, failing that,
// the token enlist sent) if the task came after all.
func (w *worker) wait() *func() {
	deadline := time.Now().Add(spinTime)
	for i := 1; ; i++ {
		if fn := w.task.Load(); fn != nil {
			return fn
		}
		if i%64 == 0 {
			if time.Now().After(deadline) {
				break
			}
			runtime.Gosched()
		}
	}
	w.sleeping.Store(true)
	if fn := w.task.Load(); fn != nil {
		if !w.sleeping.CompareAndSwap(true, false) {
			<-w.wake
		}
		return fn
	}
	<-w.wake
	return w.task.Load()
}

// runParts calls do(i) for every i in [0, n) on the calling goroutine and
// up to helpers enlisted workers, each claiming the next unclaimed i, and
// returns when all have finished.
func runParts(n, helpers int, do func(i int)) {
	if n <= 0 {
		return
	}
	if n == 1 || helpers <= 0 {
		for i := 0; i < n; i++ {
			do(i)
		}
		return
	}
	var next, done atomic.Int64
	claim := func() {
		for {
			i := next.Add(1) - 1
			if i >= int64(n) {
				return
			}
			do(int(i))
			done.Add(1)
		}
	}
	enlist(&claim, min(helpers, n-1))
	claim()
	for i := 1; done.Load() < int64(n); i++ {
		if i%64 == 0 {
			runtime.Gosched()
		}
	}
}
