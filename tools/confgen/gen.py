#!/usr/bin/python3
"""Variant generator for the conformance cases.

    /usr/bin/python3 tools/confgen/gen.py [--cases DIR] [--out OUT] [--seed S] [--per-case N]
                                          [--suites a,b,...] [--limit K]

Reads the existing cases of the dense suites (DIR/cases/<suite>.jsonl, default
/work/shared/conformance) and writes mutated variants to OUT/cases/<suite>.jsonl in the same
format (FORMAT.md), with expectations computed by PyTorch 1.13 through torch_runner.py's own
machinery (build_tensor, decode_arg, run_op, classify_error). Every written case is validated by
torch_runner.run_case. Mutations (seeded, reproducible):

  values  new random input values of the same dtype (specials for *_special families / ints)
  dtype   another dtype for all inputs or for one of them
  layout  non-contiguous storage (permuted, stepped, offset, expanded stride-0 dims)
  dims    other dim / keepdim / dtype / unbiased / correction arguments (valid and invalid)
  sizes   consistent remapping of the sizes (includes 0 and 1)
  scalar  other scalar operands (kind and value)

Variants whose result would depend on behaviour that FORMAT.md / OPS.md leave undefined are
dropped: signed integer overflow, integer shifts out of range, float->int conversions of
out-of-range values, float64->float16/bfloat16 double-rounding ties, partial overlaps between
views that are not both non-overlapping-and-dense, out= tensors with elements of the wrong shape,
torch errors that map to no kind, and low-precision float results that disagree with the same
program computed in float64 (the rule of OPS.md "Float precision").
"""

import argparse
import copy
import json
import math
import os
import random
import re
import sys

# ../shared/conformance beside the repository (or $GOTEN_SHARED/conformance)
SHARED = os.environ.get("GOTEN_SHARED") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared")
sys.path.insert(0, os.path.join(SHARED, "conformance"))
import torch_runner as TR  # noqa: E402
import torch  # noqa: E402

SUITES = ["views", "unary", "binary", "promotion", "ternary", "out_inplace", "overlap",
          "broadcast_errors", "copy_cast", "reductions", "scans", "softmax", "linalg", "large",
          "autograd"]
DTYPES = list(TR.DTYPES)
FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]
INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-32768, 32767),
             "int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 53, 2 ** 53)}
FMAX = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38, "float32": 3.4028234663852886e38,
        "float64": 1.7976931348623157e308}
SPECIAL_F = {
    "float16": [65504.0, -65504.0, 6e-8, -6e-8, 6.1e-5, 1e4],
    "bfloat16": [3.0e38, -3.0e38, 1e-39, -1e-39, 1e-38, 1e30],
    "float32": [3.0e38, -3.4e38, 1.4e-45, -1e-40, 1.2e-38, 1e30],
    "float64": [1.7e308, -1e308, 5e-324, -1e-310, 2.3e-308, 1e200],
}
SPECIAL_COMMON = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.0, -1.0, 0.5]
SPECIAL_I = {"uint8": [0, 255, 1, 128, 127, 254], "int8": [-128, 127, 0, -1, 1, -127],
             "int16": [-32768, 32767, 0, -1, 1, 255], "int32": [-2 ** 31, 2 ** 31 - 1, 0, -1, 1, 65535],
             "int64": [2 ** 53, -2 ** 53, 2 ** 31, -2 ** 31 - 1, 0, -1]}

# positional dims of ops (arg index), whether they may be lists
DIM_ARGS = {
    "sum": [1], "nansum": [1], "mean": [1], "amax": [1], "amin": [1], "logsumexp": [1],
    "prod": [1], "max": [1], "min": [1], "argmax": [1], "argmin": [1], "all": [1], "any": [1],
    "var": [1], "std": [1], "norm": [2],
    "cumsum": [1], "cumprod": [1], "cummax": [1], "cummin": [1], "logcumsumexp": [1],
    "softmax": [1], "log_softmax": [1],
    "cat": [1], "stack": [1], "split": [2], "chunk": [2], "select": [1], "narrow": [1],
    "transpose": [1, 2], "unsqueeze": [1], "squeeze": [1], "flatten": [1, 2], "unflatten": [1],
    "movedim": [1, 2],
}
LIST_DIM_OPS = {"sum", "nansum", "mean", "amax", "amin", "logsumexp", "var", "std", "norm",
                "movedim", "count_nonzero"}
KEEPDIM_POS = {"sum": 2, "nansum": 2, "mean": 2, "amax": 2, "amin": 2, "logsumexp": 2, "prod": 2,
               "max": 2, "min": 2, "argmax": 2, "argmin": 2, "all": 2, "any": 2, "var": 3,
               "std": 3, "norm": 3}
DTYPE_KW_OPS = {"sum", "nansum", "prod", "mean", "cumsum", "cumprod", "softmax", "log_softmax",
                "norm"}
SHAPE_ARG = {"view": 1, "reshape": 1, "expand": 1, "unflatten": 2, "layer_norm": 1,
             "split": 1, "permute": None}
LINALG = {"matmul", "mm", "bmm", "mv", "dot", "linear", "addmm", "baddbmm"}


class Drop(Exception):
    pass


# ------------------------------------------------------------------------------------------------
# encoding
# ------------------------------------------------------------------------------------------------

