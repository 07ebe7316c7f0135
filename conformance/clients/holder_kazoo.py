"""Holds kazoo's Lock recipe, is frozen past its session, and notes what kazoo tells the application
after waking: the connection-state listener's events, `zk.connected` and `lock.is_acquired` polled every
few ms for a second, whether the lock's node still exists (the truth), and what `release()` does.
With `--store` (store.py) it reads before the pause and, the scenario's work after waking later, makes
its check — `owned` (`lock.is_acquired`) or `listener` (whether the listener has heard SUSPENDED or
LOST since the grant, no round trip) — and writes unless it said no.

usage: holder_kazoo.py HOST:PORT SESSION_TIMEOUT_S LOCK_PATH [--store JSON]
"""

import sys

from kazoo.client import KazooClient

from notices import Change, Notices, attempt
from store import Store

hosts, timeout, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
store = Store.from_argv(sys.argv)
n = Notices()
zk = KazooClient(hosts=hosts, timeout=timeout)
# kazoo calls listeners on its connection thread; noting is all this one does, as kazoo asks.
zk.add_listener(lambda state: n.note("listener", str(state)))
zk.start()
lock = zk.Lock(path, "holder")
lock.acquire()
if store:
    store.read()
node = f"{lock.path}/{lock.node}"
polls = [Change(n, "zk.connected", lambda: zk.connected),
         Change(n, "lock.is_acquired", lambda: lock.is_acquired)]


def poll():
    for p in polls:
        p()


poll()  # the first readings come before `held`: the conductor may stop us at once
n.held(session=hex(zk.client_id[0]), node=node, czxid=zk.exists(node).czxid)
def said_no(check):
    """The scenario's check after the pause: kazoo's answer, or what its listener has heard (kazoo's
    SUSPENDED already loses the lock: kazoo-listener-race)."""
    if check == "owned":
        return not lock.is_acquired
    if check == "listener":
        return any(e["what"] == "listener" and e["detail"] in ("SUSPENDED", "LOST") for e in n.events)
    return False


n.wait_wake(poll)
if store:
    n.watch(poll, store.check_after_s)
    store.write_unless(said_no(store.check))
n.watch(poll, 1.0)
exists = zk.exists(node) is not None
attempt(n, "release", lock.release)
n.report(node_exists_at_1s=exists, is_acquired_at_1s=polls[1].last,
         session_after=hex(zk.client_id[0]) if zk.client_id else None,
         **(store.report() if store else {}))
zk.stop()
zk.close()
