#!/usr/bin/env python3
"""tools/service-names.py — issue 37's measure of "one home per lock service": for each field service,
the lines that name it outside its own files, across crate/ (src, model/src, build.rs),
conformance/src and www's modules. Not counted, as the issue says: tests (files under a tests/ folder
and a Rust file's `#[cfg(test)]` modules), scenarios, docs, the dictionaries (www/i18n.js and
www/i18n/) and lessons.js. A file whose path names the service (or its client library's or short
name: zk, curator, k8s, dynamo) is its own home. A line names a service when the name stands as a
word, not joined by a hyphen or an underscore (`etcd-granted`, `EtcdToken` are not counted).

`make service-names` prints each service's count (the target: at most 6) and, with `-v`, the lines.
Prints figures and fails on nothing: the count is a goal, not yet a gate.
"""
import re
import subprocess
import sys

SERVICES = ["consul", "dynamodb", "hazelcast", "kubernetes", "etcd", "zookeeper", "redlock", "mysql"]
# Other names of a service that make a file its home (`real/zk_lock.rs`, `k8s_…`).
ALIASES = {"zookeeper": ["zk", "curator"], "kubernetes": ["k8s"], "dynamodb": ["dynamo"]}
SPECS = ["crate/src/*.rs", "crate/model/src/*.rs", "crate/build.rs", "conformance/src/*.rs", "www/*.js"]


def tracked():
    out = subprocess.run(["git", "ls-files", *SPECS], capture_output=True, text=True, check=True)
    for path in out.stdout.split():
        if "/tests/" in path or path.endswith("lessons.js"):
            continue
        if path == "www/i18n.js" or path.startswith("www/i18n/") or path.startswith("www/node_modules/"):
            continue
        yield path


def without_test_modules(lines):
    """The lines of a Rust file outside its `#[cfg(test)]` items (by brace depth from the attribute)."""
    kept, skipping, depth, opened = [], False, 0, False
    for n, line in enumerate(lines, 1):
        if not skipping and line.strip() == "#[cfg(test)]":
            skipping, depth, opened = True, 0, False
            continue
        if skipping:
            depth += line.count("{") - line.count("}")
            opened = opened or "{" in line
            if (opened and depth <= 0) or (not opened and line.rstrip().endswith(";")):
                skipping = False
            continue
        kept.append((n, line))
    return kept


def main():
    verbose = "-v" in sys.argv[1:]
    files = {}
    for path in tracked():
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        files[path] = without_test_modules(lines) if path.endswith(".rs") else list(enumerate(lines, 1))
    worst = 0
    for s in SERVICES:
        own = [s, *ALIASES.get(s, [])]
        word = re.compile(r"(?<![-\w])" + s + r"(?![-\w])", re.I)
        hits = []
        for path, lines in files.items():
            if any(o in path.lower() for o in own):
                continue
            hits += [(path, n, line.strip()) for n, line in lines if word.search(line)]
        worst = max(worst, len(hits))
        by_file = {}
        for path, _, _ in hits:
            by_file[path] = by_file.get(path, 0) + 1
        where = ", ".join(f"{p} {k}" for p, k in sorted(by_file.items(), key=lambda x: -x[1]))
        print(f"service_names_{s}: {len(hits)} lines" + (f" ({where})" if where else ""))
        if verbose:
            for path, n, line in hits:
                print(f"    {path}:{n}: {line[:110]}")
    print(f"service_names_worst: {worst} lines (target: at most 6 per service)")


if __name__ == "__main__":
    main()
