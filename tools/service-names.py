#!/usr/bin/env python3
"""tools/service-names.py — issue 37's measure of "one home per lock service": for each field service,
the lines that name it outside its own files, across crate/ (src, model/src, build.rs),
conformance/src and www's modules. Not counted, as the issue says: tests (files under a tests/ folder
and a Rust file's `#[cfg(test)]` modules), scenarios, docs, the dictionaries (www/i18n.js and
www/i18n/) and lessons.js. A file whose path names the service (or its client library's or short
name: zk, curator, k8s, dynamo) is its own home. A client library's home (issue 44:
crate/model/src/libraries/NAME.rs, its facts, and crate/src/libraries/NAME.rs, its engine half) is a
home of the one service it speaks too, the service its facts' `const SPEAKS: ServiceKind =
ServiceKind::KIND;` names: that line is the library's home saying which service it is a client of,
not a service's knowledge leaking out; a library's home naming any other service still counts, and
so does a name in the libraries' shared files (their mod.rs). A line names a service when the name
stands as a word, not joined by a hyphen or an underscore (`etcd-granted`, `EtcdToken` are not
counted).

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
# A library's facts say which service it speaks (crate/model/src/libraries/mod.rs, `LibraryFormat`).
LIBRARY_FACTS = "crate/model/src/libraries/"
SPEAKS = re.compile(r"^\s*const SPEAKS: ServiceKind = ServiceKind::(\w+);")


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


def library_name(path):
    """The library whose home `path` is (`kazoo` for crate/src/libraries/kazoo.rs), or None: the
    libraries' shared files (mod.rs, and the engine's asked.rs, which has no facts) are no library's."""
    m = re.search(r"(?:^|/)libraries/(\w+)\.rs$", path)
    return m.group(1) if m and m.group(1) != "mod" else None


def speaks(files):
    """{library: the service it speaks, lower case}, read from each library's facts' SPEAKS line."""
    out = {}
    for path, lines in files.items():
        name = library_name(path)
        if not name or not path.startswith(LIBRARY_FACTS):
            continue
        for _, line in lines:
            m = SPEAKS.match(line)
            if m:
                out[name] = m.group(1).lower()
    return out


def is_home(path, service, spoken):
    """Whether `path` is a home of `service`: its path names it (or an alias), or it is the home of a
    client library that speaks it."""
    if any(o in path.lower() for o in [service, *ALIASES.get(service, [])]):
        return True
    return spoken.get(library_name(path)) == service


def main():
    verbose = "-v" in sys.argv[1:]
    files = {}
    for path in tracked():
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        files[path] = without_test_modules(lines) if path.endswith(".rs") else list(enumerate(lines, 1))
    spoken = speaks(files)
    worst = 0
    for s in SERVICES:
        word = re.compile(r"(?<![-\w])" + s + r"(?![-\w])", re.I)
        hits = []
        for path, lines in files.items():
            if is_home(path, s, spoken):
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
