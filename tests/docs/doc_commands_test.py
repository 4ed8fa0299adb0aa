#!/usr/bin/env python3
"""Every command the user-facing docs show works on this build.

Usage: doc_commands_test.py L0SPV_FUZZ_BINARY SOURCE_DIR

Reads the fenced shell blocks of README.md, CONTRIBUTING.md and docs/*.md.
Each `l0spv-fuzz ...` line (spelled `$L`, `l0spv-fuzz` or
`build/<preset>/l0spv-fuzz`) is run with `--help` appended: the command
must exist and accept every flag and value shown (exit 0). A synopsis
line (`[--flag=N]`, `a|b`, upper-case placeholders) instead has every flag
it names found in the command's own `--help`. Lines whose
inputs all exist after mapping `build/<preset>/` to this build and `/tmp/`
to a scratch directory, and whose command is one of the local ones (run,
lint, generate, transform, check, targets, known-bugs without --check), are
then run for real and must not exit 2 (0 = fine, 1 = a finding or an
interesting case). Every `ci/...`, `bench/...` or `.ci/...` script named at
the start of a line must exist and be executable. The targets table of
docs/campaigns.md lists exactly the target kinds `l0spv-fuzz targets --json`
names (a kind added to the table in oracles/targets/target_kinds.cc and not
documented, or documented and gone, fails). Exit 0 when all hold, 1 with
file:line and the reason for each that does not.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

LOCAL = {"run", "lint", "generate", "transform", "check", "targets",
         "known-bugs"}
BINARY_WORD = re.compile(r"^(\$L|l0spv-fuzz|(\./)?build/[a-z0-9_-]+/l0spv-fuzz)$")


def blocks(path):
    """Yields (line_number, logical_line) of the fenced shell blocks."""
    inside, lang = False, ""
    pending, start = "", 0
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("```"):
                inside = not inside
                lang = line[3:].strip() if inside else ""
                continue
            if not inside or lang not in ("sh", "bash", "shell", ""):
                continue
            if line.startswith("#") and not line.startswith("#!"):
                continue  # output shown as a comment
            if not pending:
                start = number
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            yield start, pending + line
            pending = ""


def commands(logical):
    """Splits a shell line into simple commands (tokens), dropping comments,
    leading VAR=value words and `$ ` prompts."""
    try:
        tokens = shlex.split(logical, comments=True)
    except ValueError:
        return []
    out, cur = [], []
    for t in tokens + [";"]:
        if t in (";", "&&", "||", "|", "&"):
            if cur:
                out.append(cur)
            cur = []
            continue
        cur.append(t)
    cleaned = []
    for c in out:
        while c and (c[0] == "$" or re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", c[0])):
            c = c[1:]
        if c:
            cleaned.append(c)
    return cleaned


PLACEHOLDER_VALUE = re.compile(r"^[A-Z][A-Z0-9_]*([./,:+-][A-Z0-9_]*)*$")


def is_placeholder(arg):
    """A synopsis word: optional ([--x]), alternatives (a|b) or a value
    spelled as a placeholder (--seed=N, --out=DIR, CASE_DIR)."""
    if "[" in arg or "]" in arg or "|" in arg or "..." in arg:
        return True
    value = arg.split("=", 1)[1] if arg.startswith("--") and "=" in arg else None
    return value is not None and bool(PLACEHOLDER_VALUE.match(value))


HELP_CACHE = {}


def synopsis_problem(binary, env, sub, args):
    """Every --flag a synopsis names must be in the command's --help."""
    if sub not in HELP_CACHE:
        argv = [binary] + ([] if sub == "campaign" else [sub]) + ["--help"]
        if sub == "campaign":
            argv = [binary, "campaign", "--help"]
        r = subprocess.run(argv, env=env, capture_output=True, timeout=60)
        HELP_CACHE[sub] = (r.returncode,
                           (r.stdout + r.stderr).decode("utf-8", "replace"))
    code, text = HELP_CACHE[sub]
    if code != 0:
        return f"`l0spv-fuzz {sub} --help` exits {code}"
    missing = []
    for a in args:
        for name in re.findall(r"--([a-z][a-z0-9_-]*)", a):
            spelled = name.replace("-", "_")
            if ("--" + spelled) not in text and ("--" + name) not in text:
                missing.append("--" + name)
    if missing:
        return (f"`l0spv-fuzz {sub}` does not document "
                f"{', '.join(sorted(set(missing)))} in its --help")
    return None


