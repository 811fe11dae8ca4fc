"""Correctly rounded float64 references for vec's GeluF64, GeluTanhF64 and
PowF64 kernels, computed by mpmath at 400 bits, written as Go test data:

    /usr/bin/python3 tools/mpref/gelu_pow.py > backend/cpu/internal/vec/elem_gelu_pow_mpref_data_test.go

gelu is x·Φ(x) = x/2·erfc(−x/√2); gelu-tanh is x/2·(1 + tanh(k·(x + c·x³)))
with PyTorch's float64 constants k = 0.7978845608028654 and c = 0.044715
(the values of the doubles, exactly). pow is x^y. Inputs are drawn with a
fixed seed over each function's whole range; the generator is deterministic.
"""

import math
import random
import struct

from mpmath import mp, mpf, erfc, sqrt, exp, log, nint

mp.prec = 400

TINY = mpf(2) ** -1074


def bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def rnd(v):
    """The float64 nearest the mpf v (ties to even), subnormals rounded once."""
    if v == 0:
        return 0.0
    a = abs(v)
    if a < mpf(2) ** -1022:
        n = int(nint(a / TINY))  # nint: ties to even
        f = math.ldexp(n, -1074)
    else:
        if a >= mpf(2) ** 1024 - mpf(2) ** 970:
            f = math.inf
        else:
            f = float(a)  # normal: mpmath rounds to nearest even at 53 bits
    return -f if v < 0 else f


def gelu(x):
    return mpf(x) / 2 * erfc(-mpf(x) / sqrt(2))


K, C = 0.7978845608028654, 0.044715


def gelu_tanh(x):
    x = mpf(x)
    u = mpf(K) * (x + mpf(C) * x**3)
    return x / (1 + exp(-2 * u))  # = x/2·(1 + tanh u), no cancellation


def pow_(x, y):
    x, y = mpf(x), mpf(y)
    if x < 0:
        r = exp(y * log(-x))
        return -r if int(y) % 2 else r
    return exp(y * log(x))


def main():
    r = random.Random(20261124)
    out = []
    w = out.append
    w("package vec\n\n")
    w("// Written by tools/mpref/gelu_pow.py (mpmath at 400 bits); regenerate, do not edit.\n\n")

    gx = [0.5, -0.5, 1, -1, 1.25 * math.sqrt(2), -1.25 * math.sqrt(2), -5, -10, -20, -30, -37, -37.5, -38, -38.5, 3, 7, 40]
    for _ in range(1200):
        k = r.random()
        if k < 0.5:
            gx.append(r.uniform(-39, 9))
        elif k < 0.6:
            gx.append(r.uniform(-38.7, -37))
        elif k < 0.8:
            gx.append(r.choice([-1, 1]) * math.exp(r.uniform(math.log(1e-300), math.log(40))))
        else:
            gx.append(r.uniform(-2, 2))
    w("// mpGelu holds inputs x and the float64 nearest x·Φ(x).\nvar mpGelu = [][2]uint64{\n")
    for x in gx:
        w("\t{%#x, %#x},\n" % (bits(x), bits(rnd(gelu(x)))))
    w("}\n\n")

    tx = [0.5, -0.5, 1, -1, -3, -5, -10, -15, -20, -25, 3, 7]
    for _ in range(1200):
        k = r.random()
        if k < 0.6:
            tx.append(r.uniform(-26, 6))
        elif k < 0.8:
            tx.append(r.choice([-1, 1]) * math.exp(r.uniform(math.log(1e-300), math.log(30))))
        else:
            tx.append(r.uniform(-2, 2))
    w("// mpGeluTanh holds inputs x and the float64 nearest gelu-tanh(x) with\n// PyTorch's float64 constants.\nvar mpGeluTanh = [][2]uint64{\n")
    for x in tx:
        w("\t{%#x, %#x},\n" % (bits(x), bits(rnd(gelu_tanh(x)))))
    w("}\n\n")

    pts = []
    for _ in range(3000):
        k = r.random()
        # x over the whole positive range, subnormals included
        e = r.uniform(-1074, 1024)
        x = math.ldexp(r.uniform(1, 2), int(math.floor(e)) - 1)
        if x == 0:
            x = 5e-324
        lx = math.log(x) if x > 0 else 0
        if k < 0.55 and lx != 0:
            # y·log x over [−760, 720]: results from underflow to overflow
            y = r.uniform(-760, 720) / lx
        elif k < 0.7:
            # x near 1 with large y
            x = 1 + r.uniform(-1, 1) * 2.0 ** r.uniform(-52, -1)
            y = r.uniform(-720, 720) / math.log(x) if x != 1 else 3.5
        elif k < 0.8:
            y = float(r.randint(-40, 40))
            x = r.uniform(0.01, 30)
        elif k < 0.9:
            # negative bases with integer exponents
            y = float(r.randint(-60, 60))
            x = -r.uniform(0.01, 40)
        else:
            y = r.choice([0.5, -0.5, 2, 3, -1, -2, 1 / 3, 1e-300, -1e-300, 1e-10]) * (1 if r.random() < 0.8 else r.uniform(0.5, 2))
        pts.append((x, y))
    w("// mpPow holds inputs x, y and the float64 nearest x^y.\nvar mpPow = [][3]uint64{\n")
    for x, y in pts:
        w("\t{%#x, %#x, %#x},\n" % (bits(x), bits(y), bits(rnd(pow_(x, y)))))
    w("}\n")
    print("".join(out), end="")


if __name__ == "__main__":
    main()
