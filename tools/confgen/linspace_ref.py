#!/usr/bin/python3
"""Writes op/testdata/linspace_torch.json, arange_torch.json and logspace_torch.json: linspace
cases computed by PyTorch 1.13 (every dtype it takes, step counts below and past its vectorized
loop's pairs of vectors, integral and fractional bounds), float arange cases and logspace cases,
each element as a float64, for op's TestLinspaceMatchesPyTorch, TestArangeMatchesPyTorch and
TestLogspaceMatchesPyTorch (Notes [PyTorch's linspace] and [PyTorch's arange] in package op).

    /usr/bin/python3 tools/confgen/linspace_ref.py --out op/testdata
"""

import argparse
import json
import os
import random

import torch

DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32,
          "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--count", type=int, default=200)
    opts = ap.parse_args()
    random.seed(opts.seed)
    cases = [{"start": 0.0, "end": 10.0, "steps": 8, "dtype": "int64"},
             {"start": 55.0, "end": 0.0, "steps": 67, "dtype": "uint8"},
             {"start": 9.16, "end": -46.0, "steps": 294, "dtype": "bfloat16"},
             {"start": -2.45, "end": -0.8, "steps": 8, "dtype": "float64"}]
    for _ in range(opts.count):
        name = random.choice(list(DTYPES))
        steps = random.choice([random.randint(0, 40), random.randint(40, 300)])
        if name.startswith("int") or name == "uint8":
            lo, hi = (0, 120) if name == "uint8" else (-120, 120)
            a, b = float(random.randint(lo, hi)), float(random.randint(lo, hi))
        else:
            a = round(random.uniform(-60, 60), random.choice([0, 2, 6]))
            b = round(random.uniform(-60, 60), random.choice([0, 2, 6]))
        cases.append({"start": a, "end": b, "steps": steps, "dtype": name})
    for c in cases:
        v = torch.linspace(c["start"], c["end"], c["steps"], dtype=DTYPES[c["dtype"]])
        c["values"] = [float(x) for x in v.double().tolist()]
    write(os.path.join(opts.out, "linspace_torch.json"), cases)
    ar = []
    for _ in range(opts.count * 3 // 4):
        name = random.choice(["float32", "float64", "float16", "bfloat16"])
        start = round(random.uniform(-20, 20), random.choice([0, 1, 2, 5]))
        step = round(random.choice([1, -1]) * random.uniform(0.01, 3), random.choice([1, 2, 3, 6]))
        n = random.choice([random.randint(0, 40), random.randint(40, 200)])
        v = torch.arange(start, start + step * n, step, dtype=DTYPES[name])
        ar.append({"start": start, "step": step, "n": len(v), "dtype": name,
                   "values": [float(x) for x in v.double().tolist()]})
    write(os.path.join(opts.out, "arange_torch.json"), ar)
    lg = []
    for _ in range(opts.count * 3 // 4):
        name = random.choice(["float32", "float64", "bfloat16", "int64", "int32", "int16"])
        if name.startswith("int"):
            a, b, base = random.randint(-3, 3), random.randint(0, 8), random.choice([2.0, 3.0, 10.0])
        else:
            a, b = round(random.uniform(-5, 5), random.choice([0, 2, 5])), round(random.uniform(-5, 5), 2)
            base = random.choice([2.0, 10.0, 2.5, 0.5])
        steps = random.randint(0, 60)
        v = torch.logspace(a, b, steps, base=base, dtype=DTYPES[name])
        lg.append({"start": float(a), "end": float(b), "steps": steps, "base": base, "dtype": name,
                   "values": [float(x) for x in v.double().tolist()]})
    write(os.path.join(opts.out, "logspace_torch.json"), lg)


def write(path, cases):
    with open(path, "w") as fh:
        json.dump(cases, fh, separators=(",", ":"))
        fh.write("\n")
    print(path, len(cases), "cases")


if __name__ == "__main__":
    main()