def map_word(word, build_dir, scratch):
    word = re.sub(r"^(\./)?build/[a-z0-9_-]+/", build_dir + "/", word)
    word = re.sub(r"(=|^)build/[a-z0-9_-]+/", r"\1" + build_dir + "/", word)
    word = word.replace("$PWD/build/default/", build_dir + "/")
    if word.startswith("/tmp/"):
        word = scratch + word[4:]
    word = re.sub(r"=/tmp/", "=" + scratch + "/", word)
    return word


def target_table_problems(binary, root, env):
    """The kinds of docs/campaigns.md's targets table vs the binary's."""
    listed = subprocess.run([binary, "targets", "--json"], env=env,
                            capture_output=True, timeout=120)
    if listed.returncode != 0:
        return [f"`l0spv-fuzz targets --json` exits {listed.returncode}"]
    import json
    kinds = {re.split(r"[:@]", t["name"])[0]
             for t in json.loads(listed.stdout)}
    path = os.path.join(root, "docs", "campaigns.md")
    documented, in_table = {}, False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("## "):
                in_table = line.strip() == "## Targets"
            m = re.match(r"^\| `([a-z-]+)[^`]*` \|", line)
            if in_table and m:
                documented[m.group(1)] = number
    problems = [f"docs/campaigns.md: target kind `{k}` (l0spv-fuzz targets) "
                f"has no row in the targets table" for k in sorted(kinds)
                if k not in documented]
    problems += [f"docs/campaigns.md:{n}: target kind `{k}` is not a kind "
                 f"of this build" for k, n in sorted(documented.items())
                 if k not in kinds]
    return problems


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    build_dir = os.path.dirname(binary)
    docs = [os.path.join(root, n) for n in ("README.md", "CONTRIBUTING.md")]
    docs += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    failures, checked, ran = [], 0, 0
    scratch = tempfile.mkdtemp(prefix="l0spv-doc-commands-")
    env = dict(os.environ, TMPDIR=scratch)
    for doc in docs:
        if not os.path.isfile(doc):
            continue
        rel = os.path.relpath(doc, root)
        for number, logical in blocks(doc):
            for cmd in commands(logical):
                where = f"{rel}:{number}"
                head = cmd[0]
                if re.match(r"^(ci|bench|\.ci)/", head):
                    script = os.path.join(root, head)
                    if not (os.path.isfile(script) and os.access(script, os.X_OK)):
                        failures.append(f"{where}: {head} is not an executable script")
                    continue
                if not BINARY_WORD.match(head):
                    continue
                args = cmd[1:]
                if args and args[0].endswith(":"):
                    continue  # output shown after a prompt
                checked += 1
                first = args[0].strip("[]") if args else ""
                sub = first if first and not first.startswith("-") else "campaign"
                if any(is_placeholder(a) for a in args):
                    problem = synopsis_problem(binary, env, sub, args)
                    if problem:
                        failures.append(f"{where}: {problem}")
                    continue
                helped = subprocess.run([binary] + args + ["--help"], env=env,
                                        capture_output=True, timeout=60)
                if helped.returncode != 0:
                    failures.append(
                        f"{where}: `l0spv-fuzz {' '.join(args)} --help` exits "
                        f"{helped.returncode}: "
                        f"{helped.stderr.decode('utf-8', 'replace').strip()[:300]}")
                    continue
                if sub not in LOCAL or "--check" in args and sub == "known-bugs":
                    continue
                mapped = [map_word(a, build_dir, scratch) for a in args]
                inputs = [a for a in mapped[1:] if not a.startswith("-")]
                if any("<" in a or a.isupper() or a.startswith("FINDING")
                       for a in inputs):
                    continue
                outs = set()
                for a in mapped:
                    if a.startswith("--out=") or a.startswith("--dump="):
                        outs.add(a.split("=", 1)[1])
                if sub in ("run", "lint", "check", "transform") and not all(
                        os.path.exists(a) for a in inputs if a not in outs):
                    continue
                ran += 1
                real = subprocess.run([binary] + mapped, env=env, cwd=root,
                                      capture_output=True, timeout=300)
                if real.returncode not in (0, 1):
                    failures.append(
                        f"{where}: `l0spv-fuzz {' '.join(mapped)}` exits "
                        f"{real.returncode}: "
                        f"{real.stderr.decode('utf-8', 'replace').strip()[:300]}")
    failures += target_table_problems(binary, root, env)
    for f in failures:
        print(f)
    print(f"{checked} documented commands checked with --help, {ran} run, "
          f"{len(failures)} failing")
    if checked == 0:
        print("no documented l0spv-fuzz command found: the parser is broken",
              file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
