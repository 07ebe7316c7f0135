"""The library rows of `make conformance` (conformance/src/library_rows.rs): one run of each requested
case with the settings its scenario gives, against servers started once for all of them — only the
families the requested cases need — and one line per run on stdout:

    row ID {json}   the run's moments, as cases.py's `moments` names them (ms after the holder's SIGCONT)
    row ID {"failed": "why"}

The suite starts this through `setpriv --pdeathsig TERM` with the venv's Python: a TERM (the suite's
death, ^C, run.sh's trap) raises KeyboardInterrupt here, so every `finally` stops what it started.

usage: rows.py WORKDIR SPEC_JSON   SPEC_JSON: [{"id", "case", "pause_s", "session_s"?, "lease_s"?,
                                               "ttl_s"?, "store"?}, …]

A spec with "store" is a row that writes (store.py): {"balance", "names": [holder, contender],
"holder": {"debit", "check", "check_after_s"}, "contender": {"debit"}}, from its scenario; its case must
write (`writes`), and the row's redis-server holds the balance.
"""

import copy
import json
import os
import signal
import sys

import cases
import conductor
import servers

# Which server each case's name (its first word) needs ("redlock": three redis masters, pottery's and
# npm redlock's Redlock on as many as their scenarios' `service: redlock nodes=3`).
FAMILY = {"kazoo": "zk", "curator": "zk", "redis-py": "redis", "python-redis-lock": "redis",
          "pottery": "redlock", "node-redlock": "redlock", "etcdctl": "etcd"}
SETTINGS = {"session_s": "session", "lease_s": "lease", "ttl_s": "ttl", "pause_s": "pause"}


def on_term(_sig, _frame):
    raise KeyboardInterrupt


def chosen_case(spec):
    """The case by its full name, its settings replaced by the spec's (a copy: cases.ALL stays)."""
    by_name = {c.name: c for c in cases.ALL}
    if spec["case"] not in by_name:
        raise SystemExit(f"rows.py: no case {spec['case']!r}; the cases: {', '.join(by_name)}")
    case = copy.copy(by_name[spec["case"]])
    for key, attr in SETTINGS.items():
        if key in spec:
            if not hasattr(case, attr):
                raise SystemExit(f"rows.py: case {case.name!r} has no setting {key}")
            value = spec[key]
            # python-redis-lock's expire and etcdctl's --ttl are whole seconds.
            setattr(case, attr, int(value) if attr in ("lease", "ttl") and value == int(value) else value)
    if "store" in spec:
        if not getattr(case, "writes", False):
            raise SystemExit(f"rows.py: case {case.name!r} does not write (its holder takes no --store)")
        case.store = spec["store"]
    return case


# A holder that noticed its own SIGCONT this late (ms) was not scheduled when it was woken: a busy
# machine, not the library (docs/clients.md: Python holders 0.1–0.5 ms, the JVM's 4–14 ms, 32 at the
# worst under load). Below the rows' tightest tolerance (±50 ms), so a kept run is a fair test of it.
LATE_MS = 30
# How many runs a row may take before it reports its last one anyway (as the suite's ATTEMPTS).
ATTEMPTS = 3


def fair_run(case, ctx, key, piddir):
    """One run that was not woken late, as the suite discards an attempt that fell behind its
    timeline: up to ATTEMPTS runs, the discarded ones said in `discarded`."""
    discarded = []
    for attempt in range(1, ATTEMPTS + 1):
        try:
            r = conductor.run_once(case, ctx, f"{key}-{attempt}", piddir)
        except conductor.RunFailed as e:
            return {"failed": str(e), "discarded": discarded}
        late = r.get("holder saw SIGCONT")
        if not isinstance(late, (int, float)) or late <= LATE_MS or attempt == ATTEMPTS:
            r["attempt"], r["discarded"] = attempt, discarded
            return r
        discarded.append(f"attempt {attempt}: the holder noticed its SIGCONT {late} ms late")
        print(f"rows.py: {case.name}: {discarded[-1]}", file=sys.stderr, flush=True)


REDLOCK_MASTERS = 3


def start(families, work, started):
    """Starts the families' servers, each added to `started` at once (so that the caller's `finally`
    stops it if a later one fails), and returns the addresses the cases read."""
    ctx = {}
    if "redis" in families or "redlock" in families:
        s = servers.redis(work); started.append(s); ctx["redis"] = s.port
    if "redlock" in families:
        # The first master is the redis family's server: a plain redis-server either way.
        ports = [ctx["redis"]]
        for i in range(2, REDLOCK_MASTERS + 1):
            s = servers.redis(work, f"redis-{i}"); started.append(s); ports.append(s.port)
        ctx["redlock"] = ",".join(map(str, ports))
    if "zk" in families:
        s = servers.zookeeper(work); started.append(s); ctx["zk"] = f"127.0.0.1:{s.port}"
    if "etcd" in families:
        s = servers.etcd(work); started.append(s); ctx["etcd"] = s.port
    return ctx


def main():
    signal.signal(signal.SIGTERM, on_term)
    work, specs = sys.argv[1], json.loads(sys.argv[2])
    chosen = [(s["id"], chosen_case(s)) for s in specs]
    families = {FAMILY[c.name.split()[0]] for _, c in chosen}
    if any(getattr(c, "store", None) for _, c in chosen):
        families.add("redis")  # the writing rows' balance (store.py)
    piddir = os.path.join(work, "pids")
    os.makedirs(piddir, exist_ok=True)
    started = []
    try:
        ctx = start(families, work, started)
        for i, (row, case) in enumerate(chosen):
            key = f"/rows-{i}-{case.name.replace(' ', '-')}"
            r = fair_run(case, ctx, f"{key}", piddir)
            print(f"row {row} {json.dumps(r)}", flush=True)
    finally:
        for s in reversed(started):
            s.stop()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("rows.py: interrupted; servers and processes stopped", file=sys.stderr)
        sys.exit(130)
