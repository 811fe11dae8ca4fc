//go:build !(386 || arm || mips || mipsle)

// The cases of this file check the arithmetic of 64-bit ints (sizes past
// 2^31, int64 fuzz inputs): they do not hold where int has 32 bits.

package shape

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/goten-ml/goten/errs"
)

// FuzzCheckedArithmetic holds MulOK, AddOK, NumElOK and Span to exact
// arithmetic: the result is right whenever ok, and ok exactly when the
// true value fits in an int.
func FuzzCheckedArithmetic(f *testing.F) {
	f.Add(int64(3), int64(4), int64(5), int64(1))
	f.Add(int64(1<<62+1), int64(4), int64(0), int64(0))
	f.Add(int64(math.MaxInt64), int64(1), int64(1), int64(2))
	f.Add(int64(1<<32), int64(1<<31), int64(7), int64(-1))
	f.Fuzz(func(t *testing.T, a, b, c, off int64) {
		fits := func(x *big.Int) bool { return x.IsInt64() }
		ba, bb, bc := big.NewInt(a), big.NewInt(b), big.NewInt(c)
		if a >= 0 && b >= 0 {
			p, ok := MulOK(int(a), int(b))
			want := new(big.Int).Mul(ba, bb)
			if ok != fits(want) || ok && int64(p) != want.Int64() {
				t.Errorf("MulOK(%d, %d) = %d, %v; want %v", a, b, p, ok, want)
			}
			s, ok := AddOK(int(a), int(b))
			want = new(big.Int).Add(ba, bb)
			if ok != fits(want) || ok && int64(s) != want.Int64() {
				t.Errorf("AddOK(%d, %d) = %d, %v; want %v", a, b, s, ok, want)
			}
		}
		sizes := []int{int(a), int(b), int(c)}
		n, ok := NumElOK(sizes)
		prod := new(big.Int).Mul(new(big.Int).Mul(ba, bb), bc)
		wantOK := a >= 0 && b >= 0 && c >= 0 && fits(prod)
		if ok != wantOK || ok && int64(n) != prod.Int64() {
			t.Errorf("NumElOK(%v) = %d, %v; want %v", sizes, n, ok, prod)
		}
		// Span of sizes (a, b) with strides (c, 1) at offset off
		sp, ok := Span(sizes[:2], []int{int(c), 1}, int(off))
		neg := a < 0 || b < 0 || c < 0 || off < 0
		switch {
		case neg:
			if ok {
				t.Errorf("Span with a negative number: ok, %d", sp)
			}
		case a == 0 || b == 0:
			if !ok || sp != 0 {
				t.Errorf("Span of no elements = %d, %v", sp, ok)
			}
		default:
			want := big.NewInt(off + 1)
			want.Add(want, new(big.Int).Mul(big.NewInt(a-1), bc))
			want.Add(want, big.NewInt(b-1))
			if ok != fits(want) || ok && int64(sp) != want.Int64() {
				t.Errorf("Span(%v, [%d 1], %d) = %d, %v; want %v", sizes[:2], c, off, sp, ok, want)
			}
		}
	})
}

func TestCheckSizes(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		n     int
		kind  errs.Kind
		msg   string
	}{
		{sizes: []int{}, n: 1},
		{sizes: []int{2, 3}, n: 6},
		{sizes: []int{0, 1 << 40}, n: 0},
		{sizes: []int{1 << 31, 1 << 31}, n: 1 << 62},
		{sizes: []int{2, -1}, kind: errs.Value, msg: "Trying to create tensor with negative dimension -1: [2, -1]"},
		{sizes: []int{1 << 32, 1 << 32}, kind: errs.Shape, msg: "Storage size calculation overflowed with sizes=[4294967296, 4294967296]"},
		{sizes: []int{0, 1 << 32, 1 << 32}, kind: errs.Shape, msg: "Stride calculation overflowed with sizes=[0, 4294967296, 4294967296]"},
	} {
		n, err := CheckSizes("empty", c.sizes)
		if c.msg == "" {
			if err != nil || n != c.n {
				t.Errorf("CheckSizes(%v) = %d, %v; want %d", c.sizes, n, err, c.n)
			}
			continue
		}
		checkErr(t, Format(c.sizes), err, c.kind, c.msg)
	}
	if _, err := Bytes("empty", []int{1 << 62}, 4); err == nil {
		t.Error("Bytes of 2^62 float32s did not overflow")
	}
	if b, err := Bytes("empty", []int{1 << 60}, 4); err != nil || b != 1<<62 {
		t.Errorf("Bytes of 2^60 float32s = %d, %v", b, err)
	}
}

func TestCheckView(t *testing.T) {
	for _, c := range []struct {
		name string
		l    Layout
		n    int // storage elements
		kind errs.Kind
		msg  string
	}{
		{name: "fits", l: lay([]int{2, 2}, []int{2, 1}, 0), n: 4},
		{name: "last element", l: lay([]int{1}, []int{MaxStride}, 3), n: 4},
		{name: "empty anywhere", l: lay([]int{0, 1 << 40}, []int{1, 1}, MaxStride), n: 0},
		{name: "expanded", l: lay([]int{1 << 60, 4}, []int{0, 1}, 0), n: 4},
		{name: "past the end", l: lay([]int{2, 2}, []int{2, 1}, 1), n: 4, kind: errs.Index,
			msg: "requiring a storage size of 5 elements are out of bounds for storage of 4 elements"},
		{name: "numel overflow", l: lay([]int{1 << 62, 4}, []int{0, 1}, 0), n: 4, kind: errs.Shape, msg: "numel: integer multiplication overflow"},
		{name: "span overflow", l: lay([]int{32}, []int{1 << 59}, 0), n: 4, kind: errs.Shape, msg: "Storage size calculation overflowed"},
		{name: "negative stride", l: lay([]int{2}, []int{-1}, 1), n: 4, kind: errs.Value, msg: "strides must be in"},
		{name: "huge stride", l: lay([]int{1}, []int{MaxStride + 1}, 0), n: 4, kind: errs.Value, msg: "strides must be in"},
		{name: "negative offset", l: lay([]int{1}, []int{1}, -1), n: 4, kind: errs.Value, msg: "invalid storage offset -1"},
		{name: "negative size", l: lay([]int{-1}, []int{1}, 0), n: 4, kind: errs.Value, msg: "sizes must be non-negative"},
	} {
		err := CheckView("as_strided", c.l, c.n)
		if c.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(e.Msg, c.msg) || e.Op != "as_strided" {
			t.Errorf("%s: got %v, want a %s error containing %q", c.name, err, c.kind, c.msg)
		}
	}
}
