"""The library rows of `make conformance` (conformance/src/library_rows.rs): one run of each requested
case with the settings its scenario gives, against servers started once for all of them — only the
families the requested cases need — and one line per run on stdout:

    row ID {json}   the run's moments, as cases.py's `moments` names them (ms after the holder's SIGCONT)
    row ID {"failed": "why"}

The suite starts this through `setpriv --pdeathsig TERM` with the venv's Python: a TERM (the suite's
death, ^C, run.sh's trap) raises KeyboardInterrupt here, so every `finally` stops what it started.

usage: rows.py WORKDIR SPEC_JSON   SPEC_JSON: [{"id", "case", "pause_s", "session_s"?, "lease_s"?,
                                               "ttl_s"?}, …]
"""

import copy
import json
import os
import signal
import sys

import cases
import conductor
import servers

# Which server each case's name (its first word) needs.
FAMILY = {"kazoo": "zk", "curator": "zk", "redis-py": "redis", "python-redis-lock": "redis",
          "pottery": "redis", "etcdctl": "etcd"}
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
    return case


def start(families, work):
    started, ctx = [], {}
    if "redis" in families:
        s = servers.redis(work); started.append(s); ctx["redis"] = s.port
    if "zk" in families:
        s = servers.zookeeper(work); started.append(s); ctx["zk"] = f"127.0.0.1:{s.port}"
    if "etcd" in families:
        s = servers.etcd(work); started.append(s); ctx["etcd"] = s.port
    return started, ctx


def main():
    signal.signal(signal.SIGTERM, on_term)
    work, specs = sys.argv[1], json.loads(sys.argv[2])
    chosen = [(s["id"], chosen_case(s)) for s in specs]
    families = {FAMILY[c.name.split()[0]] for _, c in chosen}
    piddir = os.path.join(work, "pids")
    os.makedirs(piddir, exist_ok=True)
    started = []
    try:
        started, ctx = start(families, work)
        for i, (row, case) in enumerate(chosen):
            key = f"/rows-{i}-{case.name.replace(' ', '-')}"
            try:
                r = conductor.run_once(case, ctx, key, piddir)
            except conductor.RunFailed as e:
                r = {"failed": str(e)}
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
