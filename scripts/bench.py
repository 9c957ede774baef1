#!/usr/bin/env python3
"""The benchmark (issues #7 and #17): kubectl-policies on synthetic clusters, side by side
with Python's json.load of the same dump (the floor), in one run.

Run it through scripts/bench.sh, which builds the release binaries first. Machines are
shared and noisy, so every figure is the median of several repetitions, the cases are
interleaved within a repetition, and speed is reported as a ratio to the json.load time
measured in the same run. Peak memory is the child's maximum resident set (getrusage).

Dumps are generated into target/bench/ (never into git).
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "kubectl-policies")
SYNTH = os.path.join(ROOT, "target", "release", "examples", "synth")
LIVE_BENCH = os.path.join(ROOT, "target", "release", "examples", "live_bench")
OUT_DIR = os.path.join(ROOT, "target", "bench")

# Python's json.load alone: open, read and parse; timed inside the child so interpreter
# start-up is not counted (the floor is as low as it can be).
JSON_LOAD = (
    "import json, sys, time\n"
    "t = time.perf_counter()\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    json.load(f)\n"
    "print(time.perf_counter() - t)\n"
)

# The targets of issue #17, at the sizes it sets them for. Speed is a ratio to json.load
# on the same dump in the same run; memory is the peak resident set.
TARGET_SIZE = 20000  # where the speed and the flat memory targets apply
TARGETS = {"describe": 0.3, "blast-radius": 0.35, "get -A": 0.8}
RSS_TARGET_MIB = 160  # each of the three commands at TARGET_SIZE
LARGE_SIZE = 50000  # where get -A is held to json.load's memory and to its own time
LARGE_RSS_RATIO = 0.6  # get -A's peak RSS / json.load's, at LARGE_SIZE
LARGE_TIME_RATIO = 2.6  # get -A's time at LARGE_SIZE / at TARGET_SIZE


def cases(dump, routes):
    """The questions timed, as argument lists for kubectl-policies.

    The generator puts route-NNNNN in app-{NNNNN % namespaces}, with routes/500 app
    namespaces (at least 10, at most 60); every app namespace has a Namespace-level
    RetryPolicy named ns-retries.
    """
    f = ["-f", dump]
    namespaces = min(max(routes // 500, 10), 60)
    return [
        ("describe", f + ["describe", "httproute/route-00040", "-n", f"app-{40 % namespaces:02}"]),
        ("blast-radius", f + ["blast-radius", "retrypolicy/ns-retries", "-n", "app-07"]),
        ("get -A", f + ["get", "-A"]),
    ]


def run(argv):
    """Runs a child to completion: (wall seconds, peak RSS in MiB, stdout)."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} exited {p.returncode}")
    return wall, usage.ru_maxrss / 1024.0, out


def dump_for(routes, seed):
    path = os.path.join(OUT_DIR, f"routes-{routes}-seed-{seed}.json")
    fresh = os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(SYNTH)
    if not fresh:
        with open(path + ".tmp", "wb") as f:
            subprocess.run(
                [SYNTH, "--routes", str(routes), "--seed", str(seed)],
                stdout=f,
                stderr=subprocess.DEVNULL,
                check=True,
            )
        os.replace(path + ".tmp", path)
    return path


def measure(dumps, reps):
    """Per dump (path → routes): median seconds and max RSS per case, json.load first.

    Every repetition runs every case on every dump, so a machine that slows down or
    speeds up during the run affects all of them alike.
    """
    times = {d: {"json.load": []} for d in dumps}
    rss = {d: {"json.load": 0.0} for d in dumps}
    for _ in range(reps):
        for dump in dumps:
            _, r, out = run([sys.executable, "-c", JSON_LOAD, dump])
            times[dump]["json.load"].append(float(out))
            rss[dump]["json.load"] = max(rss[dump]["json.load"], r)
            for name, args in cases(dump, dumps[dump]):
                wall, r, _ = run([BIN] + args)
                times[dump].setdefault(name, []).append(wall)
                rss[dump][name] = max(rss[dump].get(name, 0.0), r)
    medians = {d: {k: statistics.median(v) for k, v in t.items()} for d, t in times.items()}
    return medians, rss


