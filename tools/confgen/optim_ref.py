"""Reference values for goten's optim tests, computed by PyTorch 1.13.

Prints, for each optimizer setting of optim/optim_test.go, the parameters
after each of five steps on the loss Σ c·p1³ + Σ sin(p2), as Go literals.
Run with /usr/bin/python3 (the interpreter with torch)."""
import torch

def run(make):
    p1 = torch.tensor([0.5, -1.0, 1.5], dtype=torch.float64, requires_grad=True)
    p2 = torch.tensor([[0.3, -0.2], [1.1, 0.0]], dtype=torch.float64, requires_grad=True)
    c = torch.tensor([1.0, 2.0, -0.5], dtype=torch.float64)
    opt = make([p1, p2])
    out = []
    for _ in range(5):
        opt.zero_grad(set_to_none=True)
        ((c * p1 ** 3).sum() + torch.sin(p2).sum()).backward()
        opt.step()
        out.append(p1.detach().tolist() + p2.detach().flatten().tolist())
    return out

O = torch.optim
cases = [
    ("sgd", lambda ps: O.SGD(ps, lr=0.1)),
    ("sgd-momentum", lambda ps: O.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("sgd-nesterov", lambda ps: O.SGD(ps, lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1)),
    ("sgd-maximize", lambda ps: O.SGD(ps, lr=0.01, momentum=0.5, maximize=True)),
    ("adam", lambda ps: O.Adam(ps, lr=0.1)),
    ("adam-decay-amsgrad", lambda ps: O.Adam(ps, lr=0.05, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1, amsgrad=True)),
    ("adamw", lambda ps: O.AdamW(ps, lr=0.1, weight_decay=0.05)),
    ("adamw-maximize", lambda ps: O.AdamW(ps, lr=0.02, weight_decay=0.01, maximize=True)),
]
for name, make in cases:
    rows = run(make)
    print('\t"%s": {' % name)
    for r in rows:
        print("\t\t{" + ", ".join(repr(float(v)) for v in r) + "},")
    print("\t},")
