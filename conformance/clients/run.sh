#!/usr/bin/env bash
# conformance/clients/run.sh [RUNS] [CASE…] — measures what each lock client library tells the
# application when its holder is frozen (SIGSTOP) past its lease, against throwaway servers, and prints
# one table (docs/clients.md reads it). Makes the Python venv under target/clients-venv/ with the pinned
# versions of requirements.txt, and npm's redlock under target/clients-node/ from package-lock.json,
# if either is missing or stale. Servers and every process a run started are
# stopped however it ends (the conductor's own `finally`, and this trap as the backstop), then checked
# with pgrep: any left is named and the script fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="$root/target/clients-venv"
say() { printf 'clients: %s\n' "$*" >&2; }

missing=()
for tool in redis-server etcd etcdctl java node npm; do command -v "$tool" >/dev/null || missing+=("$tool"); done
[ -f /usr/share/java/zookeeper.jar ] || missing+=(zookeeper.jar)
if ((${#missing[@]})); then
  say "missing ${missing[*]}: apt-get install redis-server etcd-server etcd-client zookeeper"
  exit 2
fi

bash "$here/deps.sh" "$root/target"

work=$(mktemp -d "${TMPDIR:-/tmp}/leaselab-clients.XXXXXX")
pid=
# stop_child, stop_groups: shared with conformance/run.sh's trap.
. "$here/../stop.sh"
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_child "$pid" 10
  # Backstop for a conductor killed before its `finally`: holders and contenders lead process groups
  # of their own (continued first, so a frozen one dies); servers are killed by their pid files.
  stop_groups clients 'python.*|java|etcdctl|redis-server|etcd' \
    "$work"/pids/*.pid "$work"/redis*/*.pid "$work"/zookeeper/*.pid "$work"/etcd/*.pid
  sleep 0.2
  left=$(pgrep -f "$work|$here/(holder_|contender)" || true)
  if [ -n "$left" ]; then
    say "processes left behind: $(echo $left)"
    status=1
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT INT TERM
# No bytecode files: Python would leave __pycache__/ here, in the source tree, after every run (the
# holders and contenders inherit this). (The suite's rows.py gets the same: library_rows.rs, rows_py.)
export PYTHONDONTWRITEBYTECODE=1
"$venv/bin/python" "$here/measure.py" "$work" "$@" &
pid=$!
wait "$pid"
