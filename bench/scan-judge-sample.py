#!/usr/bin/env python3
# Draws the sample of error/warning sites judged in bench/judged/<app>.md from a `tplab scan --format json` report:
#   ./tplab scan /work/apps/jellyfin --allow-partial --format json -o /tmp/jellyfin.json
#   bench/scan-judge-sample.py /tmp/jellyfin.json /work/apps/jellyfin 27
# One line per site (file, line, blocking call), the finding with the worst severity and fewest reasons shown, with
# the source lines around it to read.
# With a judged file as a fourth argument, the sites its verdict tables already judged (rows with a T/H/F verdict,
# matched by file name and line) are left out first: the sample is drawn from the sites not judged yet.
#   bench/scan-judge-sample.py /tmp/ersatztv.json /tmp/et 25 bench/judged/ersatztv.md
import json,collections,random,re,sys
report,src,n=sys.argv[1],sys.argv[2],int(sys.argv[3])
judged=set()
if len(sys.argv)>4:
    table=False
    for row in open(sys.argv[4],encoding='utf-8'):
        if row.startswith('|') and 'verdict' in row: table=True; continue
        if not row.startswith('|'): table=False; continue
        if table:
            for f,l in re.findall(r'([\w.-]+\.(?:cs|cshtml|razor)):(\d+)',row): judged.add((f,int(l)))
d=json.load(open(report))
sites=collections.OrderedDict()
for x in d['findings']:
    k=(x['chain'][-1]['file'],x['chain'][-1]['line'],x['blockingCall'])
    sites.setdefault(k,[]).append(x)
def best(v): return sorted(v,key=lambda x:(x['severity']!='error',len(x['reasons']),len(x['chain'])))[0]
keys=[k for k in sites if best(sites[k])['severity'] in ('error','warning') and (k[0].split('/')[-1],k[1]) not in judged]
if judged: print(f"# {len(keys)} error/warning sites not judged in {sys.argv[4]} ({len(judged)} judged sites read from it)")
random.seed(26)
pick=sorted(random.sample(keys,min(n,len(keys))), key=lambda k:(best(sites[k])['severity']!='error',k))
for i,k in enumerate(pick,1):
    b=best(sites[k])
    print(f"## {i}. {b['severity']} {k[0]}:{k[1]} {k[2]} on={b.get('blockingOn')} roots={len(sites[k])} e.g. {b['root']}")
    print("   chain:", " -> ".join(f"{h['method'].split('.')[-2]}.{h['method'].split('.')[-1]}@{h['line']}" + (f"[{h['via']}]" if h['via'] else "") for h in b['chain']))
    print("   reasons:", b['reasons'])
    lines=open(src+'/'+k[0],encoding='utf-8',errors='replace').read().split('\n')
    for j in range(max(0,k[1]-4),min(len(lines),k[1]+2)): print("   |",j+1,lines[j][:160])
