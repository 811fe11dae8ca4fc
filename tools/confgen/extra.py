#!/usr/bin/env python3
"""Conformance cases for what the reference runner (torch_runner.py) does not cover.

goten's op table has a few ops beyond OPS.md (softsign, the architecture issue's demonstration of
adding an op); and PyTorch refuses some arguments with messages that torch_runner.py's
ERROR_PATTERNS do not classify, so gen.py drops those cases: Go numbers that the dtype they are
read in cannot hold ("value cannot be converted to type int8_t without overflow"), integer division
by zero, integers to negative integer powers. This script writes cases for both in FORMAT.md's
format, with expectations computed by PyTorch 1.13 itself, so that goten is checked against
PyTorch here like anywhere else:

    /usr/bin/python3 tools/confgen/extra.py > testdata/conformance-variants/cases/extra.jsonl

Each op gets every dtype (PyTorch's errors included), contiguous and strided inputs, 0-d and empty
ones, special values, and its in-place form where PyTorch has one. The scalar cases run every op
that takes a Go number over every dtype with numbers at and beyond each dtype's limits, the ops
that read them checked (fill_, clamp's bounds, alpha, ...) beside those that wrap them (add's
operand, lt, ...); a refused in-place or out= call must leave its output unchanged.
"""
import json
import math
import random
import re

import torch
import torch.nn.functional as F

# name -> (function of the input, in-place form or None)
OPS = {
    "softsign": (F.softsign, None),
}

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e4, -1e-3, float("inf"), float("-inf"), float("nan")]


def name(dt):
    return str(dt).replace("torch.", "")


