#!/usr/bin/env python3
"""Fails when a committed text file dates something by a round of work or
cites this project's tracker: the word "session" or "issue" followed by a
number (WORKLOG below). The tree says what is true now; history lives in
git. A reference to an outside project's tracker by its full name (the
project right before the number, as OUTSIDE lists: "SPIRV-Tools #NNNN",
"KhronosGroup/SPIRV-LLVM-Translator issue NNNN") is allowed.

Usage: worklog_wording_test.py SOURCE_DIR
Lists the files of a git checkout (git ls-files), else walks the tree
leaving out build directories. Exit 0 when clean, 1 with file:line: text
for every hit.
"""
import os
import re
import subprocess
import sys

WORKLOG = re.compile(
    r"\bsessions?[ -][0-9]+|\bsessions [0-9]+|\bissues?[ -][0-9]+", re.I)
# An outside project named right before the tracker reference.
OUTSIDE = re.compile(
    r"(SPIRV-Tools|SPIRV-LLVM-Translator|SPIRV-Headers|KhronosGroup/\S+|"
    r"pocl|oclgrind|intel-graphics-compiler|intel/\S+|llvm/\S+|LLVM|"
    r"abseil|googletest|OSS-Fuzz|oneapi-src/\S+)\W{0,3}\s*$", re.I)
SKIP_DIRS = {".git", "build", "third_party", "node_modules"}


def files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             capture_output=True, check=True).stdout
        names = [n for n in out.decode("utf-8", "replace").split("\0") if n]
        if names:
            return names
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for top, dirs, fs in os.walk(root):
        dirs[:] = [d for d in dirs
                   if d not in SKIP_DIRS and not d.startswith("build")]
        for f in fs:
            names.append(os.path.relpath(os.path.join(top, f), root))
    return names


def hits(root, name):
    path = os.path.join(root, name)
    try:
        with open(path, "rb") as f:
            data = f.read(4 << 20)
    except OSError:
        return []
    if b"\0" in data[:8192]:
        return []  # binary
    found = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(),
                                  1):
        for m in WORKLOG.finditer(line):
            if OUTSIDE.search(line[:m.start()]):
                continue
            found.append(f"{name}:{number}: {line.strip()[:160]}")
            break
    return found


def self_test():
    """The check can fail: work-log lines are caught, outside trackers and
    process sessions are not."""
    import tempfile
    cases = {
        "a.md": ("measured in sess" + "ion 13\n", 1),
        "b.cc": ("// the sess" + "ion-21 campaign\n", 1),
        "c.md": ("see iss" + "ue 22\n", 1),
        "d.md": ("SPIRV-Tools iss" + "ue 5938 and KhronosGroup/SPIRV-Tools#1\n",
                 0),
        "e.cc": ("// each consumer leads a session of its own (setsid)\n", 0),
    }
    ok = True
    for name, (text, want) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
            got = 1 if hits(d, name) else 0
            if got != want:
                print(f"self-test: {name!r} ({text.strip()!r}): expected "
                      f"{'a hit' if want else 'no hit'}")
                ok = False
    print("self-test passed" if ok else "self-test FAILED")
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: worklog_wording_test.py SOURCE_DIR", file=sys.stderr)
        return 2
    root = sys.argv[1]
    found = []
    for name in sorted(files(root)):
        found.extend(hits(root, name))
    for f in found:
        print(f)
    if found:
        print(f"{len(found)} line(s) date things by a round of work or cite "
              "the project's tracker: say what is true now (a command, a "
              "seed, a date), history lives in git", file=sys.stderr)
        return 1
    print("no work-log wording")
    return 0


if __name__ == "__main__":
    sys.exit(main())
