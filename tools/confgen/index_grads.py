#!/usr/bin/env python3
"""Variant cases for the derivatives of the indexing issue that OPS.md's index_autograd suite does not
reach: scatter_reduce (sum, prod, mean, amax, amin; include_self true and false; out of place and in
place), median and nanmedian over all elements, and the ops PyTorch 1.13 has no derivative for
(scatter with reduce=, bincount's weights, unique) or whose result does not require grad (histc).
Expectations (gradients included) are computed by PyTorch 1.13 through gen.py's build_case, which
runs torch_runner.py's own machinery and checks float32 gradients against float64 ones:

    /usr/bin/python3 tools/confgen/index_grads.py > testdata/conformance-variants/cases/index_grads.jsonl

The values are drawn to reach the formulas' branches: zeros (one or two sent to an element) for
prod, ties between self and src and among src for amax/amin, NaN for amax and median, elements no
index targets, a src larger than the index, strided inputs.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import torch_runner as TR  # noqa: E402,F401  (gen put it on the path)

REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def spec(values, shape, dtype, grad=False, strided=False):
    """An input: contiguous values, or (strided) every other element of a larger storage."""
    s = {"dtype": dtype, "shape": list(shape)}
    if strided:
        storage = []
        for v in values:
            storage += [v, 0.0]
        n = len(shape)
        strides = [0] * n
        acc = 2
        for k in range(n - 1, -1, -1):
            strides[k] = acc
            acc *= shape[k]
        s.update(storage=storage, strides=strides, offset=0)
    else:
        s["values"] = list(values)
    if grad:
        s["requires_grad"] = True
    return s


def index_spec(rows, shape):
    return {"dtype": "int64", "shape": list(shape), "values": rows}


def draw(rng, n, mode):
    """n values: plain, with zeros, with ties (values from a small set), or with a NaN."""
    xs = [round(rng.uniform(-3, 3), 2) or 0.5 for _ in range(n)]
    if mode == "zeros":
        for i in rng.sample(range(n), max(1, n // 3)):
            xs[i] = 0.0
    elif mode == "ties":
        xs = [rng.choice([-1.0, 0.5, 2.0]) for _ in range(n)]
    elif mode == "nan":
        xs[rng.randrange(n)] = "nan"
    return xs


def build(cid, inputs, program, grad):
    orig = {"id": cid, "inputs": inputs, "program": program, "grad": grad}
    try:
        return gen.build_case("index_autograd", orig, cid, inputs, program, None)
    except gen.Drop as exc:
        print(f"dropped {cid}: {exc}", file=sys.stderr)
        return None


def scatter_reduce_cases(rng):
    out = []
    k = 0
    for reduce in REDUCES:
        modes = {"sum": ["plain"], "mean": ["plain", "ties"], "prod": ["plain", "zeros", "zeros"],
                 "amax": ["plain", "ties", "nan"], "amin": ["plain", "ties"]}[reduce]
        for mode in modes:
            for include_self in (True, False):
                for dtype in ("float64", "float32"):
                    for inplace in (False, True):
                        strided = rng.random() < 0.5
                        # self [3, 4]; index [2, 4] along dim 0 (duplicates; row 2 of some
                        # columns untouched); src [2, 4] (PyTorch 1.13's backward fails on a
                        # src larger than the index: its gradient has the index's shape)
                        idx = [rng.randrange(2) for _ in range(8)]
                        if mode == "zeros":
                            idx = [0] * 8  # the zeros of src meet in row 0
                        inputs = {
                            "x": spec(draw(rng, 12, mode), [3, 4], dtype, True, strided),
                            "i": index_spec(idx, [2, 4]),
                            "src": spec(draw(rng, 8, mode), [2, 4], dtype, True),
                        }
                        kw = {"include_self": include_self}
                        if inplace:
                            program = [{"out": "y0", "op": "mul", "args": ["x", {"float": 1.0}]},
                                       {"out": "y", "op": "scatter_reduce_",
                                        "args": ["y0", 0, "i", "src", "string:" + reduce], "kwargs": kw}]
                        else:
                            program = [{"out": "y", "op": "scatter_reduce",
                                        "args": ["x", 0, "i", "src", "string:" + reduce], "kwargs": kw}]
                        seed = {"dtype": dtype, "shape": [3, 4],
                                "values": [rng.choice([-1.5, -0.5, 0.25, 1.0, 2.0]) for _ in range(12)]}
                        c = build(f"index_grads/scatter_reduce_{reduce}/{k:03d}", inputs, program,
                                  {"of": "y", "seed": seed, "wrt": ["x", "src"]})
                        k += 1
                        if c is not None:
                            out.append(c)
    return out


def median_cases(rng):
    out = []
    k = 0
    for op in ("median", "nanmedian"):
        for mode in ("plain", "ties", "nan", "allnan"):
            for dtype in ("float64", "float32"):
                n = rng.choice([1, 5, 6, 12])
                xs = draw(rng, n, "ties" if mode == "ties" else "plain")
                if mode == "nan":
                    xs[rng.randrange(n)] = "nan"
                    xs[rng.randrange(n)] = "nan"
                if mode == "allnan":
                    xs = ["nan"] * n
                shape = [3, 4] if n == 12 else [n]
                inputs = {"x": spec(xs, shape, dtype, True, rng.random() < 0.5)}
                program = [{"out": "y", "op": op, "args": ["x"]}]
                c = build(f"index_grads/{op}_all/{k:03d}", inputs, program, {"of": "y", "seed": None, "wrt": ["x"]})
                k += 1
                if c is not None:
                    out.append(c)
    return out


def refused_cases(rng):
    """Backwards PyTorch 1.13 refuses: its error at the grad phase. torch_runner's ERROR_PATTERNS
    do not classify "derivative ... is not implemented", so those cases drop (goten's tests check
    them); histc's "does not require grad" is an autograd error."""
    out = []
    x = spec([1.5, -2.0, 3.0, 0.5], [4], "float64", True)
    i = index_spec([0, 0, 2, 1], [4])
    progs = {
        "scatter_multiply": ([{"out": "y", "op": "scatter", "args": ["z", 0, "i", "x"], "kwargs": {"reduce": "string:multiply"}},
                              {"out": "s", "op": "sum", "args": ["y"]}], {"z": spec([1.0, 2.0, 3.0, 4.0], [4], "float64", True)}),
        "scatter_add": ([{"out": "y", "op": "scatter", "args": ["z", 0, "i", "x"], "kwargs": {"reduce": "string:add"}},
                         {"out": "s", "op": "sum", "args": ["y"]}], {"z": spec([1.0, 2.0, 3.0, 4.0], [4], "float64")}),
        "bincount": ([{"out": "y", "op": "bincount", "args": ["i"], "kwargs": {"weights": "x"}},
                      {"out": "s", "op": "sum", "args": ["y"]}], {}),
        "unique": ([{"out": "y", "op": "unique", "args": ["x"]},
                    {"out": "s", "op": "sum", "args": ["y"]}], {}),
        "histc": ([{"out": "y", "op": "histc", "args": ["x"], "kwargs": {"bins": 3}},
                   {"out": "s", "op": "sum", "args": ["y"]}], {}),
    }
    for name, (program, extra) in progs.items():
        inputs = dict({"x": x, "i": i}, **extra)
        c = build(f"index_grads/{name}_refused/000", inputs, program, {"of": "s", "seed": None, "wrt": ["x"]})
        if c is not None:
            out.append(c)
    return out


def main():
    rng = random.Random(10)
    for c in scatter_reduce_cases(rng) + median_cases(rng) + refused_cases(rng):
        print(json.dumps(c, separators=(",", ":")))


if __name__ == "__main__":
    main()
