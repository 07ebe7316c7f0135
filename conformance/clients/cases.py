"""One case per library: how its holder and its contender are started, how long the holder is frozen,
and which moments of a run's report go in the table (times in ms after the conductor's SIGCONT, unless
a name says otherwise; other entries are the values the library answered).

The settings are small so that a run takes seconds; docs/clients.md gives each delay as a function of
them, from the library's source.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ZK_SESSION_S = 2.0      # kazoo's session timeout (the server allows 0.4–4 s at tickTime 200 ms)
# The short pause: longer than the Java client's read timeout (2/3 of the session) and shorter than the
# session, with the longest session the server allows so that the session outlives the pause.
ZK_LONG_SESSION_S, ZK_SHORT_PAUSE_S = 4.0, 2.8
REDIS_LEASE_S = 1       # redis-py's timeout, python-redis-lock's expire, pottery's auto_release_time
ETCD_TTL_S = 2          # etcdctl lock --ttl (etcd's smallest lease at its default heartbeat)


def py(script, *args):
    return [sys.executable, os.path.join(HERE, script), *map(str, args)]


def after(run, t):
    """ms from the wake-up to CLOCK_MONOTONIC time t."""
    return round((t - run.t_wake) * 1000, 1)


def first(run, what, detail=None):
    """The first event named `what` (with this detail) after the wake-up."""
    for e in run.report["events"]:
        if e["what"] == what and e["t"] >= run.t_wake and (detail is None or e["detail"] == detail):
            return e
    return None


def common(run):
    out = {}
    if run.t_acquired is not None:
        out["contender took the lock (ms after SIGSTOP)"] = round((run.t_acquired - run.t_stop) * 1000, 1)
    if run.report and run.report.get("woke"):
        out["holder saw SIGCONT"] = after(run, run.report["woke"])
    if run.store:
        out.update(writes(run))
    return out


def writes(run):
    """A writing row's storage (store.py): the balance before and after, and each write in the order
    it reached the store (its moment in ms after the wake-up), by the scenario's client names."""
    holder, contender = run.store["names"]
    done = [(holder, (run.report or {}).get("store", {}).get("wrote")),
            (contender, (run.acquired or {}).get("wrote"))]
    ws = sorted(({"client": who, "snapshot": w["snapshot"], "value": w["value"], "at": after(run, w["t"])}
                 for who, w in done if w), key=lambda w: w["at"])
    return {"initial balance": run.store["balance"], "writes": ws,
            "final balance": run.extra["final balance"]}


def outcome(run, name):
    """A call's outcome (`returned X` or `raised T`) and its moment."""
    e = first(run, name)
    if e is None:
        return {f"{name}: outcome": "no answer within the run"}
    d = e["detail"]
    said = f"returned {d['returned']}" if "returned" in d else f"raised {d['raised']}: {d['message']}"
    said = said.replace(run.key, "KEY")  # each run has a key of its own; the message is the same
    if len(said) > 90:  # pottery's message is the key and the repr of every master's connection pool
        said = said[:89] + "…"
    return {f"{name}: outcome": said, f"{name}: answered": after(run, e["t"])}


class Kazoo:
    name, pause, session = "kazoo", 2 * ZK_SESSION_S, ZK_SESSION_S
    writes = True  # its holder and contender take `--store` (store.py)

    def holder(self, ctx, key):
        return py("holder_kazoo.py", ctx["zk"], self.session, key)

    def contender(self, ctx, key):
        return py("contender.py", "kazoo", ctx["zk"], key)

    def moments(self, run):
        out = common(run)
        for state in ("SUSPENDED", "LOST", "CONNECTED"):
            e = first(run, "listener", state)
            out[f"listener {state}"] = after(run, e["t"]) if e else "not seen"
        if isinstance(out["listener LOST"], float) and isinstance(out["listener SUSPENDED"], float):
            out["SUSPENDED → LOST window"] = round(out["listener LOST"] - out["listener SUSPENDED"], 1)
        back = [e for e in run.report["events"] if e["what"] == "zk.connected" and e["t"] >= run.t_wake]
        e = first(run, "zk.connected", False)
        out["zk.connected false"] = after(run, e["t"]) if e else "never false"
        out["zk.connected true again"] = after(run, back[-1]["t"]) if e and back[-1]["detail"] else "no"
        out["lock.is_acquired at +1 s"] = run.report["is_acquired_at_1s"]
        out["lock node exists at +1 s"] = run.report["node_exists_at_1s"]
        out["new session after LOST"] = run.report["session_after"] != run.held["session"]
        out.update(outcome(run, "release"))
        return out


# Curator from Debian's packages (5.4.0) and the ZooKeeper client it drives (3.8.0): the jars by the
# names Debian links to its versioned ones.
CURATOR_JARS = ":".join(f"/usr/share/java/{j}.jar" for j in (
    "curator-client", "curator-framework", "curator-recipes", "zookeeper", "zookeeper-jute", "guava",
    "slf4j-api", "slf4j-nop"))


# Curator's LOST comes later than kazoo's (see docs/clients.md): its holder watches for 3 s.
CURATOR_WATCH_S = 3


