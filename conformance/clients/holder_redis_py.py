"""Holds redis-py's Lock (SET NX PX with a random token), is frozen past its timeout, and notes what
redis-py tells the application after waking: `owned()` and then `release()` (its exception).

usage: holder_redis_py.py PORT LEASE_S KEY
"""

import sys

import redis

from notices import Notices, attempt

port, lease, key = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
n = Notices()
r = redis.Redis(host="127.0.0.1", port=port)
lock = r.lock(key, timeout=lease)
lock.acquire()
n.held(owned=lock.owned(), token=lock.local.token.decode())
n.wait_wake()
attempt(n, "owned", lock.owned)
attempt(n, "release", lock.release)
n.report()
