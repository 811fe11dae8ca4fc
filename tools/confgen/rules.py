#!/usr/bin/python3
"""Rule matrices: every dtype and argument form of a few ops whose PyTorch 1.13 rules are easy to
miss, with expectations (values, gradients, error kinds) computed by torch.

    /usr/bin/python3 tools/confgen/rules.py --out DIR

writes DIR/cases/rules.jsonl:

  rules/kl_div/NNN  kl_div over every pair of the ten dtypes, log_target both ways, every
                    reduction: integer/bool operands refused, float16 log-targets refused (exp),
                    xlogy(t, t) rounded in t's dtype, the gradients (t's NaN where t = 0)
  rules/cross/NNN   cross of operands of equal and unequal ranks, given and default dims, the
                    check order (ranks, dim, sizes, broadcast, dtypes)
  rules/clamp/NNN   clamp, clamp_ and clamp(out=) of eight dtypes with no, number, bool, tensor
                    and 0-dim tensor bounds: float16 refused by the Number and two-tensor kernels,
                    NaN number bounds, out= of the Number overloads

PyTorch messages that torch_runner's ERROR_PATTERNS do not classify get the kind goten gives them
(FALLBACK); the float16 kernel gaps are kept (these matrices are about them).
"""

import argparse
import json
import math
import os
import random
import re
import sys
import warnings

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extra as E  # noqa: E402
import gen  # noqa: E402  (puts torch_runner on the path)
import torch_runner as TR  # noqa: E402

FALLBACK = [("shape", r"same number of dimensions|no dimension of size 3"),
            ("dtype", r"Integral inputs"),
            ("index", r"Dimension specified as 0 but tensor has no dimensions")]


def kind(e):
    k = TR.classify_error(e)
    if k:
        return k
    for kk, p in FALLBACK:
        if re.search(p, str(e)):
            return kk
    return None


def case(cid, inputs, step, fn, grad=None):
    """One case of one step; grad names the float inputs to differentiate (seed ones)."""
    c = {"id": cid, "inputs": {k: E.tensor_in(v) for k, v in inputs.items()}, "program": [step]}
    ts = {k: v.clone() for k, v in inputs.items()}
    for k in grad or []:
        ts[k].requires_grad_()
        c["inputs"][k]["requires_grad"] = True
    try:
        y = fn(ts)
    except Exception as e:  # noqa: BLE001 (torch raises RuntimeError, IndexError, ...)
        k = kind(e)
        if k is None:
            print("unclassified", cid, e, file=sys.stderr)
            return None
        for v in c["inputs"].values():
            v.pop("requires_grad", None)
        c["error"] = {"kind": k, "step": 0, "message": str(e).split("\n")[0]}
        return c
    c["expect"] = {step["out"]: E.result(y)}
    if grad and y.dtype.is_floating_point:
        seed = torch.ones_like(y) if y.dim() else None
        y.backward(seed)
        c["grad"] = {"of": step["out"], "seed": E.tensor_in(seed) if seed is not None else None, "wrt": grad,
                     "expect": {k: (E.result(ts[k].grad) if ts[k].grad is not None else None) for k in grad}}
    return c


def kl_div_cases(rng):
    n = 0
    for lt in (False, True):
        for red in ("none", "mean", "sum", "batchmean"):
            for a in E.DTYPES:
                for b in E.DTYPES:
                    xs = [rng.uniform(-3, 0) for _ in range(6)]
                    ts = [rng.uniform(-3, 0) for _ in range(6)] if lt else \
                        [0.0, rng.uniform(0, 1), 0.5, rng.uniform(0, 1), 0.0, 0.25]
                    x, t = E.sample(a, xs).reshape(2, 3), E.sample(b, ts).reshape(2, 3)
                    step = {"out": "y", "op": "kl_div", "args": ["x", "t"],
                            "kwargs": {"reduction": "string:" + red, "log_target": lt}}
                    g = [k for k, v in (("x", x), ("t", t)) if v.dtype.is_floating_point]
                    yield case(f"rules/kl_div/{n:03d}", {"x": x, "t": t}, step,
                               lambda s, red=red, lt=lt: F.kl_div(s["x"], s["t"], reduction=red, log_target=lt), g)
                    n += 1


CROSS_SHAPES = [((2, 3), (3,), None), ((2, 3), (3,), 1), ((2, 3), (3,), -1), ((3,), (2, 3), 0), ((2, 3), (1, 3), 1),
                ((2, 3), (1, 3), -1), ((2, 3), (1, 3), None), ((4, 2, 3), (1, 3), -1), ((4, 1, 3), (1, 5, 3), 2),
                ((4, 1, 3), (1, 5, 3), None), ((3, 2), (3, 1), None), ((3, 2), (1, 2), None), ((3, 2), (3, 1), 0),
                ((2, 3), (2, 3), 2), ((2, 3), (2, 3), -3), ((2, 3), (2, 3), 0), ((2, 3), (2, 4), 1), ((2, 3), (5, 3), 1),
                ((2, 3), (5, 3), -1), ((0, 3), (0, 3), 1), ((0, 3), (1, 3), 1), ((), (), None), ((), (), 0),
                ((3, 3), (3, 3), None), ((3, 3), (3, 3), -2), ((2, 2), (3, 3), None), ((3,), (3,), 0), ((3,), (3,), None),
                ((1, 3, 2), (4, 3, 1), 1)]


