#!/usr/bin/python3
"""The dtype matrix: the first case of every family of the elementwise, reduction, scan, softmax
and linear-algebra suites, with all of its inputs turned to each of the ten dtypes in turn, and
expectations (or errors) computed by PyTorch, as gen.py computes them.

    /usr/bin/python3 tools/confgen/matrix.py [--out /tmp/matrix]

Where torch 1.13 has a kernel for a dtype goten must compute what it computes; where torch
refuses the dtype goten must refuse it too (a dtype error).
"""
import argparse, copy, json, os, random, sys

import gen
from gen import TR, Drop

SUITES = ["unary", "binary", "ternary", "reductions", "scans", "softmax", "linalg"]


def with_dtype(rng, case, dt):
    inputs = copy.deepcopy(case["inputs"])
    for spec in inputs.values():
        if spec["dtype"] == dt:
            continue
        if "fill" in spec:
            spec["dtype"] = dt
            gen.fix_fill(spec)
            continue
        hint = gen.value_hint(spec)
        mode = gen.value_mode(rng, case["id"], dt, case)
        key = "values" if "values" in spec else "storage"
        spec["dtype"] = dt
        spec[key] = gen.enc_in(dt, gen.gen_values(rng, dt, len(spec[key]), hint, mode))
    return inputs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=os.path.join(gen.SHARED, "conformance"))
    ap.add_argument("--out", default="/tmp/matrix")
    ap.add_argument("--keep-kernel-gaps", action="store_true")
    opts = ap.parse_args()
    gen.KEEP_KERNEL_GAPS = opts.keep_kernel_gaps
    TR.torch.set_num_threads(1)
    os.makedirs(os.path.join(opts.out, "cases"), exist_ok=True)
    for suite in SUITES:
        seen, n, dropped = set(), 0, 0
        with open(os.path.join(opts.cases, "cases", suite + ".jsonl")) as f, \
                open(os.path.join(opts.out, "cases", suite + ".jsonl"), "w") as w:
            for line in f:
                case = json.loads(line)
                fam = gen.family(case["id"])
                if fam in seen or "error" in case or fam.endswith("_special"):
                    continue
                seen.add(fam)
                for dt in gen.DTYPES:
                    rng = random.Random(f"matrix:{case['id']}:{dt}")
                    cid = f"{case['id']}/m.{dt}"
                    try:
                        new = gen.build_case(suite, case, cid, with_dtype(rng, case, dt), case["program"], True)
                        if TR.run_case(json.loads(json.dumps(new))):
                            raise Drop("reference runner")
                    except (Drop, TR.FormatError, KeyError, IndexError, TypeError, ValueError,
                            RuntimeError, OverflowError):
                        dropped += 1
                        continue
                    w.write(json.dumps(new, separators=(",", ":")) + "\n")
                    n += 1
        print(f"{suite}: {n} cases, {dropped} dropped", file=sys.stderr)


if __name__ == "__main__":
    main()
