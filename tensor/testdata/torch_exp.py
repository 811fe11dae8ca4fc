"""Writes torch_exp_f32.bin and torch_exp_bf16.bin for TestExpMatchesPyTorch
(exp_sleef_test.go): PyTorch 1.13's exp of 16352 float32 inputs (pairs of
little-endian uint32: input bits, result bits) and of every bfloat16 (65536
little-endian uint16 results, input i being the bits i). Run with
/usr/bin/python3 (Debian's python3-torch) from the repository root."""
import numpy as np
import torch

rng = np.random.default_rng(20261125)
edges = [0.0, -0.0, 1.0, -1.0, 88.72283, 88.72284, 88.7229, 89.0, 99.9, 100.0, 100.1, 1e10,
         -103.97, -103.99, -104.0, -104.01, -87.3, -87.34, -87.4, -100.0, float("inf"), float("-inf"),
         float("nan"), 1e-30, -1e-30, 1.4e-45, 0.5, 0.693147, -0.693147, 0.34657359, 10.0, -10.0]
x = np.concatenate([np.array(edges, dtype=np.float32),
                    rng.uniform(-110, 110, 6000).astype(np.float32),
                    rng.uniform(-2, 2, 4000).astype(np.float32),
                    (rng.standard_normal(4000) * 30).astype(np.float32),
                    rng.uniform(80, 89, 1000).astype(np.float32),
                    rng.uniform(-104, -80, 1320).astype(np.float32)])
y = torch.from_numpy(x).exp().numpy()
with open("tensor/testdata/torch_exp_f32.bin", "wb") as f:
    f.write(np.stack([x.view(np.uint32), y.view(np.uint32)], axis=1).astype("<u4").tobytes())
b = torch.arange(65536, dtype=torch.int32).to(torch.int16).view(torch.bfloat16)
with open("tensor/testdata/torch_exp_bf16.bin", "wb") as f:
    f.write(b.exp().view(torch.int16).numpy().astype("<u2").tobytes())
