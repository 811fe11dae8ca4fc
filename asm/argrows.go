package main

// This file generates vec's ArgMaxAccRowsF32 and ArgMinAccRowsF32 kernels
// at AVX-512 (part reduce512): the rows of an outer float32 ArgMax or
// ArgMin folded in one call, the values and indices of a block of columns
// kept in registers from the first row to the last.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// argRows512 emits argMaxAccRowsF32AVX512 (isMax) or
// argMinAccRowsF32AVX512:
//
//	func(v *float32, ix *int64, x *float32, stride, rows, cols, i0 int)
//
// argMaxAccRowsF32Go's loop over cols columns, stride in bytes: row r's element replaces the state where it is above the
// state's value (below, for the min), or NaN where the value is not,
// with index i0+r. The test is one compare under the mask of the lanes
// whose value is ordered: NLE_US(x, v), which is x > v or unordered
// (v NLE x, for the min). The columns go in blocks of 128 (eight
// vectors, their indices in sixteen), and the last fewer than 128 in one
// more (columnBlocks).
func argRows512(isMax bool) {
	name := "argMaxAccRowsF32AVX512"
	if !isMax {
		name = "argMinAccRowsF32AVX512"
	}
	TEXT(name, NOSPLIT, "func(v *float32, ix *int64, x *float32, stride, rows, cols, i0 int)")
	Doc(fmt.Sprintf("%s is %sAccRowsF32Go in assembly; see there for the exact loop.", name, name[:6]))
	Pragma("noescape")
	pv, pix, x := Load(Param("v"), GP64()), Load(Param("ix"), GP64()), Load(Param("x"), GP64())
	stride, rows := Load(Param("stride"), GP64()), Load(Param("rows"), GP64())
	cols := GP64()
	Load(Param("cols"), cols)
	i0 := Load(Param("i0"), GP64())
	columnBlocks(name, rows, cols, 8, func(label string, nv int, mask reg.Register) {
		// the masks of the last index vectors' lanes: the low and high eight
		var halves [2]reg.Register
		if mask != nil {
			halves[0], halves[1] = K(), K()
			KMOVW(mask, halves[0])
			KSHIFTRW(U8(8), mask, halves[1])
		}
		val := make([]reg.VecVirtual, nv)
		idx := make([][2]reg.VecVirtual, nv)
		for k := range val {
			val[k] = ZMM()
			loadK(Mem{Base: pv, Disp: 64 * k}, val[k], maskedLast(k, nv, mask))
			for h := range idx[k] {
				idx[k][h] = ZMM()
				if maskedLast(k, nv, mask) == nil {
					VMOVDQU64(Mem{Base: pix, Disp: 128*k + 64*h}, idx[k][h])
				} else {
					VMOVDQU64_Z(Mem{Base: pix, Disp: 128*k + 64*h}, halves[h], idx[k][h])
				}
			}
		}
		r, one := ZMM(), ZMM()
		VPBROADCASTQ(i0, r)
		t := GP64()
		MOVQ(U32(1), t)
		VPBROADCASTQ(t, one)
		downRows(label, x, stride, rows, func(p reg.Register) {
			for k := range val {
				xv, ko, kt, kh := ZMM(), K(), K(), K()
				loadK(Mem{Base: p, Disp: 64 * k}, xv, maskedLast(k, nv, mask))
				VCMPPS(U8(7), val[k], val[k], ko) // ORD_Q: the value is not NaN
				if isMax {
					VCMPPS(U8(6), val[k], xv, ko, kt) // x NLE v, where v is ordered
				} else {
					VCMPPS(U8(6), xv, val[k], ko, kt) // v NLE x, where v is ordered
				}
				VMOVAPS(xv, kt, val[k])
				KSHIFTRW(U8(8), kt, kh)
				VMOVDQA64(r, kt, idx[k][0])
				VMOVDQA64(r, kh, idx[k][1])
			}
			VPADDQ(one, r, r)
		})
		for k := range val {
			storeK(val[k], Mem{Base: pv, Disp: 64 * k}, maskedLast(k, nv, mask))
			for h := range idx[k] {
				if maskedLast(k, nv, mask) == nil {
					VMOVDQU64(idx[k][h], Mem{Base: pix, Disp: 128*k + 64*h})
				} else {
					VMOVDQU64(idx[k][h], halves[h], Mem{Base: pix, Disp: 128*k + 64*h})
				}
			}
		}
		ADDQ(U32(64*nv), pv)
		ADDQ(U32(128*nv), pix)
		ADDQ(U32(64*nv), x)
	})
}
