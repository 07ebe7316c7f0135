#!/usr/bin/env bash
# conformance/run.sh BINARY — runs the conformance suite in a fresh work directory and removes it, and
# any server the suite started in it, on the way out, however the suite ends. The suite stops its own
# servers (Drop guards); this trap is the backstop for a suite that was killed before it could.
set -euo pipefail
bin=${1:?usage: conformance/run.sh path/to/leaselab-conformance [ARGS...]}
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/leaselab-conformance.XXXXXX")
pid=
# stop_child, stop_groups: shared with conformance/clients/run.sh's trap.
. "$(dirname "$0")/stop.sh"
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_child "$pid" 5
  # Client agents left behind by a killed suite (they also die with it: PR_SET_PDEATHSIG): each leads
  # a process group of its own (with its ZooKeeper session's process), killed whole, stopped or not.
  stop_groups "conformance: client agent" leaselab-confor "$work"/agents/client-*.pid
  # The library rows' processes (conformance/src/library_rows.rs), if a killed suite left them: rows.py
  # (it dies with the suite, PR_SET_PDEATHSIG, unless it was stopped too), each holder and contender
  # (conformance/clients/conductor.py: a process group of its own, continued first so that a frozen one
  # dies) and the servers rows.py started (conformance/clients/servers.py).
  stop_groups "conformance: library row" 'python.*|java|etcdctl|redis-server|etcd' \
    "$work"/clients/rows.pid "$work"/clients/pids/*.pid "$work"/clients/redis*/*.pid \
    "$work"/clients/zookeeper/*.pid "$work"/clients/etcd/*.pid
  # Servers left behind by a killed suite: only those whose pid files are in our work directory.
  for f in "$work"/pg-data/postmaster.pid "$work"/redis/redis.pid "$work"/redis-*/redis.pid "$work"/redlock-*/n*/redis.pid "$work"/failover-*/*/redis.pid "$work"/etcd-*/etcd.pid \
           "$work"/zookeeper-*/zookeeper.pid "$work"/zookeeper-*/zk-agent-*.pid "$work"/mariadb/mariadb.pid \
           "$work"/dynalite-*/dynalite.pid "$work"/objects-*/*/moto.pid "$work"/objects-*/*/fake-gcs-server.pid; do
    [ -f "$f" ] || continue
    p=$(head -n 1 "$f")
    comm=$(cat "/proc/$p/comm" 2>/dev/null || true)
    # (ZooKeeper is `java`, and so is a Curator client's JVM, whose pid file is named as a session
    # process's; a client's session process is this suite's binary, its name cut to 15; dynalite is
    # `node`, moto's server its script's name.)
    case "$comm" in
      postgres|redis-server|etcd|java|leaselab-confor|mariadbd|node|moto_server|fake-gcs-server) ;;
      *) continue ;;
    esac
    if [ -n "$p" ]; then
      echo "conformance: stopping leftover server $p ($f)" >&2
      kill -KILL "$p" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT INT TERM
# The suite mostly sleeps, but when it runs it is timing-sensitive: as root, give it (and the servers
# it starts, which inherit this) precedence over whatever else keeps the machine busy.
prio=()
if [ "$(id -u)" = 0 ]; then prio=(nice -n -10); fi
"${prio[@]}" "$bin" --workdir "$work" "$@" &
pid=$!
wait "$pid"
