"""Prints the rows of tensor/topk_ties_test.go's TestTopKTies: PyTorch 1.13's topk indices on rows
full of ties (Note [topk's tie order] in package kernel), checked equal across float32, float64,
bfloat16 and (rows without NaN) int32.

    /usr/bin/python3 tools/confgen/topk_ties.py
"""
import torch, math
cases=[ # n, mul, add, mod, nanEvery, k, largest
 (6,1,0,1,0,3,True),
 (40,7,1,3,0,20,True),
 (40,7,1,3,5,25,False),
 (200,13,2,5,0,3,True),
 (200,7,3,4,9,3,False),
 (130,1,0,2,0,2,True),
 (1000,17,5,10,0,99,False),
 (1000,31,4,6,7,15,True),
 (50,5,0,6,4,50,True),
 (4096,7919,13,9,0,16,True),
 (128,5,1,3,0,2,False),
 (192,1,0,2,0,3,True),
]
def row(n,mul,add,mod,nanEvery):
    r=[]
    for i in range(n):
        if nanEvery and i%nanEvery==nanEvery-1: r.append(float('nan')); continue
        v=float((i*mul+add)%mod - mod//2)
        if v==0 and i%2==1: v=-0.0
        r.append(v)
    return r
for c in cases:
    n,mul,add,mod,ne,k,lg=c
    t=torch.tensor(row(n,mul,add,mod,ne),dtype=torch.float32)
    i=torch.topk(t,k,largest=lg).indices.tolist()
    # same for float64 and int32 when no NaN, as a check that dtype doesn't matter
    i64=torch.topk(t.double(),k,largest=lg).indices.tolist()
    assert i==i64
    if ne==0:
        assert i==torch.topk(t.int(),k,largest=lg).indices.tolist()
    assert i==torch.topk(t.bfloat16(),k,largest=lg).indices.tolist()
    print("\t\t{%d, %d, %d, %d, %d, %d, %s, []int64{%s}},"%(n,mul,add,mod,ne,k,str(lg).lower(),", ".join(map(str,i))))
