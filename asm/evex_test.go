package main

import (
	"bytes"
	"testing"
)

// TestEVEX checks encodeVDPBF16PS against the bytes GNU as 2.40 gives for
// "vdpbf16ps %zmm<src2>, %zmm<src1>, %zmm<dst>" (objdump -d), over
// registers that set each of the prefix's inverted high bits.
func TestEVEX(t *testing.T) {
	for _, tc := range []struct {
		src2, src1, dst int
		want            []byte
	}{
		{24, 26, 0, []byte{0x62, 0x92, 0x2e, 0x40, 0x52, 0xc0}},
		{25, 26, 1, []byte{0x62, 0x92, 0x2e, 0x40, 0x52, 0xc9}},
		{3, 2, 1, []byte{0x62, 0xf2, 0x6e, 0x48, 0x52, 0xcb}},
		{31, 16, 0, []byte{0x62, 0x92, 0x7e, 0x40, 0x52, 0xc7}},
		{8, 25, 23, []byte{0x62, 0xc2, 0x36, 0x40, 0x52, 0xf8}},
		{24, 9, 15, []byte{0x62, 0x12, 0x36, 0x48, 0x52, 0xf8}},
		{0, 0, 31, []byte{0x62, 0x62, 0x7e, 0x48, 0x52, 0xf8}},
	} {
		if got := encodeVDPBF16PS(tc.src2, tc.src1, tc.dst); !bytes.Equal(got, tc.want) {
			t.Errorf("VDPBF16PS Z%d, Z%d, Z%d = % x, want % x", tc.src2, tc.src1, tc.dst, got, tc.want)
		}
	}
}