def encode(x, dt):
    if dt == torch.bool:
        return bool(x)
    if not dt.is_floating_point:
        return int(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return float(x) if dt != torch.float32 else float(repr(torch.tensor(x, dtype=torch.float32).item()))


def values(t):
    dt = t.dtype
    flat = t.detach().reshape(-1)
    if dt in (torch.float16, torch.bfloat16):
        flat = flat.to(torch.float32)
    return [encode(v, dt) for v in flat.tolist()]


def draw(rng, dt, n, special):
    if dt == torch.bool:
        return torch.tensor([rng.random() < 0.5 for _ in range(n)], dtype=dt)
    if not dt.is_floating_point:
        lo, hi = (0, 255) if dt == torch.uint8 else (-100, 100)
        return torch.tensor([rng.randint(lo, hi) for _ in range(n)]).to(dt)
    xs = [rng.choice(SPECIAL) if special and rng.random() < 0.5 else rng.uniform(-8, 8) for _ in range(n)]
    return torch.tensor(xs, dtype=torch.float64).to(dt)


def case(cid, op, fn, dt, shape, layout, rng, special):
    n = math.prod(shape)
    if layout == "strided" and n > 0:
        # every other element of a larger storage, with an offset
        storage = draw(rng, dt, 2 * n + 1, special)
        x = storage[1::2][:n].reshape(shape) if shape else storage[1]
        inp = {"dtype": name(dt), "shape": list(shape), "strides": [2 * math.prod(shape[k + 1:]) for k in range(len(shape))],
               "offset": 1, "storage": values(storage)}
    else:
        x = draw(rng, dt, n, special).reshape(shape)
        inp = {"dtype": name(dt), "shape": list(shape), "values": values(x)}
    c = {"id": f"extra/{op}/{cid:03d}", "inputs": {"a": inp}, "program": [{"out": "y", "op": op, "args": ["a"]}]}
    try:
        y = fn(x)
    except RuntimeError as e:
        c["error"] = {"kind": "dtype", "step": 0, "message": str(e).split("\n")[0]}
        return c
    c["expect"] = {"y": {"dtype": name(y.dtype), "shape": list(y.shape), "values": values(y)}}
    return c


# ---- Go numbers (Note [Checked scalars] in goten's package op) and integer division by zero ----

# PyTorch messages -> FORMAT.md kinds, for the refusals these cases meet.
KINDS = [
    ("value", r"without overflow|Integers to negative integer powers|ZeroDivisionError"),
    ("dtype", r"not implemented for '|argument alpha must not be a floating point|Boolean alpha only supported"
              r"|can't be cast to the desired output type|Integer division with addcdiv|expected dtype"
              r"|must have the same dtype|Found dtype|with a bool tensor is not supported"),
]

# numbers at and beyond the limits of each dtype: int8, uint8 (which takes -255..255), int16,
# int32, float16 (65504), bfloat16, float32; NaN and ±Inf, which no integer dtype holds
EDGE = ([0, 1, -1, 127, 128, -128, -129, 255, 256, -255, -256, 1000, 32767, 32768, -32769,
         2**31 - 1, 2**31, -2**31 - 1, 2**40, 2**53]
        + [0.5, -0.5, 127.5, -128.5, 255.5, -1.0, 1000.0, 65504.0, 65504.5, 65520.0, 1e6,
           3.3895313892515355e38, 3.39e38, 3.4028234663852886e38, 1e39, -1e39, 9.3e18, 1e300,
           float("nan"), float("inf"), float("-inf")]
        + [True, False])
SOME = [-1, 127, 128, -129, 255, 256, -256, 1000, 2**31, 2**40, 0.5, 127.5, 65504.0, 65520.0, 1e6,
        3.39e38, 1e39, float("nan"), float("inf"), float("-inf"), True]


def scalar_arg(x):
    if isinstance(x, bool):
        return {"bool": x}
    if isinstance(x, int):
        return {"int": x}
    if math.isnan(x):
        return {"float": "nan"}
    if math.isinf(x):
        return {"float": "inf" if x > 0 else "-inf"}
    return {"float": x}


def sample(dt, values):
    """A small tensor of dt: values, booleans for bool, absolute values for uint8."""
    if dt == torch.bool:
        return torch.tensor([v != 0 for v in values], dtype=dt)
    if dt == torch.uint8:
        values = [abs(v) for v in values]
    return torch.tensor(values, dtype=torch.float64).to(dt)


def tensor_in(t):
    return {"dtype": name(t.dtype), "shape": list(t.shape), "values": values(t)}


def result(t):
    return {"dtype": name(t.dtype), "shape": list(t.shape), "values": values(t)}


def kind_of(message):
    for kind, pattern in KINDS:
        if re.search(pattern, message):
            return kind
    return None


def program_case(cid, inputs, step, fn, writes=()):
    """One case of one step: fn(tensors) runs it in PyTorch on copies of the inputs and returns
    the step's result; writes names the inputs the step writes (in-place self, out=), which a
    refused step must leave unchanged and a successful one is checked for. None if PyTorch's
    outcome is not one to hold goten to: an unclassified error, int64 beyond 2^53, a float16
    kernel PyTorch's CPU lacks (goten has them, as PyTorch's CUDA does), a fused multiply-add
    (addcmul, addcdiv, lerp, the matrix products) whose non-finite results depend on the order
    in which it applies the number (value·t1/t2 overflows where value·(t1/t2) does not)."""
    c = {"id": cid, "inputs": {k: tensor_in(v) for k, v in inputs.items()}, "program": [step]}
    ts = {k: v.clone() for k, v in inputs.items()}
    try:
        y = fn(ts)
    except RuntimeError as e:
        message = str(e).split("\n")[0]
        kind = kind_of(message)
        if kind is None or "not implemented for 'Half'" in message:
            return None
        c["error"] = {"kind": kind, "step": 0, "message": message}
        if re.search(r"without overflow$|^Integers to negative integer powers|^ZeroDivisionError$|^Subtraction, the", message):
            c["error"]["exact"] = True  # goten's message is PyTorch's text
        if writes:
            c["error"]["unchanged"] = list(writes)
        return c
    got = {step["out"]: y}
    got.update({k: ts[k] for k in writes})
    for t in got.values():
        # (not t.abs() > 2^53: the abs of int64's lowest wraps to itself)
        if t.dtype == torch.int64 and bool(((t > 2**53) | (t < -2**53)).any()):
            return None
        if step["op"] in ("addmm", "baddbmm", "addcmul", "addcdiv", "lerp") and not t.isfinite().all():
            return None
    c["expect"] = {k: result(t) for k, t in got.items()}
    return c


def checked_ops(dt):
    """The ops that read a Go number S by PyTorch's checked conversion: (name, inputs, step
    without out, fn of (tensors, S), writes). Inputs are small, so that no result overflows."""
    a = sample(dt, [1, 0, -1])
    cond = torch.tensor([True, False, True])
    m = sample(dt, [1, 2, 0, 1]).reshape(2, 2)
    yield "fill_", {"a": a}, lambda s: {"op": "fill_", "args": ["a", s]}, lambda t, x: t["a"].fill_(x), ("a",)
    yield "full_like", {"a": a}, lambda s: {"op": "full_like", "args": ["a", s]}, lambda t, x: torch.full_like(t["a"], x), ()
    yield "clamp_min", {"a": a}, lambda s: {"op": "clamp", "args": ["a", s]}, lambda t, x: torch.clamp(t["a"], x), ()
    yield "clamp_max", {"a": a}, lambda s: {"op": "clamp", "args": ["a", None, s]}, lambda t, x: torch.clamp(t["a"], None, x), ()
    yield "clamp_both", {"a": a}, lambda s: {"op": "clamp", "args": ["a", s, s]}, lambda t, x: torch.clamp(t["a"], x, x), ()
    yield "clamp_", {"a": a}, lambda s: {"op": "clamp_", "args": ["a", s]}, lambda t, x: t["a"].clamp_(x), ("a",)
    yield "add_alpha", {"a": a}, lambda s: {"op": "add", "args": ["a", "a"], "kwargs": {"alpha": s}}, \
        lambda t, x: torch.add(t["a"], t["a"], alpha=x), ()
    yield "sub_alpha", {"a": a}, lambda s: {"op": "sub", "args": ["a", "a"], "kwargs": {"alpha": s}}, \
        lambda t, x: torch.sub(t["a"], t["a"], alpha=x), ()
    yield "add__alpha", {"a": a, "b": a}, lambda s: {"op": "add_", "args": ["a", "b"], "kwargs": {"alpha": s}}, \
        lambda t, x: t["a"].add_(t["b"], alpha=x), ("a",)
    yield "addcmul_value", {"a": a}, lambda s: {"op": "addcmul", "args": ["a", "a", "a"], "kwargs": {"value": s}}, \
        lambda t, x: torch.addcmul(t["a"], t["a"], t["a"], value=x), ()
    yield "addcdiv_value", {"a": a, "f": sample(torch.float32, [1, 2, 4])}, \
        lambda s: {"op": "addcdiv", "args": ["a", "f", "f"], "kwargs": {"value": s}}, \
        lambda t, x: torch.addcdiv(t["a"], t["f"], t["f"], value=x), ()
    yield "where_x", {"c": cond, "a": a}, lambda s: {"op": "where", "args": ["c", s, "a"]}, lambda t, x: torch.where(t["c"], x, t["a"]), ()
    yield "where_y", {"c": cond, "a": a}, lambda s: {"op": "where", "args": ["c", "a", s]}, lambda t, x: torch.where(t["c"], t["a"], x), ()
    yield "where_xy", {"c": cond}, lambda s: {"op": "where", "args": ["c", s, {"int": 0}]}, lambda t, x: torch.where(t["c"], x, 0), ()
    yield "pow_exponent", {"a": a}, lambda s: {"op": "pow", "args": ["a", s]}, lambda t, x: torch.pow(t["a"], x), ()
    yield "lerp_weight", {"a": a}, lambda s: {"op": "lerp", "args": ["a", "a", s]}, lambda t, x: torch.lerp(t["a"], t["a"], x), ()
    yield "addmm_alpha", {"m": m}, lambda s: {"op": "addmm", "args": ["m", "m", "m"], "kwargs": {"alpha": s}}, \
        lambda t, x: torch.addmm(t["m"], t["m"], t["m"], alpha=x), ()
    yield "addmm_beta", {"m": m}, lambda s: {"op": "addmm", "args": ["m", "m", "m"], "kwargs": {"beta": s}}, \
        lambda t, x: torch.addmm(t["m"], t["m"], t["m"], beta=x), ()
    yield "baddbmm_beta", {"m": m[None]}, lambda s: {"op": "baddbmm", "args": ["m", "m", "m"], "kwargs": {"beta": s}}, \
        lambda t, x: torch.baddbmm(t["m"], t["m"], t["m"], beta=x), ()
    yield "baddbmm_alpha", {"m": m[None]}, lambda s: {"op": "baddbmm", "args": ["m", "m", "m"], "kwargs": {"alpha": s}}, \
        lambda t, x: torch.baddbmm(t["m"], t["m"], t["m"], alpha=x), ()
    # the in-place forms and keyword bounds, which read the number as their out-of-place forms do
    yield "clamp__max", {"a": a}, lambda s: {"op": "clamp_", "args": ["a"], "kwargs": {"max": s}}, lambda t, x: t["a"].clamp_(max=x), ("a",)
    yield "sub__alpha", {"a": a, "b": a}, lambda s: {"op": "sub_", "args": ["a", "b"], "kwargs": {"alpha": s}}, \
        lambda t, x: t["a"].sub_(t["b"], alpha=x), ("a",)
    yield "add_number_alpha", {"a": a}, lambda s: {"op": "add", "args": ["a", {"int": 2}], "kwargs": {"alpha": s}}, \
        lambda t, x: torch.add(t["a"], 2, alpha=x), ()
    yield "addcmul__value", {"a": a, "b": a}, lambda s: {"op": "addcmul_", "args": ["a", "b", "b"], "kwargs": {"value": s}}, \
        lambda t, x: t["a"].addcmul_(t["b"], t["b"], value=x), ("a",)
    yield "lerp__weight", {"a": a, "b": sample(dt, [2, 1, 3])}, lambda s: {"op": "lerp_", "args": ["a", "b", s]}, \
        lambda t, x: t["a"].lerp_(t["b"], x), ("a",)
    yield "pow__exponent", {"a": a}, lambda s: {"op": "pow_", "args": ["a", s]}, lambda t, x: t["a"].pow_(x), ("a",)


# every binary op of torch_runner that takes a Go number, as which operands; the shifts are left
# out: PyTorch 1.13 shifts by the wrapped amount with C++'s undefined behaviour (x86 masks it)
WRAPPING = {"add": (0, 1), "sub": (0, 1), "mul": (0, 1), "div": (0, 1), "floor_divide": (0, 1),
            "remainder": (0, 1), "fmod": (1,), "pow": (0,), "copysign": (1,), "eq": (1,), "ne": (1,),
            "lt": (1,), "le": (1,), "gt": (1,), "ge": (1,), "bitwise_and": (0, 1),
            "bitwise_or": (0, 1), "bitwise_xor": (0, 1)}


def wrapping_ops(dt):
    """Ops whose Go-number operand PyTorch casts like a tensor: out-of-range values wrap."""
    a = sample(dt, [1, 0, -1])
    for op, places in WRAPPING.items():
        for place in places:
            if place == 1:
                yield op, {"a": a}, (lambda op: lambda s: {"op": op, "args": ["a", s]})(op), \
                    (lambda op: lambda t, x: getattr(torch, op)(t["a"], x))(op), ()
            else:
                yield op + "_base", {"a": sample(dt, [1, 0, 2])}, (lambda op: lambda s: {"op": op, "args": [s, "a"]})(op), \
                    (lambda op: lambda t, x: getattr(torch, op)(x, t["a"]))(op), ()
    for op in ["add_", "sub_", "mul_", "div_"]:
        yield op, {"a": a}, (lambda op: lambda s: {"op": op, "args": ["a", s]})(op), \
            (lambda op: lambda t, x: getattr(t["a"], op)(x))(op), ("a",)


def logit_cases(rng):
    for dt in DTYPES:
        p = sample(dt, [0.25, 0.5, 0.75]) if dt.is_floating_point else sample(dt, [1, 0, 1])
        for eps in rng.sample([0.5, 127.5, 65504.0, 65520.0, 1e6, 3.39e38, 1e39, float("inf"), float("nan")], 4):
            yield dt, {"p": p}, {"out": "y", "op": "logit", "args": ["p", scalar_arg(eps)]}, \
                (lambda eps: lambda t: torch.logit(t["p"], eps))(eps)


def division_cases():
    """Integer division by zero (ZeroDivisionError) and integers to negative integer powers."""
    ints = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
    divs = [("floor_divide", {}, lambda a, b: torch.floor_divide(a, b)),
            ("remainder", {}, lambda a, b: torch.remainder(a, b)),
            ("fmod", {}, lambda a, b: torch.fmod(a, b)),
            ("div", {"rounding_mode": "string:trunc"}, lambda a, b: torch.div(a, b, rounding_mode="trunc")),
            ("div", {"rounding_mode": "string:floor"}, lambda a, b: torch.div(a, b, rounding_mode="floor"))]
    for dt in ints + [torch.bool, torch.float32]:
        a = sample(dt, [7, 0, 5, 3])
        for op, kw, fn in divs:
            tag = op + ("_" + kw["rounding_mode"][7:] if kw else "")
            # a tensor divisor with one zero, one without, a broadcast one, a Go number 0 and 3
            for bname, b in [("zero", sample(dt, [2, 1, 0, 3])), ("nonzero", sample(dt, [2, 1, 4, 3])),
                             ("row0", sample(dt, [0, 2, 1, 3]).reshape(2, 2)[:1]), ("bcast", sample(dt, [0]))]:
                yield f"{tag}/{bname}", {"a": a.reshape(2, 2), "b": b}, {"out": "y", "op": op, "args": ["a", "b"], "kwargs": dict(kw)}, \
                    (lambda fn: lambda t: fn(t["a"], t["b"]))(fn), ()
            for x in [0, 3, 256, -256, 0.0, False]:
                yield f"{tag}/number_{x!r}", {"a": a}, {"out": "y", "op": op, "args": ["a", scalar_arg(x)], "kwargs": dict(kw)}, \
                    (lambda fn, x: lambda t: fn(t["a"], x))(fn, x), ()
            # a wrapped 0-dim int64 256 is 0 in an int8 compute dtype
            yield f"{tag}/zerodim256", {"a": a, "b": torch.tensor(256)}, {"out": "y", "op": op, "args": ["a", "b"], "kwargs": dict(kw)}, \
                (lambda fn: lambda t: fn(t["a"], t["b"]))(fn), ()
            # nothing to compute: no error
            yield f"{tag}/empty", {"a": a[:0], "b": sample(dt, [0])}, {"out": "y", "op": op, "args": ["a", "b"], "kwargs": dict(kw)}, \
                (lambda fn: lambda t: fn(t["a"], t["b"]))(fn), ()
        # in place and out=: a refused call leaves its output as it was
        b = sample(dt, [2, 0, 1, 3])
        yield "floor_divide_/zero", {"a": a, "b": b}, {"out": "y", "op": "div_", "args": ["a", "b"], "kwargs": {"rounding_mode": "string:floor"}}, \
            lambda t: t["a"].div_(t["b"], rounding_mode="floor"), ("a",)
        yield "remainder_out/zero", {"a": a, "b": b, "o": sample(dt, [9, 9, 9, 9])}, {"out": "y", "op": "remainder", "args": ["a", "b"], "kwargs": {"out": "o"}}, \
            lambda t: torch.remainder(t["a"], t["b"], out=t["o"]), ("o",)
    for dt in ints + [torch.bool, torch.float32]:
        a = sample(dt, [2, 1, 0, 3])
        for x in [-1, -2, 0, 2, -1.0, -0.5, True]:
            yield f"pow/number_{x!r}", {"a": a}, {"out": "y", "op": "pow", "args": ["a", scalar_arg(x)]}, (lambda x: lambda t: torch.pow(t["a"], x))(x), ()
        if dt != torch.bool:
            e = sample(dt, [-1, 2, -3, 1]) if dt != torch.uint8 else sample(dt, [1, 2, 3, 1])
            yield "pow/tensor", {"a": a, "e": e}, {"out": "y", "op": "pow", "args": ["a", "e"]}, lambda t: torch.pow(t["a"], t["e"]), ()
            yield "pow_/number_-1", {"a": a}, {"out": "y", "op": "pow_", "args": ["a", scalar_arg(-1)]}, lambda t: t["a"].pow_(-1), ("a",)


def scalar_main(rng):
    n = 0

    def emit(cid, inputs, step, fn, writes):
        nonlocal n
        c = program_case(cid, inputs, step, fn, writes)
        if c is not None:
            print(json.dumps(c, separators=(",", ":")))
            n += 1

    for dt in DTYPES:
        for op, inputs, step, fn, writes in checked_ops(dt):
            numbers = EDGE if op == "fill_" else rng.sample(SOME, 6)
            for x in numbers:
                s = dict(step(scalar_arg(x)), out="y")
                emit(f"extra/scalar/{op}/{name(dt)}/{x!r}", inputs, s, (lambda fn, x: lambda t: fn(t, x))(fn, x), writes)
        for op, inputs, step, fn, writes in wrapping_ops(dt):
            for x in rng.sample(SOME, 4):
                s = dict(step(scalar_arg(x)), out="y")
                emit(f"extra/scalar/{op}/{name(dt)}/{x!r}", inputs, s, (lambda fn, x: lambda t: fn(t, x))(fn, x), writes)
    for dt, inputs, step, fn in logit_cases(rng):
        emit(f"extra/scalar/logit/{name(dt)}/{step['args'][1]['float']}", inputs, step, fn, ())
    seen = {}
    for tag, inputs, step, fn, writes in division_cases():
        dt = name(next(iter(inputs.values())).dtype)
        cid = f"extra/intdiv/{tag}/{dt}"
        seen[cid] = seen.get(cid, 0) + 1
        emit(cid if seen[cid] == 1 else f"{cid}/{seen[cid]}", inputs, step, fn, writes)


def main():
    rng = random.Random(1)
    for op, (fn, _) in OPS.items():
        cid = 0
        for dt in DTYPES:
            for shape, layout, special in [((), "contiguous", True), ((7,), "contiguous", True), ((3, 4), "strided", True),
                                           ((0, 3), "contiguous", False), ((2, 1, 5), "contiguous", False)]:
                print(json.dumps(case(cid, op, fn, dt, shape, layout, rng, special), separators=(",", ":")))
                cid += 1
    scalar_main(random.Random(2))


if __name__ == "__main__":
    main()
