#!/usr/bin/python3
"""PyTorch reference timings of goten's benchmark workloads, on the CPU.

    /usr/bin/python3 tools/bench/torch_ref.py [--threads 2] [--reps 20] [REGEX] > torch.jsonl
    /usr/bin/python3 tools/bench/torch_ref.py --list [REGEX]

Needs PyTorch 1.13 as Debian packages it (nothing else):

    apt-get install -y python3-torch libopenblas0-pthread      # then use /usr/bin/python3

Times every workload of the benchmark contract (the shared WORKLOADS.md, summarized with the
readings of its loose points in tools/bench/README.md: its names, inputs, bytes and flops), by
the same names as `go run ./cmd/bench -json`,
so that tools/bench/compare.py can set the two side by side. REGEX selects workloads whose
name it matches anywhere (re.search, as cmd/bench's regexp.MatchString); only the inputs of
the selected workloads' families are built.

Inputs: element i (row-major) is ((7919*i + b) mod 1009 - 504) / 64, computed in float64 and
converted to the dtype (b = 13 unless a workload says otherwise); divisors scale afterwards.

Timing, as cmd/bench: 3 warm-up runs, one run to size the batch, then --reps timed runs; work
under 1 ms is run in batches of int(1 ms / one run) and each batch divided back. The median is
sorted_times[reps // 2] (the upper middle for an even count, the same statistic cmd/bench uses).

Output: one JSON object per line,
    {"name", "median_ms", "min_ms", "max_ms", "bytes", "flops"}
where bytes is the fewest bytes the workload must move through memory (0 where not meaningful)
and flops its arithmetic, both as WORKLOADS.md defines them.
"""
import argparse
import json
import re
import time
import warnings

import torch
import torch.nn.functional as F

N = 1 << 24
S = 4096
F32 = 4  # bytes per float32 element

# ---------------------------------------------------------------------------------------------
# Inputs


def pattern(*shape, b=13, dtype=torch.float32):
    """The conformance cases' fill: ((7919*i + b) mod 1009 - 504) / 64 in float64, then dtype."""
    n = 1
    for d in shape:
        n *= d
    k = torch.remainder(torch.arange(n, dtype=torch.int64) * 7919 + b, 1009) - 504
    return (k.to(torch.float64) / 64).to(dtype).reshape(shape)


def index(n, k, b=13):
    """int64 indices in [0, k): element i is (7919*i + b) mod k."""
    return torch.remainder(torch.arange(n, dtype=torch.int64) * 7919 + b, k)


def lens(count, lo, hi):
    """Rows of the nested tensors' components: component i has lo + ((7919*i + 13) mod 1009)
    mod (hi - lo + 1) rows."""
    return [lo + ((7919 * i + 13) % 1009) % (hi - lo + 1) for i in range(count)]


def components(rows, dim):
    """Component i of a nested tensor: rows[i] x dim, the pattern with b = 13 + i, divided by 16."""
    return [pattern(n, dim, b=13 + i) / 16 for i, n in enumerate(rows)]


# ---------------------------------------------------------------------------------------------
# Workload families. Each is declared with the names it builds (so that --list and the regex
# need not build inputs) and returns [(name, run, bytes, flops)] in that order.

FAMILIES = []


def family(names):
    def register(build):
        FAMILIES.append((names.split(), build))
        return build
    return register


@family("copy_f32 add_f32 add_f32_alloc add_f32_16k add_f32_16 add_bcast_row add_bcast_col "
        "add_transposed add_i32_f32 mul_scalar where_f32 cast_f32_f16 contiguous_permute "
        "exp_f32 tanh_f32 sigmoid_f32 gelu_f32")
