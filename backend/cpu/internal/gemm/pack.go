package gemm

// Packing copies a block of A or B into the layout the microkernel streams;
// see Note [Blocking]. Whole slivers of the two unit-stride layouts go
// through the impl's pack functions (assembly where available); partial
// slivers and other strides through the strided loops here.

// packFunc copies one whole sliver: w (the impl's mr or nr) rows or columns
// by k steps, from src with stride ld into dst; see packCopyGo and
// packTransGo.
type packFunc[T float] func(k int, src []T, ld int, dst []T)

// packCopyGo sets dst[p*w+i] = src[p*ld+i] for p < k, i < w: w contiguous
// elements per k step (a sliver of column-major A or of row-major B).
func packCopyGo[T float](w, k int, src []T, ld int, dst []T) {
	dst = dst[:k*w]
	for p := 0; p < k; p++ {
		copy(dst[p*w:p*w+w], src[p*ld:p*ld+w])
	}
}

// packTransGo sets dst[p*w+i] = src[i*ld+p] for p < k, i < w: w rows of
// contiguous elements interleaved one k step at a time (a sliver of
// row-major A or of column-major B).
func packTransGo[T float](w, k int, src []T, ld int, dst []T) {
	dst = dst[:k*w]
	for i := 0; i < w; i++ {
		row := src[i*ld : i*ld+k]
		for p, v := range row {
			dst[p*w+i] = v
		}
	}
}

// packA copies the mc×kc block of A whose element (i, p) is a[i*rs+p*cs]
// into dst as ⌈mc/mr⌉ slivers of kc·mr elements: sliver s holds rows
// s·mr … s·mr+mr-1, one k step of mr elements after another, rows past mc
// zero.
func packA[T float](im *impl[T], dst, a []T, mc, kc, rs, cs int) {
	mr := im.mr
	for ir := 0; ir < mc; ir += mr {
		rows := min(mr, mc-ir)
		d := dst[ir*kc : ir*kc+kc*mr]
		src := a[ir*rs:]
		switch {
		case rows == mr && cs == 1:
			im.transA(kc, src, rs, d)
		case rows == mr && rs == 1:
			im.copyA(kc, src, cs, d)
		default:
			packStrided(d, src, rows, mr, kc, rs, cs)
		}
	}
}

// packB copies the kc×nc panel of B whose element (p, j) is b[p*rs+j*cs]
// into dst as ⌈nc/nr⌉ slivers of kc·nr elements: sliver s holds columns
// s·nr … s·nr+nr-1, one k step of nr elements after another, columns past
// nc zero.
func packB[T float](im *impl[T], dst, b []T, kc, nc, rs, cs int) {
	nr := im.nr
	for jr := 0; jr < nc; jr += nr {
		cols := min(nr, nc-jr)
		d := dst[jr*kc : jr*kc+kc*nr]
		src := b[jr*cs:]
		switch {
		case cols == nr && cs == 1:
			im.copyB(kc, src, rs, d)
		case cols == nr && rs == 1:
			im.transB(kc, src, cs, d)
		default:
			packStrided(d, src, cols, nr, kc, cs, rs)
		}
	}
}

// packStrided packs a sliver of n ≤ w lines (rows of A or columns of B)
// whose element (line i, step p) is src[i*ls+p*ps]: dst[p*w+i], lines n …
// w-1 zero.
func packStrided[T float](dst, src []T, n, w, k, ls, ps int) {
	for p := 0; p < k; p++ {
		dp := dst[p*w : p*w+w]
		for i := 0; i < n; i++ {
			dp[i] = src[i*ls+p*ps]
		}
		clear(dp[n:])
	}
}
