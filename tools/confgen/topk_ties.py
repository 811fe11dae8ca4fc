"""Prints the rows of tensor/topk_ties_test.go's TestTopKTies: PyTorch 1.13's topk indices on rows
full of ties (Note [topk's tie order] in package kernel), checked equal across float32, float64,
bfloat16 and (rows without NaN) int32.

    /usr/bin/python3 tools/confgen/topk_ties.py
"""
import torch

# n, mul, add, mod, nan_every, k, largest: element i of the row is (i*mul + add) % mod - mod//2,
# NaN where nan_every divides i+1, -0.0 for the zeros at odd i
CASES = [
    (6, 1, 0, 1, 0, 3, True), (40, 7, 1, 3, 0, 20, True), (40, 7, 1, 3, 5, 25, False),
    (200, 13, 2, 5, 0, 3, True), (200, 7, 3, 4, 9, 3, False), (130, 1, 0, 2, 0, 2, True),
    (1000, 17, 5, 10, 0, 99, False), (1000, 31, 4, 6, 7, 15, True), (50, 5, 0, 6, 4, 50, True),
    (4096, 7919, 13, 9, 0, 16, True), (128, 5, 1, 3, 0, 2, False), (192, 1, 0, 2, 0, 3, True),
]


def row(n, mul, add, mod, nan_every):
    out = []
    for i in range(n):
        if nan_every and (i + 1) % nan_every == 0:
            out.append(float("nan"))
            continue
        v = float((i * mul + add) % mod - mod // 2)
        out.append(-0.0 if v == 0 and i % 2 == 1 else v)
    return out


for n, mul, add, mod, nan_every, k, largest in CASES:
    t = torch.tensor(row(n, mul, add, mod, nan_every), dtype=torch.float32)
    idx = torch.topk(t, k, largest=largest).indices.tolist()
    others = [t.double(), t.bfloat16()] + ([t.int()] if nan_every == 0 else [])
    for o in others:
        assert torch.topk(o, k, largest=largest).indices.tolist() == idx, (n, o.dtype)
    print("\t\t{%d, %d, %d, %d, %d, %d, %s, []int64{%s}}," % (
        n, mul, add, mod, nan_every, k, str(largest).lower(), ", ".join(map(str, idx))))
