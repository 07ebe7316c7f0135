"""Takes the lock through the same library while the holder is frozen, says `acquired {json}` with its
CLOCK_MONOTONIC time, and keeps it until the conductor ends this process.

With `--store JSON` (a row that writes, store.py) it reads the balance and writes it less its debit
once it holds the lock, before it says `acquired` (so its write is done before the holder wakes).

usage: contender.py LIBRARY ADDRESS KEY [--store JSON]   (pottery's ADDRESS: its masters' ports, PORT,…)
"""

import sys
import time

from notices import say
from store import Store

lib, addr, key = sys.argv[1], sys.argv[2], sys.argv[3]
store = Store.from_argv(sys.argv)
info = {}
if lib == "kazoo":
    from kazoo.client import KazooClient
    zk = KazooClient(hosts=addr, timeout=10.0)
    zk.start()
    lock = zk.Lock(key, "contender")
    lock.acquire()
    node = f"{lock.path}/{lock.node}"
    info = {"node": node, "czxid": zk.exists(node).czxid}
else:
    import redis
    if lib == "pottery":
        masters = {redis.Redis(host="127.0.0.1", port=int(p)) for p in addr.split(",")}
    else:
        r = redis.Redis(host="127.0.0.1", port=int(addr))
    if lib == "redis-py":
        lock = r.lock(key, timeout=10.0, blocking_timeout=30)
        got = lock.acquire()
    elif lib == "python-redis-lock":
        import redis_lock
        lock = redis_lock.Lock(redis.StrictRedis(host="127.0.0.1", port=int(addr)), key, expire=30)
        # A waiter wakes on the holder's release signal (BLPOP) or its own timeout, not on the key's
        # expiry: short tries, so it takes the lock within a second of the holder's key expiring.
        got = any(lock.acquire(timeout=1) for _ in range(30))
    elif lib == "pottery":
        from pottery import Redlock
        lock = Redlock(key=key, masters=masters, auto_release_time=10.0)
        got = lock.acquire(timeout=30)
    else:
        sys.exit(f"contender: unknown library {lib!r}")
    if not got:
        sys.exit("contender: could not take the lock within 30 s")
t = time.monotonic()
if store:
    store.read()
    info["wrote"] = store.write()
say("acquired", {"t": t, **info})
time.sleep(60)