def headline_elementwise():
    a, b, out = pattern(N), pattern(N, b=29), torch.empty(N)
    a16k, b16k, o16k = pattern(1 << 14), pattern(1 << 14, b=29), torch.empty(1 << 14)
    a16, b16, o16 = pattern(16), pattern(16, b=29), torch.empty(16)
    M, M2, O = pattern(S, S), pattern(S, S, b=31), torch.empty(S, S)
    row, col = pattern(S), pattern(S, 1)
    ai = pattern(N, dtype=torch.int32)
    cond = a > 0  # precomputed: where_f32 times the select alone
    P = pattern(64, 64, 64, 64)
    return [
        ("copy_f32", lambda: out.copy_(a), 8 * N, 0),
        ("add_f32", lambda: torch.add(a, b, out=out), 12 * N, N),
        ("add_f32_alloc", lambda: a + b, 12 * N, N),
        ("add_f32_16k", lambda: torch.add(a16k, b16k, out=o16k), 12 * 16384, 16384),
        ("add_f32_16", lambda: torch.add(a16, b16, out=o16), 192, 16),
        ("add_bcast_row", lambda: torch.add(M, row, out=O), 8 * S * S, S * S),
        ("add_bcast_col", lambda: torch.add(M, col, out=O), 8 * S * S, S * S),
        ("add_transposed", lambda: torch.add(M.t(), M2, out=O), 12 * S * S, S * S),
        ("add_i32_f32", lambda: torch.add(ai, b, out=out), 12 * N, N),
        ("mul_scalar", lambda: torch.mul(a, 2.5, out=out), 8 * N, N),
        ("where_f32", lambda: torch.where(cond, a, b), 13 * N, N),
        ("cast_f32_f16", lambda: a.to(torch.float16), 6 * N, 0),
        ("contiguous_permute", lambda: P.permute(0, 2, 3, 1).contiguous(), 8 * 64 ** 4, 0),
        ("exp_f32", lambda: torch.exp(a, out=out), 8 * N, N),
        ("tanh_f32", lambda: torch.tanh(a, out=out), 8 * N, N),
        ("sigmoid_f32", lambda: torch.sigmoid(a, out=out), 8 * N, N),
        ("gelu_f32", lambda: F.gelu(a), 8 * N, N),  # approximate='none': the erf form
    ]


@family("sum_all sum_dim0 sum_dim1 amax_dim1 argmax_dim1 var_dim1 cumsum_dim1 cumsum_dim0 "
        "softmax_lastdim layer_norm_lastdim")
def headline_reductions():
    a, M = pattern(N), pattern(S, S)
    w, bias = pattern(S, b=3) / 64, pattern(S, b=5) / 64
    SS = S * S
    return [
        ("sum_all", lambda: a.sum(), 4 * N, N),
        ("sum_dim0", lambda: M.sum(0), 4 * SS, SS),
        ("sum_dim1", lambda: M.sum(1), 4 * SS, SS),
        ("amax_dim1", lambda: M.amax(1), 4 * SS, SS),
        ("argmax_dim1", lambda: M.argmax(1), 4 * SS, SS),
        ("var_dim1", lambda: M.var(1), 4 * SS, 3 * SS),  # unbiased, torch's default
        ("cumsum_dim1", lambda: M.cumsum(1), 8 * SS, SS),
        ("cumsum_dim0", lambda: M.cumsum(0), 8 * SS, SS),
        ("softmax_lastdim", lambda: torch.softmax(M, -1), 8 * SS, 0),
        ("layer_norm_lastdim", lambda: F.layer_norm(M, (S,), w, bias), 8 * SS, 0),
    ]


@family("matmul_256 matmul_1024 bmm_64x128x64x128 linear_256x512x512 mlp_step")
def headline_products():
    A256, B256 = pattern(256, 256) / 16, pattern(256, 256, b=7) / 16
    A, B = pattern(1024, 1024) / 16, pattern(1024, 1024, b=7) / 16
    X, Y = pattern(64, 128, 64) / 16, pattern(64, 64, 128, b=7) / 16
    x = pattern(256, 512) / 16
    W = pattern(512, 512, b=3) / 64  # stored [in, out]: linear gets W.t() and reads it transposed
    bias = pattern(512, b=5) / 64
    Wg, bg = W.clone().requires_grad_(), bias.clone().requires_grad_()

    def mlp_step():
        Wg.grad = bg.grad = None
        torch.relu(x @ Wg + bg).sum().backward()

    bmm_bytes = F32 * (64 * 128 * 64 + 64 * 64 * 128 + 64 * 128 * 128)  # read X, Y; write out
    return [
        ("matmul_256", lambda: A256 @ B256, 12 * 256 ** 2, 2 * 256 ** 3),
        ("matmul_1024", lambda: A @ B, 12 * 1024 ** 2, 2 * 1024 ** 3),
        ("bmm_64x128x64x128", lambda: torch.bmm(X, Y), bmm_bytes, 2 * 64 * 128 * 64 * 128),
        ("linear_256x512x512", lambda: F.linear(x, W.t(), bias), 0, 2 * 256 * 512 * 512),
        ("mlp_step", mlp_step, 0, 6 * 256 * 512 * 512),
    ]