def enc_f(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def enc_vals(t, dtype):
    flat = t.detach().reshape(-1)
    if dtype == "bool":
        return [bool(x) for x in flat.tolist()]
    if dtype in FLOATS:
        return [enc_f(x) for x in flat.to(torch.float64).tolist()]
    return [int(x) for x in flat.to(torch.int64).tolist()]


def round_to(dtype, xs):
    """float64 python list -> values exactly representable in dtype (python floats)."""
    if not xs:
        return []
    t = torch.tensor(xs, dtype=torch.float64)
    if dtype != "float64":
        t = t.to(TR.DTYPES[dtype])
    return t.to(torch.float64).tolist()


def dense(t):
    """is_non_overlapping_and_dense"""
    if isinstance(t, TR.Nested):
        return False
    if t.numel() == 0:
        return True
    dims = sorted([(t.stride(d), t.size(d)) for d in range(t.dim()) if t.size(d) != 1])
    expect = 1
    for st, sz in dims:
        if st != expect:
            return False
        expect *= sz
    return True


def addresses(t):
    if t.numel() == 0:
        return torch.zeros(0, dtype=torch.int64)
    a = torch.full(list(t.shape), t.storage_offset(), dtype=torch.int64)
    for d in range(t.dim()):
        shp = [1] * t.dim()
        shp[d] = t.size(d)
        a = a + (torch.arange(t.size(d), dtype=torch.int64) * t.stride(d)).reshape(shp)
    return a.reshape(-1)


def sptr(t):
    return t.storage().data_ptr()


# ------------------------------------------------------------------------------------------------
# value generation
# ------------------------------------------------------------------------------------------------

def value_hint(spec):
    """(lo, hi, kind) of the finite values of an input spec."""
    if "fill" in spec:
        return None
    vals = spec.get("values", spec.get("storage", []))
    nums = []
    for v in vals:
        if isinstance(v, bool):
            nums.append(float(v))
        elif isinstance(v, (int, float)):
            if math.isfinite(v) and abs(v) < 1e6:
                nums.append(float(v))
    if len(nums) < 2:
        return None
    return (min(nums), max(nums))


def gen_values(rng, dtype, n, hint, mode):
    if dtype == "bool":
        p = rng.choice([0.5, 0.2, 0.8])
        return [rng.random() < p for _ in range(n)]
    if dtype in INTS:
        lo, hi = INT_RANGE[dtype]
        if hint is not None:
            hl, hh = math.floor(hint[0]), math.ceil(hint[1])
            if hh - hl >= 2:
                lo, hi = max(lo, hl), min(hi, hh)
            else:
                lo, hi = (0, 20) if dtype == "uint8" else (-10, 10)
        else:
            lo, hi = (0, 20) if dtype == "uint8" else (-10, 10)
        if mode == "unique" and hi - lo + 1 >= n:
            return rng.sample(range(lo, hi + 1), n)
        out = []
        for _ in range(n):
            if mode.startswith("special") and rng.random() < 0.3:
                out.append(rng.choice(SPECIAL_I[dtype]))
            else:
                out.append(rng.randint(lo, hi))
        return out
    lo, hi = hint if hint is not None else (-3.0, 3.0)
    if hi - lo < 0.5:
        lo, hi = lo - 1.5, hi + 1.5
    cap = FMAX[dtype] / 4
    lo, hi = max(lo, -cap), min(hi, cap)
    xs = []
    for _ in range(n):
        if mode == "special" and rng.random() < 0.35:
            xs.append(rng.choice(SPECIAL_COMMON + SPECIAL_F[dtype]))
        elif mode == "special_nohuge" and rng.random() < 0.25:
            xs.append(rng.choice(SPECIAL_COMMON + SPECIAL_F[dtype][2:5]))
        elif mode == "grid":
            xs.append(round(rng.uniform(lo, hi) * 4) / 4)
        else:
            xs.append(rng.uniform(lo, hi))
    xs = round_to(dtype, xs)
    if mode == "unique":
        if len(set(xs)) != len(xs):
            raise Drop("ties")
    return xs


def enc_in(dtype, xs):
    if dtype in FLOATS:
        return [enc_f(x) for x in xs]
    return xs


# ------------------------------------------------------------------------------------------------
# input specs
# ------------------------------------------------------------------------------------------------

def logical_values(spec):
    t = TR.build_tensor(spec)
    return enc_vals(t, spec["dtype"])


def contiguous_spec(dtype, shape, values):
    return {"dtype": dtype, "shape": list(shape), "values": list(values)}


def unravel(i, shape):
    idx = []
    for s in reversed(shape):
        idx.append(i % s)
        i //= s
    return list(reversed(idx))


def layout_spec(rng, dtype, shape, values, hint, expand_ok=True):
    """A storage-form spec with a random layout showing the given logical values."""
    nd = len(shape)
    numel = math.prod(shape)
    perm = list(range(nd))
    rng.shuffle(perm)
    step = rng.choice([1, 1, 2, 3])
    expand = set()
    if expand_ok and nd and rng.random() < 0.35:
        cands = [d for d in range(nd) if shape[d] > 1] or list(range(nd))
        expand.add(rng.choice(cands))
    strides = [0] * nd
    acc = step
    for d in reversed(perm):
        if d in expand:
            continue
        strides[d] = acc
        acc = acc * max(shape[d], 1) + rng.choice([0, 0, 0, 1, 2])
    offset = rng.randint(0, 5)
    if numel > 0:
        size = offset + sum((shape[d] - 1) * strides[d] for d in range(nd)) + 1
    else:
        size = offset
    size += rng.randint(0, 3)
    junk = gen_values(rng, dtype, size, hint, "plain")
    storage = list(enc_in(dtype, junk))
    if expand:
        vals = list(values)
        for i in range(numel):
            idx = unravel(i, shape)
            j = 0
            for d in range(nd):
                j = j * shape[d] + (0 if d in expand else idx[d])
            vals[i] = values[j]
        values = vals
    for i in range(numel):
        idx = unravel(i, shape)
        pos = offset + sum(idx[d] * strides[d] for d in range(nd))
        storage[pos] = values[i]
    return {"dtype": dtype, "shape": list(shape), "strides": strides, "offset": offset,
            "storage": storage}


def respec(rng, spec, dtype, shape, values, hint, layout=None):
    """New spec with these logical values; layout: None keeps the kind of the original spec."""
    if layout is None:
        layout = "storage" in spec
    out = (layout_spec(rng, dtype, shape, values, hint) if layout
           else contiguous_spec(dtype, shape, values))
    if spec.get("requires_grad"):
        out["requires_grad"] = True
    return out


def new_fill(rng):
    return {"a": rng.choice([7919, 104729, 13, 31, 1009, 65537]), "b": rng.randint(0, 1000),
            "m": rng.choice([61, 251, 1009, 127, 509]), "c": rng.randint(0, 600),
            "d": rng.choice([1, 4, 16, 64, 128, 256, 512])}


def fix_fill(spec):
    f = spec["fill"]
    f["c"] = min(f["c"], f["m"])
    if spec["dtype"] in INTS or spec["dtype"] == "bool":
        f["d"] = 1
    if spec["dtype"] == "uint8":
        f["c"] = 0
        f["m"] = min(f["m"], 251)
    if spec["dtype"] == "int8":
        f["m"] = min(f["m"], 251)
        f["c"] = min(max(f["c"], f["m"] - 127), 128)


# ------------------------------------------------------------------------------------------------
# running a program with torch
# ------------------------------------------------------------------------------------------------

def tensors_in(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [y for y in x if isinstance(y, torch.Tensor)]
    return []


def is_int(dt):
    return dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def check_conv(src, dst_dtype):
    """float -> int conversion must see finite in-range values; float64 -> f16/bf16 no ties."""
    if not isinstance(src, torch.Tensor) or src.numel() == 0:
        return
    if src.is_floating_point() and is_int(dst_dtype):
        x = src.detach().to(torch.float64)
        if not bool(torch.isfinite(x).all()):
            raise Drop("float->int of non-finite")
        lo, hi = INT_RANGE[TR.DTYPE_NAMES[dst_dtype]]
        tx = torch.trunc(x)
        if bool((tx < lo).any()) or bool((tx > hi).any()):
            raise Drop("float->int out of range")
    if src.dtype == torch.float64 and dst_dtype in (torch.float16, torch.bfloat16):
        x = src.detach().reshape(-1)
        r32 = x.to(torch.float32).to(torch.float64)
        y = r32.to(dst_dtype).to(torch.float64)
        other = 2 * r32 - y
        back = other.to(dst_dtype).to(torch.float64)
        tie = (r32 != x) & (y != r32) & (back == other) & (other != y) & torch.isfinite(y)
        if bool(tie.any()):
            raise Drop("double rounding tie")


def int_result_type(args):
    """The integer dtype two leading arguments promote to, or None (fewer arguments, a float
    result, or arguments torch cannot promote)."""
    if len(args) < 2:
        return None
    try:
        rt = torch.result_type(args[0], args[1])
    except Exception:
        return None
    return rt if is_int(rt) else None


def pre_checks(op, args, kwargs, env_tensors):
    base = op[:-1] if op.endswith("_") and op != "copy_" else op
    # conversions
    if op == "to" and len(args) >= 2 and isinstance(args[1], torch.dtype):
        check_conv(args[0], args[1])
    if op == "copy_" and len(args) >= 2 and isinstance(args[0], torch.Tensor):
        check_conv(args[1], args[0].dtype)
    if "dtype" in kwargs and isinstance(kwargs["dtype"], torch.dtype) and args and \
            isinstance(args[0], torch.Tensor):
        check_conv(args[0], kwargs["dtype"])
    if op in ("fill_", "full_like") and len(args) >= 2 and isinstance(args[0], torch.Tensor):
        v = args[1]
        if isinstance(v, float) and is_int(args[0].dtype):
            lo, hi = INT_RANGE[TR.DTYPE_NAMES[args[0].dtype]]
            if not math.isfinite(v) or not (lo <= math.trunc(v) <= hi):
                raise Drop("scalar float->int")
        if isinstance(v, float) and args[0].dtype in (torch.float16, torch.bfloat16):
            check_conv(torch.tensor([v], dtype=torch.float64), args[0].dtype)
    if isinstance(kwargs.get("out"), torch.Tensor) and kwargs["out"].dtype in (
            torch.float16, torch.bfloat16):
        pass
    # shifts, and integer division of the dtype's minimum by -1, which traps (SIGFPE) in
    # torch's kernels
    rt = int_result_type(args) if base in ("bitwise_left_shift", "bitwise_right_shift", "floor_divide",
                                           "remainder", "fmod", "div", "divide") else None
    if rt is not None:
        av, bv = (x if isinstance(x, torch.Tensor) else torch.tensor([x]) for x in args[:2])
        av, bv = av.to(torch.int64), bv.to(torch.int64)
        if base.startswith("bitwise"):
            if bv.numel() and (bool((bv < 0).any()) or bool((bv >= torch.iinfo(rt).bits).any())):
                raise Drop("shift amount")
        elif av.numel() and bv.numel() and bool((av == torch.iinfo(rt).min).any()) and bool((bv == -1).any()):
            raise Drop("integer minimum divided by -1")
    # aliasing between a written tensor and the step's inputs
    written = None
    if op.endswith("_") and args and isinstance(args[0], torch.Tensor):
        written = args[0]
    if isinstance(kwargs.get("out"), torch.Tensor):
        written = kwargs["out"]
    if written is not None and written.numel() > 0:
        wa = addresses(written)
        if op not in ("fill_", "zero_"):
            if wa.unique().numel() != wa.numel():
                has_zero = any(written.stride(d) == 0 and written.size(d) > 1
                               for d in range(written.dim()))
                if not has_zero:
                    raise Drop("internal overlap not by stride 0")
        others = []
        for i, a in enumerate(args):
            if i == 0 and op.endswith("_"):
                continue
            others += tensors_in(a)
        for k, v in kwargs.items():
            if k != "out":
                others += tensors_in(v)
        for t in others:
            if t is written or t.numel() == 0 or sptr(t) != sptr(written):
                continue
            ta = addresses(t)
            inter = bool(torch.isin(ta, wa).any())
            if not inter:
                continue
            if dense(t) and dense(written):
                continue
            raise Drop("ambiguous overlap")


def written_of(step, args, kwargs):
    op = step["op"]
    if op.endswith("_") and args and isinstance(args[0], torch.Tensor):
        return args[0]
    if isinstance(kwargs.get("out"), torch.Tensor):
        return kwargs["out"]
    return None


def execute(case, transform=None, targs=True, hook=None):
    """Run the program with torch. Returns (env, order, err) where err is (step, exc, unchanged).

    transform: applied to every input tensor (and, with targs, to dtype args: shadows);
    hook(i, args, kwargs) -> (args, kwargs): changes a step's arguments (probes)."""
    env, order = {}, []
    inputs = case["inputs"]
    for name, spec in inputs.items():
        env[name] = TR.build_tensor(spec)
        if transform is not None:
            x = env[name]
            env[name] = TR.Nested([transform(c) for c in x.components]) if isinstance(x, TR.Nested) \
                else transform(x)
        order.append(name)
    for i, step in enumerate(case["program"]):
        args = [TR.decode_arg(a, env) for a in step.get("args", [])]
        kwargs = {k: TR.decode_arg(v, env) for k, v in step.get("kwargs", {}).items()}
        if hook is not None:
            args, kwargs = hook(i, args, kwargs)
        if transform is not None:
            if targs:
                args = [transform_arg(a, step["op"], transform) for a in args]
                kwargs = {k: transform_arg(v, step["op"], transform) for k, v in kwargs.items()}
        else:
            pre_checks(step["op"], args, kwargs, env)
        w = written_of(step, args, kwargs)
        out_kw = kwargs.get("out")
        out_shape = list(out_kw.shape) if isinstance(out_kw, torch.Tensor) else None
        snaps = {n: TR.snapshot(env[n]) for n in inputs}
        try:
            result = TR.run_op(step["op"], args, kwargs)
        except TR.FormatError as exc:
            raise Drop(f"format: {exc}")
        except Drop:
            raise
        except Exception as exc:
            unchanged = []
            if w is not None:
                for n in inputs:
                    if sptr(env[n]) == sptr(w) and TR.same_snapshot(snaps[n], TR.snapshot(env[n])):
                        unchanged.append(n)
                        break
            return env, order, (i, exc, unchanged)
        if out_shape is not None and math.prod(out_shape) > 0 and \
                out_shape != list(out_kw.shape):
            raise Drop("out= with elements resized")
        outs = step["out"]
        if isinstance(outs, list):
            if not isinstance(result, (list, tuple)) or len(result) != len(outs):
                raise Drop("result count")
            for n, v in zip(outs, result):
                env[n] = v
                order.append(n)
        else:
            if isinstance(result, (list, tuple)):
                raise Drop("several results")
            env[outs] = result
            order.append(outs)
    return env, order, None


def transform_arg(a, op, transform):
    if isinstance(a, torch.dtype):
        if op == "to":
            return a
        return transform(a)
    return a


def restore(t, dtype):
    """The same view over the same storage, converted to dtype (storage and layout kept)."""
    st = t.storage()
    flat = torch.empty(0, dtype=t.dtype).set_(st, 0, (st.size(),), (1,))
    return torch.as_strided(flat.to(dtype), t.shape, t.stride(), t.storage_offset())


def wide_float(x):
    if isinstance(x, torch.dtype):
        return torch.float64 if x in (torch.float16, torch.bfloat16, torch.float32) else x
    if x.is_floating_point() and x.dtype != torch.float64:
        return restore(x, torch.float64)
    return x


SIGNED_SMALL = (torch.int8, torch.int16, torch.int32)


def wide_int(x):
    if isinstance(x, torch.dtype):
        return torch.int64 if x in SIGNED_SMALL else x
    if x.dtype in SIGNED_SMALL:
        return restore(x, torch.int64)
    return x


# ------------------------------------------------------------------------------------------------
# building the expectations
# ------------------------------------------------------------------------------------------------

def tolerance(suite, orig, exp_dtypes, mutated_dtype):
    if suite == "copy_cast":
        return 0.0, 0.0
    if suite == "large":
        if not mutated_dtype and "rtol" in orig:
            return orig["rtol"], orig["atol"]
        return None
    if suite == "linalg" and "float32" in exp_dtypes:
        return 1e-4, 1e-5
    if suite == "softmax" and "float32" in exp_dtypes and \
            any(s["op"] == "layer_norm" for s in orig["program"]):
        return 1e-4, 1e-4
    return None


def layout_defined(program, env, inputs):
    """Names whose layout FORMAT.md defines (inputs, views of defined names, dense clones,
    contiguous / reshape copies, in-place results and out= tensors)."""
    defined = set(inputs)
    for st in program:
        outs = st["out"] if isinstance(st["out"], list) else [st["out"]]
        op = st["op"]
        src = st.get("args", [None])[0] if st.get("args") else None
        src_t = env.get(src) if isinstance(src, str) else None
        ok = False
        if op.endswith("_"):
            ok = src in defined
        elif "out" in st.get("kwargs", {}):
            ok = st["kwargs"]["out"] in defined
        elif op in ("cat", "stack"):
            ok = False
        elif op == "clone":
            ok = src in defined and src_t is not None and dense(src_t)
        elif op in ("contiguous", "reshape", "flatten"):
            res = env.get(outs[0])
            shares = isinstance(res, torch.Tensor) and src_t is not None and sptr(res) == sptr(src_t)
            ok = (src in defined) if shares else True
        elif op in TR.VIEW_OPS:
            ok = src in defined
        if ok:
            defined.update(outs)
    return defined


def layout_policy(suite, case, name, producer, env, defined=None):
    if defined is not None and name not in defined:
        return False
    if suite == "views":
        if producer is None or producer["op"] in ("cat", "stack"):
            return False
        if producer["op"] == "clone":
            src = env.get(producer["args"][0])
            return isinstance(src, torch.Tensor) and dense(src)
        return True
    if suite == "copy_cast":
        return producer is not None and producer["op"] == "contiguous"
    if suite == "out_inplace":
        return producer is not None and (producer["op"].endswith("_") or
                                         "out" in producer.get("kwargs", {}))
    return False


def encode_any(t, layout, name, env, order):
    """encode_result, or a nested tensor's components one by one (their layout is free)."""
    if isinstance(t, TR.Nested):
        return {"nested": [encode_result(c, False, name, env, []) for c in t.components]}
    return encode_result(t, layout, name, env, order)


def pairs(got, want):
    """(got, want) of dense results: a nested result's components in turn."""
    if "nested" in want:
        if not isinstance(got, TR.Nested) or len(got) != len(want["nested"]):
            raise Drop("shadow nested")
        return list(zip(got.components, want["nested"]))
    return [(got, want)]


def result_dtype(want):
    return want["nested"][0]["dtype"] if "nested" in want and want["nested"] else want.get("dtype")


def encode_result(t, layout, name, env, order):
    dtype = TR.DTYPE_NAMES[t.dtype]
    r = {"dtype": dtype, "shape": list(t.shape)}
    n = t.numel()
    if n > 4096:
        flat = t.detach().reshape(-1)
        rng = random.Random(n)
        idx = sorted(set([0, n - 1] + [rng.randrange(n) for _ in range(40)]))
        vals = enc_vals(flat[idx], dtype)
        r["samples"] = [[i, v] for i, v in zip(idx, vals)]
        if dtype in FLOATS:
            x = flat.to(torch.float64)
            r["sum"] = enc_f(float(x.sum()))
            r["abs_sum"] = enc_f(float(x.abs().sum()))
        else:
            x = flat.to(torch.int64)
            r["sum"] = int(x.sum())
            r["abs_sum"] = int(x.abs().sum())
    else:
        r["values"] = enc_vals(t, dtype)
    if layout and n > 0:
        r["strides"] = list(t.stride())
        for other in order:
            if other == name:
                continue
            o = env[other]
            if isinstance(o, torch.Tensor) and sptr(t) != 0 and sptr(o) == sptr(t):
                r["shares"] = other
                r["offset"] = t.storage_offset()
                break
    return r


def int_limit_ok(t):
    if t.dtype == torch.int64 and t.numel():
        return bool((t.abs() <= 2 ** 53).all())
    return True


KEEP_KERNEL_GAPS = False


def probe_kind(case, step, **kw):
    try:
        _, _, err = execute(case, **kw)
    except Drop:
        return "drop"
    except Exception:
        return "drop"
    if err is None:
        return None
    if err[0] != step:
        return "other-step"
    return TR.classify_error(err[1])


def multi_cause(case, step, kind):
    """A reason when the failing step has a second cause besides the one torch reports
    (FORMAT.md: a failing step has one cause), else None."""
    # 1. uniform dtype: removes dtype causes; another non-dtype kind means a second cause
    for d in (torch.float64, torch.int64):
        k = probe_kind(case, step, transform=lambda t, d=d: restore(t, d), targs=False)
        if k not in (None, "dtype", kind, "drop", "other-step"):
            return f"uniform-{d}:{k}"
    # 2. all sizes 1 (single-step programs): removes broadcast / empty-reduction causes
    if len(case["program"]) == 1:
        def ones(t):
            if t.dim() == 0:
                return t
            base = t.reshape(-1)[:1] if t.numel() else torch.zeros(1, dtype=t.dtype)
            return base.reshape([1] * t.dim()).clone() if t.dim() else base.reshape([]).clone()
        k = probe_kind(case, step, transform=ones, targs=False)
        if k not in (None, kind, "shape", "drop", "other-step"):
            return f"ones:{k}"
    # 3. a fresh written tensor: removes overlap causes
    st = case["program"][step]
    if st["op"].endswith("_") or "out" in st.get("kwargs", {}):
        def hook(i, args, kwargs):
            if i != step:
                return args, kwargs
            args, kwargs = list(args), dict(kwargs)
            if st["op"].endswith("_"):
                ts = [t for a in args for t in tensors_in(a)]
                ts += [t for v in kwargs.values() for t in tensors_in(v)]
                try:
                    shape = torch.broadcast_shapes(*[t.shape for t in ts])
                except Exception:
                    shape = args[0].shape
                args[0] = torch.zeros(shape, dtype=args[0].dtype)
            else:
                kwargs["out"] = torch.empty(0, dtype=kwargs["out"].dtype)
            return args, kwargs
        k = probe_kind(case, step, hook=hook)
        if kind in ("overlap", "shape") and k not in (None, kind, "drop", "other-step"):
            return f"fresh:{k}"
    return None


def outside_ops_md(inputs, program):
    """Why OPS.md rules the case out, or None: it says the cases give median and nanmedian no
    expanded (stride-0) input, and a searchsorted sorter is the permutation that sorts."""
    for st in program:
        args, kwargs = st.get("args", []), st.get("kwargs", {})
        if st["op"] in ("median", "nanmedian") and args and isinstance(args[0], str):
            spec = inputs.get(args[0])
            if spec and any(st_ == 0 and sz > 1 for st_, sz in zip(spec.get("strides", []), spec["shape"])):
                return "median of an expanded input (OPS.md)"
        if st["op"] == "searchsorted" and isinstance(kwargs.get("sorter"), str):
            seq, sorter = inputs.get(args[0]) if args and isinstance(args[0], str) else None, inputs.get(kwargs["sorter"])
            if seq is None or sorter is None:
                continue
            n = seq["shape"][-1] if seq["shape"] else 1
            vals = logical_values(sorter)
            rows = [vals[i:i + n] for i in range(0, len(vals), n)] if n else []
            if list(sorter["shape"]) != list(seq["shape"]) or any(sorted(r) != list(range(n)) for r in rows):
                return "searchsorted sorter that is not a permutation (OPS.md)"
    return None


def build_case(suite, orig, cid, inputs, program, mutated_dtype):
    case = {"id": cid, "inputs": inputs, "program": program}
    why = outside_ops_md(inputs, program)
    if why:
        raise Drop(why)
    for st in program:
        beta = st.get("kwargs", {}).get("beta")
        if st["op"] in ("baddbmm", "addmm") and isinstance(beta, dict) and \
                next(iter(beta.values())) in (0, 0.0, False):
            # torch 1.13 (CPU) may read uninitialized memory then: NaN at random
            raise Drop("beta=0 nondeterministic in torch")
    for spec in inputs.values():
        if spec.get("dtype") == "int64" and "values" in spec and any(abs(v) > 2 ** 53 for v in spec["values"]):
            raise Drop("int64 input")
    env, order, err = execute(case)
    if err is not None:
        step, exc, unchanged = err
        kind = TR.classify_error(exc)
        if kind is None:
            raise Drop("unclassified error")
        lines = str(exc).strip().splitlines()
        msg = lines[0] if lines else ""
        if not KEEP_KERNEL_GAPS and re.search(r"not implemented for 'Half'", msg) and \
                not program[step]["op"].startswith("bitwise"):
            raise Drop("torch kernel gap (Half)")
        multi = multi_cause(case, step, kind)
        if multi:
            raise Drop("multi-cause " + multi)
        e = {"kind": kind, "step": step, "message": msg}
        op = program[step]["op"]
        if re.match(r"^The size of tensor a \(\d+\) must match the size of tensor b \(\d+\) at "
                    r"non-singleton dimension \d+$", msg) and not op.endswith("_") and \
                op not in LINALG and "out" not in program[step].get("kwargs", {}):
            e["exact"] = True
        if unchanged:
            e["unchanged"] = unchanged
        case["error"] = e
        if "rtol" in orig and suite == "copy_cast":
            case["rtol"], case["atol"] = 0.0, 0.0
        return case
    # names to expect
    producers = {}
    for st in program:
        outs = st["out"] if isinstance(st["out"], list) else [st["out"]]
        for n in outs:
            producers[n] = st
    if "expect" in orig:
        names = [n for n in orig["expect"] if n in env]
    else:
        names = list(producers)
        for st in program:
            if st["op"].endswith("_") or "out" in st.get("kwargs", {}):
                tgt = st["args"][0] if st["op"].endswith("_") else st["kwargs"]["out"]
                t = env[tgt]
                for n in inputs:
                    if sptr(env[n]) == sptr(t) and n not in names:
                        names.append(n)
    expect = {}
    defined = layout_defined(program, env, inputs)
    for n in names:
        t = env[n]
        if isinstance(t, TR.Nested):
            if not t.components or not all(int_limit_ok(c) for c in t.components):
                raise Drop("nested result")
            expect[n] = encode_any(t, False, n, env, order)
            continue
        if not isinstance(t, torch.Tensor):
            raise Drop("non-tensor result")
        if not int_limit_ok(t):
            raise Drop("int64 beyond 2^53")
        expect[n] = encode_result(t, layout_policy(suite, orig, n, producers.get(n), env,
                                                   defined), n, env, order)
    case["expect"] = expect
    dts = {result_dtype(r) for r in expect.values()}
    tol = tolerance(suite, orig, dts, mutated_dtype)
    if tol is not None:
        case["rtol"], case["atol"] = tol
    # precision: low-precision float results must agree with the float64 computation
    if dts & {"float16", "bfloat16", "float32"}:
        try:
            senv, _, serr = execute(case, transform=wide_float)
        except Drop:
            senv, serr = None, True
        if serr is not None:
            raise Drop("float64 shadow failed")
        for n, whole in expect.items():
            for got, want in pairs(senv[n], whole):
                if want["dtype"] not in ("float16", "bfloat16", "float32"):
                    continue
                if list(got.shape) != want["shape"]:
                    raise Drop("shadow shape")
                got = got.detach().to(TR.DTYPES[want["dtype"]])
                plain = {k: v for k, v in want.items() if k not in ("strides", "shares", "offset")}
                rt, at = case.get("rtol"), case.get("atol")
                if rt is None:
                    involved = [result_dtype(sp) for sp in inputs.values()] + [want["dtype"]]
                    rt, at = max(TR.DEFAULT_TOL[d] for d in involved if d in TR.DEFAULT_TOL)
                why = TR.check_result(got, plain, rt, at, senv, n)
                if why:
                    raise Drop("precision: " + "; ".join(why))
    # integers: no overflow (same values when computed in int64)
    if dts & {"uint8", "int8", "int16", "int32", "int64"}:
        try:
            senv, _, serr = execute(case, transform=wide_int)
        except Drop:
            senv, serr = None, True
        if serr is not None:
            raise Drop("int64 shadow failed")
        for n, whole in expect.items():
            refs = env[n].components if isinstance(env[n], TR.Nested) else [env[n]]
            for (got, want), ref in zip(pairs(senv[n], whole), refs):
                if want["dtype"] not in INTS:
                    continue
                if got.is_floating_point() or got.dtype == torch.bool or list(got.shape) != list(ref.shape):
                    raise Drop("int shadow kind")
                g, r = got.detach().to(torch.int64), ref.detach().to(torch.int64)
                if want["dtype"] == "uint8":
                    g = torch.remainder(g, 256)
                if not torch.equal(g, r):
                    raise Drop("integer overflow")
    for st in program:
        ts = [a for a in (TR.decode_arg(x, env) for x in st.get("args", [])) if isinstance(a, torch.Tensor)]
        if st["op"] in LINALG and len({t.dtype for t in ts}) > 1:
            raise Drop("mixed-dtype empty product")  # torch 1.13 checks dtypes only with elements
    if "grad" in orig:
        add_grad(orig, case, env)
    return case


def grad_leaf(widen):
    """A shadow transform that keeps the inputs that require grad leaves of the widened graph."""
    def transform(x):
        if isinstance(x, torch.Tensor) and x.requires_grad and x.is_leaf:
            return widen(x).detach().requires_grad_()
        return widen(x)
    return transform


def grad_seed(cid, of):
    """A new seed of the output's shape and dtype (the program's sizes or dtypes may have moved)."""
    rng = random.Random("seed:" + cid)
    dtype = TR.DTYPE_NAMES[of.dtype]
    vals = [rng.choice([-2.0, -1.5, -1.0, -0.5, 0.25, 0.5, 1.0, 3.0]) for _ in range(of.numel())]
    return {"dtype": dtype, "shape": list(of.shape), "values": vals}


def add_grad(orig, case, env):
    """The grad section of a variant: the original's `of` and `wrt` back-propagated by PyTorch,
    with a new seed where the original had one. A backward that fails becomes the case's error
    at the grad phase (step = len(program)); float32 and narrower gradients must agree with the
    same program back-propagated in float64 (OPS.md "Float precision")."""
    g = orig["grad"]
    of = env.get(g["of"])
    tensorish = (torch.Tensor, TR.Nested)
    if not isinstance(of, tensorish) or any(not isinstance(env.get(n), tensorish) for n in g["wrt"]):
        raise Drop("grad of a non-tensor")
    if isinstance(of, TR.Nested):
        seed = {"nested": [grad_seed(f"{case['id']}#{i}", c) for i, c in enumerate(of.components)]}
    else:
        seed = None if g.get("seed") is None else grad_seed(case["id"], of)
    section = {"of": g["of"], "seed": seed, "wrt": list(g["wrt"])}
    try:
        TR.run_backward(section, env)
    except Exception as exc:  # the grad phase fails: the variant's error
        kind = TR.classify_error(exc)
        if kind is None:
            raise Drop("unclassified error")
        lines = str(exc).strip().splitlines()
        if not KEEP_KERNEL_GAPS and re.search(r"not implemented for 'Half'", lines[0] if lines else ""):
            raise Drop("torch kernel gap (Half)")
        case.pop("expect", None)
        case.pop("rtol", None)
        case.pop("atol", None)
        case["error"] = {"kind": kind, "step": len(case["program"]), "message": lines[0] if lines else ""}
        case["grad"] = section
        return
    if "error" in orig and "expect" not in orig:
        raise Drop("grad error case no longer fails")
    expect = {}
    for n in g["wrt"]:
        gr = TR.gradient_of(env[n])
        expect[n] = None if gr is None else encode_any(gr, False, n, env, [])
    section["expect"] = expect
    case["grad"] = section
    narrow = [n for n, r in expect.items() if r is not None and result_dtype(r) in ("float16", "bfloat16", "float32")]
    if not narrow:
        return
    senv, _, serr = execute(case, transform=grad_leaf(wide_float))
    if serr is not None:
        raise Drop("float64 shadow failed")
    def wide(sd):
        if "nested" in sd:
            return {"nested": [wide(c) for c in sd["nested"]]}
        return dict(sd, dtype="float64") if sd["dtype"] in FLOATS else sd
    sseed = None if seed is None else wide(seed)
    try:
        TR.run_backward(dict(section, seed=sseed), senv)
    except Exception:
        raise Drop("float64 shadow backward failed")
    for n in narrow:
        whole = TR.gradient_of(senv[n])
        if whole is None:
            raise Drop("shadow grad missing")
        for got, want in pairs(whole, expect[n]):
            got = got.detach().to(TR.DTYPES[want["dtype"]])
            rt, at = case.get("rtol"), case.get("atol")
            if rt is None:
                involved = [result_dtype(sp) for sp in case["inputs"].values()] + [want["dtype"]]
                rt, at = max(TR.DEFAULT_TOL[d] for d in involved if d in TR.DEFAULT_TOL)
            if TR.check_result(got, want, rt, at, senv, n):
                raise Drop("precision: grad")


# ------------------------------------------------------------------------------------------------
# mutations
# ------------------------------------------------------------------------------------------------

def family(cid):
    return cid.split("/")[1]


def step_ops(case):
    return [s["op"] for s in case["program"]]


NO_SPECIAL_OPS = LINALG | {"layer_norm"}
NO_HUGE_OPS = set(TR.REDUCTION_OPS) | set(TR.SCAN_OPS) | {"softmax", "log_softmax"}


def value_mode(rng, cid, dtype, case):
    ops = step_ops(case)
    if any(o in ("cummax", "cummin") for o in ops):
        return "unique"
    special = "special"
    if set(ops) & NO_SPECIAL_OPS:
        special = "grid"
    elif set(ops) & NO_HUGE_OPS:
        special = "special_nohuge"
    if family(cid).endswith("_special"):
        return special
    r = rng.random()
    if r < 0.2:
        return special
    if r < 0.45:
        return "grid"
    return "plain"


def mut_values(rng, suite, case):
    inputs = copy.deepcopy(case["inputs"])
    names = list(inputs)
    pick = names if rng.random() < 0.7 else [rng.choice(names)]
    for n in pick:
        spec = inputs[n]
        if "fill" in spec:
            spec["fill"] = new_fill(rng)
            fix_fill(spec)
            continue
        dtype = spec["dtype"]
        mode = value_mode(rng, case["id"], dtype, case)
        hint = value_hint(spec)
        if "values" in spec:
            spec["values"] = enc_in(dtype, gen_values(rng, dtype, len(spec["values"]), hint, mode))
        else:
            # keep the layout, new storage (expanded dims keep one value per position)
            spec["storage"] = enc_in(dtype, gen_values(rng, dtype, len(spec["storage"]), hint, mode))
            if mode == "unique":
                t = TR.build_tensor(spec)
                if t.numel() and t.reshape(-1).unique().numel() != t.numel():
                    raise Drop("ties")
    return inputs, case["program"], False


def mut_dtype(rng, suite, case):
    inputs = copy.deepcopy(case["inputs"])
    names = [n for n in inputs]
    if rng.random() < 0.5:
        pick = names
        newdt = {n: rng.choice(DTYPES) for n in pick} if rng.random() < 0.3 else \
            dict.fromkeys(pick, rng.choice(DTYPES))
    else:
        n = rng.choice(names)
        newdt = {n: rng.choice([d for d in DTYPES if d != inputs[n]["dtype"]])}
    changed = False
    for n, dt in newdt.items():
        spec = inputs[n]
        if spec["dtype"] == dt:
            continue
        changed = True
        if "fill" in spec:
            spec["dtype"] = dt
            fix_fill(spec)
            continue
        hint = value_hint(spec)
        mode = value_mode(rng, case["id"], dt, case)
        key = "values" if "values" in spec else "storage"
        spec["dtype"] = dt
        spec[key] = enc_in(dt, gen_values(rng, dt, len(spec[key]), hint, mode))
    if not changed:
        raise Drop("no change")
    return inputs, case["program"], True


def mut_layout(rng, suite, case):
    inputs = copy.deepcopy(case["inputs"])
    names = list(inputs)
    pick = [n for n in names if rng.random() < 0.6] or [rng.choice(names)]
    for n in pick:
        spec = inputs[n]
        shape = spec["shape"]
        if "fill" in spec:
            nd = len(shape)
            perm = list(range(nd))
            rng.shuffle(perm)
            strides = [0] * nd
            acc = 1
            for d in reversed(perm):
                strides[d] = acc
                acc *= max(shape[d], 1)
            off = rng.randint(0, 40)
            spec["strides"] = strides
            spec["offset"] = off
            spec["storage_size"] = off + acc + rng.randint(0, 10)
            continue
        vals = logical_values(spec)
        hint = value_hint(spec)
        inputs[n] = respec(rng, spec, spec["dtype"], shape, vals, hint, layout=True)
    return inputs, case["program"], False


def rand_dim(rng, nd, allow_invalid=True):
    if allow_invalid and rng.random() < 0.12:
        return rng.choice([nd, -nd - 1, nd + 1])
    if nd == 0:
        return rng.choice([0, -1])
    return rng.randint(-nd, nd - 1)


def input_ndim(case, step, env_shapes):
    a = step["args"][0] if step.get("args") else None
    if isinstance(a, list):
        a = a[0] if a else None
    if isinstance(a, str) and a in env_shapes:
        return len(env_shapes[a])
    return None


def program_shapes(case):
    """Shapes of all names when the original program runs (for ndim)."""
    try:
        env, order, err = execute(case)
    except Drop:
        return {}
    return {n: list(v.shape) for n, v in env.items() if isinstance(v, torch.Tensor)}


def mut_dims(rng, suite, case):
    program = copy.deepcopy(case["program"])
    shapes = program_shapes(case)
    cand = [i for i, s in enumerate(program)
            if s["op"] in DIM_ARGS or s["op"] in DTYPE_KW_OPS or s["op"] == "count_nonzero"
            or s["op"] in ("permute",)]
    if not cand:
        raise Drop("no dims")
    i = rng.choice(cand)
    st = program[i]
    op = st["op"]
    nd = input_ndim(case, st, shapes)
    if nd is None:
        raise Drop("ndim")
    if op in ("unsqueeze", "stack"):
        nd += 1
    args = st.setdefault("args", [])
    kw = st.setdefault("kwargs", {})
    choices = []
    if op in DIM_ARGS:
        choices.append("dim")
    if op in KEEPDIM_POS:
        choices.append("keepdim")
    if op in DTYPE_KW_OPS:
        choices.append("dtype")
    if op in ("var", "std"):
        choices.append("correction")
    if op == "count_nonzero":
        choices.append("cnz")
    if op == "permute":
        choices.append("perm")
    what = rng.choice(choices)
    if what == "dim":
        pos = rng.choice(DIM_ARGS[op])
        if op in ("var", "std") and len(args) > 1 and isinstance(args[1], bool):
            raise Drop("var(bool)")
        if op == "norm" and len(args) < 2:
            args.append({"int": 2})
        while len(args) < pos:
            args.append(None)
        if op in LIST_DIM_OPS and rng.random() < 0.45:
            k = rng.randint(0, max(nd, 1))
            dims = [rand_dim(rng, nd, allow_invalid=False) for _ in range(k)] if nd else []
            if nd and rng.random() < 0.15:
                dims.append(dims[0] if dims else 0)
            val = dims
        else:
            val = rand_dim(rng, nd)
            if op == "squeeze" and rng.random() < 0.2:
                val = None
        if len(args) == pos:
            args.append(val)
        else:
            args[pos] = val
    elif what == "keepdim":
        pos = KEEPDIM_POS[op]
        if "keepdim" in kw:
            kw["keepdim"] = not kw["keepdim"]
        elif len(args) > pos:
            args[pos] = not args[pos]
        elif len(args) == pos:
            args.append(rng.random() < 0.5 or True)
        else:
            # need a dim first
            while len(args) < pos - 1:
                args.append(None)
            if op in ("var", "std"):
                raise Drop("var keepdim without dim")
            args.append(rand_dim(rng, nd, allow_invalid=False))
            args.append(True)
    elif what == "dtype":
        if rng.random() < 0.2 and "dtype" in kw:
            del kw["dtype"]
        else:
            kw["dtype"] = {"dtype": rng.choice(DTYPES)}
    elif what == "correction":
        if len(args) >= 2 and isinstance(args[1], bool):
            args[1] = not args[1]
        elif len(args) >= 3 and isinstance(args[2], bool) and rng.random() < 0.5:
            args[2] = not args[2]
        else:
            if len(args) < 2 or isinstance(args[1], bool):
                raise Drop("correction without dim")
            if len(args) >= 3:
                args[2] = None
            kw["correction"] = rng.choice([0, 1, 2, 5])
    elif what == "cnz":
        if nd == 0:
            kw["dim"] = rng.choice([0, -1, 1])
        elif rng.random() < 0.5:
            kw["dim"] = rand_dim(rng, nd)
        else:
            kw["dim"] = [rand_dim(rng, nd, False) for _ in range(rng.randint(1, nd))]
    elif what == "perm":
        p = list(range(nd))
        rng.shuffle(p)
        p = [d - nd if rng.random() < 0.3 else d for d in p]
        if rng.random() < 0.15 and p:
            p[0] = p[-1] if len(p) > 1 else p[0] + nd + 1
        args[1] = p
    if not kw:
        del st["kwargs"]
    if st != case["program"][i]:
        return case["inputs"], program, False
    raise Drop("no change")


def mut_sizes(rng, suite, case):
    if suite == "large":
        raise Drop("large")
    if any(s["op"] == "as_strided" for s in case["program"]):
        raise Drop("as_strided")
    inputs = copy.deepcopy(case["inputs"])
    sizes = sorted({s for spec in inputs.values() for s in spec["shape"]})
    if not sizes:
        raise Drop("all 0-dim")
    mapping = {}
    for s in sizes:
        if s == 1:
            mapping[s] = 1 if rng.random() < 0.75 else rng.choice([0, 2, 3])
        else:
            mapping[s] = rng.choice([0, 1, 1, 2, 3, 4, 5, 6, s, s + 1])
    if all(mapping[s] == s for s in sizes):
        s = rng.choice(sizes)
        mapping[s] = rng.choice([0, 1, s + 2])
    for n, spec in inputs.items():
        shape = [mapping[s] for s in spec["shape"]]
        if math.prod(shape) > 1500:
            raise Drop("too large")
        dtype = spec["dtype"]
        hint = value_hint(spec)
        mode = value_mode(rng, case["id"], dtype, case)
        vals = enc_in(dtype, gen_values(rng, dtype, math.prod(shape), hint, mode))
        inputs[n] = respec(rng, spec, dtype, shape, vals, hint)
    program = copy.deepcopy(case["program"])
    for st in program:
        pos = SHAPE_ARG.get(st["op"])
        if pos is not None and pos < len(st.get("args", [])):
            a = st["args"][pos]
            if isinstance(a, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in a):
                st["args"][pos] = [mapping.get(x, x) if x > 0 else x for x in a]
    return inputs, program, False


def rand_scalar(rng, finite=False):
    r = rng.random()
    if finite and r >= 0.4 and r < 0.85:
        return {"float": rng.choice([0.5, -1.5, 2.25, 0.0, 1e-3, 3.75])}
    if r < 0.4:
        return {"int": rng.choice([-3, -2, -1, 0, 1, 2, 3, 5, 7, 100])}
    if r < 0.85:
        return {"float": rng.choice([0.5, -1.5, 2.25, 0.0, -0.0, 1e-3, 3.75, "nan", "inf", "-inf",
                                     1e10])}
    return {"bool": rng.random() < 0.5}


def mut_scalar(rng, suite, case):
    program = copy.deepcopy(case["program"])
    spots = []
    for st in program:
        for i, a in enumerate(st.get("args", [])):
            if isinstance(a, dict) and len(a) == 1 and next(iter(a)) in ("int", "float", "bool"):
                spots.append((st["args"], i))
        for k, a in st.get("kwargs", {}).items():
            if isinstance(a, dict) and len(a) == 1 and next(iter(a)) in ("int", "float", "bool"):
                spots.append((st["kwargs"], k))
    if not spots:
        raise Drop("no scalar")
    cont, key = rng.choice(spots)
    new = rand_scalar(rng, finite=bool(set(step_ops(case)) & NO_SPECIAL_OPS))
    if new == cont[key]:
        raise Drop("same")
    cont[key] = new
    return case["inputs"], program, False


MUTATIONS = {"values": mut_values, "dtype": mut_dtype, "layout": mut_layout, "dims": mut_dims,
             "sizes": mut_sizes, "scalar": mut_scalar}


def flat_nested(inputs):
    """inputs with each nested tensor's components as inputs of their own (name#i), so that
    the mutations, written for dense inputs, reach them."""
    flat = {}
    for n, spec in inputs.items():
        if "nested" in spec:
            for i, c in enumerate(spec["nested"]):
                flat[f"{n}#{i}"] = c
        else:
            flat[n] = spec
    return flat


def unflat_nested(rng, case, orig, flat):
    """The inverse of flat_nested: components regrouped, all of one nested tensor given the
    dtype of its first (a nested tensor has one dtype), with new values where it changed."""
    out = {}
    for n, spec in orig.items():
        if "nested" not in spec:
            out[n] = flat[n]
            continue
        comps = [flat[f"{n}#{i}"] for i in range(len(spec["nested"]))]
        dt = comps[0]["dtype"] if comps else None
        for c in comps:
            if c["dtype"] != dt:
                key = "values" if "values" in c else "storage"
                hint = value_hint(c)
                c["dtype"] = dt
                c[key] = enc_in(dt, gen_values(rng, dt, len(c[key]), hint, value_mode(rng, case["id"], dt, case)))
        out[n] = {"nested": comps}
    return out


def mutate(kind, rng, suite, case):
    """MUTATIONS[kind] of case, through the components of its nested inputs."""
    if not any("nested" in sp for sp in case["inputs"].values()):
        return MUTATIONS[kind](rng, suite, case)
    flat = flat_nested(copy.deepcopy(case["inputs"]))
    inputs, program, mdt = MUTATIONS[kind](rng, suite, dict(case, inputs=flat))
    return unflat_nested(rng, case, case["inputs"], inputs), program, mdt


def applicable(suite, case):
    kinds = ["values", "dtype", "layout"]
    ops = set(step_ops(case))
    if ops & (set(DIM_ARGS) | DTYPE_KW_OPS | {"count_nonzero", "permute"}):
        kinds.append("dims")
    if suite != "large" and any(sp.get("shape") for sp in flat_nested(case["inputs"]).values()):
        kinds.append("sizes")
    if "{\"int\"" in json.dumps(case["program"]) or "{\"float\"" in json.dumps(case["program"]) \
            or "{\"bool\"" in json.dumps(case["program"]):
        kinds.append("scalar")
    return kinds


def gen_variants(suite, case, seed, per_case, stats):
    kinds = applicable(suite, case)
    base_rng = random.Random(f"{seed}:{case['id']}")
    order = kinds[:]
    base_rng.shuffle(order)
    # favour the suite's main point
    out = []
    for k in range(per_case):
        kind0 = order[k % len(order)]
        for attempt in range(10):
            rng = random.Random(f"{seed}:{case['id']}:{k}:{attempt}")
            kind = kind0 if attempt < 4 else rng.choice(kinds)
            cid = f"{case['id']}/v{k}.{kind}"
            try:
                inputs, program, mdt = mutate(kind, rng, suite, case)
                if rng.random() < 0.25:   # a second mutation on top
                    k2 = rng.choice([x for x in kinds if x != kind])
                    tmp = dict(case, inputs=inputs, program=program)
                    try:
                        inputs, program, mdt2 = mutate(k2, rng, suite, tmp)
                        mdt = mdt or mdt2
                        cid = f"{case['id']}/v{k}.{kind}+{k2}"
                    except Drop:
                        pass
                new = build_case(suite, case, cid, inputs, program, mdt)
                why = TR.run_case(json.loads(json.dumps(new)))
                # torch 1.13 baddbmm/addmm with beta=0 can read uninitialized memory: re-check
                for _ in range(4 if suite in ("linalg", "large") and not why else 0):
                    why = why or TR.run_case(json.loads(json.dumps(new)))
                if why:
                    stats["invalid"] = stats.get("invalid", 0) + 1
                    raise Drop("reference runner: " + "; ".join(why))
                out.append(new)
                stats["ok"] = stats.get("ok", 0) + 1
                break
            except Drop as d:
                key = str(d).split(":")[0]
                stats[key] = stats.get(key, 0) + 1
            except (TR.FormatError, KeyError, IndexError, TypeError, ValueError,
                    RuntimeError, OverflowError) as e:
                key = "crash " + type(e).__name__
                stats[key] = stats.get(key, 0) + 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=os.path.join(SHARED, "conformance"))
    ap.add_argument("--out", default="/tmp/variants")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-case", type=int, default=3)
    ap.add_argument("--suites", default=",".join(SUITES))
    ap.add_argument("--limit", type=int, default=0, help="only the first K cases per suite")
    ap.add_argument("--keep-kernel-gaps", action="store_true",
                    help="keep cases where torch 1.13 CPU has no float16 kernel (dtype errors)")
    opts = ap.parse_args()
    global KEEP_KERNEL_GAPS
    KEEP_KERNEL_GAPS = opts.keep_kernel_gaps
    torch.set_num_threads(1)
    os.makedirs(os.path.join(opts.out, "cases"), exist_ok=True)
    for suite in opts.suites.split(","):
        path = os.path.join(opts.cases, "cases", suite + ".jsonl")
        stats = {}
        n = 0
        with open(path) as f, open(os.path.join(opts.out, "cases", suite + ".jsonl"), "w") as w:
            for lineno, line in enumerate(f):
                if opts.limit and lineno >= opts.limit:
                    break
                if not line.strip():
                    continue
                case = json.loads(line)
                for v in gen_variants(suite, case, opts.seed, opts.per_case, stats):
                    w.write(json.dumps(v, separators=(",", ":")) + "\n")
                    n += 1
        print(f"{suite}: {n} variants; " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())),
              file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
