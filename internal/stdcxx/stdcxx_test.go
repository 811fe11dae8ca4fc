package stdcxx

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// reference is testdata/libstdcxx.json, printed by testdata/gen.cc with
// GCC 12's libstdc++.
type reference struct {
	Sort []struct {
		Values      []string
		Order       []int
		Comparisons int
		Heap        bool // the heap sort alone (std::partial_sort)
	}
	Set []struct {
		Float32 bool
		Values  []string
		Order   []string
	}
}

func readReference(t *testing.T) reference {
	t.Helper()
	b, err := os.ReadFile("testdata/libstdcxx.json")
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Sort) == 0 || len(r.Set) == 0 {
		t.Fatal("reference holds no cases")
	}
	return r
}

func decodeBits(t *testing.T, hex []string) []float64 {
	t.Helper()
	v := make([]float64, len(hex))
	for i, h := range hex {
		b, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		v[i] = math.Float64frombits(b)
	}
	return v
}

// TestSortFollowsLibstdcxx replays std::sort over values with NaNs and over
// McIlroy's adversary inputs (which drive it to the heap sort), and the
// heap sort alone over values with NaNs: the same final order and the same
// number of comparisons.
func TestSortFollowsLibstdcxx(t *testing.T) {
	heap := false
	onHeapSort = func() { heap = true }
	defer func() { onHeapSort = nil }()
	for i, c := range readReference(t).Sort {
		v := decodeBits(t, c.Values)
		order := make([]int, len(v))
		for k := range order {
			order[k] = k
		}
		count := 0
		less := func(a, b int) bool { count++; return v[a] < v[b] }
		if c.Heap {
			heapSort(order, less)
		} else {
			Sort(order, less)
		}
		if !slices.Equal(order, c.Order) || count != c.Comparisons {
			t.Errorf("case %d (n=%d): order %v after %d comparisons, libstdc++ %v after %d",
				i, len(v), order, count, c.Order, c.Comparisons)
		}
	}
	if !heap {
		t.Error("no case reached the heap sort")
	}
}

// TestHashSetFollowsLibstdcxx replays unordered_set<double> and
// unordered_set<float> built from ranges with NaNs, zeros of both signs and
// repeats: the same elements (bit for bit) in the same iteration order.
func TestHashSetFollowsLibstdcxx(t *testing.T) {
	for i, c := range readReference(t).Set {
		v := decodeBits(t, c.Values)
		if c.Float32 {
			for k, x := range v {
				v[k] = float64(float32(x))
			}
		}
		set := NewHashSet()
		first := []int{-1}
		for k, x := range v {
			code := HashFloat64(math.Float64bits(x))
			if c.Float32 {
				code = HashFloat32(math.Float32bits(float32(x)))
			}
			if _, added := set.Insert(code, func(node int) bool { return v[first[node]] == x }); added {
				first = append(first, k)
			}
		}
		var got []uint64
		for _, node := range set.Nodes() {
			got = append(got, math.Float64bits(v[first[node]]))
		}
		want := decodeBits(t, c.Order)
		if !slices.EqualFunc(got, want, func(g uint64, w float64) bool { return g == math.Float64bits(w) }) {
			t.Errorf("case %d (n=%d, float32 %v): order %x, libstdc++ %v", i, len(v), c.Float32, got, c.Order)
		}
	}
}

func TestHashBytes(t *testing.T) {
	// std::hash of these values with GCC 12's libstdc++
	for _, c := range []struct {
		got, want uint64
	}{
		{HashFloat64(math.Float64bits(1)), 8386164645967068059},
		{HashFloat64(0x7ff8000000000000), 17191427568840931130}, // C's NAN
		{HashFloat32(math.Float32bits(1)), 6045349164495482701},
		{HashFloat32(math.Float32bits(-2.5)), 18010631806412126870},
		{HashFloat64(math.Float64bits(math.Copysign(0, -1))), 0},
		{HashFloat32(0), 0},
	} {
		if c.got != c.want {
			t.Errorf("hash %d, libstdc++ %d", c.got, c.want)
		}
	}
}