@family("log_f32 sqrt_f32 sin_f32 erf_f32 expm1_f32 pow_f32 relu_f32 silu_f32 maximum_f32 "
        "gt_f32 add_i8 mul_i64 add_bf16 exp_f64")
def breadth_elementwise():
    a, b, out = pattern(N), pattern(N, b=29), torch.empty(N)
    apos = (a + 7.9) / 8  # in (0, 2): the domain of log, sqrt, pow
    obool = torch.empty(N, dtype=torch.bool)
    i = torch.arange(N)
    i8a, i8b = (i % 101 - 50).to(torch.int8), (7 * i % 103 - 51).to(torch.int8)
    i8o = torch.empty(N, dtype=torch.int8)
    i64a, i64b = a.to(torch.int64), b.to(torch.int64)  # the float patterns, truncated
    i64o = torch.empty(N, dtype=torch.int64)
    bfa, bfb = pattern(N, dtype=torch.bfloat16), pattern(N, b=29, dtype=torch.bfloat16)
    bfo = torch.empty(N, dtype=torch.bfloat16)
    f64a, f64o = pattern(N, dtype=torch.float64), torch.empty(N, dtype=torch.float64)
    del i
    return [
        ("log_f32", lambda: torch.log(apos, out=out), 8 * N, N),
        ("sqrt_f32", lambda: torch.sqrt(apos, out=out), 8 * N, N),
        ("sin_f32", lambda: torch.sin(a, out=out), 8 * N, N),
        ("erf_f32", lambda: torch.erf(a, out=out), 8 * N, N),
        ("expm1_f32", lambda: torch.expm1(a, out=out), 8 * N, N),
        ("pow_f32", lambda: torch.pow(apos, 2.5, out=out), 8 * N, N),
        ("relu_f32", lambda: torch.clamp_min(a, 0, out=out), 8 * N, N),
        ("silu_f32", lambda: F.silu(a), 8 * N, N),
        ("maximum_f32", lambda: torch.maximum(a, b, out=out), 12 * N, N),
        ("gt_f32", lambda: torch.gt(a, b, out=obool), 9 * N, N),
        ("add_i8", lambda: torch.add(i8a, i8b, out=i8o), 3 * N, N),
        ("mul_i64", lambda: torch.mul(i64a, i64b, out=i64o), 24 * N, N),
        ("add_bf16", lambda: torch.add(bfa, bfb, out=bfo), 6 * N, N),
        ("exp_f64", lambda: torch.exp(f64a, out=f64o), 16 * N, N),
    ]


@family("sum_bf16 prod_dim1 norm_dim1 amax_mid softmax_dim0 layer_norm_8192x768 cummax_dim1 "
        "logcumsumexp_dim1 sum_16")
def breadth_reductions():
    bfa = pattern(N, dtype=torch.bfloat16)
    M, Mo = pattern(S, S), torch.empty(S, S)
    T3 = pattern(64, 1024, 256)
    LN = pattern(8192, 768)
    w, bias = pattern(768, b=3) / 64, pattern(768, b=5) / 64
    a16 = pattern(16)
    SS, T3n, LNn = S * S, 64 * 1024 * 256, 8192 * 768
    return [
        ("sum_bf16", lambda: bfa.sum(), 2 * N, N),
        ("prod_dim1", lambda: M.prod(1), 4 * SS, SS),
        ("norm_dim1", lambda: M.norm(dim=1), 4 * SS, 2 * SS),
        ("amax_mid", lambda: T3.amax(1), 4 * T3n, T3n),
        ("softmax_dim0", lambda: torch.softmax(M, 0), 8 * SS, 0),
        ("layer_norm_8192x768", lambda: F.layer_norm(LN, (768,), w, bias), 8 * LNn, 0),
        ("cummax_dim1", lambda: M.cummax(1), 0, 0),  # 0, 0 as the shared torch_ref.py prints
        ("logcumsumexp_dim1", lambda: torch.logcumsumexp(M, 1, out=Mo), 8 * SS, 0),
        ("sum_16", lambda: a16.sum(), 64, 16),
    ]


