#!/usr/bin/env bash
# conformance/setup.sh — installs what `make conformance` needs on a fresh Debian machine, and nothing
# that is there: PostgreSQL's server binaries (initdb, postgres), redis-server, etcd (etcd-server, 3.4),
# ZooKeeper (zookeeper, 3.8, with the Java runtime it depends on), Apache Curator (libcurator-framework-java
# and libcurator-recipes-java, 5.4) with a JDK to compile the suite's Curator client (default-jdk-headless:
# javac) and MariaDB (mariadb-server, 10.11: mariadbd and mariadb-install-db), from Debian's packages.
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
say "ready (postgres: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1), redis: $(redis-server --version | awk '{print $3}'), etcd: $(etcd --version | awk 'NR==1 {print $3}'), zookeeper: $(dpkg-query -W -f '${Version}' zookeeper), curator: $(dpkg-query -W -f '${Version}' libcurator-recipes-java), javac: $(javac -version 2>&1 | awk '{print $2}'), mariadb: $("$(mariadbd_bin)" --version | sed -n 's/.*Ver \([^ ]*\).*/\1/p'))"
