package main

// This file generates vec's SumRows8RunF32 kernel at AVX-512 (part
// reduce512): the passes of an outer float32 sum over narrow rows
// (Note [Outer streams] and [Rows in registers] in package backend/cpu)
// in one call, the float32 block and the float64 states of a few columns
// kept in registers through every pass.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// sumRun512 emits
//
//	func sumRows8RunF32AVX512(st *float64, x *float32, stride, q, cols int)
//
// sumRows8RunF32Go's loop: q passes over cols columns, pass j adding
// rows j, j+q, ..., j+7q (stride elements apart) pairwise in float32 into
// a block (set by the first pass of each eight, added to by the others),
// the block added to the float64 states after every eighth pass and after
// the last. Columns go four vectors at a time, then one at a time, the
// last under a mask of the columns left.
func sumRun512() {
	name := "sumRows8RunF32AVX512"
	TEXT(name, NOSPLIT, "func(st *float64, x *float32, stride, q, cols int)")
	Doc(name + " is sumRows8RunF32Go in assembly; see there for the exact loop.")
	Pragma("noescape")
	st, x := Load(Param("st"), GP64()), Load(Param("x"), GP64())
	rs, q, cols := Load(Param("stride"), GP64()), Load(Param("q"), GP64()), Load(Param("cols"), GP64())
	SHLQ(U8(2), rs) // bytes between passes
	qs, qs3 := GP64(), GP64()
	MOVQ(q, qs)
	IMULQ(rs, qs) // bytes between the rows of a pass
	LEAQ(Mem{Base: qs, Index: qs, Scale: 2}, qs3)
	TESTQ(q, q)
	JZ(LabelRef(name + "_done"))

	// block emits the columns' loop for nv vectors, under mask k when
	// not nil.
	block := func(label string, nv int, k reg.Register) {
		var kl, kh reg.Register
		if k != nil {
			kl, kh = K(), K()
			KMOVW(k, kl)
			KSHIFTRW(U8(8), k, kh)
		}
		load := func(m Mem, z reg.VecVirtual, mask reg.Register, pd bool) {
			switch {
			case !pd:
				loadK(m, z, mask)
			case mask == nil:
				VMOVUPD(m, z)
			default:
				VMOVUPD_Z(m, mask, z)
			}
		}
		store := func(z reg.VecVirtual, m Mem, mask reg.Register) {
			if mask == nil {
				VMOVUPD(z, m)
			} else {
				VMOVUPD(z, mask, m)
			}
		}
		s := make([][2]reg.VecVirtual, nv)
		for v := range s {
			for h := range s[v] {
				s[v][h] = ZMM()
				mask := kl
				if h == 1 {
					mask = kh
				}
				load(Mem{Base: st, Disp: 128*v + 64*h}, s[v][h], mask, true)
			}
		}
		p0, p4, left := GP64(), GP64(), GP64()
		MOVQ(x, p0)
		LEAQ(Mem{Base: p0, Index: qs, Scale: 4}, p4)
		MOVQ(q, left)
		blk := make([]reg.VecVirtual, nv)
		for v := range blk {
			blk[v] = ZMM()
		}
		// pass adds the eight rows at p0 pairwise into blk (set: to blk)
		pass := func(set bool) {
			for v := range blk {
				var a [8]reg.VecVirtual
				for r := range a {
					a[r] = ZMM()
					base := p0
					if r >= 4 {
						base = p4
					}
					m := Mem{Base: base, Disp: 64 * v}
					switch r % 4 {
					case 1:
						m.Index, m.Scale = qs, 1
					case 2:
						m.Index, m.Scale = qs, 2
					case 3:
						m.Index, m.Scale = qs3, 1
					}
					load(m, a[r], k, false)
				}
				for w := 1; w < 8; w *= 2 {
					for r := 0; r < 8; r += 2 * w {
						VADDPS(a[r+w], a[r], a[r])
					}
				}
				if set {
					VMOVAPS(a[0], blk[v])
				} else {
					VADDPS(a[0], blk[v], blk[v])
				}
			}
			ADDQ(rs, p0)
			ADDQ(rs, p4)
			DECQ(left)
		}
		flush := func() {
			for v := range blk {
				lo, hi := ZMM(), ZMM()
				VCVTPS2PD(blk[v].AsY(), lo)
				y := YMM()
				VEXTRACTF32X8(U8(1), blk[v], y)
				VCVTPS2PD(y, hi)
				VADDPD(lo, s[v][0], s[v][0])
				VADDPD(hi, s[v][1], s[v][1])
			}
		}
		t := GP64()
		Label(label + "_group")
		pass(true)
		MOVQ(U32(7), t)
		Label(label + "_pass")
		TESTQ(left, left)
		JZ(LabelRef(label + "_last"))
		TESTQ(t, t)
		JZ(LabelRef(label + "_flush"))
		pass(false)
		DECQ(t)
		JMP(LabelRef(label + "_pass"))
		Label(label + "_flush")
		flush()
		JMP(LabelRef(label + "_group"))
		Label(label + "_last")
		flush()
		for v := range s {
			for h := range s[v] {
				mask := kl
				if h == 1 {
					mask = kh
				}
				store(s[v][h], Mem{Base: st, Disp: 128*v + 64*h}, mask)
			}
		}
	}

	Label(name + "_four")
	CMPQ(cols, U8(64))
	JB(LabelRef(name + "_one"))
	block(name+"_four", 4, nil)
	ADDQ(U32(4*64), x)
	ADDQ(U32(4*128), st)
	SUBQ(U8(64), cols)
	JMP(LabelRef(name + "_four"))

	Label(name + "_one")
	TESTQ(cols, cols)
	JZ(LabelRef(name + "_done"))
	n := GP64()
	MOVQ(U32(16), n)
	CMPQ(cols, n)
	CMOVQLT(cols, n)
	block(name+"_one", 1, laneMask(n))
	ADDQ(U8(64), x)
	ADDQ(U32(128), st)
	SUBQ(n, cols)
	JMP(LabelRef(name + "_one"))

	Label(name + "_done")
	VZEROUPPER()
	RET()
}
