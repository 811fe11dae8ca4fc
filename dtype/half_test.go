package dtype

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"
)

// format16 describes a 16-bit binary float (sign, exponent, mantissa), so
// that the tests decode Half and BF16 from the IEEE layout alone rather
// than through the Float32 methods they check.
type format16 struct {
	name     string
	expBits  uint
	mantBits uint
	bias     int
	infBits  uint16    // the bit pattern of +Inf
	mags     []float64 // magnitude of every pattern from 0 to +Inf, for the sweeps' speed
}

func newFormat16(name string, expBits, mantBits uint, bias int) *format16 {
	f := &format16{name: name, expBits: expBits, mantBits: mantBits, bias: bias}
	f.infBits = uint16((1<<expBits - 1) << mantBits)
	f.mags = make([]float64, int(f.infBits)+1)
	for m := range f.mags {
		f.mags[m] = f.decodeMagnitude(uint16(m))
	}
	return f
}

var (
	halfFormat = newFormat16("float16", 5, 10, 15)
	bf16Format = newFormat16("bfloat16", 8, 7, 127)
)

const sign16 = 0x8000

// inf is the bit pattern of +Inf.
func (f *format16) inf() uint16 { return f.infBits }

// isNaN reports whether bits is a NaN: all-ones exponent, nonzero mantissa.
func (f *format16) isNaN(bits uint16) bool { return bits&^sign16 > f.infBits }

// magnitude returns the value of the non-negative pattern m (sign bit clear,
// m <= inf) exactly as a float64; see decodeMagnitude.
func (f *format16) magnitude(m uint16) float64 { return f.mags[m] }

// decodeMagnitude computes magnitude from the fields of m. +Inf counts as
// 2^(emax+1), the next power of two after the largest finite value: IEEE
// rounds to nearest as if the exponent were unbounded and then overflows,
// so that is where the midpoint between the largest finite value and Inf
// lies.
func (f *format16) decodeMagnitude(m uint16) float64 {
	exp := int(m >> f.mantBits)
	mant := int64(m & (1<<f.mantBits - 1))
	if exp == 0 { // zero or subnormal: no implicit bit, exponent of 1
		return math.Ldexp(float64(mant), 1-f.bias-int(f.mantBits))
	}
	return math.Ldexp(float64(mant|1<<f.mantBits), exp-f.bias-int(f.mantBits))
}

// value returns bits as a float64: exact, signed zeros and infinities kept.
func (f *format16) value(bits uint16) float64 {
	m := bits &^ sign16
	var v float64
	switch {
	case f.isNaN(bits):
		return math.NaN()
	case m == f.inf():
		v = math.Inf(1)
	default:
		v = f.magnitude(m)
	}
	if bits&sign16 != 0 {
		v = math.Copysign(v, -1)
	}
	return v
}

// checkRound returns "" if got is the correctly rounded 16-bit value of x
// (nearest, ties to even), or what is wrong. NaN must give a NaN, and the
// sign of got must be the sign of x, for zeros and underflows too.
//
// Rather than comparing the distances from x to got and to got's two
// neighbours, it compares x with the midpoints between them, which is the
// same test (x is nearer to got than to a neighbour exactly when x is on
// got's side of their midpoint) and exact without further argument: a
// midpoint of two 16-bit values has at most 12 significant bits and is
// exact in float64, as is x, while a distance such as 2^100 - 2^16 (to Inf
// counted as 2^16) is not, and a rounded distance can turn into a tie.
func (f *format16) checkRound(x float32, got uint16) string {
	if x != x {
		if !f.isNaN(got) {
			return fmt.Sprintf("NaN gave non-NaN %#04x", got)
		}
		return ""
	}
	if f.isNaN(got) {
		return fmt.Sprintf("gave NaN %#04x", got)
	}
	if (got&sign16 != 0) != math.Signbit(float64(x)) {
		return fmt.Sprintf("gave %#04x of the wrong sign", got)
	}
	m := got &^ sign16
	ax := math.Abs(float64(x))
	v := f.magnitude(m)
	if m > 0 { // the neighbour below
		mid := (f.magnitude(m-1) + v) / 2
		if ax < mid || (ax == mid && m&1 != 0) {
			return fmt.Sprintf("gave %#04x (%g), nearer (or the even tie) is %#04x (%g)", got, f.value(got), got-1, f.value(got-1))
		}
	}
	if m < f.inf() { // the neighbour above
		mid := (v + f.magnitude(m+1)) / 2
		if ax > mid || (ax == mid && m&1 != 0) {
			return fmt.Sprintf("gave %#04x (%g), nearer (or the even tie) is %#04x (%g)", got, f.value(got), got+1, f.value(got+1))
		}
	}
	return ""
}

