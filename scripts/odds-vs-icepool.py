#!/usr/bin/env python3
"""Times `fray odds roll` against icepool (a Python exact-dice library) on the same
distributions, after checking that both give exactly the same counts. Not part of CI (it needs
Python and icepool; CI needs only the Rust toolchain).

Usage: pip install icepool; cargo build --release; python3 scripts/odds-vs-icepool.py [RUNS]
(run it with the Python that has icepool; RUNS, default 15, is the number of samples of each
timing).

Every timing is the minimum of RUNS samples (the machine may be busy with other work: the
minimum is the least disturbed sample, as Python's timeit advises), for fray and icepool alike.
What is timed, per expression:

- whole process: `fray odds roll EXPR --json` against `python -c` that imports icepool,
  computes the same distribution and prints its counts as JSON (what a user waits for). Two
  measures: the wall-clock time, and the CPU time (user + system, from the kernel's account of
  the child process), which other work on a busy machine does not inflate; on an idle machine
  the two are close, as both programs run on one thread. The samples of fray and icepool
  alternate, so both meet the same load. The start-up alone is timed separately, the same
  way: `fray --version` (fray's process start), `python -c pass` (the interpreter) and
  `python -c "import icepool"` (the interpreter and the import).
- cold: the first computation in a new process. fray: the first line of `fray odds roll EXPR
  --time 200` (its first computation, timed inside fray, after the expression is read).
  icepool: the first evaluation of the expression just after `import icepool`, timed with
  perf_counter around it.
- warm: the computation repeated in a process that has already done it. fray: the second line
  of `--time 200`, the mean of the 200 computations after the first (fray remembers no
  results, so each one is computed in full). icepool, in one interpreter that has already
  evaluated the expression once, two ways:
    - caches cleared: before each evaluation, icepool's memo tables are emptied (the
      evaluators' dungeon caches and their ascending/descending state caches, its
      functools caches such as `d(n)` and pool creation, and its table of binomial rows), so
      every evaluation computes from scratch, like fray's. The clearing is not timed. This
      is the like-for-like comparison of the two computations.
    - caches kept: the second and later evaluations of the same expression as icepool does
      them by default, reusing what it memoised the first time. This is what a user re-asking
      the same question in a notebook sees; it measures icepool's memoisation more than its
      computation.
  Each icepool evaluation is timed as Python's timeit does: the garbage collector is run
  before it and switched off during it.
"""
import json
import os
import subprocess
import sys
import time

FRAY = "target/release/fray"
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 15

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

