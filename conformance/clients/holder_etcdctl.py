"""The command `etcdctl lock NAME holder_etcdctl.py` runs while it holds the lock: it reports the
environment etcdctl gives it (ETCD_LOCK_KEY, ETCD_LOCK_REV), is frozen with etcdctl (one process group)
past the session's TTL, and after waking notes for a second and a half whether its etcdctl is still
its parent and whether any signal reached it — the notices a command could get that its lock is gone.

usage: etcdctl lock --ttl TTL NAME python3 holder_etcdctl.py
"""

import os
import signal

from notices import Change, Notices

n = Notices()
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
    signal.signal(sig, lambda s, _f: n.note("signal", signal.Signals(s).name))
parent = os.getppid()
n.held(key=os.environ.get("ETCD_LOCK_KEY"), lock_rev=int(os.environ.get("ETCD_LOCK_REV", "-1")),
       etcdctl=parent)
alive = Change(n, "etcdctl still our parent", lambda: os.getppid() == parent)
n.wait_wake(alive)
n.watch(alive, 1.5)
n.report()
