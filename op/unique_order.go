package op

import (
	"math"

	"github.com/goten-ml/goten/device"
	"github.com/goten-ml/goten/dtype"
	"github.com/goten-ml/goten/internal/stdcxx"
	"github.com/goten-ml/goten/optable"
	"github.com/goten-ml/goten/raw"
)

// hostFloats holds the elements of a floating tensor read on the host:
// their bits (for the hash PyTorch's set takes of them) and their values.
type hostFloats struct {
	dt     dtype.DType
	bits   []uint64
	values []float64
}

// readHostFloats copies the floating view v to the host and reads its
// elements in row-major order.
func readHostFloats(v *raw.View) (*hostFloats, error) {
	c, err := Contiguous(v)
	if err != nil {
		return nil, err
	}
	if !c.Storage.Device().IsHost() {
		if c, err = ToDevice(c, device.CPUAllocator); err != nil {
			return nil, err
		}
	}
	n := c.NumEl()
	h := &hostFloats{dt: c.DType, bits: make([]uint64, n), values: make([]float64, n)}
	switch c.DType {
	case dtype.Float64:
		for i, b := range device.Slice[uint64](c.Storage, c.ByteOffset(), n) {
			h.bits[i], h.values[i] = b, math.Float64frombits(b)
		}
	case dtype.Float32:
		for i, b := range device.Slice[uint32](c.Storage, c.ByteOffset(), n) {
			h.bits[i], h.values[i] = uint64(b), float64(math.Float32frombits(b))
		}
	default: // the 16-bit floats
		for i, b := range device.Slice[uint16](c.Storage, c.ByteOffset(), n) {
			h.bits[i], h.values[i] = uint64(b), raw.LoadFloat64(c.Storage, c.DType, c.Offset+i)
		}
	}
	return h, nil
}

// hash is the hash PyTorch's unordered_set takes of element i: std::hash
// of the float or double, and for bfloat16 PyTorch's own, the bits.
func (h *hostFloats) hash(i int) uint64 {
	switch h.dt {
	case dtype.Float64:
		return stdcxx.HashFloat64(h.bits[i])
	case dtype.Float32:
		return stdcxx.HashFloat32(uint32(h.bits[i]))
	}
	return h.bits[i]
}

// Note [Unique with NaN]
// PyTorch 1.13's unique (without dim) puts the elements in an
// std::unordered_set, copies the set out in its iteration order and sorts
// that with std::sort (Note [Orders of libstdc++]). Every NaN is an element
// of its own, so where NaNs are present the output interleaves them with
// the other values as those two steps leave them, and the inverse and
// counts of a NaN are 0: they are looked up in hash maps where a NaN finds
// nothing and reads a new entry's 0. unique along a dim sorts the slices'
// indices with std::sort under a lexicographic < that passes over a column
// where neither element is less, so NaN columns, and -0 against 0, leave
// the order to introsort's steps as well.

// orderBroken reports whether v holds a NaN or, with negZero, a -0: an
// element whose place in PyTorch's unique its containers' steps decide
// (Note [Unique with NaN]).
func orderBroken(v *raw.View, negZero bool) (bool, error) {
	m, err := Pointwise(optable.IsNan, nil, false, nil, v)
	if err != nil {
		return false, err
	}
	if negZero {
		neg, err := Pointwise(optable.Signbit, nil, false, nil, v)
		if err != nil {
			return false, err
		}
		zero, err := Pointwise(optable.Eq, nil, false, nil, v, Int(0).Wrap())
		if err != nil {
			return false, err
		}
		if neg, err = Pointwise(optable.LogicalAnd, nil, false, nil, neg, zero); err != nil {
			return false, err
		}
		if m, err = Pointwise(optable.LogicalOr, nil, false, nil, m, neg); err != nil {
			return false, err
		}
	}
	found, err := Reduce(optable.Any, m, nil, false, dtype.Invalid, nil, nil)
	if err != nil {
		return false, err
	}
	s, err := readScalar(found[0])
	return s.I != 0, err
}

// uniqueSetOrder is the order in which PyTorch's unique (without dim)
// outputs the distinct elements of h, some of which is NaN: each distinct
// element's occurrences in input order, the elements in the order
// std::sort leaves the set's iteration order in.
func uniqueSetOrder(h *hostFloats) []int {
	set := stdcxx.NewHashSet()
	first := []int{-1}      // first[node]: the element the node holds
	members := [][]int{nil} // members[node]: the elements equal to it
	for i, x := range h.values {
		node, added := set.Insert(h.hash(i), func(node int) bool { return h.values[first[node]] == x })
		if added {
			first = append(first, i)
			members = append(members, nil)
		}
		members[node] = append(members[node], i)
	}
	nodes := set.Nodes()
	stdcxx.Sort(nodes, func(a, b int) bool { return h.values[first[a]] < h.values[first[b]] })
	perm := make([]int, 0, len(h.values))
	for _, node := range nodes {
		perm = append(perm, members[node]...)
	}
	return perm
}

// uniqueDimOrder is the order in which PyTorch's unique along a dim sorts
// the n rows (of r elements) of h, some element of which is NaN or a
// negative zero (elsewhere the rows sort the same way with goten's own
// stable sort).
func uniqueDimOrder(h *hostFloats, n, r int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	stdcxx.Sort(perm, func(a, b int) bool {
		for c := 0; c < r; c++ {
			x, y := h.values[a*r+c], h.values[b*r+c]
			if x < y {
				return true
			}
			if x > y {
				return false
			}
		}
		return false
	})
	return perm
}

// indexTensor returns the int64 tensor of idx on the device of like.
func indexTensor(idx []int, like *raw.View) (*raw.View, error) {
	host := raw.New(dtype.Int64, []int{len(idx)})
	for i, x := range idx {
		host.SetInt64(i, int64(x))
	}
	return onDeviceOf(host, like)
}