# Empties icepool's memo tables (run in the interpreter being measured, outside the timing).
CLEAR = """
import functools, gc, icepool.math
def clear_icepool_caches():
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            if (getattr(obj, '__module__', '') or '').startswith('icepool'):
                obj.cache_clear()
            continue
        if (type(obj).__module__ or '').startswith('icepool'):
            d = getattr(obj, '__dict__', None)
            if isinstance(d, dict):
                for name in ('_cache', 'ascending_cache', 'descending_cache'):
                    d.pop(name, None)
    icepool.math.comb_row_cache.clear()
"""


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def process(cmd):
    """(wall-clock seconds, CPU seconds) of one run of `cmd`, output thrown away."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(f"{cmd} failed with exit code {p.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def alternate(cmds):
    """The best (wall, CPU) of each command over RUNS rounds, the commands taking turns."""
    samples = [[] for _ in cmds]
    for _ in range(RUNS):
        for i, cmd in enumerate(cmds):
            samples[i].append(process(cmd))
    return [(min(w for w, _ in s), min(c for _, c in s)) for s in samples]


def icepool_print(expr):
    return (
        "import icepool, json\n"
        f"d = {expr}\n"
        "print(json.dumps({str(k): str(v) for k, v in d.items()}))\n"
    )


def icepool_counts(expr):
    out = run([sys.executable, "-c", icepool_print(expr)])
    return {int(k): int(v) for k, v in json.loads(out).items()}


def fray_counts(expr):
    d = json.loads(run([FRAY, "odds", "roll", expr, "--json"]))
    return {o["value"]: int(o["count"]) for o in d["outcomes"] if int(o["count"]) > 0}


def same(a, b):
    # icepool reduces weights by their gcd; compare as fractions of the total.
    ta, tb = sum(a.values()), sum(b.values())
    return a.keys() == b.keys() and all(a[k] * tb == b[k] * ta for k in a)


def fray_compute(expr):
    """(first computation, mean of the 200 after it) in one fray process."""
    first, warm = run([FRAY, "odds", "roll", expr, "--time", "200"]).splitlines()
    return float(first.split()[-1]), float(warm.split()[-1])


def icepool_times(expr):
    """(first evaluation, warm with caches cleared, warm with caches kept) in one interpreter:
    the first is one sample; the two warm ones are the minimum of RUNS samples each."""
    code = (
        "import icepool, time, json\n"
        + CLEAR
        + f"code = compile({expr!r}, 'expr', 'eval')\n"
        "def once():\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    t = time.perf_counter()\n"
        "    d = eval(code)\n"
        "    d.denominator()\n"
        "    t = time.perf_counter() - t\n"
        "    gc.enable()\n"
        "    return t\n"
        "first = once()\n"
        f"kept = min(once() for _ in range({RUNS}))\n"
        "cleared = []\n"
        f"for _ in range({RUNS}):\n"
        "    clear_icepool_caches()\n"
        "    cleared.append(once())\n"
        "print(json.dumps([first, min(cleared), kept]))\n"
    )
    return json.loads(run([sys.executable, "-c", code]))


def geo(xs):
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1 / len(xs))


def main():
    import icepool

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"icepool {icepool.__version__}, Python {sys.version.split()[0]}, {RUNS} samples each "
          f"(minimum), load average {load:.1f} at the start")
    (fw, fc), (pw, pc), (iw, ic) = alternate([
        [FRAY, "--version"],
        [sys.executable, "-c", "pass"],
        [sys.executable, "-c", "import icepool"],
    ])
    print(f"start-up, wall (CPU) ms: fray {fw*1e3:.2f} ({fc*1e3:.2f}); python {pw*1e3:.2f} "
          f"({pc*1e3:.2f}); python + import icepool {iw*1e3:.2f} ({ic*1e3:.2f})")
    print()
    head = (f"{'expression':<12} {'same':>4} | {'process, wall ms':>17} | {'process, CPU ms':>17} | "
            f"{'cold us':>17} | {'warm us':>28}")
    sub = (f"{'':<12} {'':>4} | {'fray':>7} {'icepool':>9} | {'fray':>7} {'icepool':>9} | "
           f"{'fray':>7} {'icepool':>9} | {'fray':>7} {'cleared':>9} {'kept':>10}")
    print(head)
    print(sub)
    ratios = {"wall": [], "cpu": [], "cold": [], "cleared": [], "kept": []}
    for fexpr, iexpr in CASES:
        ok = same(fray_counts(fexpr), icepool_counts(iexpr))
        (fp, fpc), (ip, ipc) = alternate([
            [FRAY, "odds", "roll", fexpr, "--json"],
            [sys.executable, "-c", icepool_print(iexpr)],
        ])
        fray_samples = [fray_compute(fexpr) for _ in range(RUNS)]
        fcold = min(s[0] for s in fray_samples)
        fwarm = min(s[1] for s in fray_samples)
        samples = [icepool_times(iexpr) for _ in range(RUNS)]
        icold = min(s[0] for s in samples)
        icleared = min(s[1] for s in samples)
        ikept = min(s[2] for s in samples)
        ratios["wall"].append(ip / fp)
        ratios["cpu"].append(ipc / fpc)
        ratios["cold"].append(icold / fcold)
        ratios["cleared"].append(icleared / fwarm)
        ratios["kept"].append(ikept / fwarm)
        print(f"{fexpr:<12} {'yes' if ok else 'NO':>4} | {fp*1e3:7.2f} {ip*1e3:9.2f} | "
              f"{fpc*1e3:7.2f} {ipc*1e3:9.2f} | "
              f"{fcold*1e6:7.1f} {icold*1e6:9.1f} | {fwarm*1e6:7.2f} {icleared*1e6:9.1f} "
              f"{ikept*1e6:10.1f}")
    print()
    print("icepool's time over fray's (geometric mean over the expressions):")
    print(f"  whole process, wall clock:            {geo(ratios['wall']):7.1f}x")
    print(f"  whole process, CPU time:              {geo(ratios['cpu']):7.1f}x")
    print(f"  cold, first computation in a process: {geo(ratios['cold']):7.1f}x")
    print(f"  warm, icepool's caches cleared:       {geo(ratios['cleared']):7.1f}x")
    print(f"  warm, icepool's caches kept:          {geo(ratios['kept']):7.1f}x")


if __name__ == "__main__":
    main()
