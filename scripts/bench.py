#!/usr/bin/env python3
"""The benchmark (issues #7, #17, #27 and #42): kubectl-policies on synthetic clusters, side by
side with Python's json.load of the same dump (the floor), in one run; and on many
policies of one target (merging, conflicting), held to a time, a memory and a growth.

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
# Where cargo built them: $CARGO_TARGET_DIR when set, as cargo reads it.
TARGET = os.path.abspath(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"))
BIN = os.path.join(TARGET, "release", "kubectl-policies")
SYNTH = os.path.join(TARGET, "release", "examples", "synth")
LIVE_BENCH = os.path.join(TARGET, "release", "examples", "live_bench")
OUT_DIR = os.path.join(TARGET, "bench")

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
# Issue 36: get -A -o json writes every policy's spec; its time at TARGET_SIZE stays
# within this much of get -A's (the table), measured in the same run.
JSON_TO_TABLE_RATIO = 1.5


# Issue 27 item 7: many policies on one target. Kuadrant RateLimitPolicies whose
# `strategy: merge` defaults all merge on one Gateway, and BackendTLSPolicies that all
# conflict on one Service (the oldest wins); each command within these, and doubling
# the policies costs at most ONE_TARGET_GROWTH times the time.
ONE_TARGET_SIZES = {"merge": (5000, 10000), "conflict": (10000, 20000)}
ONE_TARGET_SECONDS = 30
ONE_TARGET_RSS_MIB = 300
ONE_TARGET_GROWTH = 2.6


def one_target_items(shape, n):
    """A Gateway, a route, a Service, and n policies on one target: `merge`, Kuadrant
    RateLimitPolicies on the Gateway, each with a limit of its own and one they all
    share; `conflict`, BackendTLSPolicies on the Service, oldest first."""
    gw_group = "gateway.networking.k8s.io"

    def obj(api, kind, name, ns, spec, ts="2025-01-01T00:00:00Z"):
        meta = {"name": name, "creationTimestamp": ts}
        if ns:
            meta["namespace"] = ns
        return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec}

    items = [
        obj(gw_group + "/v1", "GatewayClass", "gc", None, {"controllerName": "example.com/c"}),
        obj(gw_group + "/v1", "Gateway", "gw", "one", {
            "gatewayClassName": "gc",
            "listeners": [{"name": "http", "port": 80, "protocol": "HTTP"}]}),
        obj(gw_group + "/v1", "HTTPRoute", "route", "one", {
            "parentRefs": [{"name": "gw"}],
            "rules": [{"backendRefs": [{"name": "svc", "port": 80}]}]}),
        obj("v1", "Service", "svc", "one", {"ports": [{"name": "http", "port": 80}]}),
    ]
    for i in range(n):
        # One second apart: the oldest is p-00000.
        ts = "2025-%02d-%02dT%02d:%02d:%02dZ" % (
            1 + i // 2419200 % 12, 1 + i // 86400 % 28, i // 3600 % 24, i // 60 % 60, i % 60)
        name = "p-%05d" % i
        if shape == "merge":
            items.append(obj("kuadrant.io/v1", "RateLimitPolicy", name, "one", {
                "targetRef": {"group": gw_group, "kind": "Gateway", "name": "gw"},
                "defaults": {"strategy": "merge", "limits": {
                    "limit-%05d" % i: {"rates": [{"limit": 10 + i, "window": "1m"}]},
                    "shared": {"rates": [{"limit": 1 + i, "window": "1s"}]}}}}, ts))
        else:
            items.append(obj(gw_group + "/v1", "BackendTLSPolicy", name, "one", {
                "targetRefs": [{"group": "", "kind": "Service", "name": "svc"}],
                "validation": {"hostname": "svc-%d.example" % i,
                               "wellKnownCACertificates": "System"}}, ts))
    return {"apiVersion": "v1", "kind": "List", "items": items}


def one_target_dump(shape, n):
    path = os.path.join(OUT_DIR, f"one-target-{shape}-{n}.json")
    if not os.path.exists(path):
        with open(path + ".tmp", "w") as f:
            json.dump(one_target_items(shape, n), f)
        os.replace(path + ".tmp", path)
    return path


def one_target_cases(dump, shape):
    """The questions timed on a one-target dump: get -A, describe of a policy and of the
    target, blast radius of a policy (the oldest, p-00000, which wins every conflict)."""
    f = ["-f", dump]
    if shape == "merge":
        policy, target = "ratelimitpolicy.kuadrant.io/p-00005", "gateway/gw"
    else:
        policy, target = "backendtlspolicy/p-00005", "service/svc"
    winner = policy.replace("p-00005", "p-00000")
    return [
        ("get -A", f + ["get", "-A"]),
        ("describe policy", f + ["describe", policy, "-n", "one"]),
        ("describe target", f + ["describe", target, "-n", "one"]),
        ("blast-radius", f + ["blast-radius", winner, "-n", "one"]),
    ]


def one_target_section(args, results):
    """Times every one-target case at each size (interleaved within a repetition);
    reports the median, the peak RSS, and the growth from one size to its double."""
    dumps = []
    for shape, sizes in ONE_TARGET_SIZES.items():
        for n in sizes:
            dumps.append((shape, n, one_target_dump(shape, n)))
    times, rss = {}, {}
    for _ in range(args.reps):
        for shape, n, dump in dumps:
            for name, argv in one_target_cases(dump, shape):
                wall, r, _ = run([BIN] + argv)
                times.setdefault((shape, n, name), []).append(wall)
                rss[(shape, n, name)] = max(rss.get((shape, n, name), 0.0), r)
    print(f"\nOne target, many policies ({args.reps} repetitions, {os.path.relpath(BIN, ROOT)}):")
    print("| shape | policies | what | median time | peak RSS | growth from half | target |")
    print("|---|---:|---|---:|---:|---:|---|")
    failed = []
    out = {}
    for shape, n, _ in dumps:
        small, large = ONE_TARGET_SIZES[shape]
        for name, _ in one_target_cases("", shape):
            secs = statistics.median(times[(shape, n, name)])
            mib = rss[(shape, n, name)]
            growth = ""
            checks = []
            if n == large:
                g = secs / statistics.median(times[(shape, small, name)])
                growth = f"{g:.2f}×"
                checks.append((f"growth ≤ {ONE_TARGET_GROWTH}×", g <= ONE_TARGET_GROWTH))
                checks.append((f"≤ {ONE_TARGET_SECONDS} s", secs <= ONE_TARGET_SECONDS))
                checks.append((f"≤ {ONE_TARGET_RSS_MIB} MiB", mib <= ONE_TARGET_RSS_MIB))
            target = ", ".join(f"{what}: {'ok' if ok else 'MISSED'}" for what, ok in checks)
            failed += [f"{shape} {name} at {n} ({what})" for what, ok in checks if not ok]
            out[f"{shape}/{n}/{name}"] = {"seconds": secs, "rss_mib": mib}
            print(f"| {shape} | {n} | {name} | {secs * 1000:.0f} ms | {mib:.0f} MiB | {growth} | {target} |")
    results["one_target"] = out
    return failed


# Issue 42: `diff` of two dumps of TARGET_SIZE routes that differ in one policy and one
# route, side by side with `get -A` of one of them: at most this much of its time, and of
# its peak memory (one analysis; diff holds two).
DIFF_TIME_RATIO = 2.2
DIFF_RSS_RATIO = 2.0


# Writes argv[2]: the dump argv[1] with one policy and one route changed. Run in a child,
# so that the benchmark's own process never holds a parsed dump: a child it starts
# would inherit that as its peak RSS (Linux keeps ru_maxrss across fork and exec).
CHANGE_DUMP = (
    "import json, sys\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    items = json.load(f)\n"
    "found = set()\n"
    "for item in items['items']:\n"
    "    meta = item.get('metadata', {})\n"
    "    kind, ns, name = item.get('kind'), meta.get('namespace'), meta.get('name')\n"
    "    if kind == 'RetryPolicy' and (ns, name) == ('app-07', 'ns-retries'):\n"
    "        item['spec']['defaults']['attempts'] = 3\n"
    "        found.add('policy')\n"
    "    elif kind == 'HTTPRoute' and name == 'route-00040':\n"
    "        item['spec']['rules'][0]['name'] = 'api-v2'\n"
    "        found.add('route')\n"
    "if found != {'policy', 'route'}:\n"
    "    sys.exit(f'no {sorted({\"policy\", \"route\"} - found)} to change')\n"
    "with open(sys.argv[2], 'w') as f:\n"
    "    json.dump(items, f)\n"
)


def changed_dump(dump):
    """`dump` with one policy changed (app-07's ns-retries: 3 attempts instead of 5) and
    one route changed (route-00040's first rule renamed api-v2): diff's other side."""
    path = dump[: -len(".json")] + "-changed.json"
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(dump):
        return path
    subprocess.run([sys.executable, "-c", CHANGE_DUMP, dump, path + ".tmp"], check=True)
    os.replace(path + ".tmp", path)
    return path


def diff_section(args, results, dump):
    """`diff --from DUMP --to CHANGED` beside `get -A -f DUMP`, interleaved; held to
    DIFF_TIME_RATIO of its time and DIFF_RSS_RATIO of its peak RSS."""
    changed = changed_dump(dump)
    argvs = {
        "get -A": [BIN, "-f", dump, "get", "-A"],
        "diff": [BIN, "diff", "--from", dump, "--to", changed],
    }
    times, rss = {k: [] for k in argvs}, {k: 0.0 for k in argvs}
    for _ in range(args.reps):
        for name, argv in argvs.items():
            wall, r, _ = run(argv)
            times[name].append(wall)
            rss[name] = max(rss[name], r)
    secs = {k: statistics.median(v) for k, v in times.items()}
    time_ratio = secs["diff"] / secs["get -A"]
    rss_ratio = rss["diff"] / rss["get -A"]
    ok_time, ok_rss = time_ratio <= DIFF_TIME_RATIO, rss_ratio <= DIFF_RSS_RATIO
    print(f"\ndiff of two dumps differing in one policy and one route ({args.reps} repetitions):")
    print("| what | median time | peak RSS |")
    print("|---|---:|---:|")
    for name in argvs:
        print(f"| {name} | {secs[name] * 1000:.0f} ms | {rss[name]:.0f} MiB |")
    print(f"diff / get -A: {time_ratio:.2f}× the time (target ≤ {DIFF_TIME_RATIO}×: "
          f"{'ok' if ok_time else 'MISSED'}), {rss_ratio:.2f}× the peak RSS "
          f"(target ≤ {DIFF_RSS_RATIO}×: {'ok' if ok_rss else 'MISSED'})")
    results["diff"] = {"seconds": secs, "rss_mib": rss,
                       "time_ratio": time_ratio, "rss_ratio": rss_ratio}
    return [what for what, ok in [("diff's time", ok_time), ("diff's peak RSS", ok_rss)]
            if not ok]


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
        ("get -A -o json", f + ["get", "-A", "-o", "json"]),
        ("get -A -o yaml", f + ["get", "-A", "-o", "yaml"]),
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
    ap.add_argument("--no-routes", action="store_true",
                    help="skip the synthetic clusters of routes (and the live figures)")
    ap.add_argument("--no-one-target", action="store_true",
                    help="skip the many-policies-on-one-target shapes")
    ap.add_argument("--no-diff", action="store_true",
                    help="skip diff of two dumps of the target size")
    ap.add_argument("--bin", help="the kubectl-policies binary to time (default: the release build)")
    args = ap.parse_args()
    global BIN
    BIN = os.path.abspath(args.bin) if args.bin else BIN
    sizes = [int(s) for s in args.routes.split(",")]
    os.makedirs(OUT_DIR, exist_ok=True)

    results = {"reps": args.reps, "sizes": {}}
    failed = [] if args.no_one_target else one_target_section(args, results)
    if args.no_routes:
        with open(os.path.join(OUT_DIR, "results.json"), "w") as f:
            json.dump(results, f, indent=2)
        if failed:
            print("\nMissed: " + ", ".join(failed))
        return 0
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
    for n in sizes:
        seconds = results["sizes"][n]["seconds"]
        rss = results["sizes"][n]["rss_mib"]
        ratio = seconds["get -A -o json"] / seconds["get -A"]
        line = (f"get -A -o json / get -A at {n} routes: {ratio:.2f}× the time, "
                f"{rss['get -A -o json'] / rss['get -A']:.2f}× the peak RSS")
        if n == TARGET_SIZE:
            ok = ratio <= JSON_TO_TABLE_RATIO
            line += f" (target ≤ {JSON_TO_TABLE_RATIO}× the time: {'ok' if ok else 'MISSED'})"
            if not ok:
                failed.append("get -A -o json's time")
        print(line)
        results.setdefault("json_to_table", {})[n] = ratio
        # -o yaml is written item by item as -o json is: reported beside it, no target.
        ratio = seconds["get -A -o yaml"] / seconds["get -A"]
        print(f"get -A -o yaml / get -A at {n} routes: {ratio:.2f}× the time, "
              f"{rss['get -A -o yaml'] / rss['get -A']:.2f}× the peak RSS")
        results.setdefault("yaml_to_table", {})[n] = ratio

    if TARGET_SIZE in sizes and not args.no_diff:
        failed += diff_section(args, results, dumps[TARGET_SIZE])

    live_section(args, results, dump_for(max(sizes), args.seed))

    with open(os.path.join(OUT_DIR, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    if failed:
        print("\nMissed: " + ", ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
