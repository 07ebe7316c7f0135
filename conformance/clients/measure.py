"""Measures what each lock client library tells the application when its process is frozen past its
lease or session: starts the throwaway servers, runs each case RUNS times (conductor.run_once), and
prints one table: per case and moment, the median and range of the times (ms after SIGCONT unless the
moment says otherwise) or the values the library answered, with how many runs gave them.

usage: measure.py WORKDIR [RUNS] [CASE…]   (run it through run.sh, which makes the venv and cleans up)
"""

import collections
import json
import os
import signal
import statistics
import sys

import cases
import conductor
import rows


def on_term(_sig, _frame):
    raise KeyboardInterrupt  # so that every `finally` stops what it started


def cell(values):
    nums = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if nums and len(nums) == len(values):
        return f"{statistics.median(nums):g}", f"{min(nums):g} … {max(nums):g}", ""
    counts = collections.Counter(map(str, values))
    return "", "", "; ".join(f"{v} ×{n}" for v, n in counts.items())


def table(results, runs):
    rows = [("case", "moment", "median", "range", "values", "runs")]
    for case, per_run in results.items():
        moments = list(dict.fromkeys(m for r in per_run if isinstance(r, dict) for m in r))
        failed = [r for r in per_run if not isinstance(r, dict)]
        for m in moments:
            vals = [r[m] for r in per_run if isinstance(r, dict) and m in r]
            rows.append((case, m, *cell(vals), f"{len(vals)}/{runs}"))
        for f in failed:
            rows.append((case, "run failed", "", "", f, "1"))
    widths = [min(60, max(len(r[i]) for r in rows)) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if i == 0:
            print("-+-".join("-" * w for w in widths))


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    signal.signal(signal.SIGTERM, on_term)
    work, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
    wanted = sys.argv[3:]
    chosen = [c for c in cases.ALL if not wanted or c.name.split()[0] in wanted or c.name in wanted]
    piddir = os.path.join(work, "pids")
    os.makedirs(piddir, exist_ok=True)
    started, results = [], {}
    load_before = load()
    try:
        ctx = rows.start(set(rows.FAMILY.values()), work, started)
        for case in chosen:
            results[case.name] = []
            for i in range(runs):
                key = f"/clients-{case.name.replace(' ', '-')}-{i}"
                try:
                    r = conductor.run_once(case, ctx, key, piddir)
                except conductor.RunFailed as e:
                    r = str(e)
                results[case.name].append(r)
                print(f"# {case.name} run {i + 1}: {json.dumps(r)}", file=sys.stderr, flush=True)
    finally:
        for s in reversed(started):
            s.stop()
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(f"machine: {os.cpu_count()} cores; load average (1, 5, 15 min) {load_before} before, "
          f"{load()} after; times in ms after the holder's SIGCONT unless a moment says otherwise")
    table(results, runs)
    return 1 if any(not isinstance(r, dict) for rs in results.values() for r in rs) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # ^C or TERM: every `finally` has run, so nothing is left behind
        print("clients: interrupted; servers and processes stopped", file=sys.stderr)
        sys.exit(130)
