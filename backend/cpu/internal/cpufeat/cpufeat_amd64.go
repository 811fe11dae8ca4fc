//go:build amd64 && !purego

package cpufeat

//go:generate go run -C ../../../../asm . -out ../backend/cpu/internal/cpufeat/zz_cpuid_amd64.s -stubs ../backend/cpu/internal/cpufeat/zz_stubs_amd64.go -pkg cpufeat

// detect reads CPUID and XCR0 (the register state the OS saves).
func detect() Features {
	var f Features
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return f
	}
	const (
		fmaBit     = 1 << 12 // CPUID.1:ECX
		osxsaveBit = 1 << 27
		avxBit     = 1 << 28
		f16cBit    = 1 << 29
		avx2Bit    = 1 << 5 // CPUID.(7,0):EBX
		avx512F    = 1 << 16
		avx512DQ   = 1 << 17
		avx512BW   = 1 << 30
		avx512VL   = 1 << 31
		bf16Bit    = 1 << 5             // CPUID.(7,1):EAX
		ymmState   = 1<<1 | 1<<2        // XCR0: SSE, AVX
		zmmState   = 1<<5 | 1<<6 | 1<<7 // XCR0: opmask, ZMM_Hi256, Hi16_ZMM
		avx512Need = avx512F | avx512DQ | avx512BW | avx512VL
	)
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(fmaBit|osxsaveBit|avxBit) != fmaBit|osxsaveBit|avxBit {
		return f
	}
	xcr0, _ := xgetbv()
	if xcr0&ymmState != ymmState {
		return f
	}
	maxSub, ebx7, _, _ := cpuid(7, 0)
	if ebx7&avx2Bit == 0 {
		return f
	}
	f.Level, f.F16C = AVX2, ecx1&f16cBit != 0
	if ebx7&avx512Need == avx512Need && xcr0&zmmState == zmmState {
		f.Level = AVX512
		if maxSub >= 1 {
			eax71, _, _, _ := cpuid(7, 1)
			f.AVX512BF16 = eax71&bf16Bit != 0
		}
	}
	return f
}