// checkHalf checks HalfFromFloat32(x) with checkRound.
func checkHalf(x float32) string {
	if msg := halfFormat.checkRound(x, uint16(HalfFromFloat32(x))); msg != "" {
		return fmt.Sprintf("HalfFromFloat32(%g = %#08x) %s", x, math.Float32bits(x), msg)
	}
	return ""
}

// checkBF16 checks BF16FromFloat32(x) with checkRound.
func checkBF16(x float32) string {
	if msg := bf16Format.checkRound(x, uint16(BF16FromFloat32(x))); msg != "" {
		return fmt.Sprintf("BF16FromFloat32(%g = %#08x) %s", x, math.Float32bits(x), msg)
	}
	return ""
}

// TestHalfAllPatterns checks every float16 bit pattern: Float32 gives its
// exact value (decoded independently from the bits; signed zeros and
// infinities included), a NaN gives a NaN, and converting back gives the
// same bits for every non-NaN, since an exact value must round to itself.
func TestHalfAllPatterns(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := Half(i)
		f := h.Float32()
		want := halfFormat.value(uint16(h))
		if halfFormat.isNaN(uint16(h)) {
			if f == f {
				t.Errorf("Half(%#04x).Float32() = %g, want NaN", i, f)
			}
			if back := HalfFromFloat32(f); !halfFormat.isNaN(uint16(back)) {
				t.Errorf("HalfFromFloat32(Half(%#04x).Float32()) = %#04x, want NaN", i, back)
			}
			continue
		}
		if float64(f) != want || math.Signbit(float64(f)) != math.Signbit(want) {
			t.Errorf("Half(%#04x).Float32() = %g, want %g", i, f, want)
		}
		if back := HalfFromFloat32(f); back != h {
			t.Errorf("HalfFromFloat32(Half(%#04x).Float32()) = %#04x", i, back)
		}
	}
}

// TestBF16AllPatterns is TestHalfAllPatterns for bfloat16.
func TestBF16AllPatterns(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		b := BF16(i)
		f := b.Float32()
		want := bf16Format.value(uint16(b))
		if bf16Format.isNaN(uint16(b)) {
			if f == f {
				t.Errorf("BF16(%#04x).Float32() = %g, want NaN", i, f)
			}
			if back := BF16FromFloat32(f); !bf16Format.isNaN(uint16(back)) {
				t.Errorf("BF16FromFloat32(BF16(%#04x).Float32()) = %#04x, want NaN", i, back)
			}
			continue
		}
		if float64(f) != want || math.Signbit(float64(f)) != math.Signbit(want) {
			t.Errorf("BF16(%#04x).Float32() = %g, want %g", i, f, want)
		}
		if back := BF16FromFloat32(f); back != b {
			t.Errorf("BF16FromFloat32(BF16(%#04x).Float32()) = %#04x", i, back)
		}
	}
}

// TestRoundingAtMidpoints converts, for every pair of adjacent 16-bit
// values of either sign, the float32 midpoint between them and the float32
// values just either side of it. Ties are where round-to-even and the
// carry into the exponent (up to Inf) are decided, and a sparse sweep
// meets them rarely; every midpoint is exact in float32 (12 significant
// bits, and no smaller than 2^-25 for float16 or 2^-134 for bfloat16).
func TestRoundingAtMidpoints(t *testing.T) {
	for _, c := range []struct {
		f     *format16
		check func(float32) string
	}{{halfFormat, checkHalf}, {bf16Format, checkBF16}} {
		errors := 0
		for m := uint16(0); m < c.f.inf(); m++ {
			mid := (c.f.magnitude(m) + c.f.magnitude(m+1)) / 2
			x := float32(mid)
			if float64(x) != mid {
				t.Fatalf("%s midpoint %g is not a float32", c.f.name, mid)
			}
			for _, y := range []float32{x, math.Nextafter32(x, 0), math.Nextafter32(x, float32(math.Inf(1)))} {
				for _, s := range []float32{y, -y} {
					if msg := c.check(s); msg != "" {
						t.Error(msg)
						if errors++; errors > 20 {
							t.Fatal("too many errors")
						}
					}
				}
			}
		}
	}
}

