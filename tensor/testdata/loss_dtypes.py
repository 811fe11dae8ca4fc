# Writes loss_dtypes.txt: what PyTorch 1.13 does for each loss of
# torch.nn.functional with inputs x and t of every pair of dtypes (values
# 0.25, 0.5, 1; and empty), forward and backward (floating operands
# require grad): the loss's dtype, the gradients' dtypes, or
# "E kind message" (kind as torch_runner.py classifies it; None where it
# does not). TestLossDTypeMatrix runs the same calls in goten.
#
#   /usr/bin/python3 tensor/testdata/loss_dtypes.py > tensor/testdata/loss_dtypes.txt
import torch, sys, os
import torch.nn.functional as F
here = os.path.dirname(os.path.abspath(__file__))
for d in (os.path.join(here, '..', '..', 'shared', 'conformance'), os.path.join(here, '..', '..', '..', 'shared', 'conformance')):
    sys.path.insert(0, d)  # torch_runner.py: the repository's shared/ or the one beside it
from torch_runner import classify_error
import warnings; warnings.filterwarnings('ignore')
dts=[torch.bool,torch.uint8,torch.int8,torch.int16,torch.int32,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64]
names=['bool','uint8','int8','int16','int32','int64','float16','bfloat16','float32','float64']
def mk(dt,n): return torch.tensor([0.25,0.5,1.0][:n]).to(dt)
def res(f):
    try:
        return f()
    except Exception as e:
        return 'E %s %s' % (classify_error(e), str(e).split('\n')[0][:70])
losses={'mse':F.mse_loss,'l1':F.l1_loss,'smoothl1':F.smooth_l1_loss,'huber':F.huber_loss,'smoothl1b0':lambda x,t,**k:F.smooth_l1_loss(x,t,beta=0.0,**k),
 'bce':F.binary_cross_entropy,'bcel':F.binary_cross_entropy_with_logits,}
for ln in ['mse','smoothl1','smoothl1b0','huber','bce','bcel']:
  L=losses[ln]
  for red,n in [('mean',3),('none',0)]:
   if True:
    for i,a in enumerate(dts):
      for j,b in enumerate(dts):
        def fwd():
            return names[dts.index(L(mk(a,n),mk(b,n),reduction=red).dtype)]
        def bw():
            x=mk(a,n); t=mk(b,n)
            if a.is_floating_point: x.requires_grad_()
            if b.is_floating_point: t.requires_grad_()
            y=L(x,t,reduction=red)
            ins=[v for v in (x,t) if v.requires_grad]
            if not ins: return 'nograd'
            g=torch.autograd.grad(y.sum(),ins)
            return '/'.join(names[dts.index(v.dtype)] for v in g)
        print(ln,red,n,names[i],names[j],'fwd',res(fwd))
        print(ln,red,n,names[i],names[j],'bwd',res(bw))
