#!/usr/bin/python3
"""Cases that hold goten to PyTorch 1.13's bits, not to a tolerance.

    /usr/bin/python3 tools/confgen/exact.py --out testdata/conformance-exact [--seed 1]

Every case has rtol = atol = 0, so a result that differs in the last bit of
its dtype fails. Suites:

- sorting: unique (sorted, with inverse and counts) over float tensors with
  NaNs, zeros of both signs and repeats, with and without dim: where NaN
  leaves the order to PyTorch's unordered_set and std::sort (Note [Unique
  with NaN] in package op).
- unary: bfloat16 gelu (both forms), silu, logit (with and without eps) and
  rsqrt over rows of 40 and of 1007, whose last n mod 32 elements PyTorch
  computes in its loops' scalar tail (Note [Bfloat16 steps]).
- misc: bfloat16 losses, ternary ops, softmax, scans, reductions and
  layer_norm over [40], [3, 5, 4], [2, 40] and [1007], every dim, and
  logsumexp over infinities, NaN and empty inputs, and softmax of float32 with
  dtype=bfloat16.
- layer_norm: bfloat16 layer_norm over rows of 1 to 4500, with and without
  weight and bias (PyTorch's bfloat16 Welford moments).

Expectations are computed by torch_runner's machinery through gen.py's
build_case, as for the variant sets.
"""

import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen as G  # noqa: E402


def bf16_values(rng, n, kind="wide", dt="bfloat16"):
    if kind == "unit":
        v = [rng.uniform(0.01, 0.99) for _ in range(n)]
    else:
        v = [rng.gauss(0, 3) for _ in range(n)]
    return [G.enc_f(x) for x in G.round_to(dt, v)]


def tensor(rng, shape, kind="wide", dt="bfloat16"):
    return {"dtype": dt, "shape": shape, "values": bf16_values(rng, math.prod(shape), kind, dt)}


def unique_cases(rng, n_cases):
    for k in range(n_cases):
        dt = rng.choice(["float32", "float64", "bfloat16"])
        use_dim = rng.random() < 0.35
        if use_dim:
            shape = [rng.randint(1, 40), rng.randint(1, 3)]
            if rng.random() < 0.3:
                shape.reverse()
        else:
            shape = [rng.choice([rng.randint(1, 20), rng.randint(1, 80), rng.randint(1, 400)])]
        pool = [rng.choice([0.0, -0.0, 1.0, -1.0, 2.5, 0.5, -3.0, 7.0, 1e300, -1e-310,
                            float("inf"), float("-inf")]) for _ in range(rng.randint(1, 12))]
        pnan = rng.choice([0.0, 0.05, 0.2, 0.5, 0.9])
        vals = []
        for _ in range(math.prod(shape)):
            if rng.random() < pnan:
                vals.append(float("nan"))
            elif rng.random() < 0.5:
                vals.append(rng.choice(pool))
            else:
                vals.append(round(rng.uniform(-5, 5), rng.randint(0, 2)))
        kw = {"sorted": True, "return_inverse": True, "return_counts": True}
        if use_dim:
            kw["dim"] = rng.randint(0, 1)
        yield ("sorting", "sorting/unique_nan/%03d" % k,
               {"a": {"dtype": dt, "shape": shape, "values": [G.enc_f(v) for v in vals]}},
               [{"out": ["values", "inverse", "counts"], "op": "unique", "args": ["a"], "kwargs": kw}])


def unary_cases(rng):
    ops = {"gelu": ("gelu", {}, "wide"), "gelu_tanh": ("gelu", {"approximate": "string:tanh"}, "wide"),
           "silu": ("silu", {}, "wide"), "logit": ("logit", {}, "unit"),
           "logit_eps": ("logit", {"eps": {"float": 0.01}}, "unit"), "rsqrt": ("rsqrt", {}, "unit")}
    for name, (op, kw, kind) in ops.items():
        for n in (40, 1007):
            yield ("unary", "unary/%s/%d" % (name, n), {"a": tensor(rng, [n], kind)},
                   [{"out": "c", "op": op, "args": ["a"], "kwargs": kw}])


