"""The holder's side of a measurement: a log of what the library told the application, each notice with
its CLOCK_MONOTONIC time (time.monotonic() is CLOCK_MONOTONIC on Linux: one clock for every process,
so the conductor subtracts its own moment of SIGCONT), and the lines a holder speaks to the conductor:

    held {json}     the lock is held (the conductor then stops the holder's process group)
    report {json}   what it saw after waking (the holder then exits)

A SIGCONT handler marks the wake-up as the holder itself saw it, as a check on the conductor's moment.
"""

import json
import signal
import sys
import threading
import time


class Notices:
    def __init__(self):
        self.events = []
        self.woke = None
        self._lock = threading.Lock()
        signal.signal(signal.SIGCONT, self._on_cont)

    def _on_cont(self, _sig, _frame):
        if self.woke is None:
            self.woke = time.monotonic()

    def note(self, what, detail=None):
        """Records one notice now (any thread)."""
        with self._lock:
            self.events.append({"t": time.monotonic(), "what": what, "detail": detail})

    def held(self, **info):
        say("held", info)

    def wait_wake(self, poll=None, every=0.002):
        """Sleeps in short steps until SIGCONT was seen, calling `poll` at each step (so a change
        before the pause is seen too)."""
        while self.woke is None:
            if poll:
                poll()
            time.sleep(every)

    def watch(self, poll, seconds=1.0, every=0.003):
        """Calls `poll` every few ms for `seconds` after the wake-up."""
        end = self.woke + seconds
        while time.monotonic() < end:
            poll()
            time.sleep(every)

    def report(self, **facts):
        say("report", {"woke": self.woke, "events": self.events, **facts})


class Change:
    """Notes a polled value each time it changes (the first reading too)."""

    def __init__(self, notices, name, read):
        self.notices, self.name, self.read, self.last = notices, name, read, object()

    def __call__(self):
        try:
            value = self.read()
        except Exception as e:  # the library's own exception is the notice
            value = f"{type(e).__name__}: {e}"
        if value != self.last:
            self.last = value
            self.notices.note(self.name, value)


def attempt(notices, name, call):
    """Runs `call`, noting when it returned (and what) or raised (type and message); returns what it
    returned (None when it raised)."""
    start = time.monotonic()
    try:
        value = call()
        notices.note(name, {"returned": repr(value), "took_ms": ms(time.monotonic() - start)})
        return value
    except Exception as e:
        notices.note(name, {"raised": type(e).__name__, "message": str(e),
                            "took_ms": ms(time.monotonic() - start)})
        return None


def ms(seconds):
    return round(seconds * 1000, 1)


def say(kind, obj):
    sys.stdout.write(f"{kind} {json.dumps(obj)}\n")
    sys.stdout.flush()
