#!/usr/bin/env python3
"""Set goten's benchmark timings beside PyTorch's, workload by workload.

    python3 tools/bench/compare.py goten.jsonl torch.jsonl [--max-ratio R] [--markdown]
    python3 tools/bench/compare.py --ours g1.jsonl g2.jsonl --theirs t1.jsonl t2.jsonl

Inputs are JSON lines as `go run ./cmd/bench -json` and tools/bench/torch_ref.py print them:
{"name", "median_ms", "min_ms", "max_ms", "bytes", "flops"}; other lines are skipped.

Each record is one run of a workload. Several files per side (A B A B runs), or one file with
several runs appended, are combined per workload by the median over runs of the per-run
medians; the runs columns say how many each side had.

Prints, per workload present on both sides (in the order of ours): both medians, the ratio
ours/theirs (below 1: ours is faster), and our GB/s and GFLOP/s from the bytes and flops of the
records (blank where those are 0). Workloads of only one side are listed after the table.

  --max-ratio R   exit 1 if any ratio exceeds R
  --strict        with --max-ratio, also exit 1 if a workload of theirs is missing from ours
  --markdown      print the table as Markdown, as in the README's Performance section
  --share-of NAME add a column (not to --markdown): our GB/s as a percentage of our NAME's GB/s
                  in the same run (the median over runs of the per-run shares; runs pair up by
                  their order). NAME's own ratio still counts for --max-ratio.
  --min-share P   with --share-of, exit 1 if any workload's share is below P percent

Needs only the Python standard library.
"""
import argparse
import json
import statistics
import sys


def load(paths):
    """{name: {"runs": [median_ms, ...], "bytes": b, "flops": f}}, names in first-seen order."""
    rows = {}
    for path in paths:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    r = json.loads(line)
                    name, median = r["name"], float(r["median_ms"])
                except (ValueError, KeyError) as e:
                    sys.exit(f"{path}:{lineno}: not a benchmark record: {e}")
                row = rows.setdefault(name, {"runs": [], "bytes": r.get("bytes", 0),
                                             "flops": r.get("flops", 0)})
                if (row["bytes"], row["flops"]) != (r.get("bytes", 0), r.get("flops", 0)):
                    print(f"warning: {path}: {name}: bytes/flops differ between runs",
                          file=sys.stderr)
                row["runs"].append(median)
    return rows


def rate(amount, ms):
    """amount per second, in units of 1e9; None where there is nothing to rate."""
    if not amount or ms <= 0:
        return None
    return amount / (ms / 1e3) / 1e9


def share_of(row, base):
    """row's GB/s as a percentage of base's, the median over runs paired by their order (or of
    the medians where the run counts differ); None where either moves no bytes."""
    if not row["bytes"] or not base["bytes"]:
        return None
    def one(ms, base_ms):
        return 100 * (row["bytes"] / ms) / (base["bytes"] / base_ms)
    if len(row["runs"]) == len(base["runs"]):
        return statistics.median(one(ms, b) for ms, b in zip(row["runs"], base["runs"]))
    return one(statistics.median(row["runs"]), statistics.median(base["runs"]))


def span(rows):
    """How many runs the workloads of one side had: "2", or "2-3" where they differ."""
    counts = [len(r["runs"]) for r in rows.values()] or [0]
    lo, hi = min(counts), max(counts)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("files", nargs="*", help="OURS THEIRS (one file each)")
    ap.add_argument("--ours", nargs="+", default=[], metavar="FILE", help="our runs")
    ap.add_argument("--theirs", nargs="+", default=[], metavar="FILE", help="the reference runs")
    ap.add_argument("--max-ratio", type=float, metavar="R")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--share-of", metavar="NAME")
    ap.add_argument("--min-share", type=float, metavar="P")
    args = ap.parse_args()
    if args.files:
        if len(args.files) != 2 or args.ours or args.theirs:
            ap.error("give OURS THEIRS, or --ours FILE... --theirs FILE...")
        args.ours, args.theirs = [args.files[0]], [args.files[1]]
    if not args.ours or not args.theirs:
        ap.error("give OURS THEIRS, or --ours FILE... --theirs FILE...")

    if args.min_share is not None and not args.share_of:
        ap.error("--min-share needs --share-of")

    ours, theirs = load(args.ours), load(args.theirs)
    base = ours.get(args.share_of) if args.share_of else None
    if args.share_of and base is None:
        sys.exit(f"--share-of {args.share_of}: no such workload in ours")
    low_share = []
    if args.markdown:
        print("| workload | goten ms | PyTorch ms | ratio | GB/s | GFLOP/s |")
        print("|---|---:|---:|---:|---:|---:|")
    else:
        print(f"{'workload':24s} {'ours ms':>10s} {'ref ms':>10s} {'ratio':>7s} {'GB/s':>8s} "
              f"{'GFLOP/s':>8s} {'runs':>5s}" + (f" {'share':>6s}" if base is not None else ""))
    worst, worst_name = 0.0, None
    for name, o in ours.items():
        t = theirs.get(name)
        if t is None:
            continue
        if (o["bytes"], o["flops"]) != (t["bytes"], t["flops"]):
            print(f"warning: {name}: bytes/flops differ: ours {o['bytes']}/{o['flops']}, "
                  f"theirs {t['bytes']}/{t['flops']} (ours are used)", file=sys.stderr)
        ms_o, ms_t = statistics.median(o["runs"]), statistics.median(t["runs"])
        ratio = ms_o / ms_t if ms_t > 0 else float("inf")
        if ratio > worst:
            worst, worst_name = ratio, name
        gbs, gfl = rate(o["bytes"], ms_o), rate(o["flops"], ms_o)
        share = None
        if base is not None and o is not base:
            share = share_of(o, base)
            if share is not None and args.min_share is not None and share < args.min_share:
                low_share.append(f"{name} {share:.0f}%")
        if args.markdown:
            print(f"| {name} | {ms_o:.3f} | {ms_t:.3f} | {ratio:.2f} | {gbs or 0:.2f} | {gfl or 0:.2f} |")
        else:
            runs = f"{len(o['runs'])}/{len(t['runs'])}"
            print(f"{name:24s} {ms_o:10.3f} {ms_t:10.3f} {ratio:7.2f} "
                  f"{'' if gbs is None else f'{gbs:.2f}':>8s} {'' if gfl is None else f'{gfl:.2f}':>8s} "
                  f"{runs:>5s}" + ("" if base is None else
                                   f" {'' if share is None else f'{share:.0f}%':>6s}"))

    print(f"\nruns per workload: ours {span(ours)} ({len(args.ours)} file(s)), "
          f"theirs {span(theirs)} ({len(args.theirs)} file(s))")
    missing = [n for n in theirs if n not in ours]
    extra = [n for n in ours if n not in theirs]
    if missing:
        print(f"missing from ours ({len(missing)}):", " ".join(missing))
    if extra:
        print(f"missing from theirs ({len(extra)}):", " ".join(extra))
    if worst_name:
        print(f"worst ratio {worst:.2f} ({worst_name})")

    failed = args.max_ratio is not None and (worst > args.max_ratio or (args.strict and missing))
    if failed:
        print(f"FAIL: worst ratio {worst:.2f} > {args.max_ratio}" if worst > args.max_ratio
              else f"FAIL: {len(missing)} workload(s) missing from ours", file=sys.stderr)
    if low_share:
        print(f"FAIL: below {args.min_share:g}% of {args.share_of}'s GB/s: " + ", ".join(low_share),
              file=sys.stderr)
    sys.exit(1 if failed or low_share else 0)


if __name__ == "__main__":
    main()