// sweepStride is the step through the 2^32 float32 bit patterns: odd, so
// that every low-bit residue (the bits rounding looks at) comes up, and
// large enough to keep the sweep well under a second.
const sweepStride = 97

// TestRoundingSweep checks both conversions on every sweepStride-th float32
// bit pattern, which covers every exponent, both signs, NaNs, infinities and
// float32 subnormals.
func TestRoundingSweep(t *testing.T) {
	workers := runtime.GOMAXPROCS(0)
	const total = 1 << 32
	msgs := make([][]string, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// worker w takes the w-th slice of the strided sequence
			n := (total + sweepStride - 1) / sweepStride
			lo, hi := n*w/workers, n*(w+1)/workers
			for i := lo; i < hi; i++ {
				x := math.Float32frombits(uint32(i * sweepStride))
				for _, msg := range [2]string{checkHalf(x), checkBF16(x)} {
					if msg != "" && len(msgs[w]) < 10 {
						msgs[w] = append(msgs[w], msg)
					}
				}
			}
		}(w)
	}
	wg.Wait()
	for _, ms := range msgs {
		for _, m := range ms {
			t.Error(m)
		}
	}
}

// TestCheckRoundCatches makes sure checkRound can fail: off-by-one results,
// a tie rounded to odd, a lost sign and a non-NaN for NaN must all be caught,
// or the sweeps above would prove nothing.
func TestCheckRoundCatches(t *testing.T) {
	f := halfFormat
	for _, c := range []struct {
		x   float32
		got uint16
	}{
		{1, 0x3c01},                             // 1 is 0x3c00
		{1, 0x3bff},                             // one below
		{1 + 1.0/2048, 0x3c01},                  // the tie between 0x3c00 and 0x3c01 goes to the even 0x3c00
		{1 + 3.0/2048, 0x3c01},                  // the tie between 0x3c01 and 0x3c02 goes to 0x3c02
		{65520, 0x7bff},                         // the tie between 65504 and the overflow goes to Inf
		{65519, 0x7c00},                         // below the tie: 65504
		{float32(math.Copysign(0, -1)), 0x0000}, // -0 must stay -0
		{-1, 0x3c00},                            // the sign is kept
		{float32(math.NaN()), 0x7c00},           // NaN is not Inf
		{float32(math.Inf(1)), 0x7e00},          // Inf is not NaN
		{0x1p-25, 0x0001},                       // the tie between 0 and 2^-24 goes to 0
		{math.Nextafter32(0x1p-25, 1), 0x0000},  // just past it: 2^-24
	} {
		if f.checkRound(c.x, c.got) == "" {
			t.Errorf("checkRound(%g, %#04x) accepted a wrong result", c.x, c.got)
		}
	}
	if bf16Format.checkRound(1+1.0/256, 0x3f81) == "" {
		t.Errorf("bfloat16 tie to odd accepted")
	}
}

// TestRound checks Round: to nearest even in each float dtype, the 16-bit
// ones through float32; unchanged for float64 and the rest.
func TestRound(t *testing.T) {
	for _, c := range []struct {
		d       DType
		x, want float64
	}{
		{BFloat16, 1 + 1.0/256, 1},           // a tie, to the even 1
		{BFloat16, 1 + 3.0/256, 1 + 4.0/256}, // a tie, to the even 1 + 2^-6
		{Float16, 1 + 1.0/2048, 1},
		{Float32, 0.1, float64(float32(0.1))},
		{Float64, 0.1, 0.1},
		{Int32, 2.5, 2.5},
	} {
		if got := Round(c.d, c.x); got != c.want {
			t.Errorf("Round(%v, %v) = %v, want %v", c.d, c.x, got, c.want)
		}
	}
}
