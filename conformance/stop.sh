# conformance/stop.sh — sourced by conformance/run.sh and conformance/clients/run.sh: how their traps
# stop what a run left behind, in one place (the two traps had each grown a copy).

# stop_child PID SECONDS: a child still running is sent TERM (so that its own cleanup runs), given up
# to SECONDS to end, then killed.
stop_child() {
  local pid=$1 tenths=$(($2 * 10))
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq "$tenths"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

# stop_groups SAY NAMES FILE…: each pid file whose process is alive and named as the extended regular
# expression NAMES says (its /proc comm: a pid reused by another program is left alone) names a process
# that leads a group of its own: the group is continued (a process frozen by SIGSTOP dies only once
# continued) and killed, or the process alone if it leads none. SAY is the line's prefix on stderr.
stop_groups() {
  local say=$1 names=$2 f p comm
  shift 2
  for f in "$@"; do
    [ -f "$f" ] || continue
    p=$(head -n 1 "$f")
    [ -n "$p" ] || continue
    comm=$(cat "/proc/$p/comm" 2>/dev/null || true)
    [ -n "$comm" ] && [[ $comm =~ ^($names)$ ]] || continue
    echo "$say: stopping leftover $p ($f)" >&2
    kill -CONT -- "-$p" 2>/dev/null || true
    kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null || true
  done
}