@family("contiguous_step2 bias_nchw_small mv_4096 matmul_bf16_512 matmul_f64_1024")
def breadth_layout_products():
    M, v = pattern(S, S), pattern(S, b=7) / 16
    x4, bias4 = pattern(64, 256, 14, 14), pattern(256, 1, 1, b=5)
    o4 = torch.empty(64, 256, 14, 14)
    Ab, Bb = (pattern(512, 512) / 16).to(torch.bfloat16), (pattern(512, 512, b=7) / 16).to(torch.bfloat16)
    Ad = (pattern(1024, 1024) / 16).to(torch.float64)
    Bd = (pattern(1024, 1024, b=7) / 16).to(torch.float64)
    SS, x4n = S * S, 64 * 256 * 14 * 14
    return [
        ("contiguous_step2", lambda: M[:, ::2].contiguous(), 4 * SS, 0),  # read half, write half
        ("bias_nchw_small", lambda: torch.add(x4, bias4, out=o4), 8 * x4n, x4n),
        ("mv_4096", lambda: torch.mv(M, v), 4 * SS, 2 * SS),
        ("matmul_bf16_512", lambda: Ab @ Bb, 6 * 512 ** 2, 2 * 512 ** 3),
        ("matmul_f64_1024", lambda: Ad @ Bd, 24 * 1024 ** 2, 2 * 1024 ** 3),
    ]


@family("autograd_chain grad_bcast_sum train_step_adam")
def autograd():
    x16 = pattern(16).requires_grad_()

    def autograd_chain():  # per-node overhead: 300 recorded ops on [16]
        x16.grad = None
        y = x16
        for _ in range(100):
            y = torch.tanh(y * 1.01 + 0.1)
        y.sum().backward()

    A, b = pattern(S, S).requires_grad_(), pattern(S, b=29).requires_grad_()

    def grad_bcast_sum():  # b's gradient is reduced over the broadcast dim
        A.grad = b.grad = None
        (A + b).sum().backward()

    torch.manual_seed(0)  # "weights of any init": nn.Linear's default, seeded
    mlp = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(),
                              torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
    adam = torch.optim.Adam(mlp.parameters(), lr=1e-3)
    x, target = pattern(256, 256) / 16, index(256, 10)

    def train_step_adam():
        adam.zero_grad(set_to_none=True)
        F.cross_entropy(mlp(x), target).backward()
        adam.step()

    return [
        ("autograd_chain", autograd_chain, 0, 0),
        ("grad_bcast_sum", grad_bcast_sum, 12 * S * S, 2 * S * S),
        ("train_step_adam", train_step_adam, 0, 6 * 256 * (256 * 512 + 512 * 512 + 512 * 10)),
    ]


@family("gather_dim1 index_select_dim0 advanced_index_rows index_add_dim0 masked_select_f32 "
        "sort_dim1 topk_dim1 embedding_65536x256")
def indexing():
    M, a = pattern(S, S), pattern(N)
    gidx = index(S * 512, S).reshape(S, 512)
    rows = index(S, S, b=5)
    acc = torch.zeros(65536, 64)  # index_add_ accumulates into it across runs
    aidx, src = index(1 << 18, 65536), pattern(1 << 18, 64, b=3)
    Ms = pattern(1024, S)
    E, eidx = pattern(50000, 256) / 16, index(65536, 50000)
    return [
        ("gather_dim1", lambda: M.gather(1, gidx), 12 * S * 512, 0),
        ("index_select_dim0", lambda: M.index_select(0, rows), 8 * S * S, 0),
        ("advanced_index_rows", lambda: M[rows], 8 * S * S, 0),
        ("index_add_dim0", lambda: acc.index_add_(0, aidx, src), 12 * (1 << 18) * 64, (1 << 18) * 64),
        ("masked_select_f32", lambda: a[a > 0], 6 * N, 0),  # the mask is part of the work
        ("sort_dim1", lambda: Ms.sort(1), 0, 0),
        ("topk_dim1", lambda: M.topk(16, dim=1), 4 * S * S, 0),
        ("embedding_65536x256", lambda: F.embedding(eidx, E), 8 * 65536 * 256, 0),
    ]


