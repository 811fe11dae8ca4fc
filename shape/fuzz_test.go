package shape

import (
	"errors"
	"reflect"
	"testing"

	"github.com/goten-ml/goten/errs"
)

// byteReader hands out the fuzzer's bytes, then zeros.
type byteReader []byte

func (r *byteReader) next(n int) int {
	if len(*r) == 0 {
		return 0
	}
	b := (*r)[0]
	*r = (*r)[1:]
	return int(b) % n
}

// fuzzLayout builds a layout from r: contiguous, a permuted and strided
// (sliced) dense layout, or arbitrary strides (expanded, overlapping).
func fuzzLayout(r *byteReader) Layout {
	n := r.next(5)
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = r.next(5)
	}
	var strides []int
	switch r.next(3) {
	case 0:
		strides = Contiguous(sizes)
	case 1: // dims in a random memory order, each with a step of 1 or 2
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := r.next(i + 1)
			order[i], order[j] = order[j], order[i]
		}
		strides = make([]int, n)
		acc := 1
		for _, d := range order {
			step := 1 + r.next(2)
			strides[d] = acc * step
			acc *= step * max(sizes[d], 1)
		}
	default:
		strides = make([]int, n)
		for i := range strides {
			strides[i] = r.next(8)
		}
	}
	return Layout{Sizes: sizes, Strides: strides, Offset: r.next(4)}
}

// fuzzTarget returns sizes with numel elements, maybe with one -1.
func fuzzTarget(r *byteReader, numel int) []int {
	m := r.next(5)
	if numel == 0 {
		m++
		sizes := make([]int, m)
		for i := range sizes {
			sizes[i] = r.next(4)
		}
		sizes[r.next(m)] = 0
		return sizes
	}
	if m == 0 {
		if numel == 1 {
			return []int{}
		}
		m = 1
	}
	sizes := make([]int, m)
	for i := range sizes {
		sizes[i] = 1
	}
	for p := 2; numel > 1; {
		if numel%p == 0 {
			sizes[r.next(m)] *= p
			numel /= p
		} else {
			p++
		}
	}
	if r.next(4) == 0 {
		sizes[r.next(m)] = -1
	}
	return sizes
}

// addresses lists the storage offsets of l's elements in row-major order.
func addresses(l Layout) []int {
	n := l.NumEl()
	out := make([]int, 0, n)
	idx := make([]int, len(l.Sizes))
	for i := 0; i < n; i++ {
		a := l.Offset
		for k, x := range idx {
			a += x * l.Strides[k]
		}
		out = append(out, a)
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < l.Sizes[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

// FuzzView checks that a view addresses the same elements in the same
// row-major order as its input, that Reshape views exactly when View
// succeeds and otherwise asks for a contiguous copy, that contiguous inputs
// always have a view, and that inputs are never modified.
func FuzzView(f *testing.F) {
	f.Add([]byte{3, 2, 3, 4, 0, 0, 2, 6, 4})
	f.Add([]byte{3, 2, 3, 4, 1, 2, 0, 1, 1, 0, 1, 2, 3, 1})
	f.Add([]byte{2, 3, 1, 2, 0, 5, 1, 0, 3, 2, 1})
	f.Add([]byte{4, 1, 2, 1, 3, 1, 1, 0, 1, 0, 1, 0, 1, 0, 4, 1, 2, 3, 0})
	f.Add([]byte{2, 0, 3, 0, 0, 3, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := byteReader(data)
		l := fuzzLayout(&r)
		target := fuzzTarget(&r, l.NumEl())
		keep, keepTarget := l.Clone(), append([]int{}, target...)

		v, err := View(l, target)
		rl, needCopy, rerr := Reshape(l, target)
		if !reflect.DeepEqual(l, keep) || !Equal(target, keepTarget) {
			t.Fatalf("inputs modified: %v %v", l, target)
		}
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("View(%v, %v): error %T", l, target, err)
			}
			if e.Kind == errs.Value { // an ambiguous -1 over no elements
				if rerr == nil || l.NumEl() != 0 {
					t.Fatalf("View(%v, %v): %v; Reshape: %v", l, target, err, rerr)
				}
				return
			}
			if e.Kind != errs.View {
				t.Fatalf("View(%v, %v): %v", l, target, err)
			}
			if l.IsContiguous() {
				t.Fatalf("View(%v, %v) of a contiguous layout: %v", l, target, err)
			}
			if rerr != nil || !needCopy || rl.Offset != 0 || !Equal(rl.Strides, Contiguous(rl.Sizes)) {
				t.Fatalf("Reshape(%v, %v) = %v, %v, %v; want a contiguous copy", l, target, rl, needCopy, rerr)
			}
			return
		}
		if rerr != nil || needCopy || !reflect.DeepEqual(rl, v) {
			t.Fatalf("Reshape(%v, %v) = %v, %v, %v; View gave %v", l, target, rl, needCopy, rerr, v)
		}
		if len(v.Sizes) != len(target) || len(v.Strides) != len(target) || v.NumEl() != l.NumEl() {
			t.Fatalf("View(%v, %v) = %v", l, target, v)
		}
		for i, s := range target {
			if s != -1 && v.Sizes[i] != s {
				t.Fatalf("View(%v, %v) = %v", l, target, v)
			}
		}
		if got, want := addresses(v), addresses(l); !Equal(got, want) {
			t.Fatalf("View(%v, %v) = %v addresses %v, want %v", l, target, v, got, want)
		}
	})
}
