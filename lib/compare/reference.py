"""Independent reference values for lib/compare/stats.test.ts (numpy/scipy, not our TypeScript).

Run: python3 lib/compare/reference.py. The bootstrap re-implements mulberry32 and the resampling
loop so the seeded intervals can be checked exactly; everything else is numpy/scipy.
"""
import itertools, json, math
import numpy as np
from scipy import stats

def mulberry32(seed):
    state = seed & 0xFFFFFFFF
    def imul(a, b):
        return ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF)) & 0xFFFFFFFF
    def nxt():
        nonlocal state
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = state
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296
    return nxt

def boot_mean(xs, iterations=2000, seed=20260729, level=0.95):
    rng = mulberry32(seed); n = len(xs); out = []
    for _ in range(iterations):
        s = 0.0
        for _ in range(n): s += xs[int(math.floor(rng() * n))]
        out.append(s / n)
    a = (1 - level) / 2
    return float(np.mean(xs)), float(np.percentile(out, a * 100)), float(np.percentile(out, (1 - a) * 100))

def boot_diff(xa, xb, iterations=2000, seed=20260729, level=0.95):
    rng = mulberry32(seed); out = []
    for _ in range(iterations):
        sa = sum(xa[int(math.floor(rng() * len(xa)))] for _ in range(len(xa))) / len(xa)
        sb = sum(xb[int(math.floor(rng() * len(xb)))] for _ in range(len(xb))) / len(xb)
        out.append(sa - sb)
    a = (1 - level) / 2
    return float(np.mean(xa) - np.mean(xb)), float(np.percentile(out, a * 100)), float(np.percentile(out, (1 - a) * 100))

def rewards(run):
    return [json.loads(l)["reward"] for l in open(f"fixtures/runs/{run}/metrics.jsonl")]

on, off, off2 = rewards("grpo-capture-on"), rewards("grpo-capture-off"), rewards("grpo-capture-off-seed2")
r_ab = stats.pearsonr(on, off).statistic
r_floor = stats.pearsonr(off2, off).statistic
z = (math.atanh(r_floor) - math.atanh(r_ab)) / math.sqrt(1 / 97 + 1 / 97)
diffs = [a - b for a, b in zip(on, off)]
small = [0.2, -0.1, 0.35, 0.0, 0.15, 0.4, -0.05, 0.3, 0.1, 0.25]
perm_exact = [abs(sum(s * d for s, d in zip(signs, small))) >= abs(sum(small)) - 1e-12 for signs in itertools.product([1, -1], repeat=len(small))]
print(json.dumps({
    "grpo": {
        "r_on_off": r_ab, "r_floor": r_floor, "mean_on": float(np.mean(on)), "mean_off": float(np.mean(off)),
        "fisher_z": z, "fisher_p": float(stats.norm.sf(z)),
        "diff_boot": boot_diff(on, off), "paired_diff_boot": boot_mean(diffs), "mean_on_boot": boot_mean(on),
    },
    "small": {
        "boot": boot_mean(small, iterations=500, seed=7),
        "boot_diff": boot_diff(small, [x / 2 for x in small], iterations=300, seed=11),
        "sign_p": float(stats.binomtest(7, 9, 0.5).pvalue),
        "perm_p": sum(perm_exact) / len(perm_exact),
        "rolling3": [float(np.mean(small[max(0, i - 2): i + 1])) for i in range(len(small))],
    },
    "sign_40_12": float(stats.binomtest(12, 40, 0.5).pvalue),
    "opencode": (lambda d: {
        "diff_boot": boot_mean(d),
        "sign_p": float(stats.binomtest(11, 11, 0.5).pvalue),
        "perm_p": sum(abs(sum(s * x for s, x in zip(signs, d))) >= abs(sum(d)) - 1e-12 for signs in itertools.product([1, -1], repeat=len(d))) / 2 ** len(d),
    })([json.loads(l)["reward"] - 0 for l in open("fixtures/runs/opencode-after-fix/rollouts.jsonl")]),
}, indent=1))
