"""Throwaway servers for the client measurements: each on a free loopback port, its data and log in a
directory of its own under the run's work directory, its pid written there (run.sh's backstop kills
what a killed run left), and stopped by `stop()`.

ZooKeeper is started the way conformance/src/zk.rs starts it (Debian's jar, standalone); etcd the way
conformance/src/etcd.rs does; redis-server without persistence (three of them for pottery's Redlock, as the suite's Redlock rows
run theirs).
"""

import json
import os
import socket
import subprocess
import time
import urllib.request

ZK_JAR = "/usr/share/java/zookeeper.jar"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server process, its address and its directory."""

    def __init__(self, name, argv, directory, port):
        self.name, self.port, self.dir = name, port, directory
        os.makedirs(directory, exist_ok=True)
        self.log = os.path.join(directory, f"{name}.log")
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        with open(os.path.join(directory, f"{name}.pid"), "w") as f:
            f.write(str(self.proc.pid))

    def wait_ready(self, ready, within=30.0):
        end = time.monotonic() + within
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            try:
                if ready():
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        tail = open(self.log, errors="replace").read()[-2000:]
        self.stop()
        raise RuntimeError(f"{self.name} did not serve within {within} s:\n{tail}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def redis(work, directory="redis"):
    """One redis-server in WORK/DIRECTORY (run.sh's backstops look in every WORK/redis*)."""
    port = free_port()
    d = os.path.join(work, directory)
    s = Server("redis", ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                         "--save", "", "--appendonly", "no", "--dir", d], d, port)

    def ready():
        with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
            c.sendall(b"PING\r\n")
            return c.recv(16).startswith(b"+PONG")
    return s.wait_ready(ready)


def zookeeper(work, tick_ms=200):
    """Standalone ZooKeeper whose session timeouts may range from 2 to 20 ticks (its defaults)."""
    port = free_port()
    d = os.path.join(work, "zookeeper")
    os.makedirs(os.path.join(d, "data"), exist_ok=True)
    cfg = os.path.join(d, "zoo.cfg")
    with open(cfg, "w") as f:
        f.write(f"tickTime={tick_ms}\ndataDir={d}/data\nclientPort={port}\n"
                "clientPortAddress=127.0.0.1\nadmin.enableServer=false\n"
                "4lw.commands.whitelist=srvr\n")
    s = Server("zookeeper", ["java", "-Xmx256m", "-cp", ZK_JAR,
                             "org.apache.zookeeper.server.ZooKeeperServerMain", cfg], d, port)

    def ready():
        with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
            c.sendall(b"srvr")
            return b"Mode: standalone" in c.recv(4096)
    return s.wait_ready(ready)


def etcd(work):
    port, peer = free_port(), free_port()
    d = os.path.join(work, "etcd")
    client, peer_url = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{peer}"
    s = Server("etcd", ["etcd", "--name", "clients", "--data-dir", os.path.join(d, "data"),
                        "--listen-client-urls", client, "--advertise-client-urls", client,
                        "--listen-peer-urls", peer_url, "--initial-advertise-peer-urls", peer_url,
                        "--initial-cluster", f"clients={peer_url}"], d, port)

    def ready():
        with urllib.request.urlopen(f"{client}/health", timeout=1) as r:
            return json.load(r).get("health") == "true"
    return s.wait_ready(ready)
