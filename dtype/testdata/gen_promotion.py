#!/usr/bin/python3
"""Writes promotion.json, PyTorch's answers for dtype/promote_test.go.

    /usr/bin/python3 dtype/testdata/gen_promotion.py   (PyTorch 1.13)

The file holds three tables, every answer computed by PyTorch:

  promote      torch.promote_types(a, b) for every ordered pair of the ten dtypes
  can_cast     torch.can_cast(from, to) for every ordered pair
  result_type  the common dtype of 1, 2 or 3 operands, each a dimensioned tensor
               ("int8/1"), a 0-dim tensor ("int8/0") or a wrapped Python scalar
               ("1.5", "2", "True"): every operand for one, every ordered pair
               for two, every multiset for three

torch.result_type takes only two operands, so three go through torch.addcmul,
whose TensorIterator computes the common dtype with the same ResultTypeState.
A Python scalar only becomes a wrapped-number tensor inside an op, and such a
tensor is turned back into a number on the way out of most entry points; an
out= argument that is a Python number is the exception: torch.mul(v, v, out=v)
returns the wrapped tensor it wrote into. addcmul has no CPU kernel for bool or
float16, so for those its dispatch error ("not implemented for 'Half'"), which
names the common dtype it dispatched on, is the answer.

TensorIterator skips ResultTypeState when all inputs have the same dtype and
takes that dtype: three wrapped floats give float64 there, where
torch.result_type(1.5, 1.5) gives float32. ResultState follows result_type, so
such rows use result_type over the distinct operands (a repeated operand leaves
a ResultTypeState as it was, since promote_types(x, x) is x); the three rows of
three distinct operands of one dtype (float64/1, float64/0, 1.5 and the like)
have neither oracle and are left out.

The script checks addcmul against torch.result_type (addcmul(a, b, b) must equal
result_type(a, b) wherever the dtypes differ, and they must disagree only on
all-wrapped floats where they do not) and checks that every permutation of three
operands gives the same dtype, which is why storing multisets is enough.
"""

import itertools
import json
import os
import re

import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
NAME = {d: str(d).removeprefix("torch.") for d in DTYPES}
# the names AT_DISPATCH uses in "not implemented for '...'"
DISPATCH_NAME = {"Bool": torch.bool, "Byte": torch.uint8, "Char": torch.int8, "Short": torch.int16,
                 "Int": torch.int32, "Long": torch.int64, "Half": torch.float16,
                 "BFloat16": torch.bfloat16, "Float": torch.float32, "Double": torch.float64}
SCALARS = {"1.5": 1.5, "2": 2, "True": True}

# every operand kind: a tensor of each dtype with 1 or 0 dims, or a wrapped scalar of each category
OPERANDS = [f"{NAME[d]}/{n}" for d in DTYPES for n in (1, 0)] + list(SCALARS)


def wrapped(v):
    """A wrapped-number tensor holding v (see the module doc)."""
    w = torch.mul(v, v, out=v)
    assert isinstance(w, torch.Tensor) and w.dim() == 0
    return w


def operand(spec, wrap):
    """The operand spec names; a scalar is a Python number for result_type, wrapped for addcmul."""
    if spec in SCALARS:
        return wrapped(SCALARS[spec]) if wrap else SCALARS[spec]
    name, ndim = spec.split("/")
    return torch.ones((1,) * int(ndim), dtype=getattr(torch, name))


def addcmul_dtype(specs):
    """The common dtype TensorIterator computes for addcmul's three inputs."""
    args = [operand(s, True) for s in specs]
    try:
        return torch.addcmul(*args).dtype
    except RuntimeError as e:
        m = re.search(r"\"addcmul_cpu_out\" not implemented for '(\w+)'", str(e))
        if not m:
            raise
        return DISPATCH_NAME[m.group(1)]


def same_dtype(specs):
    """Whether all operands have one dtype, when TensorIterator takes its shortcut."""
    return len({operand(s, True).dtype for s in specs}) == 1


def result_type(specs):
    """torch.result_type for one or two operands (one is the operand twice)."""
    a, b = (specs[0], specs[0]) if len(specs) == 1 else specs
    return torch.result_type(operand(a, False), operand(b, False))


def main():
    # a wrapped float must count as the default dtype, not as a float64 0-dim tensor
    assert torch.result_type(torch.ones(1, dtype=torch.uint8), wrapped(1.5)) == torch.float32
    assert torch.result_type(torch.ones(1, dtype=torch.uint8), torch.tensor(1.5, dtype=torch.float64)) == torch.float64

    promote = [[NAME[a], NAME[b], NAME[torch.promote_types(a, b)]] for a in DTYPES for b in DTYPES]
    can_cast = [[NAME[a], NAME[b], torch.can_cast(a, b)] for a in DTYPES for b in DTYPES]

    rows = []
    for n in (1, 2):
        for specs in itertools.product(OPERANDS, repeat=n):
            want = result_type(list(specs))
            got = addcmul_dtype(list(specs) + [specs[-1]] * (3 - n))
            if same_dtype(specs):
                assert got == want or (set(specs) == {"1.5"} and got == torch.float64), (specs, got, want)
            else:
                assert got == want, (specs, got, want)
            rows.append([list(specs), NAME[want]])
    skipped = 0
    for specs in itertools.combinations_with_replacement(OPERANDS, 3):
        if same_dtype(specs):
            distinct = sorted(set(specs))
            if len(distinct) > 2:
                skipped += 1
                continue
            want = result_type(distinct)
        else:
            results = {addcmul_dtype(p) for p in itertools.permutations(specs)}
            assert len(results) == 1, (specs, results)
            want = results.pop()
        rows.append([list(specs), NAME[want]])
    assert skipped == 3, skipped

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "promotion.json")
    with open(out, "w") as f:
        # one row a line, so that a change in PyTorch shows as a readable diff
        f.write('{\n"torch": %s,\n' % json.dumps(torch.__version__))
        for key, table in (("promote", promote), ("can_cast", can_cast), ("result_type", rows)):
            f.write('"%s": [\n' % key)
            f.write(",\n".join(json.dumps(r) for r in table))
            f.write("\n]%s\n" % ("," if key != "result_type" else ""))
        f.write("}\n")
    print(f"{out}: {len(promote)} promote, {len(can_cast)} can_cast, {len(rows)} result_type rows")


if __name__ == "__main__":
    main()
