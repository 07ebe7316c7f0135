"""The scenario's storage for a library row that writes (conformance/src/library_rows.rs, policy `none`):
one plain key on the row's redis-server holding the balance, read and written with GET and SET and no
guard, as the suite's other rows' unguarded storage is a plain UPDATE (conformance/src/real/storage.rs).
The holder reads it before its pause and, after waking, writes `snapshot − debit` unless the check its
scenario makes after the pause (`owned`, `listener`) said no; the contender reads and writes it once it
holds the lock. Each write is reported with its CLOCK_MONOTONIC time, so the row orders them as they
reached the store and judges lost updates by leaselab's own definition (crate/src/outcome.rs).

A process is given its part as `--store JSON` after its own arguments: {"port", "key", "debit"} and,
for the holder, "check" (the scenario's check after the pause, or null) and "check_after_s" (the work
between waking and that check).
"""

import json
import time

import redis


class Store:
    def __init__(self, spec):
        self.spec = spec
        self.r = redis.Redis(host="127.0.0.1", port=int(spec["port"]))
        self.snapshot = None
        self.wrote = None

    @staticmethod
    def from_argv(argv):
        """The `--store JSON` part of a command line, or None when the row does not write."""
        if "--store" not in argv:
            return None
        return Store(json.loads(argv[argv.index("--store") + 1]))

    @property
    def check(self):
        return self.spec.get("check")

    @property
    def check_after_s(self):
        return float(self.spec.get("check_after_s") or 0.0)

    def read(self):
        self.snapshot = int(self.r.get(self.spec["key"]))
        return self.snapshot

    def write(self):
        """The scenario's write: what was read, less the debit (a plain SET: policy `none`)."""
        value = self.snapshot - int(self.spec["debit"])
        self.r.set(self.spec["key"], value)
        self.wrote = {"snapshot": self.snapshot, "value": value, "t": time.monotonic()}
        return self.wrote

    def write_unless(self, said_no):
        """The write, unless the scenario's check said no (then the attempt is given up, as the
        model's `owned`/`listener` do: no write)."""
        if said_no:
            return None
        return self.write()

    def report(self):
        return {"store": {"read": self.snapshot, "wrote": self.wrote}}


def prepare(port, key, balance):
    """Puts the scenario's balance in the row's key before the holder starts."""
    redis.Redis(host="127.0.0.1", port=int(port)).set(key, int(balance))


def final(port, key):
    value = redis.Redis(host="127.0.0.1", port=int(port)).get(key)
    return int(value) if value is not None else None
