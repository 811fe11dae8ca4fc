package tensor

import (
	"sync"
	"sync/atomic"

	"github.com/goten-ml/goten/internal/goroutine"
)

// Note [Grad mode per goroutine]
//
// PyTorch's torch.no_grad() is thread-local: a scope on one thread never
// stops another thread from recording. Go has no goroutine-local storage,
// and a process-wide flag would let an evaluation goroutine silently stop a
// training goroutine's recording. So NoGrad keeps its scopes in a registry
// keyed by the goroutine's identity (internal/goroutine: the runtime's
// descriptor of the goroutine, read in two instructions), and an op asks
// the registry only when it would record: some input requires grad and
// some scope is open somewhere (one atomic load, the count of open scopes,
// when none is). A scope is registered for exactly the duration of its
// function and removed by defer, so an identity the runtime reuses after a
// goroutine ends never finds a stale scope. As in PyTorch, where a new
// thread starts with grad mode on, goroutines started inside a scope
// record: the scope belongs to the goroutine that opened it. The backward
// engine opens one around the backward functions it runs unless asked to
// create a graph. TestNoGradGoroutines holds the design under -race.

var (
	// openScopes counts NoGrad scopes open in any goroutine.
	openScopes atomic.Int64
	// scopeDepth maps a goroutine with open scopes to their depth.
	scopeDepth sync.Map // goroutine.ID → int (touched only by its goroutine)
)

// NoGrad runs fn with grad mode off in the calling goroutine: the ops fn
// runs record nothing for backward, and their results require no grad
// (PyTorch's torch.no_grad()). Other goroutines, including those fn starts,
// are not affected (Note [Grad mode per goroutine]). Scopes nest.
func NoGrad(fn func()) {
	id := goroutine.Current()
	depth := 0
	if d, ok := scopeDepth.Load(id); ok {
		depth = d.(int)
	}
	scopeDepth.Store(id, depth+1)
	openScopes.Add(1)
	defer func() {
		openScopes.Add(-1)
		if depth == 0 {
			scopeDepth.Delete(id)
		} else {
			scopeDepth.Store(id, depth)
		}
	}()
	fn()
}

// IsGradEnabled reports whether ops run by the calling goroutine record for
// backward: false inside [NoGrad].
func IsGradEnabled() bool {
	if openScopes.Load() == 0 {
		return true
	}
	_, off := scopeDepth.Load(goroutine.Current())
	return !off
}
