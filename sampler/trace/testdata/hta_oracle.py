#!/usr/bin/env python3
"""Independent transcription of HTA's figure definitions (no pandas), used to
state the expected figures of the corpus traces in INDEX.md. Definitions from
HolisticTraceAnalysis @ f4d0062: hta/analyzers/breakdown_analysis.py
(_get_idle_time_for_kernels, get_temporal_breakdown, _analyze_idle_time_for_stream),
hta/common/types.py (kernel grouping patterns), hta/common/trace.py
(_filter_irrelevant_gpu_kernels). Usage: hta_oracle.py TRACE.json.gz"""
import gzip, json, re, sys

COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
MEM = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
GPU_CAT = re.compile(r"(kernel)|(gpu_mem.+)")

def kind(name):
    if COMM.match(name): return "comm"
    if MEM.match(name): return "memory"
    return "compute"

def merge(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out

def main(path):
    ev = json.load(gzip.open(path))["traceEvents"]
    x = [e for e in ev if e.get("ph") == "X"]
    gpu = [e for e in x if GPU_CAT.match(e.get("cat", ""))]
    cpu = [e for e in x if not GPU_CAT.match(e.get("cat", "")) and e.get("cat") != "cuda_sync"]
    steps = [e for e in cpu if re.match(r"^ProfilerStep#(\d+)", e["name"])]
    if len(set(e["name"] for e in steps)) >= 2:
        last = max(e["ts"] for e in steps)
        keep = {e["args"].get("correlation") for e in cpu if e["ts"] < last and "correlation" in e.get("args", {})}
        gpu = [e for e in gpu if e["args"].get("correlation") in keep]
    busy = merge([(e["ts"], e["ts"] + e["dur"]) for e in gpu])
    span = busy[-1][1] - busy[0][0]
    run = sum(e - s for s, e in busy)
    comp = merge([(e["ts"], e["ts"] + e["dur"]) for e in gpu if kind(e["name"]) == "compute"])
    ct = sum(e - s for s, e in comp)
    print("kernels %d span %d idle %.2f%% compute %.2f%% noncompute %.2f%%" % (
        len(gpu), span, 100 * (span - run) / span, 100 * ct / span, 100 * (run - ct) / span))
    comm = merge([(e["ts"], e["ts"] + e["dur"]) for e in gpu if kind(e["name"]) == "comm"])
    if comm:
        ov = 0
        for a0, a1 in comm:
            for b0, b1 in comp:
                ov += max(0, min(a1, b1) - max(a0, b0))
        print("comm %d us overlap %.2f%%" % (sum(e - s for s, e in comm), 100 * ov / sum(e - s for s, e in comm)))
    rt = {e["args"]["correlation"]: e["ts"] for e in cpu if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
    for s in sorted({e["args"]["stream"] for e in gpu}):
        ks = sorted((e for e in gpu if e["args"]["stream"] == s), key=lambda e: e["ts"])
        cat = {"host": 0.0, "kernel": 0.0, "other": 0.0}
        for p, k in zip(ks, ks[1:]):
            gap = k["ts"] - (p["ts"] + p["dur"])
            tr = rt.get(k["args"].get("correlation"))
            if tr is not None and tr > p["ts"] + p["dur"]: cat["host"] += gap
            elif gap < 30: cat["kernel"] += gap
            else: cat["other"] += gap
        tot = sum(cat.values()) or 1
        print("stream %d idle host %.2f%% kernel %.2f%% other %.2f%%" % (s, 100 * cat["host"] / tot, 100 * cat["kernel"] / tot, 100 * cat["other"] / tot))
    k = [e for e in gpu if e.get("cat") == "kernel"]
    if k:
        print("kernels<10us %.2f%% <50us %.2f%%" % (100 * sum(e["dur"] < 10 for e in k) / len(k), 100 * sum(e["dur"] < 50 for e in k) / len(k)))

if __name__ == "__main__":
    main(sys.argv[1])
