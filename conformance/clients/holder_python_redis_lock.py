"""Holds python-redis-lock's Lock with auto_renewal (a thread extends it every expire*2/3 s), is frozen
past its expiry, and notes what the application can learn after waking: whether the renewal thread is
alive (polled every few ms for a second; its exception caught by threading.excepthook, which is where
Python reports a thread's death), whether the key still holds its id, and what `release()` does. With
`--store` (store.py) it reads before the pause and writes as soon as it wakes (its scenario checks
nothing; the renewal thread's death is never told to it).

usage: holder_python_redis_lock.py PORT EXPIRE_S KEY [--store JSON]
"""

import sys
import threading

import redis
import redis_lock

from notices import Change, Notices, attempt
from store import Store

port, expire, key = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
store = Store.from_argv(sys.argv)
n = Notices()


def died(args):
    n.note("renewal thread died", {"raised": args.exc_type.__name__, "message": str(args.exc_value)})
    threading.__excepthook__(args)  # Python's own report: a traceback on stderr, all an app would see


threading.excepthook = died
r = redis.StrictRedis(host="127.0.0.1", port=port)
lock = redis_lock.Lock(r, key, expire=expire, auto_renewal=True)
lock.acquire()
if store:
    store.read()
thread = lock._lock_renewal_thread
polls = [Change(n, "renewal thread alive", thread.is_alive),
         Change(n, "key holds our id", lambda: lock.get_owner_id() == lock.id)]


def poll():
    for p in polls:
        p()


poll()  # the first readings come before `held`: the conductor may stop us at once
n.held(id=lock.id, renewal_interval_s=lock._lock_renewal_interval)
n.wait_wake(poll)
if store:
    store.write_unless(store.check == "owned" and not lock.locked())
n.watch(poll, 1.0)
attempt(n, "release", lock.release)
n.report(thread_alive_at_1s=thread.is_alive(), **(store.report() if store else {}))
