#!/usr/bin/python3
"""Variant generator for the nested suites (nested, nested_autograd).

    /usr/bin/python3 tools/confgen/nested.py [--cases DIR] [--out OUT] [--seed S]

Reads DIR/cases/nested*.jsonl (default /work/shared/conformance) and writes mutated variants to
OUT/cases/<suite>.jsonl (default testdata/conformance-variants), with expectations computed by
torch_runner.py's own nested reference semantics (the dense PyTorch op applied to each component
in turn) and every written case validated by torch_runner.run_case. Mutations (seeded):

  values  new random values of the same dtypes and shapes (indices stay in range)
  ragged  a new number of components (unless the program unbinds) and new sizes of each
          component's first dim, the same for every nested input of the case, so that ops
          over the ragged dim, the packed-buffer paths and the per-component paths all see
          other raggedness; indices are drawn in range of the embedding's weight

A variant keeps the original's outcome: a case that expects results still does, an error case
fails at the same step with the same kind; others are dropped. Cases with float16/bfloat16
inputs are left out (their rounding is covered by the dense suites).
"""

import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen as G  # noqa: E402  (imports torch_runner from ../shared/conformance)

TR, torch = G.TR, G.torch
DTYPE_NAME = {v: k for k, v in TR.DTYPES.items()}

# ops whose cases stay meaningful when the components' first dims change together
RAGGED_OPS = (set(TR.UNARY_OPS) | set(TR.BINARY_OPS) |
              {"softmax", "log_softmax", "sum", "mean", "amax", "layer_norm", "linear", "embedding",
               "to", "clone", "zeros_like", "ones_like", "full_like", "transpose", "nested_sizes",
               "nested_strides", "nested_offsets", "unbind", "to_padded_tensor", "matmul",
               "scaled_dot_product_attention", "where", "clamp"})


class Drop(Exception):
    pass


def encode(x):
    """A result (tensor or Nested) -> RESULT."""
    if isinstance(x, TR.Nested):
        return {"nested": [encode(c) for c in x.components]}
    dt = DTYPE_NAME[x.dtype]
    return {"dtype": dt, "shape": list(x.shape), "values": G.enc_vals(x, dt)}


def tensor_spec(dt, shape, rng, lo_hi=None):
    """A contiguous input TENSOR of random values."""
    n = 1
    for s in shape:
        n *= s
    if dt == "bool":
        vals = [rng.random() < 0.5 for _ in range(n)]
    elif dt in G.FLOATS:
        vals = [G.enc_f(v) for v in G.round_to(dt, [rng.gauss(0, 1.5) for _ in range(n)])]
    else:
        lo, hi = lo_hi or ((0, 9) if dt == "uint8" else (-6, 6))
        vals = [rng.randint(lo, hi) for _ in range(n)]
    return {"dtype": dt, "shape": list(shape), "values": vals}


def index_range(case, name):
    """[0, V) for an input used as embedding indices (V: the weight's rows), else None."""
    for step in case["program"]:
        if step["op"] == "embedding" and step["args"][0] == name:
            w = step["args"][1]
            return (0, case["inputs"][w]["shape"][0] - 1)
    return None


def low_precision(case):
    def dts(spec):
        if "nested" in spec:
            return [c["dtype"] for c in spec["nested"]]
        return [spec["dtype"]]
    return any(dt in ("float16", "bfloat16") for s in case["inputs"].values() for dt in dts(s))


def mut_values(rng, case):
    inputs = {}
    for name, spec in case["inputs"].items():
        rg = index_range(case, name)
        if "nested" in spec:
            comps = [tensor_spec(c["dtype"], c["shape"], rng, rg) for c in spec["nested"]]
            new = {"nested": comps}
        elif spec.get("dtype") == "int64" and rg is None:  # sizes of from_padded, ...
            new = spec
        else:
            new = tensor_spec(spec["dtype"], spec["shape"], rng, rg)
        if spec.get("requires_grad"):
            new["requires_grad"] = True
        inputs[name] = new
    return inputs


