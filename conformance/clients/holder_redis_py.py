"""Holds redis-py's Lock (SET NX PX with a random token), is frozen past its timeout, and notes what
redis-py tells the application after waking: `owned()` and then `release()` (its exception). With
`--store` (store.py) it does its scenario's read before `owned()` and the pause, and its write after
waking, between the two calls, unless the scenario checks `owned()` after the pause and it said no.

usage: holder_redis_py.py PORT LEASE_S KEY [--store JSON]
"""

import sys

import redis

from notices import Notices, attempt
from store import Store

port, lease, key = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
store = Store.from_argv(sys.argv)
n = Notices()
r = redis.Redis(host="127.0.0.1", port=port)
lock = r.lock(key, timeout=lease)
lock.acquire()
if store:
    store.read()
n.held(owned=lock.owned(), token=lock.local.token.decode())
n.wait_wake()
owned = attempt(n, "owned", lock.owned)
if store:
    store.write_unless(store.check == "owned" and not owned)
attempt(n, "release", lock.release)
n.report(**(store.report() if store else {}))
