package dtype

import (
	"math"
	"testing"
)

// fuzzDType maps a fuzzer byte to one of the ten dtypes.
func fuzzDType(b byte) DType { return All[int(b)%len(All)] }

// FuzzPromote checks the algebra of Promote that ResultState and the ops
// rely on. The PyTorch table (TestPromoteMatchesTorch) pins every value;
// these laws say why the table must look the way it does, and hold for any
// future dtype too.
func FuzzPromote(f *testing.F) {
	for _, s := range [][3]byte{
		{byte(Uint8 - 1), byte(Int8 - 1), byte(Float16 - 1)}, // uint8 with int8 is int16
		{byte(Float16 - 1), byte(BFloat16 - 1), byte(Int64 - 1)},
		{byte(Bool - 1), byte(Int64 - 1), byte(Float64 - 1)},
		{0, 0, 0},
		{9, 8, 7},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, x, y, z byte) {
		a, b, c := fuzzDType(x), fuzzDType(y), fuzzDType(z)
		ab := Promote(a, b)
		if !ab.Valid() {
			t.Fatalf("Promote(%v, %v) = %v", a, b, ab)
		}
		if ba := Promote(b, a); ab != ba {
			t.Errorf("Promote(%v, %v) = %v but Promote(%v, %v) = %v", a, b, ab, b, a, ba)
		}
		if aa := Promote(a, a); aa != a {
			t.Errorf("Promote(%v, %v) = %v", a, a, aa)
		}
		// Invalid is the identity: ResultState starts every rank at Invalid.
		if ai := Promote(a, Invalid); ai != a {
			t.Errorf("Promote(%v, Invalid) = %v", a, ai)
		}
		if ia := Promote(Invalid, a); ia != a {
			t.Errorf("Promote(Invalid, %v) = %v", a, ia)
		}
		// ResultState folds operands one at a time, so only an associative
		// Promote makes its result independent of the operands' order.
		if l, r := Promote(ab, c), Promote(a, Promote(b, c)); l != r {
			t.Errorf("Promote(Promote(%v, %v), %v) = %v but Promote(%v, Promote(%v, %v)) = %v", a, b, c, l, a, b, c, r)
		}
		if cat := max(a.Category(), b.Category()); ab.Category() != cat {
			t.Errorf("Promote(%v, %v) = %v of category %d, want %d", a, b, ab, ab.Category(), cat)
		}
		// Within the winning category the wider type wins: promotion never
		// narrows an operand of the result's category.
		for _, o := range []DType{a, b} {
			if o.Category() == ab.Category() && ab.Size() < o.Size() {
				t.Errorf("Promote(%v, %v) = %v is narrower than %v", a, b, ab, o)
			}
		}
		// An op may write either operand into the promoted dtype (the
		// category only goes up), and an output of dtype c can take the
		// promoted result exactly when it can take each operand: CanCast
		// is decided by category, and the result's category is the max.
		if !CanCast(a, ab) || !CanCast(b, ab) {
			t.Errorf("CanCast(%v, %v) = %v, CanCast(%v, %v) = %v", a, ab, CanCast(a, ab), b, ab, CanCast(b, ab))
		}
		if got, want := CanCast(ab, c), CanCast(a, c) && CanCast(b, c); got != want {
			t.Errorf("CanCast(Promote(%v, %v) = %v, %v) = %v, but the operands give %v", a, b, ab, c, got, want)
		}
		if got, want := CanCast(a, c), a.Category() <= c.Category(); got != want {
			t.Errorf("CanCast(%v, %v) = %v, want %v (category %d to %d)", a, c, got, want, a.Category(), c.Category())
		}
	})
}

// fuzzOperands decodes up to 8 operands from data, two bytes each: the
// dtype, and in the other byte the rank (dimensioned with 1 to 3 dims,
// 0-dim, or a wrapped scalar, which goten makes float64, int64 or bool).
func fuzzOperands(data []byte) []operand {
	var ops []operand
	for len(data) >= 2 && len(ops) < 8 {
		d, r := fuzzDType(data[0]), data[1]
		data = data[2:]
		switch r % 3 {
		case 0:
			ops = append(ops, operand{d, 1 + int(r/3)%3, false})
		case 1:
			ops = append(ops, operand{d, 0, false})
		default:
			switch d.Category() {
			case CatBool:
				d = Bool
			case CatInt:
				d = Int64
			default:
				d = Float64
			}
			ops = append(ops, operand{d, 0, true})
		}
	}
	return ops
}

// rank orders the kinds of operand as result_type does: dimensioned
// tensors above 0-dim tensors above wrapped scalars.
func (o operand) rank() int {
	switch {
	case o.wrapped:
		return 0
	case o.ndim == 0:
		return 1
	}
	return 2
}

// category is the operand's category as promotion sees it.
func (o operand) category() Category { return o.d.Category() }

