"""Holds pottery's Redlock on its masters (three redis-servers), is frozen past its auto_release_time,
and notes what pottery tells the application after waking: `locked()` (the lease left, 0 when not
held) and `release()`. With `--store` (store.py) it reads before the pause and writes after waking,
between the two calls (its scenario checks nothing).

usage: holder_pottery.py PORT,PORT,PORT AUTO_RELEASE_S KEY [--store JSON]
"""

import logging
import sys

import redis
from pottery import Redlock

from notices import Notices, attempt
from store import Store

logging.basicConfig(level=logging.WARNING)
ports, lease, key = sys.argv[1].split(","), float(sys.argv[2]), sys.argv[3]
store = Store.from_argv(sys.argv)
n = Notices()
masters = {redis.Redis(host="127.0.0.1", port=int(p)) for p in ports}
lock = Redlock(key=key, masters=masters, auto_release_time=lease)
lock.acquire()
if store:
    store.read()
n.held(locked_s=lock.locked())
n.wait_wake()
locked = attempt(n, "locked", lock.locked)
if store:
    store.write_unless(store.check == "owned" and not locked)
attempt(n, "release", lock.release)
n.report(**(store.report() if store else {}))
