#!/usr/bin/python3
"""Group goten conform failures by root cause: triage.py VARIANT_DIR CONFORM_OUTPUT_FILE.
Also writes VARIANT_DIR/failing.jsonl (the failing cases)."""
import json,re,glob,sys,collections
def load(d, out):
    fails={}
    for l in open(out):
        m=re.match(r'FAIL (\S+): (.*)',l)
        if m: fails[m.group(1)]=m.group(2)
    cases={}
    for f in glob.glob(d+'/cases/*.jsonl'):
        for l in open(f):
            c=json.loads(l)
            if c['id'] in fails: cases[c['id']]=c
    return fails,cases
def numel(s): 
    n=1
    for x in s: n*=x
    return n
def cat(i,why,c):
    st=c['program'][c['error']['step']] if 'error' in c else c['program'][-1]
    op=st['op']; kw=st.get('kwargs',{})
    empty=any(numel(s['shape'])==0 for s in c['inputs'].values())
    if 'storage offset 0, want' in why: return 'B out= resize resets storage offset'
    if ('dtype int64, want' in why or 'Expected out tensor to have dtype int64' in why) and 'dtype' in kw: return 'A dtype= kwarg ignored for int/bool dtype'
    if op in ('log','log10','logit') and 'got -70' in why: return 'C float64 log/log10/logit of subnormals'
    if op=='lerp' and 'got NaN' in why: return 'D lerp branch for weight<=-0.5'
    if 'where expected condition' in why: return 'E1 where: uint8 cond accepted by torch'
    if op=='clamp' and 'bool' in why: return 'E2 clamp of bool'
    if 'argument value must not be a floating point' in why: return 'E3 addcmul int with float value'
    if op=='sum' and "not implemented for 'bool'" in why: return 'E4 sum with bool out='
    if op in('baddbmm','addmm') and 'raised' in why and not empty: return 'E5 baddbmm input dtype != batch dtype'
    if why.startswith('step 0') and 'raised' in why and empty: return 'G torch skips checks on empty tensors'
    if why.startswith('no error, want dtype') and op=='layer_norm': return 'F2 layer_norm mixed dtypes accepted'
    if why.startswith('no error, want dtype'): return 'F1 op/dtype torch has no kernel for: '+op
    if op=='norm' and empty: return 'H1 norm p<0 over empty'
    if op=='logsumexp' and 'want shape' in why: return 'H2 torch logsumexp dim=[] bug'
    if op=='log1p': return 'H3 torch log1p(huge)=inf'
    if op=='signbit': return 'H4 NaN sign (bf16)'
    if 'want shape' in why or 'want overlap' in why or 'error kind' in why: return 'M multi-cause/order: '+why[:60]
    return 'Z other: '+why[:80]
for d,out in [(sys.argv[1], sys.argv[2])]:
    fails,cases=load(d,out)
    cnt=collections.defaultdict(list)
    for i,w in fails.items(): cnt[cat(i,w,cases[i])].append(i)
    print('==',d,len(fails))
    for k in sorted(cnt): print(f'{len(cnt[k]):4d} {k}   e.g. {cnt[k][0]}')
    with open(d + '/failing.jsonl', 'w') as w:
        for i in fails:
            w.write(json.dumps(cases[i], separators=(',', ':')) + '\n')