def misc_cases(rng):
    k = 0
    for shape in ([40], [3, 5, 4], [2, 40], [1007]):
        progs = []
        for red in ("none", "mean", "sum"):
            for op in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
                progs.append((op, {"a": tensor(rng, shape), "b": tensor(rng, shape)},
                              [{"out": "c", "op": op, "args": ["a", "b"], "kwargs": {"reduction": "string:" + red}}]))
            progs.append(("binary_cross_entropy", {"a": tensor(rng, shape, "unit"), "b": tensor(rng, shape, "unit")},
                          [{"out": "c", "op": "binary_cross_entropy", "args": ["a", "b"], "kwargs": {"reduction": "string:" + red}}]))
            progs.append(("binary_cross_entropy_with_logits", {"a": tensor(rng, shape), "b": tensor(rng, shape, "unit")},
                          [{"out": "c", "op": "binary_cross_entropy_with_logits", "args": ["a", "b"], "kwargs": {"reduction": "string:" + red}}]))
            progs.append(("kl_div", {"a": tensor(rng, shape), "b": tensor(rng, shape, "unit")},
                          [{"out": "c", "op": "kl_div", "args": ["a", "b"], "kwargs": {"reduction": "string:" + red}}]))
        for op in ("addcmul", "addcdiv"):
            progs.append((op, {"a": tensor(rng, shape), "b": tensor(rng, shape), "c": tensor(rng, shape)},
                          [{"out": "d", "op": op, "args": ["a", "b", "c"], "kwargs": {"value": {"float": 0.3}}}]))
        progs.append(("lerp", {"a": tensor(rng, shape), "b": tensor(rng, shape), "c": tensor(rng, shape, "unit")},
                      [{"out": "d", "op": "lerp", "args": ["a", "b", "c"]}]))
        progs.append(("lerp_scalar", {"a": tensor(rng, shape), "b": tensor(rng, shape)},
                      [{"out": "d", "op": "lerp", "args": ["a", "b", {"float": 0.3}]}]))
        for d in range(len(shape)):
            for op in ("softmax", "log_softmax", "cumsum", "logcumsumexp", "logsumexp", "mean", "sum", "var", "norm"):
                args = ["a", {"float": 2.0}, d] if op == "norm" else ["a", d]
                progs.append(("%s_dim%d" % (op, d), {"a": tensor(rng, shape)}, [{"out": "c", "op": op, "args": args}]))
        progs.append(("layer_norm", {"a": tensor(rng, shape), "w": tensor(rng, [shape[-1]]), "b": tensor(rng, [shape[-1]])},
                      [{"out": "c", "op": "layer_norm", "args": ["a", [shape[-1]], "w", "b"]}]))
        for name, inputs, prog in progs:
            k += 1
            yield ("misc", "misc/%s/%03d" % (name, k), inputs, prog)


def logsumexp_edges():
    """Rows with ±inf and NaN, reduced every way, and empty inputs."""
    rows = [[1.0, float("inf"), 2.0], [float("-inf")] * 3, [float("nan"), 1.0, 2.0],
            [float("inf"), float("-inf"), 0.0], [1e38, 3e38, -1e38], [0.5, 0.25, 0.125]]
    vals = [G.enc_f(x) for r in rows for x in r]
    for k, (shape, dims, keep) in enumerate([([6, 3], [1], False), ([6, 3], [0], True), ([6, 3], [0, 1], False),
                                             ([6, 3], [], True), ([18], [0], False)]):
        yield ("misc", "misc/logsumexp_edges/%d" % k, {"a": {"dtype": "bfloat16", "shape": shape, "values": vals}},
               [{"out": "c", "op": "logsumexp", "args": ["a", dims, keep]}])
    for k, (shape, vals, dims) in enumerate([([], [2.5], []), ([0, 3], [], [0]), ([2, 0], [], [1])]):
        yield ("misc", "misc/logsumexp_empty/%d" % k, {"a": {"dtype": "bfloat16", "shape": shape, "values": vals}},
               [{"out": "c", "op": "logsumexp", "args": ["a", dims, True]}])


def layer_norm_cases(rng):
    k = 0
    for n in (1, 2, 5, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 300, 513, 1000, 2100, 4500):
        for m in (1, 3):
            for wb in ("both", "none", "weight", "bias"):
                k += 1
                inputs = {"a": {"dtype": "bfloat16", "shape": [m, n],
                                "values": [G.enc_f(x) for x in G.round_to("bfloat16", [rng.gauss(0, rng.choice([0.01, 1, 3, 100])) for _ in range(m * n)])]}}
                kw = {}
                if wb in ("both", "weight"):
                    inputs["w"] = tensor(rng, [n])
                    kw["weight"] = "w"
                if wb in ("both", "bias"):
                    inputs["b"] = tensor(rng, [n])
                    kw["bias"] = "b"
                yield ("layer_norm", "layer_norm/%d/%d/%s" % (n, m, wb), inputs,
                       [{"out": "c", "op": "layer_norm", "args": ["a", [n]], "kwargs": kw}])


def softmax_dtype_cases(rng):
    """softmax of float32 with dtype=bfloat16 over a dim other than the last: the input is
    converted first, then the scalar tail's steps."""
    for k, (shape, d) in enumerate([([3, 5, 4], 0), ([3, 5, 4], 1), ([2, 40], 0), ([6, 7], 0)]):
        yield ("misc", "misc/softmax_dtype/%d" % k, {"a": tensor(rng, shape, dt="float32")},
               [{"out": "c", "op": "softmax", "args": ["a", d], "kwargs": {"dtype": {"dtype": "bfloat16"}}}])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(os.path.join(a.out, "cases"), exist_ok=True)
    files, kept, dropped = {}, 0, 0
    sources = [unique_cases(rng, 220), unary_cases(rng), misc_cases(rng), logsumexp_edges(), layer_norm_cases(rng),
               softmax_dtype_cases(random.Random(a.seed + 1))]
    for src in sources:
        for suite, cid, inputs, prog in src:
            try:
                case = G.build_case(suite, {}, cid, inputs, prog, None)
            except G.Drop:
                dropped += 1
                continue
            if "error" in case:
                dropped += 1
                continue
            case["rtol"], case["atol"] = 0.0, 0.0
            if suite not in files:
                files[suite] = open(os.path.join(a.out, "cases", suite + ".jsonl"), "w")
            files[suite].write(json.dumps(case) + "\n")
            kept += 1
    print("kept %d cases, dropped %d" % (kept, dropped))


if __name__ == "__main__":
    main()
