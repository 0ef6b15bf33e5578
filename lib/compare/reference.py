"""Independent reference values for lib/compare (numpy/scipy, not our TypeScript).

Run: python3 lib/compare/reference.py (the fixed numbers in stats.test.ts), or
python3 lib/compare/reference.py calibrated IN.json: the calibrated verdict's statistics for each
{"a": [...], "b": [...], "seed": [...]} triplet in IN.json (seed is a repeat of b), printed as JSON;
lib/compare/reference.test.ts runs it on shared inputs and compares; or
python3 lib/compare/reference.py seeds IN.json: the seed-group mean test (Welch on run means, with
its within-run floor, and scipy's own ttest_ind(equal_var=False)) for each {"a": [[run], ...],
"b": [[run], ...]} in IN.json, runs of equal length; lib/compare/seed-groups.test.ts compares; or
python3 lib/compare/reference.py series RUN: the GRPO fixture run's train/reward per step, read from
its TensorBoard event file by a decoder written here (the runs keep no metrics.jsonl). The bootstraps re-implement
mulberry32 and the resampling loops so seeded results can be checked exactly; the distributions
(Student t, normal), correlations and variances are numpy/scipy.
"""
import itertools, json, math, sys
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

def lag1(x):
    u = np.asarray(x, dtype=float) - np.mean(x)
    den = float(np.dot(u, u))
    return 0.0 if den == 0 else float(np.dot(u[1:], u[:-1]) / den)