def mut_ragged(rng, case):
    ops = [s["op"] for s in case["program"]]
    if any(op not in RAGGED_OPS for op in ops):
        raise Drop("op")
    for s in case["program"]:
        if s["op"] == "to_padded_tensor" and len(s["args"]) > 2:
            raise Drop("output_size")
        if s["op"] == "matmul" and all(a in nested_inputs(case) for a in s["args"][:2]):
            raise Drop("nested matmul")
    nested = nested_inputs(case)
    if not nested:
        raise Drop("no nested input")
    n0 = len(case["inputs"][nested[0]]["nested"])
    n = n0 if "unbind" in ops else rng.randint(1, 5)
    lengths = [rng.randint(1, 6) for _ in range(n)]
    inputs = dict(case["inputs"])
    for name in nested:
        spec = case["inputs"][name]
        rg = index_range(case, name)
        comps = []
        for i in range(n):
            c = spec["nested"][i % len(spec["nested"])]
            shape = list(c["shape"])
            if shape:
                shape[0] = lengths[i]
            comps.append(tensor_spec(c["dtype"], shape, rng, rg))
        new = {"nested": comps}
        if spec.get("requires_grad"):
            new["requires_grad"] = True
        inputs[name] = new
    for name, spec in case["inputs"].items():
        if name not in nested and "values" in spec and spec["dtype"] in G.FLOATS:
            inputs[name] = dict(tensor_spec(spec["dtype"], spec["shape"], rng),
                                **({"requires_grad": True} if spec.get("requires_grad") else {}))
    return inputs


def nested_inputs(case):
    return [k for k, v in case["inputs"].items() if "nested" in v]


MUTATIONS = {"values": mut_values, "ragged": mut_ragged}


def seed_for(rng, x):
    """A random seed of x's structure (a tensor or Nested)."""
    if isinstance(x, TR.Nested):
        return {"nested": [seed_for(rng, c) for c in x.components]}
    return tensor_spec(DTYPE_NAME[x.dtype], list(x.shape), rng)


def build(rng, orig, cid, inputs):
    """The variant of orig with these inputs, its expectations computed by torch_runner."""
    case = {"id": cid, "inputs": inputs, "program": orig["program"]}
    for k in ("rtol", "atol"):
        if k in orig:
            case[k] = orig[k]
    env = {name: TR.build_tensor(spec) for name, spec in inputs.items()}
    for i, step in enumerate(orig["program"]):
        args = [TR.decode_arg(a, env) for a in step.get("args", [])]
        kwargs = {k: TR.decode_arg(v, env) for k, v in step.get("kwargs", {}).items()}
        try:
            res = TR.run_op(step["op"], args, kwargs)
        except TR.FormatError:
            raise
        except Exception as exc:  # noqa: BLE001 (the reference's error, classified)
            err = orig.get("error")
            kind = TR.classify_error(exc)
            if err is None or err["step"] != i or err["kind"] != kind:
                raise Drop("outcome")
            case["error"] = {"kind": kind, "step": i, "message": TR.first_line(exc)}
            return case
        outs = step["out"]
        if isinstance(outs, list):
            for name, v in zip(outs, res):
                env[name] = v
        else:
            env[outs] = res
    if "error" in orig:
        raise Drop("outcome")
    case["expect"] = {name: encode(env[name]) for name in orig.get("expect", {})}
    g = orig.get("grad")
    if g is not None:
        grad = {"of": g["of"], "wrt": g["wrt"], "seed": None}
        if g.get("seed") is not None:
            grad["seed"] = seed_for(rng, env[g["of"]])
        TR.run_backward(grad, env)
        grad["expect"] = {}
        for name in g["wrt"]:
            got = TR.gradient_of(env[name])
            grad["expect"][name] = None if got is None else encode(got)
        case["grad"] = grad
    return case


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=os.path.join(G.SHARED, "conformance"))
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "testdata", "conformance-variants"))
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args()
    torch.manual_seed(opts.seed)
    for suite in ("nested", "nested_autograd"):
        out, stats = [], {}
        with open(os.path.join(opts.cases, "cases", suite + ".jsonl")) as f:
            cases = [json.loads(line) for line in f if line.strip()]
        for orig in cases:
            if low_precision(orig):
                stats["low precision"] = stats.get("low precision", 0) + 1
                continue
            for k, kind in enumerate(MUTATIONS):
                for attempt in range(4):
                    rng = random.Random(f"{opts.seed}:{orig['id']}:{kind}:{attempt}")
                    try:
                        new = build(rng, orig, f"{orig['id']}/v{k}.{kind}", MUTATIONS[kind](rng, orig))
                        new = json.loads(json.dumps(new))
                        why = TR.run_case(json.loads(json.dumps(new)))
                        if why:
                            raise Drop("reference runner: " + "; ".join(why))
                        out.append(new)
                        stats["ok"] = stats.get("ok", 0) + 1
                        break
                    except Drop as d:
                        key = str(d).split(":")[0]
                        stats[key] = stats.get(key, 0) + 1
                        if key in ("op", "output_size", "nested matmul", "no nested input"):
                            break
        path = os.path.join(opts.out, "cases", suite + ".jsonl")
        with open(path, "w") as f:
            for c in out:
                f.write(json.dumps(c, separators=(",", ":")) + "\n")
        print(f"{suite}: {len(out)} variants -> {path}; {stats}", file=sys.stderr)


if __name__ == "__main__":
    main()
