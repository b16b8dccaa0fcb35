#!/usr/bin/env python3
"""tools/doc-examples.py [--update] [--build DIR] FILE.md...: the examples of the docs are what
nstats prints.

Each ```console block holds commands, on lines that start with "$ ", each followed by what it
prints on stdout (less its last empty lines); a line "..." stands for any number of lines. The commands run from the
repository root under bash, with LC_ALL=C, with "build/" at the start of a word read as DIR
(default build), so that a build elsewhere checks the same text, and with "/tmp/" read as a
folder of this run's own, so that two runs at once do not share files. A block whose commands name
../shared, when that folder is absent, is skipped with a note. --update writes what each command
printed into blocks that have no "...". Exit status 0 when every example holds, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def blocks(lines):
    """(start, end) line indexes of each ```console block's body."""
    start = None
    for i, line in enumerate(lines):
        if start is None and line.strip() == "```console":
            start = i + 1
        elif start is not None and line.strip() == "```":
            yield start, i
            start = None


def examples(body):
    """(command, expected lines) of each "$ " line of a block."""
    out = []
    for line in body:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    for _, want in out:
        while want and want[-1] == "":
            want.pop()
    return out


def run(command, build, tmp):
    command = re.sub(r"(^|[\s=(])build/", lambda m: m.group(1) + build + "/", command)
    command = command.replace("/tmp/", tmp + "/")
    env = dict(os.environ, LC_ALL="C")
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, timeout=300)
    got = done.stdout.decode("utf-8", "replace").split("\n")
    while got and got[-1] == "":
        got.pop()
    return got


def matches(want, got):
    """Whether got is want, where a "..." line of want stands for any lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(matches(want[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and want[0] == got[0] and matches(want[1:], got[1:])


def check_file(path, build, update, tmp):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    failed = 0
    shared = os.path.isdir(os.path.join(ROOT, "..", "shared"))
    for start, end in reversed(list(blocks(lines))):
        cases = examples(lines[start:end])
        if not shared and any("../shared" in c for c, _ in cases):
            print(f"doc-examples: note: {path}:{start}: no ../shared, not run")
            continue
        fresh = []
        for command, want in cases:
            got = [line.replace(tmp + "/", "/tmp/") for line in run(command, build, tmp)]
            fresh += ["$ " + command] + got
            if not matches(want, got) and not (update and "..." not in want):
                failed += 1
                print(f"FAIL {path}:{start}: $ {command}")
                for line in got[:40]:
                    print("  | " + line)
        if update and all("..." not in want for _, want in cases):
            lines[start:end] = fresh
    if update:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    return failed


def main(argv):
    update = "--update" in argv
    argv = [a for a in argv if a != "--update"]
    build = "build"
    if argv[:1] == ["--build"]:
        build, argv = argv[1], argv[2:]
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="nstats-doc-") as tmp:
        failed = sum(check_file(p, build, update, tmp) for p in argv)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
