// Package parallel runs a range of work over a pool of goroutines sized to
// GOMAXPROCS.
//
// # Determinism
//
// [For] splits [0, n) into chunks whose boundaries depend only on n and the
// grain size, never on the number of workers or on timing (see [Chunks]).
// Work that combines per-chunk results in chunk order therefore gives the
// same answer for any GOMAXPROCS.
//
// # Concurrency
//
// The calling goroutine takes part in the work, and waits only for chunks
// that have started, so For may be called from inside another For (nested
// calls run on whatever workers are idle, or on the caller alone) without
// deadlock. A panic in fn is re-raised on the calling goroutine once every
// started chunk has finished.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// MaxChunks bounds the number of chunks For makes: above MaxChunks·grain
// elements, chunks grow beyond the grain so that their count stays at most
// MaxChunks. 64 chunks still balance a few dozen workers, and a memory-bound
// loop streams through long runs: with 1024 chunks of 32768 elements a
// 2^24-element copy or add switched streams every 128 KiB per operand and
// ran 5-30% slower (a copy hands runtime.memmove chunks of 1 MiB and more
// only for tensors far beyond the caches, which it then writes around them).
const MaxChunks = 64

// Chunks returns the chunk size and the number of chunks For uses for n
// elements with the given grain (a grain below 1 counts as 1). Both depend
// on n and grain only.
func Chunks(n, grain int) (size, count int) {
	if n <= 0 {
		return 0, 0
	}
	if grain < 1 {
		grain = 1
	}
	size = grain
	if (n+size-1)/size > MaxChunks {
		size = (n + MaxChunks - 1) / MaxChunks
	}
	return size, (n + size - 1) / size
}

// For calls fn(begin, end) over consecutive chunks covering [0, n), each of
// at least grain elements except possibly the last (see [Chunks]). Chunks
// may run concurrently on up to GOMAXPROCS goroutines, the caller's
// included; For returns when all have finished. With n <= grain, or when
// GOMAXPROCS is 1, it calls fn(0, n) on the calling goroutine, starting no
// goroutine and allocating nothing. n <= 0 does nothing.
func For(n, grain int, fn func(begin, end int)) {
	if n <= 0 {
		return
	}
	if n <= grain {
		fn(0, n)
		return
	}
	size, count := Chunks(n, grain)
	procs := runtime.GOMAXPROCS(0)
	if count == 1 || procs == 1 {
		fn(0, n)
		return
	}
	j := &job{fn: fn, n: n, size: size, count: int64(count), done: make(chan struct{})}
	j.unclaimed.Store(uint64(count)) // [0, count)
	helpers := min(procs, count) - 1
	defaultPool.enlist(j, helpers)
	j.run(true)
	if !j.wait() {
		<-j.done
	}
	if p := j.panicked.Load(); p != nil {
		panic(p.v)
	}
}

type panicValue struct{ v any }

// job is one call of For: goroutines claim chunk indices from unclaimed
// none are left.
type job struct {
	fn      func(begin, end int)
	n, size int
	count   int64
	// unclaimed is the range [lo, hi) of chunks not yet claimed, lo in
	// the high 32 bits and hi in the low (Note [Claiming from both ends]).
	unclaimed atomic.Uint64
	finished  atomic.Int64
	done      chan struct{} // closed when finished reaches count
	panicked  atomic.Pointer[panicValue]
}

// Note [Claiming from both ends]
//
// The caller of For claims chunks from the front of the range and the
// helpers from the back, so that with two goroutines each walks one
// contiguous part of the data, as an OpenMP static schedule gives
// PyTorch's two threads, and the two meet wherever the faster one has got
// to. Claiming in one shared order instead hands the two goroutines
// alternate chunks, and on the 2-core Zen 5 VMs goten is measured on a
// copy or an NCHW bias add over 12.8 MB (which L3 holds) then ran at 1.6×
// one thread's speed (185-200 µs against about 300), while split this way
// it runs at 2.2× (130-150 µs), like PyTorch's 126-134. With more
// helpers, they share the back part in claim order. The chunks and their
// boundaries are the same either way, so results that combine per-chunk
// values in chunk order do not change (see the package doc).

// run claims and runs chunks of j, from the front of the unclaimed range
// when front and from its back otherwise, until none is left.
func (j *job) run(front bool) {
	for {
		u := j.unclaimed.Load()
		lo, hi := u>>32, u&(1<<32-1)
		if lo >= hi {
			return
		}
		i, next := lo, (lo+1)<<32|hi
		if !front {
			i, next = hi-1, lo<<32|(hi-1)
		}
		if j.unclaimed.CompareAndSwap(u, next) {
			j.chunk(int(i))
		}
	}
}

