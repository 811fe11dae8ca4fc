package tensor

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/raw"
)

// TestMemoryLimit: an allocation over device.MemoryLimit is a memory
// error wrapping device.ErrMemoryLimit, and nothing is allocated; the
// default limit is the machine's memory.
func TestMemoryLimit(t *testing.T) {
	if l := device.MemoryLimit(); l < 1<<26 {
		t.Fatalf("the default memory limit is %d bytes", l)
	}
	prev := device.SetMemoryLimit(1 << 20)
	defer device.SetMemoryLimit(prev)
	Zeros(Float32, 1<<18) // exactly the limit
	for name, f := range map[string]func(){
		"zeros":      func() { Zeros(Float32, 1<<18+1) },
		"empty":      func() { Empty(Int64, 1<<17+1) },
		"op":         func() { Ones(Float32, 1).Expand(1 << 19).Add(Scalar(1)) },
		"clone":      func() { Ones(Float32, 1).Expand(1 << 19).Clone() },
		"contiguous": func() { Ones(Float32, 1).Expand(1 << 19).Contiguous() },
	} {
		err := Try(f)
		var e *Error
		if !errors.As(err, &e) || e.Kind != MemoryError || !errors.Is(err, device.ErrMemoryLimit) || e.Op == "" {
			t.Errorf("%s over the limit: got %v, want a memory error", name, err)
		}
	}
	if got := device.SetMemoryLimit(0); got != 1<<20 {
		t.Errorf("SetMemoryLimit returned %d, want the previous limit %d", got, 1<<20)
	}
	if device.MemoryLimit() != prev {
		t.Errorf("SetMemoryLimit(0) restored %d, want the default %d", device.MemoryLimit(), prev)
	}
}

// TestRecoverBoundary: Try returns a panic that escaped goten's code as an
// internal error naming the function it escaped from, and re-raises a
// panic of the caller's own code (Note [Recover boundary]).
func TestRecoverBoundary(t *testing.T) {
	st := device.Alloc(16)
	err := Try(func() { device.Slice[float32](st, 0, 5) }) // past the storage: device panics with a string
	var e *Error
	if !errors.As(err, &e) || e.Kind != InternalError || e.Op != "device.Slice" || e.Panic == nil ||
		!strings.Contains(string(e.Stack), "device.Slice") || !strings.Contains(e.Msg, "16-byte storage") {
		t.Fatalf("a panic in goten: got %#v", err)
	}
	// a runtime error below the API: its value is the error Unwrap returns
	err = Try(func() { (*raw.View)(nil).IsContiguous() })
	var re runtime.Error
	if !errors.As(err, &e) || e.Kind != InternalError || e.Op != "raw.View.IsContiguous" || !errors.As(err, &re) {
		t.Fatalf("a nil dereference in goten: got %#v", err)
	}

	mine := errors.New("mine")
	func() {
		defer func() {
			if r := recover(); r != mine {
				t.Errorf("the caller's own panic: recovered %v, want it re-raised", r)
			}
		}()
		Try(func() { panic(mine) })
	}()
	// nested Try: the inner one re-raises the caller's panic, the outer one
	// must not take it for goten's
	func() {
		defer func() {
			if r := recover(); r != mine {
				t.Errorf("nested Try: recovered %v, want the caller's panic re-raised", r)
			}
		}()
		Try(func() { Try(func() { panic(mine) }) })
	}()
	for fn, want := range map[string]string{
		"github.com/goten-ml/goten/tensor.(*Tensor).Add":  "Tensor.Add",
		"github.com/goten-ml/goten/tensor.Cat":            "Cat",
		"github.com/goten-ml/goten/tensor.FromSlice[...]": "FromSlice",
		"github.com/goten-ml/goten/op.Reduce":             "op.Reduce",
	} {
		if got := apiName(fn); got != want {
			t.Errorf("apiName(%s) = %s, want %s", fn, got, want)
		}
	}
}
