package tensor_test

import (
	"math"
	"testing"

	. "github.com/goten-ml/goten/tensor"
)

// sumOrderValues returns element i of a sum-order case's contiguous base
// (tools/confgen/sum_order.py's values): spread magnitudes, ±1.7e308
// (float64) or ±3e38 (float32) at every 11th element when extreme, NaN at
// every 13th when nan.
func sumOrderValues(n int, dt DType, extreme, nan bool) *Tensor {
	big := 1.7e308
	if dt == Float32 {
		big = 3e38
	}
	v := make([]float64, n)
	for i := range v {
		x := float64((7919*i+13)%1009-504) / 64 * math.Pow(10, float64((i*7)%9-4))
		switch {
		case extreme && i%11 == 3:
			x = big
		case extreme && i%11 == 7:
			x = -big
		case nan && i%13 == 5:
			x = math.NaN()
		}
		v[i] = x
	}
	return FromSlice(v, n).To(dt)
}

// TestSumOrder: float32 and float64 sums, nansums and means of at most
// 4096 elements add in PyTorch 1.13's order (Note [PyTorch's summation
// order] in backend/cpu), so that their bits are PyTorch's, rounding,
// overflow to ±Inf, NaN from Inf - Inf and -0.0 included, over layouts
// that reach each of its loops. The expectations are torch's
// (tools/confgen/sum_order.py). The reference backend adds in its own
// order: these bits are the CPU's.
func TestSumOrder(t *testing.T) {
	for _, c := range []struct {
		name               string
		dt                 DType
		base, perm         []int
		step               int
		op                 string
		dims               []int
		keep, extreme, nan bool
		want               []uint64
	}{
		{"rows of vectors", Float32, []int{8, 40}, []int{0, 1}, 1, "sum", []int{1}, false, false, false, []uint64{0xc6c35dc7, 0xc6cef548, 0x47d0f4f4, 0xc7b4e8ed, 0x47ba7799, 0xc5313280, 0xc7af9c26, 0x47afaa71}},
		{"rows of vectors", Float64, []int{8, 40}, []int{0, 1}, 1, "sum", []int{1}, false, false, false, []uint64{0xc0d86bb93e7d566d, 0xc0d9dea8c15b573c, 0x40fa1e9e5bbb2fec, 0xc0f69d1d9f958106, 0x40f74ef300adaba0, 0xc0a6264ea92a305b, 0xc0f5f384d53f7cef, 0x40f5f54e2e9c779a}},
		{"columns, one vector wide", Float32, []int{40, 8}, []int{0, 1}, 1, "sum", []int{0}, false, false, false, []uint64{0xc8088617, 0x47c0e1eb, 0x47405e68, 0xc84ef418, 0x484b132c, 0xc76b89c5, 0xc7655d1b, 0x482651f4}},
		{"columns, four vectors and more", Float32, []int{40, 36}, []int{0, 1}, 1, "sum", []int{0}, false, false, false, []uint64{0xbb0ef34e, 0x4607be00, 0x42992000, 0xbf6a0004, 0x3bb74bc8, 0x47323900, 0xc498ee00, 0x40200000, 0x3e307ae2, 0x38378050, 0xc4147000, 0xc1820000, 0xbe880000, 0xbb71a9f8, 0x47d7c260, 0x447a6400, 0x410fc000, 0x3da2e148, 0x3a3573ea, 0xc61a4c00, 0xc2da2000, 0x3ffaccce, 0x3b374bc2, 0xc808b800, 0x44ce4000, 0xbe980000, 0xbe2f0a3e, 0xb97765f0, 0xc553ea00, 0xc230e000, 0xbf0b999b, 0xbbd47ae4, 0xc792ca20, 0xc455ac00, 0x40c60000, 0x3d533338}},
		{"columns, four vectors and more", Float64, []int{40, 20}, []int{0, 1}, 1, "sum", []int{0}, false, false, false, []uint64{0x40f0d00b6af1a9fc, 0x40f7f4d3c1566cf4, 0x40ea5c333ce703b0, 0x40d320747a4a8c14, 0x40d1208140624dd6, 0xc0e2441c55e00d1e, 0x40cf1f8362eb1c3d, 0x40afecb3aacd9e90, 0x40d0fe0a6e90ff97, 0xc0c4a694205bc018, 0xc0e5740a106f6944, 0xc0d8db0bebe76c89, 0x40ebb0fd323d70a3, 0x40fdba8d43765fd8, 0xc064c8ec50481700, 0xc0ea149b914e3bcc, 0xc0f29996d23a29c8, 0xc0fec7ac18bc6a7f, 0xc0f6525f339c0ec0, 0xc0cb4cc4bcc63f0c}},
		{"strided rows", Float64, []int{6, 40}, []int{0, 1}, 2, "sum", []int{1}, false, false, false, []uint64{0x40c68eca706f6944, 0x40c5ed04f53f7cee, 0x40e11cdf3d38ef36, 0xc0d54bf25ed288cc, 0xc0c308c894538ef4, 0x40a91902e9446730}},
		{"strided columns", Float64, []int{40, 6}, []int{0, 1}, 2, "sum", []int{0}, false, false, false, []uint64{0xc053e084f0d844d0, 0x40dbdb90147ae144, 0x40902c051eb85200}},
		{"strided columns in fours", Float32, []int{100, 10}, []int{0, 1}, 2, "sum", []int{0}, false, false, false, []uint64{0x47d46bb8, 0x47d8ebe0, 0xc762d31d, 0xc78c67fa, 0xc74f58c4}},
		{"transposed, all dims", Float32, []int{3, 4, 5}, []int{0, 2, 1}, 1, "sum", []int{}, false, false, false, []uint64{0xc77205a6}},
		{"nansum of rows", Float32, []int{16, 24}, []int{0, 1}, 1, "nansum", []int{1}, false, false, true, []uint64{0x477f3121, 0xc63bbf3c, 0xc7381dee, 0x478813c4, 0x4690e71c, 0xc5e76085, 0xc76cf798, 0x473cc89b, 0x4707c5be, 0xc77b7ba5, 0xc7b93726, 0x479672d6, 0x46b9db3b, 0xc77f6b32, 0x46d51735, 0x4782a77b}},
		{"mean of columns", Float32, []int{24, 9}, []int{0, 1}, 1, "mean", []int{0}, false, false, false, []uint64{0xb7bbdeac, 0x41505555, 0x40200000, 0xbc8b3330, 0xba1a9fbf, 0x453e05d5, 0xc1396aab, 0x3df80000, 0x3b6aaaac}},
		{"mean over two dims", Float64, []int{5, 7, 3}, []int{0, 1, 2}, 1, "mean", []int{0, 2}, true, false, false, []uint64{0x40b5389077414a4d, 0xc08c674ec250720a, 0xc08846ae4f0686bc, 0xc09f0642646f1560, 0x40a3b4b83c0c1fc9, 0xc0b0c7509778572a, 0x4064370f2b020c44}},
		{"overflow in columns", Float64, []int{12, 6}, []int{0, 1}, 1, "sum", []int{0}, false, true, false, []uint64{0x0, 0xc0bc9c146b851eb8, 0xc0df79dce6666668, 0x7fee42d130773b76, 0xc0bc72d748b43958, 0x0}},
		{"overflow in rows", Float32, []int{12, 10}, []int{0, 1}, 1, "sum", []int{1}, false, true, false, []uint64{0x0, 0x43bcf6b3, 0xbd8934d6, 0x7f61b1e6, 0x0, 0x452abd30, 0xc53fe763, 0xff61b1e6, 0x47928ebf, 0xc28fa800, 0x3d3a3d71, 0x0}},
		{"overflow in blocks", Float64, []int{4, 3, 20}, []int{0, 1, 2}, 1, "sum", []int{0, 2}, false, true, false, []uint64{0xfff0000000000000, 0x7ff0000000000000, 0xc0dfe9cd13055327}},
		{"a dim of size 1, transposed", Float64, []int{3, 1, 5}, []int{2, 1, 0}, 1, "nansum", []int{1}, false, false, true, []uint64{0xbf4923a29c779a6c, 0x0, 0xc047700000000000, 0x40b6472000000000, 0xc083880000000000, 0xc038600000000000, 0x4040900000000000, 0x401c800000000000, 0xbfdee66666666667, 0x3fb799999999999a, 0x3fa83d70a3d70a3e, 0xbf7d916872b020c5, 0xbf5810624dd2f1aa, 0x3f2eb851eb851eb9, 0x40ee0f5000000000}},
		{"levels of columns", Float32, []int{120, 33}, []int{0, 1}, 1, "sum", []int{0}, false, false, false, []uint64{0x46790c81, 0x47a01139, 0xc8373d6a, 0xc632e1cc, 0xc7dcbee4, 0xc824adb9, 0x4610a5c8, 0x4802c038, 0x48c68cf8, 0xc5ac0e0a, 0xc810ccf1, 0xc9381dee, 0x4554a535, 0x47fe4efa, 0x497460ff, 0x43dad808, 0xc7bc2aab, 0xc9ad97b6, 0xc54ce875, 0x47779d29, 0x49b99603, 0x45aff90d, 0xc7103268, 0xc99eda73, 0xc61ba0d5, 0x45972faa, 0x498e8aca, 0x4634d74b, 0x46aff007, 0xc93ee9e0, 0xc6771d4f, 0xc7347cf5, 0x48f3ea24}},
		{"levels of a long row", Float64, []int{512, 8}, []int{0, 1}, 1, "sum", []int{}, false, false, false, []uint64{0xc0eb1b61f5cfaab4}},
		{"transposed columns", Float32, []int{20, 30}, []int{1, 0}, 1, "mean", []int{1}, false, true, false, []uint64{0xff800000, 0x7d348e52, 0x0, 0x0, 0x7d348e52, 0x0, 0x7f800000, 0x0, 0xfd348e52, 0x0, 0x42aeeeb0, 0xff800000, 0x7d348e52, 0x0, 0x0, 0x7d348e52, 0x0, 0x7f800000, 0x0, 0xfd348e52, 0x0, 0x41f11bb8, 0xff800000, 0x7d348e52, 0x0, 0x0, 0x7d348e52, 0x0, 0x7f800000, 0x0}},
		{"rows of one vector", Float32, []int{16, 8}, []int{0, 1}, 1, "sum", []int{1}, false, false, false, []uint64{0xc702c349, 0x4771ab5f, 0xc4cf16a4, 0x457c217c, 0xc759e05e, 0x471b2e70, 0xc6033ca5, 0xc7841195, 0x46e1a530, 0xc69512af, 0x4794f9e6, 0x4642c6ae, 0x45ab1881, 0xc72196a4, 0x47537803, 0x45bb6b78}},
		{"columns, exactly four vectors", Float32, []int{40, 32}, []int{0, 1}, 1, "sum", []int{0}, false, false, false, []uint64{0xc763c449, 0xc80229cd, 0x475cc22c, 0xc77fa62d, 0xc7d31795, 0x45fe654c, 0xc79166a0, 0xc70982ea, 0xc5bc327a, 0xc6e34a5c, 0xc7292cfa, 0xc6b995cc, 0x46d792e8, 0x479b5a38, 0x46aaafe6, 0x4699d472, 0x47250028, 0x46595710, 0x44e80460, 0x46d8d077, 0x47520afe, 0xc7475d6a, 0x47b6bf3f, 0x4785cc9e, 0xc7689b4a, 0x47e96aee, 0x4782c2bd, 0xc8097140, 0x47e28642, 0x45ce7fd7, 0xc800529f, 0x47f40280}},
		{"strided columns, exactly four", Float64, []int{40, 8}, []int{0, 1}, 2, "sum", []int{0}, false, false, false, []uint64{0xc10110c2e06e978e, 0x40e80bcd17ced917, 0x410962657060aa64, 0xc0ecaba35a19652a}},
	} {
		n := 1
		for _, s := range c.base {
			n *= s
		}
		x := sumOrderValues(n, c.dt, c.extreme, c.nan).Reshape(c.base...).Permute(c.perm...)
		if c.step > 1 {
			last := x.Dim() - 1
			x = x.Slice(last, 0, x.Size(last), c.step)
		}
		var o Dims
		if len(c.dims) > 0 {
			o = Over(c.dims...)
			if c.keep {
				o = o.KeepDim()
			}
		}
		var y *Tensor
		switch c.op {
		case "sum":
			y = x.Sum(o)
		case "nansum":
			y = x.NanSum(o)
		case "mean":
			y = x.Mean(o)
		}
		got := y.Contiguous().Float64s()
		if len(got) != len(c.want) {
			t.Fatalf("%s %v %s: %d results, want %d", c.name, c.dt, c.op, len(got), len(c.want))
		}
		for i, g := range got {
			var gb uint64
			w := c.want[i]
			if c.dt == Float32 {
				gb = uint64(math.Float32bits(float32(g)))
			} else {
				gb = math.Float64bits(g)
			}
			if gb != w {
				t.Errorf("%s %v %s: result %d has bits %#x, want %#x", c.name, c.dt, c.op, i, gb, w)
			}
		}
	}
}