def live_section(args, results, dump):
    """The live path, by examples/live_bench: the largest dump served by the loopback
    fake API server with latency on every request; its figures are ratios measured in
    its own run (reads span / sum of request times; scoped describe / kubectl get)."""
    if args.no_live:
        results["live"] = None
        print("\nLive reading: skipped (--no-live).")
        return
    argv = [LIVE_BENCH, "--dump", dump, "--bin", BIN, "--reps", str(min(args.reps, 3))]
    print("\nLive reading (examples/live_bench, the loopback API server, %s):" % os.path.basename(dump))
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout.rstrip())
    results["live"] = {"exit": p.returncode, "output": p.stdout}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--routes", default=f"{TARGET_SIZE},{LARGE_SIZE}",
                    help="comma-separated sizes")
    ap.add_argument("--reps", type=int, default=5, help="repetitions (median is reported)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-live", action="store_true", help="skip the live path's figures")
    args = ap.parse_args()
    sizes = [int(s) for s in args.routes.split(",")]
    os.makedirs(OUT_DIR, exist_ok=True)

    results = {"reps": args.reps, "sizes": {}}
    dumps = {}
    for n in sizes:
        dumps[n] = dump_for(n, args.seed)
        mib = os.path.getsize(dumps[n]) / (1 << 20)
        print(f"{n} routes: {os.path.relpath(dumps[n], ROOT)} ({mib:.1f} MiB)")
    print(f"{args.reps} repetitions on {os.cpu_count()} CPUs, Python {platform.python_version()} ...",
          flush=True)
    med, rss = measure({dump: n for n, dump in dumps.items()}, args.reps)
    for n, dump in dumps.items():
        results["sizes"][n] = {
            "dump_mib": os.path.getsize(dump) / (1 << 20),
            "seconds": med[dump],
            "rss_mib": rss[dump],
        }

    print()
    print("| routes | what | median time | ratio to json.load | peak RSS | target |")
    print("|---:|---|---:|---:|---:|---|")
    failed = []
    for n in sizes:
        r = results["sizes"][n]
        floor = r["seconds"]["json.load"]
        for name, secs in r["seconds"].items():
            ratio = secs / floor
            rss_mib = r["rss_mib"][name]
            checks = []
            if name in TARGETS and n == TARGET_SIZE:
                checks.append((f"≤ {TARGETS[name]}×", ratio <= TARGETS[name]))
                checks.append((f"≤ {RSS_TARGET_MIB} MiB", rss_mib <= RSS_TARGET_MIB))
            if name == "get -A" and n == LARGE_SIZE:
                limit = LARGE_RSS_RATIO * r["rss_mib"]["json.load"]
                checks.append((f"RSS ≤ {LARGE_RSS_RATIO}× json.load's ({limit:.0f} MiB)",
                               rss_mib <= limit))
            target = ", ".join(f"{what}: {'ok' if ok else 'MISSED'}" for what, ok in checks)
            failed += [f"{name} at {n} ({what})" for what, ok in checks if not ok]
            print(f"| {n} | {name} | {secs * 1000:.0f} ms | {ratio:.2f}× "
                  f"| {rss_mib:.0f} MiB | {target} |")
    if TARGET_SIZE in sizes and LARGE_SIZE in sizes:
        growth = (results["sizes"][LARGE_SIZE]["seconds"]["get -A"]
                  / results["sizes"][TARGET_SIZE]["seconds"]["get -A"])
        ok = growth <= LARGE_TIME_RATIO
        print(f"\nget -A at {LARGE_SIZE} routes / at {TARGET_SIZE}: {growth:.2f}× "
              f"(target ≤ {LARGE_TIME_RATIO}×: {'ok' if ok else 'MISSED'})")
        results["get_growth"] = growth
        if not ok:
            failed.append("get -A's growth")

    live_section(args, results, dump_for(max(sizes), args.seed))

    with open(os.path.join(OUT_DIR, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    if failed:
        print("\nMissed: " + ", ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