def cross_cases(rng):
    dts = [torch.float32, torch.float64, torch.int32, torch.uint8, torch.bool, torch.float16, torch.bfloat16, torch.int64]
    n = 0
    for sa, sb, dim in CROSS_SHAPES:
        for da, db in [(torch.float64, torch.float64), (torch.float32, torch.float32)] + \
                [(rng.choice(dts), rng.choice(dts)) for _ in range(4)]:
            na, nb = torch.Size(sa).numel(), torch.Size(sb).numel()
            a = E.sample(da, [rng.uniform(-3, 3) for _ in range(max(1, na))])[:na].reshape(sa)
            b = E.sample(db, [rng.uniform(-3, 3) for _ in range(max(1, nb))])[:nb].reshape(sb)
            step = {"out": "y", "op": "cross", "args": ["a", "b"]}
            if dim is not None:
                step["kwargs"] = {"dim": dim}
            g = [k for k, v in (("a", a), ("b", b)) if v.dtype.is_floating_point]
            yield case(f"rules/cross/{n:03d}", {"a": a, "b": b}, step,
                       lambda s, dim=dim: torch.cross(s["a"], s["b"], dim=dim) if dim is not None
                       else torch.cross(s["a"], s["b"]), g)
            n += 1


def clamp_cases(rng):
    dts = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.uint8, torch.bool, torch.int64]

    def bound(k, dt):
        if k == "none":
            return None, None
        if k == "int":
            v = rng.choice([0, 1, -1, 2])
            return {"int": v}, v
        if k == "float":
            v = rng.choice([0.5, -0.25, 1.5, float("nan")])
            return ({"float": "nan"} if math.isnan(v) else {"float": v}), v
        if k == "bool":
            v = rng.choice([True, False])
            return {"bool": v}, v
        if k == "t":
            return "T", E.sample(dt, [rng.uniform(-2, 2) for _ in range(3)])
        return "T", E.sample(dt, [rng.uniform(-2, 2)])[0]

    kinds = ["none", "int", "float", "bool", "t", "t0"]
    n = 0
    for xd in dts:
        for lk in kinds:
            for hk in kinds:
                for form in ("f", "inplace", "out"):
                    if lk != "none" and hk != "none" and (lk in ("t", "t0")) != (hk in ("t", "t0")):
                        continue  # PyTorch's binding refuses a tensor bound with a number bound
                    x = E.sample(xd, [rng.uniform(-2, 2) for _ in range(3)])
                    inputs = {"x": x}
                    bd = rng.choice(dts) if rng.random() < 0.5 else xd
                    args = ["x"]
                    for nm, (a, v) in (("lo", bound(lk, bd)), ("hi", bound(hk, bd))):
                        if a == "T":
                            inputs[nm] = v
                            args.append(nm)
                        else:
                            args.append(a)
                    if form == "out":
                        inputs["o"] = torch.zeros(3, dtype=rng.choice([xd, torch.float32, torch.float16]))
                    step = {"out": "y", "op": "clamp_" if form == "inplace" else "clamp", "args": args}
                    if form == "out":
                        step["kwargs"] = {"out": "o"}

                    def fn(s, args=args, form=form):
                        vals = []
                        for a in args[1:]:
                            if a is None:
                                vals.append(None)
                            elif isinstance(a, str):
                                vals.append(s[a])
                            else:
                                vals.append(TR.decode_float(a["float"]) if "float" in a else next(iter(a.values())))
                        if form == "inplace":
                            return s["x"].clamp_(*vals)
                        if form == "out":
                            return torch.clamp(s["x"], *vals, out=s["o"])
                        return torch.clamp(s["x"], *vals)
                    c = case(f"rules/clamp/{n:03d}", inputs, step, fn)
                    n += 1
                    if c and form == "inplace" and "expect" in c:
                        c["expect"]["x"] = c["expect"]["y"]
                    yield c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7)
    opts = ap.parse_args()
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    os.makedirs(os.path.join(opts.out, "cases"), exist_ok=True)
    rng = random.Random(opts.seed)
    n = 0
    with open(os.path.join(opts.out, "cases", "rules.jsonl"), "w") as w:
        for gen_cases in (kl_div_cases, cross_cases, clamp_cases):
            for c in gen_cases(rng):
                if c is not None:
                    w.write(json.dumps(c, separators=(",", ":")) + "\n")
                    n += 1
    print(f"rules: {n} cases")


if __name__ == "__main__":
    main()
