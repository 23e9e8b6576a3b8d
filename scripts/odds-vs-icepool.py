#!/usr/bin/env python3
"""Times `fray odds roll` against icepool (a Python exact-dice library) on the same
distributions, after checking that both give exactly the same counts. Not part of CI.

Usage: pip install icepool; cargo build --release; python3 scripts/odds-vs-icepool.py [RUNS]

Two ratios are reported per expression:
- process: a whole `fray odds roll EXPR --json` run against a whole `python -c` run that
  imports icepool and computes the same distribution (what a user waits for);
- compute: the computation alone: fray's in-process time (`fray odds roll EXPR --time N`
  prints the mean of N computations) against icepool's first (uncached) evaluation in a fresh
  interpreter, timed with perf_counter around the call.
"""
import json
import statistics
import subprocess
import sys
import time

FRAY = "target/release/fray"
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7

# (fray expression, icepool expression)
CASES = [
    ("3d6kh2+1", "icepool.d6.highest(3, 2) + 1"),
    ("4d6kl2", "icepool.d6.lowest(4, 2)"),
    ("4d6kh3", "icepool.d6.highest(4, 3)"),
    ("8d6kh2", "icepool.d6.highest(8, 2)"),
    ("10d10kh3", "icepool.d10.highest(10, 3)"),
    ("20d6", "20 @ icepool.d6"),
    ("2d20kh1+1d8", "icepool.d20.highest(2, 1) + icepool.d8"),
    ("12d8kh6-3", "icepool.d8.highest(12, 6) - 3"),
]


def icepool_counts(expr):
    code = (
        "import icepool, json\n"
        f"d = {expr}\n"
        "print(json.dumps({str(k): str(v) for k, v in d.items()}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {int(k): int(v) for k, v in json.loads(out.stdout).items()}, None


def fray_counts(expr):
    out = subprocess.run([FRAY, "odds", "roll", expr, "--json"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    return {o["value"]: int(o["count"]) for o in d["outcomes"] if int(o["count"]) > 0}


def same(a, b):
    # icepool reduces weights by their gcd; compare as fractions of the total.
    ta, tb = sum(a.values()), sum(b.values())
    return a.keys() == b.keys() and all(a[k] * tb == b[k] * ta for k in a)


def wall(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    return time.perf_counter() - t


def icepool_compute(expr):
    code = (
        "import icepool, time\n"
        "t = time.perf_counter()\n"
        f"d = {expr}\n"
        "d.denominator()\n"
        "print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def fray_compute(expr):
    out = subprocess.run([FRAY, "odds", "roll", expr, "--time", "200"], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


print(f"{'expression':<14} {'same':>5} {'fray ms':>9} {'icepool ms':>11} {'process x':>10} {'fray us':>9} {'icepool us':>11} {'compute x':>10}")
ratios_p, ratios_c = [], []
for fexpr, iexpr in CASES:
    ok = same(fray_counts(fexpr), icepool_counts(iexpr)[0])
    fp = statistics.median(wall([FRAY, "odds", "roll", fexpr, "--json"]) for _ in range(RUNS))
    ip = statistics.median(wall([sys.executable, "-c", f"import icepool\nd = {iexpr}\nd.denominator()"]) for _ in range(RUNS))
    fc = statistics.median(fray_compute(fexpr) for _ in range(3))
    ic = statistics.median(icepool_compute(iexpr) for _ in range(RUNS))
    ratios_p.append(ip / fp)
    ratios_c.append(ic / fc)
    print(f"{fexpr:<14} {'yes' if ok else 'NO':>5} {fp*1e3:9.2f} {ip*1e3:11.2f} {ip/fp:10.1f} {fc*1e6:9.2f} {ic*1e6:11.1f} {ic/fc:10.1f}")
print(f"geometric mean: process {statistics.geometric_mean(ratios_p):.1f}x, compute {statistics.geometric_mean(ratios_c):.1f}x faster than icepool")