def block_length(x):
    """Politis-White (2004/2009) MBB length with an AR(1) plug-in, clamped as the page does."""
    n = len(x); rho = min(0.95, max(0.0, lag1(x)))
    b = math.floor((math.sqrt(6) * rho / (1 - rho * rho)) ** (2 / 3) * n ** (1 / 3) + 0.5)
    return max(1, min(b, n // 4))

def mbb(x, seed, iterations=2000):
    rng = mulberry32(seed); n = len(x); L = block_length(x); means = []
    for _ in range(iterations):
        picked = []
        while len(picked) < n:
            start = int(math.floor(rng() * (n - L + 1)))
            picked.extend(x[start:start + L])
        means.append(float(np.mean(picked[:n])))
    return {"steps": n, "mean": float(np.mean(x)), "sd": float(np.std(means, ddof=1)), "block_length": L, "lag1": lag1(x)}

def steiger(rjk, rjh, rkh, n):
    """Steiger (1980) eq. 15: Fisher z difference over the pooled-r asymptotic covariance."""
    rbar = (rjk + rjh) / 2
    psi = rkh * (1 - 2 * rbar ** 2) - 0.5 * rbar ** 2 * (1 - 2 * rbar ** 2 - rkh ** 2)
    c = psi / (1 - rbar ** 2) ** 2
    return (np.arctanh(rjh) - np.arctanh(rjk)) * math.sqrt(n - 3) / math.sqrt(2 - 2 * c)

def trimmed_w1(x, y):
    """Mean |Q_x(u) - Q_y(u)| over u = 0.10, 0.11, ..., 0.90 (numpy's linear quantiles)."""
    u = np.linspace(0.1, 0.9, 81)
    return float(np.mean(np.abs(np.quantile(x, u) - np.quantile(y, u))))

def heavy(d, iqrs=5):
    q1, m, q3 = np.quantile(d, [0.25, 0.5, 0.75])
    return bool(np.any(np.abs(np.asarray(d) - m) > iqrs * (q3 - q1)))

def calibrated(a, b, seed_run, seed=20260729, mean_level=0.04, corr_level=0.005, critical=8):
    a, b, c = (np.asarray(v, dtype=float) for v in (a, b, seed_run))
    d, s = list(a - b), list(c - b)
    pd, ps = mbb(d, seed), mbb(s, seed + 1)
    within, between = pd["sd"] ** 2, ps["mean"] ** 2
    u = max(between, ps["sd"] ** 2)  # the run-to-run term, floored at the seed pair's own error
    blocks = max(1, pd["steps"] // pd["block_length"] - 1)
    u_df = max(u, within)  # and for the df, at least the pair's own error
    df = min(3.0, (within + u_df) ** 2 / (u_df ** 2 + within ** 2 / blocks))  # at most 3 df
    se = math.sqrt(within + u); t = pd["mean"] / se
    p = float(2 * stats.t.sf(abs(t), df)); q = float(stats.t.ppf(1 - mean_level / 2, df))
    r = lambda x, y: float(stats.pearsonr(x, y).statistic)
    rho = min(0.95, max(0.0, lag1(d)))
    n_eff = 3 + (len(d) - 3) * (1 - rho) / (1 + rho)
    z = float(steiger(r(b, a), r(b, c), r(a, c), n_eff)); pz = float(stats.norm.sf(z))
    dist, seed_dist = trimmed_w1(a, b), trimmed_w1(c, b)
    shape = {"distance": dist, "seed_distance": seed_dist, "ratio": dist / seed_dist,
             # scipy's W1, an implementation independent of ours
             "w1": float(stats.wasserstein_distance(a, b)), "seed_w1": float(stats.wasserstein_distance(c, b)),
             "heavy_tailed": heavy(d) or heavy(s)}
    shape["fired"] = shape["ratio"] > critical
    if shape["heavy_tailed"]: pz = 1.0  # the correlation test is not run on heavy tails
    return {
        "paired": pd, "seed_pair": ps,
        "mean_test": {"t": t, "df": df, "p": p, "se": se, "low": pd["mean"] - q * se, "high": pd["mean"] + q * se},
        "correlation_test": {"z": z, "p": pz, "effective_steps": n_eff},
        "shape_test": shape,
        "decision": "differs" if p < mean_level or pz < corr_level or shape["fired"] else "within_noise",
    }

if len(sys.argv) == 3 and sys.argv[1] == "calibrated":
    print(json.dumps([calibrated(t["a"], t["b"], t["seed"]) for t in json.load(open(sys.argv[2]))]))
    sys.exit(0)

def seeds(a, b, seed=20260729, mean_level=0.04):
    """The seed-group mean test: Welch on run means, each side's variance floored at its runs' mean
    squared block-bootstrap error (of each run's deviation from the all-run per-step mean)."""
    runs = [np.asarray(r, dtype=float) for r in a + b]
    centre = np.mean(runs, axis=0)
    se = [mbb(list(r - centre), seed + 10 + i)["sd"] for i, r in enumerate(runs)]
    means = [float(np.mean(r)) for r in runs]
    side = lambda lo, hi: {"means": means[lo:hi], "se": se[lo:hi], "sd": float(np.std(means[lo:hi], ddof=1)),
                           "variance": max(float(np.var(means[lo:hi], ddof=1)), float(np.mean(np.square(se[lo:hi]))))}
    sa, sb = side(0, len(a)), side(len(a), len(runs))
    va, vb = sa["variance"] / len(a), sb["variance"] / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    diff = float(np.mean(sa["means"]) - np.mean(sb["means"])); se_d = math.sqrt(va + vb); t = diff / se_d
    q = float(stats.t.ppf(1 - mean_level / 2, df))
    w = stats.ttest_ind(sa["means"], sb["means"], equal_var=False)  # scipy's Welch, no floor
    return {"a": sa, "b": sb, "mean_test": {"t": t, "df": df, "p": float(2 * stats.t.sf(abs(t), df)), "se": se_d,
            "low": diff - q * se_d, "high": diff + q * se_d},
            "scipy_welch": {"t": float(w.statistic), "p": float(w.pvalue), "df": float(w.df)}}

if len(sys.argv) == 3 and sys.argv[1] == "seeds":
    print(json.dumps([seeds(g["a"], g["b"]) for g in json.load(open(sys.argv[2]))]))
    sys.exit(0)

def varint(buf, i):
    shift = v = 0
    while True:
        b = buf[i]; i += 1; v |= (b & 0x7F) << shift; shift += 7
        if b < 0x80: return v, i

def fields(buf):
    """(field number, wire type, value) of one protobuf message; only the wire types events use."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i); num, wt = key >> 3, key & 7
        if wt == 0: v, i = varint(buf, i)
        elif wt == 1: v, i = buf[i:i + 8], i + 8
        elif wt == 5: v, i = buf[i:i + 4], i + 4
        elif wt == 2: n, i = varint(buf, i); v, i = buf[i:i + n], i + n
        else: raise ValueError(f"wire type {wt}")
        yield num, wt, v

def event_scalars(run, tag):
    """step -> simple_value (float32, widened) of `tag` in the run's TensorBoard event files.

    TFRecord framing (u64 length, u32 crc, data, u32 crc) and Event{step=2, summary=5} ->
    Summary{value=1} -> Value{tag=1, simple_value=2} decoded here by hand, not by lib/trainer."""
    import glob, struct
    out = {}
    for path in sorted(glob.glob(f"fixtures/runs/{run}/logs/tensorboard/events.out.tfevents.*")):
        data = open(path, "rb").read(); at = 0
        while at < len(data):
            (n,) = struct.unpack_from("<Q", data, at); rec = data[at + 12: at + 12 + n]; at += 16 + n
            step = 0; values = []
            for num, wt, v in fields(rec):
                if num == 2 and wt == 0: step = v
                if num == 5 and wt == 2:
                    values += [x for f, w, x in fields(v) if f == 1 and w == 2]
            for value in values:
                got = {f: x for f, w, x in fields(value)}
                if got.get(1) == tag.encode() and 2 in got:
                    out[step] = float(np.frombuffer(got[2], dtype="<f4")[0])
    return out

def rewards(run):
    """The run's training curve: train/reward per step from its event files (metrics.jsonl is gone)."""
    by_step = event_scalars(run, "train/reward")
    return [by_step[s] for s in sorted(by_step)]

if len(sys.argv) == 3 and sys.argv[1] == "series":
    print(json.dumps(rewards(sys.argv[2])))
    sys.exit(0)

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
