"""Holds pottery's Redlock (one master), is frozen past its auto_release_time, and notes what pottery
tells the application after waking: `locked()` (the lease left, 0 when not held) and `release()`.

usage: holder_pottery.py PORT AUTO_RELEASE_S KEY
"""

import logging
import sys

import redis
from pottery import Redlock

from notices import Notices, attempt

logging.basicConfig(level=logging.WARNING)
port, lease, key = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
n = Notices()
r = redis.Redis(host="127.0.0.1", port=port)
lock = Redlock(key=key, masters={r}, auto_release_time=lease)
lock.acquire()
n.held(locked_s=lock.locked())
n.wait_wake()
attempt(n, "locked", lock.locked)
attempt(n, "release", lock.release)
n.report()
