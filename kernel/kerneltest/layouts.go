package kerneltest

import (
	"fmt"

	"github.com/goten-ml/goten/iter"
)

// Note [Layouts]
//
// A layout places the output and the inputs of an elementwise kernel (a
// pointwise op or a copy) over storages of their own. Each one aims at a
// path a backend may take:
//
//   - contiguous: every operand row-major; one contiguous row.
//   - permuted: every operand the transpose of a row-major storage; the
//     plan reorders and coalesces the dims.
//   - sliced: every operand a[1:, 1::2] of a larger storage (offset and
//     strides); the output's storage has guard bands between its elements.
//   - row<k>: input k a row broadcast over the output's rows (stride 0 on
//     the outer dim).
//   - scalar<k>: input k 0-d (stride 0 everywhere): the scalar fast paths.
//   - outer: a column against a row, both broadcast.
//   - 0-d: every operand 0-d. empty: no elements. size-1: dims of size 1
//     with strides that mean nothing.
//   - long: one row above iter.GrainSize elements, which a backend may
//     split across workers (smaller in short mode).
//   - long-strided: every operand every other element of a larger storage,
//     guard bands in the output's.
//   - in-place, in-place-sliced: the output is the op's receiver input,
//     contiguous or sliced.
//   - crossed: the even inputs transposed, of at least 64 rows and
//     columns, against a row-major output (Note [Crossed operands] in
//     package iter); crossed-sliced: every input transposed, the output a
//     slice of a wider storage.
//
// Inputs may be fewer than the output's dims (broadcast) but never have
// more; the output always has the full shape.
type layout struct {
	name string
	// build returns the specs of the output and of nin inputs.
	build func(nin int) (out spec, ins []spec)
	// inPlace: the output is input receiver, laid out as out.
	inPlace bool
}

// all gives every input the same spec.
func all(out spec, in func(k int) spec) func(int) (spec, []spec) {
	return func(nin int) (spec, []spec) {
		ins := make([]spec, nin)
		for k := range ins {
			ins[k] = in(k)
		}
		return out, ins
	}
}

func same(sp spec) func(int) spec { return func(int) spec { return sp } }

// transposed is a [rows, cols] view of a row-major [cols, rows] storage.
func transposed(rows, cols int) spec {
	return spec{shape: []int{rows, cols}, strides: []int{1, rows}, size: rows * cols}
}

// sliced is a[1:, 1::2] of a row-major [4, 11] storage: shape [3, 5],
// strides [11, 2], offset 12.
func sliced() spec { return strided([]int{3, 5}, []int{11, 2}, 12, 3) }

// longSize is the length of the long layouts: above iter.GrainSize, so
// that a backend may split the row across workers, in normal mode.
func (s *suite) longSize() int {
	if s.short {
		return 1000
	}
	return iter.GrainSize + 17
}

// elementwiseLayouts returns the layouts of Note [Layouts] for a kernel of
// nin inputs.
func (s *suite) elementwiseLayouts(nin int) []layout {
	n := s.longSize()
	ls := []layout{
		{name: "contiguous", build: all(dense(3, 5), same(dense(3, 5)))},
		{name: "permuted", build: all(transposed(3, 5), same(transposed(3, 5)))},
		{name: "sliced", build: all(sliced(), same(sliced()))},
	}
	for k := 0; k < nin; k++ {
		row := strided([]int{3, 5}, []int{0, 1}, 0, 0)
		ls = append(ls,
			layout{name: fmt.Sprintf("row%d", k), build: all(dense(3, 5), func(j int) spec {
				if j == k {
					return row
				}
				return dense(3, 5)
			})},
			layout{name: fmt.Sprintf("scalar%d", k), build: all(dense(3, 5), func(j int) spec {
				if j == k {
					return dense()
				}
				return dense(3, 5)
			})})
	}
	ls = append(ls,
		layout{name: "outer", build: all(dense(3, 5), func(k int) spec {
			switch {
			case nin == 1:
				return strided([]int{3, 5}, []int{1, 0}, 0, 0) // an expanded column
			case k%2 == 0:
				return dense(3, 1)
			}
			return dense(5)
		})},
		layout{name: "0-d", build: all(dense(), same(dense()))},
		layout{name: "empty", build: all(dense(0, 4), same(dense(0, 4)))},
		layout{name: "size-1", build: all(dense(1, 3, 1, 5), same(strided([]int{1, 3, 1, 5}, []int{99, 5, 7, 1}, 0, 0)))},
		layout{name: "long", build: all(dense(n), same(dense(n)))},
		layout{name: "long-strided", build: all(strided([]int{1500}, []int{2}, 1, 1), same(strided([]int{1500}, []int{2}, 1, 1)))},
		layout{name: "in-place", inPlace: true, build: all(dense(4, 9), same(dense(4, 9)))},
		layout{name: "in-place-sliced", inPlace: true, build: all(sliced(), same(sliced()))},
		layout{name: "crossed", build: all(dense(70, 66), func(k int) spec {
			if k%2 == 0 {
				return transposed(70, 66)
			}
			return dense(70, 66)
		})},
		layout{name: "crossed-sliced", build: all(strided([]int{70, 66}, []int{72, 1}, 73, 2), same(transposed(70, 66)))},
	)
	return ls
}

// layoutNamed returns the layout of ls named name.
func layoutNamed(ls []layout, name string) layout {
	for _, l := range ls {
		if l.name == name {
			return l
		}
	}
	panic("kerneltest: no layout " + name)
}