def curator(mode, ctx, key, session=ZK_SESSION_S):
    return ["java", "-Xmx128m", "-cp", CURATOR_JARS, os.path.join(HERE, "CuratorClient.java"), mode,
            ctx["zk"], str(int(session * 1000)), key, str(CURATOR_WATCH_S)]


class Curator(Kazoo):
    """The same story as kazoo's, told by Curator's InterProcessMutex; the moments are read alike."""
    name = "curator"
    writes = True  # its holder and contender take `--store` (CuratorClient.java's Store)

    def holder(self, ctx, key):
        return curator("holder", ctx, key, self.session)

    def contender(self, ctx, key):
        return curator("contender", ctx, key)

    def moments(self, run):
        out = common(run)
        for state in ("SUSPENDED", "LOST", "RECONNECTED"):
            e = first(run, "listener", state)
            out[f"listener {state}"] = after(run, e["t"]) if e else "not seen"
        if isinstance(out["listener LOST"], float) and isinstance(out["listener SUSPENDED"], float):
            out["SUSPENDED → LOST window"] = round(out["listener LOST"] - out["listener SUSPENDED"], 1)
        back = [e for e in run.report["events"] if e["what"] == "isConnected" and e["t"] >= run.t_wake]
        e = first(run, "isConnected", False)
        out["isConnected() false"] = after(run, e["t"]) if e else "never false"
        out["isConnected() true again"] = after(run, back[-1]["t"]) if e and back[-1]["detail"] else "no"
        e = first(run, "isAcquiredInThisProcess", False)
        out["isAcquiredInThisProcess() false"] = after(run, e["t"]) if e else "never"
        out["isAcquiredInThisProcess() at +3 s"] = run.report["is_acquired_at_end"]
        out["lock node exists at +3 s"] = run.report["node_exists_at_end"]
        out["new session after LOST"] = run.report["session_after"] != run.held["session"]
        out.update(outcome(run, "release"))
        e = first(run, "stuck")
        out["calls stuck 10 s after the watch"] = f"in {e['detail']}" if e else "no"
        return out


class KazooShortPause(Kazoo):
    """A pause past kazoo's read timeout but within the session: does the library say anything?"""
    name, pause, session = "kazoo short pause", ZK_SHORT_PAUSE_S, ZK_LONG_SESSION_S

    def contender(self, ctx, key):
        return None


class CuratorShortPause(Curator):
    """The same pause under Curator, whose ZooKeeper client counts its read timeout itself."""
    name, pause, session = "curator short pause", ZK_SHORT_PAUSE_S, ZK_LONG_SESSION_S

    def contender(self, ctx, key):
        return None


class RedisPy:
    name, pause, lease = "redis-py", 2.5 * REDIS_LEASE_S, REDIS_LEASE_S
    writes = True

    def holder(self, ctx, key):
        return py("holder_redis_py.py", ctx["redis"], self.lease, key)

    def contender(self, ctx, key):
        return py("contender.py", "redis-py", ctx["redis"], key)

    def moments(self, run):
        out = common(run)
        out["owned() before the pause"] = run.held["owned"]
        out.update(outcome(run, "owned"))
        out.update(outcome(run, "release"))
        return out


class PythonRedisLock:
    name, pause, lease = "python-redis-lock", 2.5 * REDIS_LEASE_S, REDIS_LEASE_S
    writes = True

    def holder(self, ctx, key):
        return py("holder_python_redis_lock.py", ctx["redis"], self.lease, key)

    def contender(self, ctx, key):
        return py("contender.py", "python-redis-lock", ctx["redis"], key)

    def moments(self, run):
        out = common(run)
        out["renewal interval (s)"] = run.held["renewal_interval_s"]
        e = first(run, "renewal thread died")
        out["renewal thread died"] = after(run, e["t"]) if e else "not seen"
        out["renewal thread's exception"] = e["detail"]["raised"] if e else "none"
        out["renewal thread alive at +1 s"] = run.report["thread_alive_at_1s"]
        e = first(run, "key holds our id", False)
        out["key no longer ours (polled)"] = after(run, e["t"]) if e else "not seen"
        out.update(outcome(run, "release"))
        return out


class Pottery:
    """pottery's Redlock on three masters (rows.py's REDLOCK_MASTERS), as its scenario's service."""
    name, pause, lease = "pottery", 2.5 * REDIS_LEASE_S, REDIS_LEASE_S
    writes = True

    def holder(self, ctx, key):
        return py("holder_pottery.py", ctx["redlock"], self.lease, key)

    def contender(self, ctx, key):
        return py("contender.py", "pottery", ctx["redlock"], key)

    def moments(self, run):
        out = common(run)
        out["locked() before the pause > 0"] = run.held["locked_s"] > 0
        out.update(outcome(run, "locked"))
        out.update(outcome(run, "release"))
        return out


