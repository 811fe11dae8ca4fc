package tensor

import (
	"slices"
	"strings"

	"github.com/goten-ml/goten/errs"
)

// Note [Einsum by batched products]
//
// Einsum aligns every operand to one list of labels — the output's first,
// then the contracted ones — as a view with size 1 where it lacks a label
// (a repeated label within an operand is first taken as a diagonal view).
// A label only one operand has and the output lacks is summed at once.
// The operands are then contracted left to right, each pair by one Bmm
// (PyTorch's sumproduct_pair): the pair's labels fall into batch (both
// have them, kept), left-only and right-only (kept), and contracted (both
// have them, needed by no later operand and not by the output), so that
// a becomes [batch, left, k], b [batch, k, right], and the product is
// reshaped back to the aligned labels. A label that one side has with
// size 1 broadcasts (size 0 is a size like any other). Everything is views, reshapes, sums and Bmm, so the
// gradient is theirs: no loops of its own, on any backend.

// Einsum returns the Einstein summation of operands by equation, as
// torch.einsum: subscripts per operand separated by commas, letters as
// labels, "..." for broadcast dims, and an explicit output after "->"
// (else the labels that appear once, in alphabetical order, after the
// broadcast dims). A label whose sizes differ (and are not 1) is a shape
// error; a malformed equation or a count of operands that differs from
// the subscripts is a value error.
func Einsum(equation string, operands ...*Tensor) *Tensor {
	const name = "einsum"
	lhs, rhs, explicit := strings.Cut(strings.ReplaceAll(equation, " ", ""), "->")
	subs := strings.Split(lhs, ",")
	if len(subs) != len(operands) {
		panic(errs.New(errs.Value, name, "einsum(): more operands were provided than specified in the equation"))
	}
	// labels: letters 0..51 (upper case first, as PyTorch orders them),
	// broadcast dims 52+ counted from the right
	const ell = 52
	letter := func(c byte) int {
		switch {
		case c >= 'A' && c <= 'Z':
			return int(c - 'A')
		case c >= 'a' && c <= 'z':
			return 26 + int(c-'a')
		}
		panic(errs.New(errs.Value, name, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", strings.IndexByte(equation, c)))
	}
	nEll := 0
	opLabels := make([][]int, len(operands))
	for k, s := range subs {
		before, after, hasEll := strings.Cut(s, "...")
		n := len(before) + len(after)
		var ls []int
		for i := 0; i < len(before); i++ {
			ls = append(ls, letter(before[i]))
		}
		if hasEll {
			e := operands[k].Dim() - n
			if e < 0 {
				panic(errs.New(errs.Value, name, "einsum(): the number of subscripts in the equation (%d) is more than the number of dimensions (%d) for operand %d.", n, operands[k].Dim(), k))
			}
			nEll = max(nEll, e)
			for i := e - 1; i >= 0; i-- {
				ls = append(ls, ell+i)
			}
		}
		for i := 0; i < len(after); i++ {
			ls = append(ls, letter(after[i]))
		}
		if len(ls) != operands[k].Dim() {
			panic(errs.New(errs.Value, name, "einsum(): the number of subscripts in the equation (%d) does not match the number of dimensions (%d) for operand %d and no ellipsis was given", n, operands[k].Dim(), k))
		}
		opLabels[k] = ls
	}
	count := map[int]int{}
	for _, ls := range opLabels {
		for _, l := range ls {
			count[l]++
		}
	}
	var out []int
	if explicit {
		before, after, hasEll := strings.Cut(rhs, "...")
		for i := 0; i < len(before); i++ {
			out = append(out, letter(before[i]))
		}
		if hasEll {
			for i := nEll - 1; i >= 0; i-- {
				out = append(out, ell+i)
			}
		}
		for i := 0; i < len(after); i++ {
			out = append(out, letter(after[i]))
		}
		for i, l := range out {
			if slices.Contains(out[:i], l) {
				panic(errs.New(errs.Value, name, "einsum(): output subscript %c appears more than once in the output", rhs[i]))
			}
			if l < ell && count[l] == 0 {
				panic(errs.New(errs.Value, name, "einsum(): output subscript %c does not appear in the equation for any input operand", rhs[i]))
			}
		}
	} else {
		for i := nEll - 1; i >= 0; i-- {
			out = append(out, ell+i)
		}
		for l := 0; l < ell; l++ {
			if count[l] == 1 {
				out = append(out, l)
			}
		}
	}
	// the aligned order: the output's labels, then the contracted ones
	order := slices.Clone(out)
	for l := 0; l < ell+nEll; l++ {
		if count[l] > 0 && !slices.Contains(order, l) {
			order = append(order, l)
		}
	}
	pos := map[int]int{}
	for i, l := range order {
		pos[l] = i
	}
	sizes := make([]int, len(order))
	for i := range sizes {
		sizes[i] = 1
	}
	aligned := make([]*Tensor, len(operands))
	for k, t := range operands {
		t, ls := diagonalLabels(t, opLabels[k])
		for i, l := range ls {
			n := t.Size(i)
			switch p := pos[l]; {
			case n == 1:
			case sizes[p] == 1:
				sizes[p] = n
			case sizes[p] != n:
				panic(errs.New(errs.Shape, name, "einsum(): subscript %s has size %d for operand %d which does not broadcast with previously seen size %d",
					labelName(l), n, k, sizes[p]))
			}
		}
		aligned[k] = alignTo(t, ls, order, pos)
	}
	// needed[k]: labels that operand k+1… or the output still need
	needed := make([]map[int]bool, len(aligned))
	keep := map[int]bool{}
	for _, l := range out {
		keep[l] = true
	}
	for k := len(aligned) - 1; k >= 0; k-- {
		needed[k] = make(map[int]bool, len(keep))
		for l := range keep {
			needed[k][l] = true
		}
		for _, l := range opLabels[k] {
			keep[l] = true
		}
	}
	var r *Tensor
	if len(aligned) == 1 {
		// one operand sums every label the output lacks, of size 1 too,
		// as PyTorch's einsum does: integers sum to int64
		r = sumDims(aligned[0], order, func(_, l int) bool { return !slices.Contains(out, l) })
	} else {
		// sum at once the labels of operand 0 that nothing else needs
		r = sumUnneeded(aligned[0], order, func(l int) bool { return needed[0][l] })
		for k := 1; k < len(aligned); k++ {
			r = contractPair(r, aligned[k], order, needed[k])
		}
	}
	outSizes := make([]int, len(out))
	for i := range out {
		outSizes[i] = r.Size(i)
	}
	// one operand without sums stays a view of it (a transpose, a
	// diagonal), as in PyTorch
	return r.Reshape(outSizes...)
}

func labelName(l int) string {
	switch {
	case l < 26:
		return string(rune('A' + l))
	case l < 52:
		return string(rune('a' + l - 26))
	}
	return "..."
}

// diagonalLabels takes the diagonal of t over each label repeated in ls
// and returns the view with the labels of its dims.
func diagonalLabels(t *Tensor, ls []int) (*Tensor, []int) {
	ls = slices.Clone(ls)
	for {
		i, j := -1, -1
		for a := range ls {
			for b := a + 1; b < len(ls); b++ {
				if ls[a] == ls[b] && i < 0 {
					i, j = a, b
				}
			}
		}
		if i < 0 {
			return t, ls
		}
		if t.Size(i) != t.Size(j) {
			panic(errs.New(errs.Shape, "einsum", "einsum(): subscript %s is repeated for operand but the sizes don't match, %d != %d", labelName(ls[i]), t.Size(i), t.Size(j)))
		}
		l := ls[i]
		t = t.Diagonal(0, i, j)
		ls = append(slices.Delete(slices.Delete(ls, j, j+1), i, i+1), l)
	}
}

// alignTo returns t, whose dims carry labels ls (distinct), permuted to
// order with size-1 dims for the labels it lacks (a view).
func alignTo(t *Tensor, ls, order []int, pos map[int]int) *Tensor {
	perm := make([]int, len(ls))
	for i := range perm {
		perm[i] = i
	}
	slices.SortFunc(perm, func(a, b int) int { return pos[ls[a]] - pos[ls[b]] })
	t = t.Permute(perm...)
	sh := make([]int, len(order))
	for i := range sh {
		sh[i] = 1
	}
	for _, p := range perm {
		sh[pos[ls[p]]] = t.Size(slices.Index(perm, p))
	}
	return t.Reshape(sh...)
}

// sumUnneeded sums the aligned t over the labels of order that need
// rejects and where t has a size other than 1, keeping the dims (size
// 1).
func sumUnneeded(t *Tensor, order []int, need func(int) bool) *Tensor {
	return sumDims(t, order, func(d, l int) bool { return !need(l) && t.Size(d) != 1 })
}

// sumDims sums the aligned t over its dims d (of label l in order) for
// which sum(d, l) holds, keeping them (size 1); t itself when there are
// none.
func sumDims(t *Tensor, order []int, sum func(d, l int) bool) *Tensor {
	var dims []int
	for d, l := range order {
		if sum(d, l) {
			dims = append(dims, d)
		}
	}
	if len(dims) == 0 {
		return t
	}
	return t.Sum(Over(dims...).KeepDim())
}

// contractPair multiplies the aligned a and b and sums the labels that
// needed lacks, by one Bmm (Note [Einsum by batched products]), or by Mul
// when no label is summed; the result is aligned too.
func contractPair(a, b *Tensor, order []int, needed map[int]bool) *Tensor {
	a = sumUnneeded(a, order, func(l int) bool { return needed[l] || b.Size(slices.Index(order, l)) != 1 })
	b = sumUnneeded(b, order, func(l int) bool { return needed[l] || a.Size(slices.Index(order, l)) != 1 })
	var batch, left, right, sum []int
	for d, l := range order {
		na, nb := a.Size(d), b.Size(d)
		switch {
		case !needed[l] && na != 1 && nb != 1:
			sum = append(sum, d)
		case na != 1 && nb != 1 || na == 1 && nb == 1:
			batch = append(batch, d)
		case na != 1:
			left = append(left, d)
		default:
			right = append(right, d)
		}
	}
	if len(sum) == 0 {
		// nothing to contract: PyTorch's sumproduct_pair multiplies, which
		// promotes two dtypes where its bmm would refuse them
		return a.Mul(b)
	}
	prod := func(t *Tensor, ds []int) int {
		n := 1
		for _, d := range ds {
			n *= t.Size(d)
		}
		return n
	}
	nb, nl, nr, nk := prod(a, batch), prod(a, left), prod(b, right), prod(a, sum)
	am := a.Permute(slices.Concat(batch, left, sum, right)...).Reshape(nb, nl, nk)
	bm := b.Permute(slices.Concat(batch, sum, left, right)...).Reshape(nb, nk, nr)
	p := Bmm(am, bm)
	// back to the aligned order: batch, left, right sizes, sum dims as 1
	var sh []int
	for _, d := range batch {
		sh = append(sh, a.Size(d))
	}
	for _, d := range left {
		sh = append(sh, a.Size(d))
	}
	for _, d := range right {
		sh = append(sh, b.Size(d))
	}
	p = p.Reshape(sh...)
	inv := slices.Concat(batch, left, right)
	perm := make([]int, len(inv))
	for i := range perm {
		perm[i] = i
	}
	slices.SortFunc(perm, func(x, y int) int { return inv[x] - inv[y] })
	p = p.Permute(perm...)
	full := make([]int, len(order))
	for d := range full {
		full[d] = 1
	}
	for i, x := range perm {
		full[inv[x]] = p.Size(i)
	}
	return p.Reshape(full...)
}