// FuzzResultState checks laws of torch.result_type that ResultState must
// keep for any operands: the order of the operands does not matter, only
// whether a tensor has dims (not how many) does, repeating an operand
// changes nothing, the result's category is the highest among the operands,
// and a lower-ranked operand whose category is no higher than those ranked
// above it does not change the result (PyTorch's rule that 0-dim tensors and
// scalars only count when they bring a higher category).
func FuzzResultState(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte{byte(Uint8 - 1), 0, byte(Float64 - 1), 2}, []byte{1})                          // uint8 tensor, float scalar
	f.Add([]byte{byte(Int32 - 1), 0, byte(Float16 - 1), 1, byte(Float64 - 1), 1}, []byte{2, 1}) // int32, 0-dim f16, 0-dim f64
	f.Add([]byte{byte(Bool - 1), 0, byte(Int8 - 1), 1, byte(Uint8 - 1), 1, 0, 2}, []byte{3, 0, 1})
	f.Add([]byte{byte(Float64 - 1), 2, byte(Float64 - 1), 2, byte(Bool - 1), 2}, []byte{})
	f.Fuzz(func(t *testing.T, data, perm []byte) {
		ops := fuzzOperands(data)
		want := resultOf(ops)
		if len(ops) == 0 {
			if want != Invalid {
				t.Fatalf("no operands gave %v", want)
			}
			return
		}
		if !want.Valid() {
			t.Fatalf("%v gave %v", ops, want)
		}

		// any order: a Fisher-Yates shuffle driven by perm
		shuffled := append([]operand(nil), ops...)
		for i := len(shuffled) - 1; i > 0; i-- {
			j := 0
			if len(perm) > 0 {
				j = int(perm[0]) % (i + 1)
				perm = perm[1:]
			}
			shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
		}
		if got := resultOf(shuffled); got != want {
			t.Errorf("%v gave %v but %v gave %v", ops, want, shuffled, got)
		}

		// only ndim > 0 matters (PyTorch tests tensor.dim() > 0)
		flat := append([]operand(nil), ops...)
		for i := range flat {
			if flat[i].ndim > 1 {
				flat[i].ndim = 1
			}
		}
		if got := resultOf(flat); got != want {
			t.Errorf("%v gave %v but %v gave %v", ops, want, flat, got)
		}

		// repeating an operand
		if got := resultOf(append(append([]operand(nil), ops...), ops[len(ops)/2])); got != want {
			t.Errorf("%v gave %v but repeating %v gave %v", ops, want, ops[len(ops)/2], got)
		}

		// the result's category is the highest; a wrapped float counts as a float
		var cat Category
		for _, o := range ops {
			cat = max(cat, o.category())
		}
		if want.Category() != cat {
			t.Errorf("%v gave %v, want category %d", ops, want, cat)
		}

		// a dimensioned-only set of operands is a plain fold of Promote
		dimmed := append([]operand(nil), ops...)
		fold := Invalid
		for i := range dimmed {
			dimmed[i].ndim, dimmed[i].wrapped = 1, false
			fold = Promote(fold, dimmed[i].d)
		}
		if got := resultOf(dimmed); got != fold {
			t.Errorf("%v as dimensioned tensors gave %v, Promote gives %v", ops, got, fold)
		}

		// dropping a lower-ranked operand whose category is at most that
		// of the operands ranked above it
		for i, o := range ops {
			var above Category
			found := false
			for _, p := range ops {
				if p.rank() > o.rank() {
					above = max(above, p.category())
					found = true
				}
			}
			if !found || o.category() > above {
				continue
			}
			rest := append(append([]operand(nil), ops[:i]...), ops[i+1:]...)
			if got := resultOf(rest); got != want {
				t.Errorf("%v gave %v, but without %v (category %d, operands above reach %d) %v", ops, want, o, o.category(), above, got)
			}
		}
	})
}

// float32 seeds for the 16-bit conversion targets: zeros, the smallest and
// largest values of each format and of float32, the overflow and underflow
// ties, NaNs (quiet, signalling, negative) and infinities.
var float32Seeds = []uint32{
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000,
	0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, // 65504, just below 65520, 65520, above, 65536
	0xc77ff000, 0xc7800000, 0xf0000000, // negative overflows
	0x33000000, 0x33000001, 0x33800000, 0x33c00000, 0x387fc000, // 2^-25, just above, 2^-24, 1.5*2^-24, largest half subnormal
	0x3f801000, 0x3f803000, 0x3f808000, 0x3f818000, // half and bfloat16 ties
	0x7f7f7fff, 0x7f7f8000, 0x7f7fffff, // around the bfloat16 overflow tie
	0x00000001, 0x807fffff, // float32 subnormals
	0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001,
}

// FuzzHalfFromFloat32 checks that HalfFromFloat32 rounds any float32 to the
// nearest float16 with ties to even (see checkRound), and that the result
// converts back exactly: Float32 then HalfFromFloat32 is the identity on
// every non-NaN result.
func FuzzHalfFromFloat32(f *testing.F) {
	for _, s := range float32Seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bits uint32) {
		x := math.Float32frombits(bits)
		if msg := checkHalf(x); msg != "" {
			t.Fatal(msg)
		}
		h := HalfFromFloat32(x)
		if halfFormat.isNaN(uint16(h)) {
			return
		}
		if back := HalfFromFloat32(h.Float32()); back != h {
			t.Fatalf("HalfFromFloat32(%#04x.Float32() = %g) = %#04x", h, h.Float32(), back)
		}
	})
}

// FuzzBF16FromFloat32 is FuzzHalfFromFloat32 for bfloat16.
func FuzzBF16FromFloat32(f *testing.F) {
	for _, s := range float32Seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bits uint32) {
		x := math.Float32frombits(bits)
		if msg := checkBF16(x); msg != "" {
			t.Fatal(msg)
		}
		b := BF16FromFloat32(x)
		if bf16Format.isNaN(uint16(b)) {
			return
		}
		if back := BF16FromFloat32(b.Float32()); back != b {
			t.Fatalf("BF16FromFloat32(%#04x.Float32() = %g) = %#04x", b, b.Float32(), back)
		}
	})
}
