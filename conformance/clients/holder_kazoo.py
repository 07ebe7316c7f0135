"""Holds kazoo's Lock recipe, is frozen past its session, and notes what kazoo tells the application
after waking: the connection-state listener's events, `zk.connected` and `lock.is_acquired` polled every
few ms for a second, whether the lock's node still exists (the truth), and what `release()` does.

usage: holder_kazoo.py HOST:PORT SESSION_TIMEOUT_S LOCK_PATH
"""

import sys

from kazoo.client import KazooClient

from notices import Change, Notices, attempt

hosts, timeout, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
n = Notices()
zk = KazooClient(hosts=hosts, timeout=timeout)
# kazoo calls listeners on its connection thread; noting is all this one does, as kazoo asks.
zk.add_listener(lambda state: n.note("listener", str(state)))
zk.start()
lock = zk.Lock(path, "holder")
lock.acquire()
node = f"{lock.path}/{lock.node}"
polls = [Change(n, "zk.connected", lambda: zk.connected),
         Change(n, "lock.is_acquired", lambda: lock.is_acquired)]


def poll():
    for p in polls:
        p()


poll()  # the first readings come before `held`: the conductor may stop us at once
n.held(session=hex(zk.client_id[0]), node=node, czxid=zk.exists(node).czxid)
n.wait_wake(poll)
n.watch(poll, 1.0)
exists = zk.exists(node) is not None
attempt(n, "release", lock.release)
n.report(node_exists_at_1s=exists, is_acquired_at_1s=polls[1].last,
         session_after=hex(zk.client_id[0]) if zk.client_id else None)
zk.stop()
zk.close()