# npm redlock's modules: conformance/clients/package-lock.json installed beside the venv this runs in
# (conformance/setup.sh and run.sh make both under the target directory: target/clients-node).
NODE_MODULES = os.path.join(os.path.dirname(sys.prefix), "clients-node")
# The wall-clock step back the "node-redlock step back" holder's clock takes while it is frozen (the
# scenario node-redlock-clock-step-back's `step=-2s@1500ms`).
NODE_REDLOCK_STEP_MS = 2000


def node(script, *args):
    return ["node", os.path.join(HERE, script), NODE_MODULES, *map(str, args)]


class NodeRedlock:
    """npm redlock 4.2.0 on three masters (rows.py's REDLOCK_MASTERS), as its scenarios' service: its
    `owned` is local, `lock.expiration > Date.now()`."""
    name, pause, lease, step_ms = "node-redlock", 2.5 * REDIS_LEASE_S, REDIS_LEASE_S, 0
    writes = True  # its holder and contender take `--store` (store.mjs)

    def holder(self, ctx, key):
        return node("holder_node_redlock.mjs", ctx["redlock"], round(self.lease * 1000), key, self.step_ms)

    def contender(self, ctx, key):
        return node("contender_node_redlock.mjs", ctx["redlock"], key)

    def moments(self, run):
        out = common(run)
        out["expiration > Date.now() before the pause"] = run.held["owned"]
        out["expiration − Date.now() at the grant (ms)"] = run.held["expiration_left_ms"]
        out.update(outcome(run, "owned"))
        out.update(outcome(run, "release"))
        return out


class NodeRedlockStepBack(NodeRedlock):
    """The same, its wall clock stepped back while it is frozen: the local check says yes."""
    name, step_ms = "node-redlock step back", NODE_REDLOCK_STEP_MS


def etcdctl(ctx, *args):
    return ["etcdctl", f"--endpoints=127.0.0.1:{ctx['etcd']}", *args]


def create_revision(ctx, key):
    """The key's create revision as etcd stores it (`etcdctl get -w json`; keys come base64-encoded)."""
    out = subprocess.run(etcdctl(ctx, "get", key, "--write-out=json"), capture_output=True,
                         text=True, timeout=10, check=True).stdout
    kvs = json.loads(out).get("kvs", [])
    return kvs[0]["create_revision"] if kvs else None


# The contender's command prints the same environment the holder's does, as an `acquired` line.
ETCD_CONTENDER_CMD = ('printf \'acquired {"key": "%s", "lock_rev": %s}\\n\' "$ETCD_LOCK_KEY" '
                      '"$ETCD_LOCK_REV"; exec sleep 60')


class EtcdctlCommand:
    """`etcdctl lock NAME COMMAND`: what the command is told, and what becomes of it."""
    name, pause, ttl = "etcdctl lock NAME cmd", 2.5 * ETCD_TTL_S, ETCD_TTL_S

    def holder(self, ctx, key):
        return etcdctl(ctx, "lock", f"--ttl={self.ttl}", key, "--", *py("holder_etcdctl.py"))

    def contender(self, ctx, key):
        return etcdctl(ctx, "lock", "--ttl=10", key, "--", "sh", "-c", ETCD_CONTENDER_CMD)

    def on_held(self, ctx, run):
        run.extra["holder create"] = create_revision(ctx, run.held["key"])

    def on_acquired(self, ctx, run):
        run.extra["contender create"] = create_revision(ctx, run.acquired["key"])

    def moments(self, run):
        out = common(run)
        h, c = run.held, run.acquired
        out["holder: ETCD_LOCK_REV − key's create revision"] = h["lock_rev"] - run.extra["holder create"]
        out["waiter: ETCD_LOCK_REV − key's create revision"] = c["lock_rev"] - run.extra["contender create"]
        out["waiter's ETCD_LOCK_REV > holder's"] = c["lock_rev"] > h["lock_rev"]
        signals = [e["detail"] for e in run.report["events"] if e["what"] == "signal"]
        out["signals the command got"] = ",".join(signals) or "none"
        e = first(run, "etcdctl still our parent", False)
        out["etcdctl ended while the command ran"] = after(run, e["t"]) if e else "no"
        out["etcdctl exit after the command ends"] = f"rc={run.rc} {run.stderr_tail or ''}".strip()
        return out


class EtcdctlNoCommand:
    """`etcdctl lock NAME` alone: it prints the key and holds until ^C or its session ends."""
    name, pause, ttl = "etcdctl lock NAME", 2.5 * ETCD_TTL_S, ETCD_TTL_S
    held_is_first_line = True

    def holder(self, ctx, key):
        return etcdctl(ctx, "lock", f"--ttl={self.ttl}", key)

    def contender(self, ctx, key):
        return EtcdctlCommand().contender(ctx, key)

    def moments(self, run):
        out = common(run)
        out["etcdctl exited"] = after(run, run.t_exit) if run.t_exit else "still running"
        out["etcdctl exit"] = f"rc={run.rc} {run.stderr_tail or ''}".strip()
        return out


ALL = [Kazoo(), Curator(), KazooShortPause(), CuratorShortPause(), RedisPy(), PythonRedisLock(), Pottery(), NodeRedlock(), NodeRedlockStepBack(), EtcdctlCommand(), EtcdctlNoCommand()]