// wait polls until every chunk of j has finished, for up to spinFor, and
// reports whether they have (Note [Spinning workers]): the chunks left
// when the caller runs out of work are those the helpers started last,
// which end within a chunk's time, sooner than a parked caller is woken.
func (j *job) wait() bool {
	return spinUntil(func() bool { return j.finished.Load() == j.count })
}

func (j *job) chunk(i int) {
	defer func() {
		if r := recover(); r != nil {
			j.panicked.CompareAndSwap(nil, &panicValue{r})
		}
		if j.finished.Add(1) == j.count {
			close(j.done)
		}
	}()
	begin := i * j.size
	j.fn(begin, min(begin+j.size, j.n))
}

// pool is a set of long-lived workers fed through one channel.
type pool struct {
	mu      sync.Mutex
	workers int
	jobs    chan *job
	// offered counts the jobs sent to jobs and not yet received: what
	// idle workers poll before they block (Note [Spinning workers]).
	offered atomic.Int64
}

var defaultPool = &pool{jobs: make(chan *job, 256)}

// enlist offers j to up to k idle workers, starting workers as needed (up
// to k in all). Offers that find the queue full are dropped: the caller
// works through every chunk itself if no one helps.
func (p *pool) enlist(j *job, k int) {
	if k <= 0 {
		return
	}
	p.mu.Lock()
	for p.workers < k {
		p.workers++
		go p.work()
	}
	p.mu.Unlock()
	for range k {
		p.offered.Add(1)
		select {
		case p.jobs <- j:
		default:
			p.offered.Add(-1)
			return
		}
	}
}

func (p *pool) work() {
	for {
		spinUntil(func() bool { return p.offered.Load() > 0 })
		j := <-p.jobs
		p.offered.Add(-1)
		j.run(false)
	}
}

// Note [Spinning workers]
//
// A goroutine blocked on a channel gives up its thread, and an idle thread
// sleeps (its core halts, which in a virtual machine is an exit to the
// host): waking it costs the next For some 10-40 µs before its first
// chunk starts, most of what a second worker saves on an op of 100-300
// µs (an add over 13 MB that the caches hold). Like the threads of an
// OpenMP runtime, which PyTorch's parallel_for runs on, an idle worker
// first polls for the next job for up to spinFor, then blocks; so does a
// caller waiting for the last chunks of its job. Polling reads one atomic
// word (the pool's count of offered jobs, or the job's count of finished
// chunks) and yields the processor every spinYield polls, so that other
// goroutines that are ready to run still get it: a spinning worker holds
// a P (one of GOMAXPROCS) for at most spinFor after its last job, the
// price OpenMP pays too, with a far shorter spin (libgomp spins for
// hundreds of microseconds by default). Measured on a 2-core AMD EPYC VM
// shared with other jobs, a For copying 12.8 MB in 64 chunks (the size of
// an NCHW bias add), with and without spinning in one process: median 218
// → 177 µs at load 6 (one thread: 302); at load 7-11, when other processes
// held the second core, 311-342 → 337-370 µs, the spinning thread then
// using up part of the process's share of the cores.
//
// The spin was 50 µs, and is 250: an op whose calling goroutine works on
// alone for longer than the spin after its helpers' last chunks (the
// chunk it finishes last, a combine of the chunks' results, the caller's
// own code between two ops) found its helper parked at its next For, and
// on the Zen 5 VMs the wake-up took 50-150 µs there: the first chunk the
// helper took of M.sum(0) ([4096, 4096] float32, 8 chunks then) started
// on average 150 µs after the For, where its 8 chunks took 1.05 ms of
// each worker's time in all. One process alternating the two spins, 8
// rounds of 20 calls (µs at p50): M.sum(0) 50 µs 937-950, 100 µs 827,
// 150 µs 810, 250 µs 777-789, 500 µs 778; M.sum(1) 769-787 against
// 704-747 with 150 µs and more. libgomp, which PyTorch's threads run on,
// spins for longer still by default.

// spinFor is how long an idle worker, or a caller waiting for its job's
// last chunks, polls before it blocks (Note [Spinning workers]).
const spinFor = 250 * time.Microsecond

// spinYield is the number of polls between two runtime.Gosched calls of a
// spinning goroutine; a poll takes a few nanoseconds.
const spinYield = 256

// spinUntil polls done until it reports true, for up to spinFor, and
// reports whether it did.
func spinUntil(done func() bool) bool {
	var start time.Time
	for i := 1; !done(); i++ {
		if i%spinYield != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > spinFor {
			return false
		}
		runtime.Gosched()
	}
	return true
}
