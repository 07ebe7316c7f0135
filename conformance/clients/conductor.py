"""One measured run: start the holder in a process group of its own, wait until it holds the lock,
SIGSTOP the group, start the contender (which takes the lock once the holder's lease or session is
gone), keep the holder frozen for the case's pause, SIGCONT it, and collect its report and its exit.
Every process it started is killed (SIGCONT first, so that a frozen one dies) however the run ends.
"""

import json
import os
import queue
import signal
import subprocess
import threading
import time

import store


class RunFailed(Exception):
    pass


class Proc:
    """A child in its own process group, its stdout read line by line (each line stamped with its
    CLOCK_MONOTONIC arrival), its stderr in a file, its pid in the run's pid directory."""

    def __init__(self, argv, name, piddir):
        self.name = name
        self.err_path = os.path.join(piddir, f"{name}.stderr")
        with open(self.err_path, "wb") as err:
            self.p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=err, start_new_session=True, text=True)
        self.pidfile = os.path.join(piddir, f"{name}.pid")
        with open(self.pidfile, "w") as f:
            f.write(str(self.p.pid))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))

    def expect(self, prefix, within):
        """The first line starting with `prefix` (its JSON, or the whole line if prefix is empty)."""
        end = time.monotonic() + within
        while True:
            try:
                t, line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise RunFailed(f"{self.name}: no '{prefix or 'line'}' within {within} s; "
                                f"stderr: {self.stderr_tail()}") from None
            if not prefix:
                return t, line
            if line.startswith(prefix + " "):
                return t, json.loads(line[len(prefix) + 1:])

    def signal(self, sig):
        try:
            os.killpg(self.p.pid, sig)
        except ProcessLookupError:
            pass

    def stderr_tail(self):
        try:
            lines = [l for l in open(self.err_path, errors="replace").read().splitlines() if l.strip()]
        except OSError:
            return ""
        return lines[-1].strip() if lines else ""

    def kill(self):
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGKILL)
        self.p.wait()
        os.unlink(self.pidfile)


class Run:
    """What one run saw; the case's `moments` reads it."""

    def __init__(self, key):
        self.key = key
        self.held = self.acquired = self.report = None
        self.t_stop = self.t_acquired = self.t_wake = self.t_exit = None
        self.rc, self.stderr_tail, self.extra = None, None, {}
        # A row that writes (store.py): its key and each side's part, from the case's `store`.
        self.store = None


def with_store(argv, run, side):
    """A holder's or contender's command line with its part of the row's storage, if the row writes."""
    if run.store is None:
        return argv
    part = {"port": run.store["port"], "key": run.store["key"], **run.store[side]}
    return [*argv, "--store", json.dumps(part)]


def prepare_store(case, ctx, run):
    """The balance in a key of the row's redis-server, before the holder starts (rows.py gives the
    case its `store`: the scenario's balance, each side's debit, the holder's check)."""
    spec = getattr(case, "store", None)
    if not spec:
        return
    run.store = {"port": ctx["redis"], "key": f"{run.key}:balance", **spec}
    store.prepare(ctx["redis"], run.store["key"], spec["balance"])


def run_once(case, ctx, key, piddir):
    run, procs = Run(key), []
    try:
        prepare_store(case, ctx, run)
        holder = Proc(with_store(case.holder(ctx, key), run, "holder"), "holder", piddir)
        procs.append(holder)
        first_line = getattr(case, "held_is_first_line", False)
        _, run.held = holder.expect("" if first_line else "held", 30)
        if hasattr(case, "on_held"):
            case.on_held(ctx, run)
        run.t_stop = time.monotonic()
        holder.signal(signal.SIGSTOP)
        argv = case.contender(ctx, key)
        if argv:  # (a pause shorter than the session has no contender: nobody can take the lock)
            contender = Proc(with_store(argv, run, "contender"), "contender", piddir)
            procs.append(contender)
            t, run.acquired = contender.expect("acquired", 30)
            run.t_acquired = run.acquired.get("t", t)
            if hasattr(case, "on_acquired"):
                case.on_acquired(ctx, run)
        time.sleep(max(0.0, run.t_stop + case.pause - time.monotonic()))
        run.t_wake = time.monotonic()
        holder.signal(signal.SIGCONT)
        if not first_line:
            _, run.report = holder.expect("report", 30)
        end = time.monotonic() + 10
        while holder.p.poll() is None and time.monotonic() < end:
            time.sleep(0.002)
        if holder.p.poll() is not None:
            run.t_exit, run.rc = time.monotonic(), holder.p.returncode
        run.stderr_tail = holder.stderr_tail()
        if run.store:
            run.extra["final balance"] = store.final(run.store["port"], run.store["key"])
        return case.moments(run)
    finally:
        for p in procs:
            p.kill()