@family("nested_linear padded_linear nested_softmax_lastdim nested_to_padded nested_attention "
        "padded_attention")
def nested():
    warnings.filterwarnings("ignore", message=".*nested tensors is in prototype.*")
    D = 256
    rows = lens(64, 16, 512)
    nt = torch.nested.nested_tensor(components(rows, D))
    B, L, R = len(rows), max(rows), sum(rows)
    padded = torch.nested.to_padded_tensor(nt, 0.0)
    W, bias = pattern(D, D, b=3) / 64, pattern(D, b=5) / 64

    # Attention: PyTorch 1.13 has no nested attention, so both names time the padded form
    # (WORKLOADS.md); only their flops differ (the useful work of each form).
    H, hd = 4, 64
    arows = lens(32, 16, 256)
    AB, AL = len(arows), max(arows)
    apad = torch.nested.to_padded_tensor(torch.nested.nested_tensor(components(arows, D)), 0.0)
    q = apad.reshape(AB, AL, H, hd).transpose(1, 2)  # [32, 4, max, 64], q = k = v
    mask = torch.zeros(AB, 1, 1, AL)
    for i, n in enumerate(arows):
        mask[i, ..., n:] = float("-inf")  # key padding; padded query rows still see real keys

    def padded_attention():
        return torch.softmax(q @ q.transpose(-1, -2) / 8 + mask, -1) @ q

    return [
        ("nested_linear", lambda: F.linear(nt, W, bias), 0, 2 * R * D * D),
        ("padded_linear", lambda: F.linear(padded, W, bias), 0, 2 * B * L * D * D),
        ("nested_softmax_lastdim", lambda: torch.softmax(nt, -1), 8 * R * D, 0),
        ("nested_to_padded", lambda: torch.nested.to_padded_tensor(nt, 0.0), 4 * (R + B * L) * D, 0),
        ("nested_attention", padded_attention, 0, 4 * sum(n * n for n in arows) * D),
        ("padded_attention", padded_attention, 0, 4 * AB * AL * AL * D),
    ]


# ---------------------------------------------------------------------------------------------
# Timing


def measure(run, reps):
    """3 warm-ups, one sizing run, then reps timed batches; returns sorted per-run seconds."""
    for _ in range(3):
        run()
    t0 = time.perf_counter()
    run()
    one = time.perf_counter() - t0
    inner = max(1, int(1e-3 / max(one, 1e-7))) if one < 1e-3 else 1
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            run()
        times.append((time.perf_counter() - t0) / inner)
    return sorted(times)


def time_family(names, build, select, reps):
    """Builds one family's inputs, times its selected workloads, prints a JSON line for each;
    the inputs are freed on return, before the next family is built."""
    workloads = build()
    built = [w[0] for w in workloads]
    assert built == names, f"{build.__name__} builds {built}, declares {names}"
    for name, run, nbytes, flops in workloads:
        if select.search(name):
            ts = measure(run, reps)
            print(json.dumps({"name": name, "median_ms": ts[len(ts) // 2] * 1e3,
                              "min_ms": ts[0] * 1e3, "max_ms": ts[-1] * 1e3,
                              "bytes": nbytes, "flops": flops}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=2, help="torch.set_num_threads (default 2)")
    ap.add_argument("--reps", type=int, default=20, help="timed runs per workload (default 20)")
    ap.add_argument("--list", action="store_true", help="print the selected names and exit")
    ap.add_argument("regex", nargs="?", default="", help="time only the names it matches")
    args = ap.parse_args()
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    select = re.compile(args.regex)

    if args.list:
        for names, _ in FAMILIES:
            for name in names:
                if select.search(name):
                    print(name)
        return

    torch.set_num_threads(args.threads)
    for names, build in FAMILIES:
        if any(select.search(n) for n in names):
            time_family(names, build, select, args.reps)


if __name__ == "__main__":
    main()
