#!/usr/bin/python3
"""Merges variant sets made with different seeds into one directory.

    /usr/bin/python3 tools/confgen/merge.py --out DIR SEED=SETDIR [SEED=SETDIR ...]

Each SETDIR is the --out of a gen.py, nested.py or similar run (SETDIR/cases/<suite>.jsonl);
every case id gets the suffix "@sSEED", so that variants of one public case made with two seeds
stay distinct, and the cases of each suite are appended to DIR/cases/<suite>.jsonl in the order
given. The ids keep their prefixes: KNOWN_GAPS' "prefix" entries name a case as
"suite/family/NNN/vK.mutation@sSEED".
"""

import argparse
import json
import os


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("sets", nargs="+", metavar="SEED=SETDIR")
    opts = ap.parse_args()
    merged = {}
    for spec in opts.sets:
        seed, _, path = spec.partition("=")
        if not path:
            ap.error(f"{spec}: want SEED=SETDIR")
        cases = os.path.join(path, "cases")
        for name in sorted(os.listdir(cases)):
            if not name.endswith(".jsonl"):
                continue
            lines = merged.setdefault(name, [])
            with open(os.path.join(cases, name)) as f:
                for line in f:
                    if not line.strip():
                        continue
                    c = json.loads(line)
                    c["id"] = f"{c['id']}@s{seed}"
                    lines.append(json.dumps(c, separators=(",", ":")))
    os.makedirs(os.path.join(opts.out, "cases"), exist_ok=True)
    for name, lines in merged.items():
        with open(os.path.join(opts.out, "cases", name), "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{name}: {len(lines)} cases")


if __name__ == "__main__":
    main()
