#!/usr/bin/env python3
"""Malformed-input battery for l0spv-fuzz (Python 3 standard library only).

Every command that reads a file or a flag must answer bad input with exit 2
and a message naming the file or the flag — never a signal, an uncaught
exception, a sanitizer report, a hang or another exit code.

The battery
  1. makes valid inputs with the binary itself (a generated case, a
     transformed case and its transformation log, a 3-case campaign with its
     state/stats/campaign.json, a corpus module + sidecar, a finding);
  2. derives malformed variants: for every JSON field of every document kind
     (recursively, array elements and nested objects included) type swaps,
     deletion, huge numbers, empty strings, unknown enumerants; plus a table
     of hand cases (truncated/empty/non-JSON files, directories, FIFOs,
     /dev/zero, huge or nonsensical flag values, overflowing offsets, merge
     and campaign-directory misuse, ...);
  3. runs each with a timeout and classifies the outcome.

Outcome classes: crash (signal, rc 134/139, 'terminate called',
sanitizer report), hang (timeout), wrong-rc (exit code outside the expected
set), bad-msg (exit 2 but stderr names neither the file nor the flag).

Expected exit codes: hand cases and type swaps of typed fields (and unknown
enumerants, negative/overflowing integers) REQUIRE 2; mutations whose
validity the battery cannot decide (deleting a key that may be optional,
values that may be in range, free-text fields) accept 0, 1 or 2.

Usage:
  battery.py --binary=build/default/l0spv-fuzz [--full] [--only=REGEX]
             [--list] [--jobs=N] [--timeout=S] [--timeout-scale=F]
             [--work=DIR] [--keep] [--verbose]
Without --full the mutations are sampled deterministically (--seed) to keep
a CTest run short; hand cases always run. L0SPV_HOSTILE_TIMEOUT_SCALE (env)
multiplies every timeout (4 under sanitizers). Exit 0 when every run
passes, 1 when any fails, 2 when the battery cannot set itself up.
"""

import argparse
import concurrent.futures
import copy
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

ANY = (0, 1, 2)
TWO = (2,)

# ---------------------------------------------------------------------------
# Document kinds: how each is consumed, which keys are free text or unread
# (type swaps there accept any exit code), which keys are enumerations.

DOC_KINDS = {
    # case.json of a generated case directory
    "case": {
        "file": "case.json",
        "free": {"reason", "notes"},
        # a buffer's "type" is a description ("u32 results")
        "free_paths": [r"^args\[\d+\]\.type$"],
        "enum": {"format", "profile", "kind"},
        "enum_paths": [r"^tolerances\[\d+\]\.type$"],
        "signed": set(),
        "float": {"ulp", "relative", "absolute"},
        "cap": 600,
    },
    # a corpus sidecar (run FILE.spv --sidecar=)
    "sidecar": {
        "file": "sidecar.json",
        # corpus extensions read by the tests, not by `run`
        "free": {"notes", "printf", "exact", "tolerance"},
        "enum": {"kind", "init", "type"},
        "enum_paths": [],
        "signed": set(),
        "float": set(),
        "cap": 300,
    },
    # a transformation log (replay CASE LOG.json)
    "log": {
        "file": "log.json",
        "free": {"reason", "notes"},
        "enum": {"format", "kind"},
        "enum_paths": [],
        "signed": set(),
        "float": set(),
        "cap": 600,
    },
    # state/job-0.json of a campaign (resume)
    "state": {
        "file": "job-0.json",
        "free": set(),
        "enum": set(),
        "enum_paths": [],
        "signed": set(),
        "float": set(),
        "cap": 80,
    },
    # stats.json of a campaign (merge)
    "stats": {
        "file": "stats.json",
        "free": {"merged_from", "unique_findings", "seed", "format"},
        "enum": set(),
        "enum_paths": [],
        "signed": set(),
        "float": set(),
        "cap": 120,
    },
    # campaign.json (resume)
    "campaign": {
        "file": "campaign.json",
        "free": set(),
        "enum": {"format", "profile"},
        "enum_paths": [],
        "signed": set(),
        "float": set(),
        "cap": 40,
    },
    # a finding's verdict.json (reduce)
    "verdict": {
        "file": "verdict.json",
        "free": {"explanation", "reproduce"},
        "enum": {"kind", "target"},
        "enum_paths": [],
        "signed": set(),
        "float": set(),
        "cap": 60,
    },
}

SWAP_VALUES = {
    "string": "hostile",
    "number": 7,
    "bool": True,
    "null": None,
    "array": [1, "x"],
    "object": {"hostile": 1},
}
UNKNOWN_ENUM = "hostile-unknown-enumerant"
CASE_MSG = ["case.json", "case:", "case/"]


def jtype(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def walk(doc, path=()):
    """Yields (path, value) for every value below the root."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield path + (k,), v
            yield from walk(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield path + (i,), v
            yield from walk(v, path + (i,))


def path_str(path):
    out = ""
    for p in path:
        out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + p
    return out or "<root>"


def last_key(path):
    for p in reversed(path):
        if not isinstance(p, int):
            return p
    return ""


def set_at(doc, path, value, delete=False):
    doc = copy.deepcopy(doc)
    node = doc
    for p in path[:-1]:
        node = node[p]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


def mutations(kind, doc):
    """Yields (label, mutated_doc, expected_rcs)."""
    spec = DOC_KINDS[kind]
    for path, value in walk(doc):
        ps = path_str(path)
        key = last_key(path)
        free = key in spec["free"] or any(
            k in spec["free"] for k in path if not isinstance(k, int)) or any(
            re.search(r, ps) for r in spec.get("free_paths", []))
        t = jtype(value)
        # type swaps
        for nt, nv in SWAP_VALUES.items():
            if nt == t:
                continue
            # null reads like an absent key — except as an array element
            strict = not free and (nt != "null" or isinstance(path[-1], int))
            yield ("swap-%s-to-%s@%s" % (t, nt, ps), set_at(doc, path, nv),
                   TWO if strict else ANY)
        # deletion (the key may be optional)
        yield "delete@" + ps, set_at(doc, path, None, delete=True), ANY
        if t == "number":
            is_int = isinstance(value, int)
            flt = key in spec["float"] or not is_int
            for name, nv in (("u64max", 2 ** 64 - 1), ("2^64", 2 ** 64),
                             ("1e300", 1e300), ("-1", -1),
                             ("2^32+x", 4294967296 + int(value))):
                strict = False
                if is_int and not flt and not free:
                    if name in ("2^64", "1e300"):
                        strict = True
                    if name == "-1" and key not in spec["signed"]:
                        strict = True
                yield ("num-%s@%s" % (name, ps), set_at(doc, path, nv),
                       TWO if strict else ANY)
        if t == "string":
            yield "empty-string@" + ps, set_at(doc, path, ""), ANY
            is_enum = (key in spec["enum"] and not isinstance(path[-1], int)
                       ) or any(re.search(r, ps) for r in spec["enum_paths"])
            if is_enum and not free:
                yield ("unknown-enum@" + ps,
                       set_at(doc, path, UNKNOWN_ENUM), TWO)
    # the whole document
    for nt, nv in SWAP_VALUES.items():
        if nt != jtype(doc):
            yield "root-%s" % nt, nv, TWO


# ---------------------------------------------------------------------------
# Runs


class Run:
    def __init__(self, name, argv, expect, msg=None, setup=None,
                 timeout=20, runner=None, cwd=None, note=""):
        self.name = name            # unique, class prefix before the first ':'
        self.argv = argv            # list; "{B}" = binary, "{D}" = run dir
        self.expect = tuple(expect)
        self.msg = msg or []        # any-of fragments required on stderr if rc 2
        self.setup = setup          # callable(run_dir)
        self.timeout = timeout
        self.runner = runner        # callable(run, ctx) -> result, optional
        self.note = note

    @property
    def cls(self):
        return self.name.split(":", 1)[0]


class Result:
    def __init__(self, rc, out, err, timed_out, seconds, cmd):
        self.rc, self.out, self.err = rc, out, err
        self.timed_out, self.seconds, self.cmd = timed_out, seconds, cmd


CRASH_MARKERS = ("terminate called", "AddressSanitizer", "runtime error:",
                 "LeakSanitizer", "UndefinedBehaviorSanitizer",
                 "ThreadSanitizer", "Segmentation fault", "std::bad_alloc",
                 "Assertion `", "core dumped")
# A caught exception's text passed on as the message: not a crash, but not
# the clear error (file, field, what to do) either.
LEAK_MARKERS = ("[json.exception", "nlohmann::", "basic_string::",
                "std::exception", "what():", "vector::_M_")


def run_process(argv, timeout, cwd=None, env=None):
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             cwd=cwd, env=env, start_new_session=True)
        timed_out = False
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        # the whole process group: workers and campaign jobs too
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        p.wait()
        out.seek(0)
        err.seek(0)
        o = out.read(1 << 20).decode("utf-8", "replace")
        e = err.read(1 << 20).decode("utf-8", "replace")
    return Result(p.returncode, o, e, timed_out, time.monotonic() - start,
                  " ".join(shlex_quote(a) for a in argv))


def shlex_quote(s):
    if re.fullmatch(r"[\w@%+=:,./-]+", s):
        return s
    return "'" + s.replace("'", "'\"'\"'") + "'"


def classify(run, res):
    """Returns (failure class or None, detail)."""
    if res.timed_out:
        return "hang", "no exit after %.0f s" % res.seconds
    if res.rc < 0:
        return "crash", "killed by signal %d" % -res.rc
    if res.rc in (134, 139):
        return "crash", "rc %d" % res.rc
    for m in CRASH_MARKERS:
        if m in res.err:
            return "crash", "stderr holds %r" % m
    if res.rc not in run.expect:
        return "wrong-rc", "rc %d, expected %s" % (
            res.rc, "/".join(map(str, run.expect)))
    if res.rc == 2 and run.msg and not any(f in res.err for f in run.msg):
        return "bad-msg", "stderr names none of %s" % run.msg
    for m in LEAK_MARKERS:
        if m in res.err:
            return "bad-msg", "stderr passes on exception text %r" % m
    return None, ""


def first_line(text):
    """The error line: the first one the command prefixes with its name
    (progress lines come before it), else the first line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for line in lines:
        if line.startswith("l0spv-fuzz"):
            return line[:300]
    return lines[0][:300] if lines else "(empty)"


# ---------------------------------------------------------------------------
# The battery


class Battery:
    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.scale = args.timeout_scale
        self.work = args.work
        self.base = os.path.join(self.work, "base")
        self.runs_dir = os.path.join(self.work, "runs")
        self.runs = []
        self.lock = threading.Lock()

    # -- setup -------------------------------------------------------------

    def sh(self, argv, timeout=120, ok=(0,), what=""):
        res = run_process([self.binary] + argv, timeout * self.scale,
                          cwd=self.base)
        if res.rc not in ok or res.timed_out:
            raise SetupError("%s: `%s` gave rc %s%s\n%s" % (
                what or argv[0], res.cmd, res.rc,
                " (timeout)" if res.timed_out else "", res.err[-2000:]))
        return res

    def setup(self):
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        os.makedirs(self.base)
        os.makedirs(self.runs_dir)
        b = self.base
        self.sh(["generate", "--seed=1", "--out=case"], what="generate")
        self.sh(["transform", "case", "--out=tcase", "--seed=3"],
                what="transform")
        tcase = load_json(os.path.join(b, "tcase", "case.json"))
        if "transformation_log" not in tcase:
            raise SetupError("tcase/case.json has no transformation_log")
        dump_json(os.path.join(b, "log.json"), tcase["transformation_log"])
        self.sh(["--target=ref", "--iterations=3", "--jobs=1", "--out=camp",
                 "--no_reduce"], ok=(0, 1), timeout=300, what="campaign")
        for f in ("state/job-0.json", "stats.json", "campaign.json"):
            if not os.path.isfile(os.path.join(b, "camp", f)):
                raise SetupError("the campaign wrote no camp/" + f)
        # corpus module + sidecar
        spv = os.path.join(self.args.build_dir, "corpora", "vector_add.spv")
        side = os.path.join(self.args.source_dir, "corpora", "opencl",
                            "vector_add.json")
        if not os.path.isfile(spv) or not os.path.isfile(side):
            raise SetupError("no corpus module/sidecar: %s %s" % (spv, side))
        shutil.copy(spv, os.path.join(b, "vector_add.spv"))
        shutil.copy(side, os.path.join(b, "sidecar.json"))
        self.sh(["run", "vector_add.spv", "--sidecar=sidecar.json",
                 "--target=ref"], what="run corpus")
        # a finding that reproduces: the generated case with its first
        # buffer cut to 4 bytes stores out of bounds (ub on ref); `check
        # --save_finding` records it as a campaign would. A copy goes into
        # the campaign's findings so that merge has one to copy.
        ub = os.path.join(b, "ubcase")
        shutil.copytree(os.path.join(b, "case"), ub)
        j = load_json(os.path.join(ub, "case.json"))
        first = self.first_buffer_arg(j)
        if not first:
            raise SetupError("the generated case has no buffer argument")
        first["bytes"] = 4
        p = os.path.join(ub, first.get("file", "arg0.bin"))
        with open(p, "rb") as f:
            data = f.read()[:4]
        write_bytes(p, data)
        dump_json(os.path.join(ub, "case.json"), j)
        self.sh(["check", "ubcase", "--target=ref", "--save_finding=ubf"],
                ok=(1,), what="check --save_finding")
        found = [f for f in sorted(os.listdir(os.path.join(b, "ubf",
                                                           "findings")))
                 if not f.startswith(".")]
        if not found:
            raise SetupError("check --save_finding recorded no finding")
        finding = os.path.join(b, "finding")
        shutil.copytree(os.path.join(b, "ubf", "findings", found[0]), finding)
        shutil.copytree(finding, os.path.join(b, "camp", "findings", found[0]))
        self.docs = {
            "case": load_json(os.path.join(b, "case", "case.json")),
            "sidecar": load_json(os.path.join(b, "sidecar.json")),
            "log": load_json(os.path.join(b, "log.json")),
            "state": load_json(os.path.join(b, "camp", "state", "job-0.json")),
            "stats": load_json(os.path.join(b, "camp", "stats.json")),
            "campaign": load_json(os.path.join(b, "camp", "campaign.json")),
            "verdict": load_json(os.path.join(finding, "verdict.json")),
        }
        os.mkfifo(os.path.join(b, "fifo"))

    # -- helpers for run setups -------------------------------------------

    def copy_base(self, name, d, dest=None):
        shutil.copytree(os.path.join(self.base, name),
                        os.path.join(d, dest or name), symlinks=True)

    def T(self, seconds):
        return seconds * self.scale

    # -- mutation runs ----------------------------------------------------

    def consumers(self, kind):
        """(label, argv, setup(d, text), where the doc goes) per consumer."""
        B = "{B}"
        if kind == "case":
            def put(d, text):
                self.copy_base("case", d)
                write(os.path.join(d, "case", "case.json"), text)
            return [
                # a cross-file problem may be named by the case directory;
                # a log that no longer applies (args deleted) by the log
                ("run", [B, "run", "case", "--target=ref", "--timeout=10"],
                 put, CASE_MSG),
                ("check", [B, "check", "case", "--target=ref", "--timeout=10"],
                 put, CASE_MSG),
                ("transform", [B, "transform", "case", "--out=t", "--seed=3"],
                 put, CASE_MSG),
                ("replay", [B, "replay", "case", "{BASE}/log.json",
                            "--out=r"], put, CASE_MSG + ["log.json"]),
            ]
        if kind == "sidecar":
            def put(d, text):
                write(os.path.join(d, "sidecar.json"), text)
            return [
                ("run", [B, "run", "{BASE}/vector_add.spv",
                         "--sidecar=sidecar.json", "--target=ref",
                         "--timeout=10"], put),
                ("transform", [B, "transform", "{BASE}/vector_add.spv",
                               "--sidecar=sidecar.json", "--out=t",
                               "--seed=3"], put),
            ]
        if kind == "log":
            def put_file(d, text):
                write(os.path.join(d, "log.json"), text)

            def put_case(d, text):
                self.copy_base("tcase", d)
                p = os.path.join(d, "tcase", "case.json")
                j = load_json(p)
                try:
                    j["transformation_log"] = json.loads(text)
                except ValueError:
                    return
                dump_json(p, j)
            return [
                ("replay", [B, "replay", "{BASE}/case", "log.json",
                            "--out=r"], put_file),
                ("replay-case", [B, "replay", "{BASE}/case", "tcase",
                                 "--out=r"], put_case, ["case.json", "tcase"]),
            ]
        if kind in ("state", "campaign"):
            rel = {"state": "state/job-0.json", "campaign": "campaign.json"}
            def put(d, text, rel=rel[kind]):
                self.copy_base("camp", d)
                write(os.path.join(d, "camp", rel), text)
            # a campaign.json that does not match the flags is named by its
            # --out directory and key
            msg = {"state": ["job-0.json"],
                   "campaign": ["campaign.json", "camp"]}[kind]
            return [("resume", [B, "--target=ref", "--iterations=3",
                                "--jobs=1", "--out=camp", "--no_reduce"],
                     put, msg)]
        if kind == "stats":
            def put(d, text):
                self.copy_base("camp", d)
                write(os.path.join(d, "camp", "stats.json"), text)
            return [("merge", [B, "merge", "--out=m", "camp"], put)]
        if kind == "verdict":
            def put(d, text):
                self.copy_base("finding", d)
                write(os.path.join(d, "finding", "verdict.json"), text)
            return [("reduce", [B, "reduce", "finding", "--reduce_time=5s",
                                "--timeout=10"], put)]
        raise KeyError(kind)

    def mutation_runs(self):
        rng = random.Random(self.args.seed)
        out = []
        for kind in DOC_KINDS:
            muts = list(mutations(kind, self.docs[kind]))
            cons = self.consumers(kind)
            timeout = 40 if kind in ("state", "campaign", "verdict") else 20
            # the unmutated document must work with every consumer
            text = json.dumps(self.docs[kind], indent=2)
            for c in cons:
                out.append(Run("baseline:%s:%s" % (kind, c[0]), c[1], (0, 1),
                               setup=(lambda d, put=c[2], text=text:
                                      put(d, text)), timeout=timeout))
            items = []
            for i, (label, doc, expect) in enumerate(muts):
                text = json.dumps(doc, indent=2) if not isinstance(
                    doc, float) else repr(doc)
                chosen = cons if self.args.full else [cons[i % len(cons)]]
                for c in chosen:
                    cname, argv, put = c[:3]
                    msg = c[3] if len(c) > 3 else [DOC_KINDS[kind]["file"]]
                    items.append((label, cname, argv, put, text, expect, msg))
            if not self.args.full:
                # deterministic sample: every strict mutation kind is likely
                # to be represented; the cap keeps CTest short
                cap = DOC_KINDS[kind]["cap"]
                if len(items) > cap:
                    items = rng.sample(items, cap)
            for label, cname, argv, put, text, expect, msg in items:
                name = "mut.%s:%s:%s" % (kind, cname, label)
                out.append(Run(
                    name, argv, expect, msg=msg,
                    setup=(lambda d, put=put, text=text: put(d, text)),
                    timeout=timeout))
        return out

    # -- hand cases ----------------------------------------------------------

    def hand_runs(self):
        B = "{B}"
        BASE = "{BASE}"
        R = []

        def add(name, argv, msg, setup=None, expect=TWO, timeout=20, **kw):
            R.append(Run("hand:" + name, argv, expect, msg=msg, setup=setup,
                         timeout=timeout, **kw))

        def case_with(fn):
            def s(d):
                self.copy_base("case", d)
                fn(os.path.join(d, "case"))
            return s

        def edit_case(fn):
            def s(d):
                self.copy_base("case", d)
                p = os.path.join(d, "case", "case.json")
                j = load_json(p)
                fn(j)
                dump_json(p, j)
            return s

        def truncate(path, n=None):
            with open(path, "rb") as f:
                data = f.read()
            with open(path, "wb") as f:
                f.write(data[:len(data) // 2 if n is None else n])

        def replace_with_dir(path):
            os.remove(path)
            os.makedirs(path)

        def replace_with_fifo(path):
            os.remove(path)
            os.mkfifo(path)

        def replace_with_devzero(path):
            os.remove(path)
            os.symlink("/dev/zero", path)

        run_case = [B, "run", "case", "--target=ref", "--timeout=10"]
        cj = ["case.json"]
        # --- case.json as a file
        add("case.json-truncated", run_case, cj,
            case_with(lambda c: truncate(c + "/case.json")))
        add("case.json-empty", run_case, cj,
            case_with(lambda c: write(c + "/case.json", "")))
        add("case.json-not-json", run_case, cj,
            case_with(lambda c: write(c + "/case.json", "not json at all\n")))
        add("case.json-binary-garbage", run_case, cj,
            case_with(lambda c: write_bytes(c + "/case.json",
                                            bytes(range(256)) * 4)))
        add("case.json-nul-inside", run_case, cj,
            case_with(lambda c: write_bytes(
                c + "/case.json", open(c + "/case.json", "rb").read()[:20] +
                b"\0" + open(c + "/case.json", "rb").read()[20:])))
        add("case.json-deeply-nested", run_case, cj,
            case_with(lambda c: write(c + "/case.json",
                                      "[" * 100000 + "]" * 100000)))
        add("case.json-is-directory", run_case, cj,
            case_with(lambda c: replace_with_dir(c + "/case.json")))
        add("case.json-missing", run_case, ["case"],
            case_with(lambda c: os.remove(c + "/case.json")))
        add("case.json-fifo", run_case, cj,
            case_with(lambda c: replace_with_fifo(c + "/case.json")))
        add("case.json-dev-zero", run_case, cj,
            case_with(lambda c: replace_with_devzero(c + "/case.json")),
            timeout=40)
        add("case.json-duplicate-keys", run_case, cj + ["entry_point"],
            case_with(lambda c: write(c + "/case.json", open(
                c + "/case.json").read().replace(
                    '{', '{"entry_point": 5, ', 1))), expect=ANY)
        # --- module.spv / argN.bin of a case
        ms = ["module.spv"]
        add("module.spv-missing", run_case, ms,
            case_with(lambda c: os.remove(c + "/module.spv")))
        add("module.spv-empty", run_case, ms,
            case_with(lambda c: write(c + "/module.spv", "")))
        add("module.spv-truncated-7-bytes", run_case, ms,
            case_with(lambda c: truncate(c + "/module.spv", 7)))
        add("module.spv-truncated-half", run_case, ms,
            case_with(lambda c: truncate(c + "/module.spv")))
        add("module.spv-is-directory", run_case, ms,
            case_with(lambda c: replace_with_dir(c + "/module.spv")))
        add("module.spv-fifo", run_case, ms,
            case_with(lambda c: replace_with_fifo(c + "/module.spv")))
        add("module.spv-dev-zero", run_case, ms,
            case_with(lambda c: replace_with_devzero(c + "/module.spv")),
            timeout=40)
        add("module.spv-text", run_case, ms,
            case_with(lambda c: write(c + "/module.spv", "; SPIR-V\n" * 50)))
        add("module.spv-bound-huge", run_case, ms,
            case_with(lambda c: patch_word(c + "/module.spv", 3, 0xFFFFFFFF)),
            expect=ANY)
        add("module.spv-wordcount-zero", run_case, ms,
            case_with(lambda c: patch_word(c + "/module.spv", 5, 0)))
        add("module.spv-wordcount-huge", run_case, ms,
            case_with(lambda c: patch_word(c + "/module.spv", 5, 0xFFFF0011)))
        buf = self.first_buffer_file()
        if buf:
            bf = [buf]
            add("argN.bin-missing", run_case, bf,
                case_with(lambda c: os.remove(os.path.join(c, buf))))
            add("argN.bin-is-directory", run_case, bf,
                case_with(lambda c: replace_with_dir(os.path.join(c, buf))))
            add("argN.bin-fifo", run_case, bf,
                case_with(lambda c: replace_with_fifo(os.path.join(c, buf))))
            add("argN.bin-dev-zero", run_case, bf,
                case_with(lambda c: replace_with_devzero(os.path.join(c, buf))),
                timeout=60)
            add("argN.bin-truncated", run_case, bf + cj,
                case_with(lambda c: truncate(os.path.join(c, buf), 3)))
        add("args-file-escapes-case-dir", run_case, cj + ["file"],
            edit_case(lambda j: self.first_buffer_arg(j).update(
                {"file": "../../../../etc/passwd"})))
        add("args-file-absolute", run_case, cj + ["file"],
            edit_case(lambda j: self.first_buffer_arg(j).update(
                {"file": "/etc/passwd"})))
        add("global-zero", run_case, cj + ["global"],
            edit_case(lambda j: j.update({"global": [0]})))
        add("global-four-dims", run_case, cj + ["global"],
            edit_case(lambda j: j.update({"global": [1, 1, 1, 1]})))
        add("global-huge-product", run_case, cj + ["global"],
            edit_case(lambda j: j.update({"global": [4294967295, 4294967295,
                                                     4294967295]})))
        add("local-does-not-match-dims", run_case, cj + ["local"],
            edit_case(lambda j: j.update({"global": [64], "local": [8, 8]})))
        add("offset-overflow-in-case", run_case, cj + ["offset"],
            edit_case(lambda j: j.update({"offset": [2 ** 64 - 1] +
                                          [0] * (len(j["global"]) - 1)})))
        add("args-4096-entries", run_case, cj + ["args"],
            edit_case(lambda j: j.update({"args": [{"kind": "local",
                                                    "bytes": 4}] * 5000})))
        # --- check on unrunnable cases
        chk = [B, "check", "case", "--target=ref", "--timeout=10"]
        add("check-missing-kernel", chk, cj + ["case", "no_such_kernel"],
            edit_case(lambda j: j.update({"entry_point": "no_such_kernel"})))
        add("check-arg-count-fewer", chk, cj + ["case", "arg"],
            edit_case(lambda j: j.update({"args": j["args"][:-1]})))
        add("check-arg-count-more", chk, cj + ["case", "arg"],
            edit_case(lambda j: j.update({"args": j["args"] + [
                {"kind": "local", "bytes": 16}]})))
        add("check-scalar-for-buffer", chk, cj + ["case", "arg"],
            edit_case(lambda j: self.first_buffer_arg(j).clear() or
                      self.first_buffer_arg_or_first(j).update(
                          {"kind": "scalar", "type": "u32",
                           "bytes_hex": "01000000"})))
        add("run-missing-kernel", run_case, cj + ["case", "no_such_kernel"],
            edit_case(lambda j: j.update({"entry_point": "no_such_kernel"})))
        add("run-arg-count-fewer", run_case, cj + ["case", "arg"],
            edit_case(lambda j: j.update({"args": j["args"][:-1]})))
        # --- the case path itself
        add("case-dir-missing", [B, "run", "nonexistent", "--target=ref"],
            ["nonexistent"])
        add("case-dir-is-file", [B, "run", "{BASE}/log.json", "--target=ref"],
            ["log.json"])
        add("case-dir-empty", [B, "run", "e", "--target=ref"], ["e"],
            lambda d: os.makedirs(os.path.join(d, "e")))
        # --- lint
        add("lint-dev-zero", [B, "lint", "/dev/zero"], ["/dev/zero"],
            timeout=40)
        add("lint-fifo", [B, "lint", "{BASE}/fifo"], ["fifo"])
        add("lint-empty-file", [B, "lint", "empty.spv"], ["empty.spv"],
            lambda d: write(os.path.join(d, "empty.spv"), ""))
        add("lint-text-file", [B, "lint", "{BASE}/log.json"], ["log.json"])
        add("lint-truncated", [B, "lint", "t.spv"], ["t.spv"],
            lambda d: (shutil.copy(self.base + "/vector_add.spv", d + "/t.spv"),
                       truncate(d + "/t.spv")))
        add("lint-missing", [B, "lint", "nonexistent.spv"], ["nonexistent.spv"])
        add("lint-profile-unknown", [B, "lint", "{BASE}/vector_add.spv",
                                     "--profile=hostile"], ["--profile",
                                                            "hostile"])
        add("lint-dir-with-fifo", [B, "lint", "dir"], ["x.spv", "dir"],
            lambda d: (os.makedirs(d + "/dir"), os.mkfifo(d + "/dir/x.spv")))
        # --- run FILE.spv
        spv = "{BASE}/vector_add.spv"
        va = [B, "run", spv, "--kernel=vector_add", "--global=1024",
              "--local=64", "--target=ref", "--timeout=10"]
        va_args = ["--arg=buf:4096", "--arg=buf:4096", "--arg=buf:4096",
                   "--arg=u32:1024"]
        add("run-dev-zero-module", [B, "run", "/dev/zero", "--kernel=k",
                                    "--global=1", "--target=ref"],
            ["/dev/zero"], timeout=40)
        add("run-fifo-module", [B, "run", "{BASE}/fifo", "--kernel=k",
                                "--global=1", "--target=ref"], ["fifo"])
        add("run-arg-buf-dev-zero", va + ["--arg=buf:@/dev/zero"] +
            va_args[1:], ["/dev/zero"], timeout=90)
        add("run-arg-buf-fifo", va + ["--arg=buf:@{BASE}/fifo"] + va_args[1:],
            ["fifo"])
        add("run-arg-buf-missing", va + ["--arg=buf:@nonexistent.bin"] +
            va_args[1:], ["nonexistent.bin"])
        add("run-arg-buf-dir", va + ["--arg=buf:@{BASE}"] + va_args[1:],
            ["--arg", "base"])
        add("run-arg-buf-zero", va + ["--arg=buf:0"] + va_args[1:],
            ["--arg"])
        add("run-arg-buf-huge", va + ["--arg=buf:40000000000"] + va_args[1:],
            ["--arg"])
        # --- image and sampler arguments (case.json, --arg)
        def image_arg(**image):
            desc = {"dim": "2d", "order": "RGBA", "type": "UnormInt8",
                    "width": 2, "height": 2}
            desc.update(image)
            return {"kind": "image", "file": "arg0.bin", "image": desc}

        def put_first_arg(arg):
            return edit_case(lambda j: j["args"].__setitem__(0, arg))
        for name, image, field in [
                ("width-negative", {"width": -1}, "image.width"),
                ("width-zero", {"width": 0}, "image.width"),
                ("type-number", {"type": 14}, "image.type"),
                ("order-unknown", {"order": "RGBZ"}, "image.order"),
                ("order-type-undefined", {"order": "BGRA", "type": "Float"},
                 "image.type"),
                ("depth-on-2d", {"depth": 2}, "image.depth"),
                ("dim-unknown", {"dim": "4d"}, "image.dim"),
                ("access-unknown", {"access": "sideways"}, "image.access"),
                ("huge", {"width": 16384, "height": 16384, "type": "Float"},
                 "image.width")]:
            add("case-image-" + name, run_case, cj + ["args[0]", field],
                put_first_arg(image_arg(**image)))
        add("case-image-file-size", run_case, cj + ["args[0].file", "needs"],
            put_first_arg(image_arg(width=1024, height=1024)))
        add("case-image-not-object", run_case, cj + ["args[0].image"],
            put_first_arg({"kind": "image", "file": "arg0.bin",
                           "image": [2, 2]}))
        for name, sampler, field in [
                ("normalized-string", {"normalized": "yes",
                                       "addressing": "None",
                                       "filter": "Nearest"}, "normalized"),
                ("repeat-unnormalized", {"normalized": False,
                                         "addressing": "Repeat",
                                         "filter": "Nearest"}, "addressing"),
                ("filter-unknown", {"normalized": True, "addressing": "Clamp",
                                    "filter": "Cubic"}, "filter"),
                ("missing", None, "sampler")]:
            arg = {"kind": "sampler"}
            if sampler is not None:
                arg["sampler"] = sampler
            add("case-sampler-" + name, run_case,
                cj + ["args[0].sampler", field], put_first_arg(arg))
        for name, spec, words in [
                ("fields", "image:2d:RGBA:UnormInt8", ["--arg", "field count"]),
                ("size", "image:2d:RGBA:UnormInt8:4xq", ["--arg", "not a size"]),
                ("huge", "image:3d:RGBA:Float:2048x2048x2048",
                 ["--arg", "limit"]),
                ("file-missing", "image:1d:R:Float:4:@nonexistent.bin",
                 ["nonexistent.bin"]),
                ("file-size", "image:1d:R:Float:4:@{BASE}/log.json",
                 ["--arg", "needs"]),
                ("sampler-repeat-unnormalized",
                 "sampler:unnormalized:Repeat:Nearest", ["--arg", "undefined"]),
                ("sampler-fields", "sampler:normalized", ["--arg"])]:
            add("run-arg-image-" + name, va + ["--arg=" + spec] + va_args[1:],
                words)
        add("run-arg-u32-abc", va + va_args[:3] + ["--arg=u32:abc"],
            ["--arg"])
        add("run-arg-u32-overflow", va + va_args[:3] + ["--arg=u32:4294967296"],
            ["--arg"])
        add("run-arg-unknown-kind", va + va_args[:3] + ["--arg=q7:1"],
            ["--arg"])
        add("run-arg-count-mismatch", va + va_args[:2], ["arg", "vector_add"])
        add("run-kernel-missing", [B, "run", spv, "--kernel=nope",
                                   "--global=4", "--target=ref"] + va_args,
            ["nope", "--kernel"])
        add("run-global-zero", [B, "run", spv, "--kernel=vector_add",
                                "--global=0", "--target=ref"] + va_args,
            ["--global"])
        add("run-global-overflow", [B, "run", spv, "--kernel=vector_add",
                                    "--global=18446744073709551616",
                                    "--target=ref"] + va_args, ["--global"])
        add("run-global-not-a-number", [B, "run", spv, "--kernel=vector_add",
                                        "--global=abc", "--target=ref"] +
            va_args, ["--global"])
        add("run-local-zero", va[:5] + ["--local=0", "--target=ref"] + va_args,
            ["--local"])
        add("run-offset-overflow-2^64", va + ["--offset=18446744073709551616"]
            + va_args, ["--offset"])
        add("run-offset-plus-global-overflow",
            va + ["--offset=18446744073709551615"] + va_args, ["--offset"])
        add("run-offset-too-many-dims", va + ["--offset=1,2,3,4"] + va_args,
            ["--offset"])
        add("run-offset-negative", va + ["--offset=-1"] + va_args,
            ["--offset"])
        add("run-timeout-0", va + va_args + ["--timeout=0"], ["--timeout"])
        add("run-timeout-negative", va + va_args + ["--timeout=-1"],
            ["--timeout"])
        add("run-timeout-huge", va + va_args + ["--timeout=99999999999"],
            ["--timeout"])
        add("run-memory-limit-1mb", va + va_args + ["--memory_limit_mb=1"],
            ["--memory_limit_mb"])
        add("run-memory-limit-huge", va + va_args +
            ["--memory_limit_mb=18446744073709551615"], ["--memory_limit_mb"],
            expect=ANY)
        add("run-target-empty", va + va_args + ["--target="], ["--target"])
        add("run-target-unknown", va + va_args + ["--target=hostile"],
            ["hostile", "--target"])
        add("run-target-trailing-comma", va + va_args + ["--target=ref,"],
            ["--target"])
        add("run-no-sidecar-no-kernel", [B, "run", spv, "--target=ref"],
            ["--sidecar", "--kernel"])
        add("run-sidecar-missing", [B, "run", spv, "--sidecar=nonexistent.json",
                                    "--target=ref"], ["nonexistent.json"])
        for nm, fn in (("empty", lambda p: write(p, "")),
                       ("truncated", lambda p: (shutil.copy(
                           self.base + "/sidecar.json", p), truncate(p))),
                       ("not-json", lambda p: write(p, "kernel=vector_add\n")),
                       ("is-directory", lambda p: os.makedirs(p)),
                       ("fifo", lambda p: os.mkfifo(p)),
                       ("dev-zero", lambda p: os.symlink("/dev/zero", p))):
            add("sidecar-" + nm, [B, "run", spv, "--sidecar=s.json",
                                  "--target=ref"], ["s.json"],
                lambda d, fn=fn: fn(os.path.join(d, "s.json")), timeout=40)
        add("run-dump-into-file", [B, "run", "{BASE}/case", "--target=ref",
                                   "--dump={BASE}/log.json/x"],
            ["--dump", "log.json"])
        add("run-dump-readonly", [B, "run", "{BASE}/case", "--target=ref",
                                  "--dump=/proc/hostile"],
            ["--dump", "/proc/hostile"])
        add("run-unknown-flag", [B, "run", "{BASE}/case", "--hostile=1"],
            ["--hostile"])
        add("run-flag-without-value", [B, "run", "{BASE}/case", "--target"],
            ["--target"])
        add("unknown-subcommand", [B, "hostile-command"], ["hostile-command"])
        add("schedule-seed-overflow", [B, "run", "{BASE}/case", "--target=ref",
                                       "--schedule_seed=18446744073709551616"],
            ["--schedule_seed"])
        # --- generate
        add("generate-max-statements-1e9", [B, "generate", "--seed=1",
                                            "--out=g",
                                            "--max_statements=1000000000"],
            ["--max_statements"], timeout=40)
        add("generate-max-statements-overflow",
            [B, "generate", "--seed=1", "--out=g",
             "--max_statements=4294967296"], ["--max_statements"])
        add("generate-seed-overflow", [B, "generate", "--seed=18446744073709551616",
                                       "--out=g"], ["--seed"])
        add("generate-seed-negative", [B, "generate", "--seed=-1", "--out=g"],
            ["--seed"])
        add("generate-out-is-file", [B, "generate", "--seed=1",
                                     "--out={BASE}/log.json"],
            ["--out", "log.json"])
        add("generate-out-under-file", [B, "generate", "--seed=1",
                                        "--out={BASE}/log.json/sub"],
            ["--out", "log.json"])
        add("generate-no-out", [B, "generate", "--seed=1"], ["--out"],
            expect=ANY)
        add("generate-spirv-version-bogus",
            [B, "generate", "--seed=1", "--out=g", "--spirv_version=1.x"],
            ["--spirv_version", "1.x"])
        add("generate-spirv-version-inverted",
            [B, "generate", "--seed=1", "--out=g", "--spirv_version=1.3-1.1"],
            ["--spirv_version", "1.3-1.1"])
        add("generate-spirv-version-above-profile",
            [B, "generate", "--seed=1", "--out=g", "--profile=baseline",
             "--spirv_version=1.4"], ["--spirv_version", "baseline", "1.2"])
        add("generate-printf-bogus",
            [B, "generate", "--seed=1", "--out=g", "--printf=maybe"],
            ["--printf", "maybe"])
        add("campaign-printf-bogus",
            [B, "--target=ref", "--iterations=1", "--out=c", "--printf=yes"],
            ["--printf", "yes"])
        add("campaign-spirv-version-bogus",
            [B, "--target=ref", "--iterations=1", "--out=c",
             "--spirv_version=2.0"], ["--spirv_version", "2.0"])
        # --- transform
        tr = [B, "transform", "{BASE}/case"]
        add("transform-transformations-1e9", tr + ["--out=t",
                                                   "--transformations=1000000000"],
            ["--transformations"], timeout=40)
        add("transform-transformations-overflow",
            tr + ["--out=t", "--transformations=4294967296"],
            ["--transformations"])
        add("transform-out-same-as-case", [B, "transform", "case", "--out=case",
                                           "--seed=3"], ["--out", "case"],
            lambda d: self.copy_base("case", d))
        add("transform-out-same-as-case-slash",
            [B, "transform", "case", "--out=./case/", "--seed=3"],
            ["--out", "case"], lambda d: self.copy_base("case", d))
        add("transform-out-is-file", tr + ["--out={BASE}/log.json"],
            ["--out", "log.json"])
        add("transform-kinds-unknown", tr + ["--out=t", "--kinds=hostile"],
            ["--kinds", "hostile"])
        add("transform-kinds-empty-item", tr + ["--out=t", "--kinds=,,"],
            ["--kinds"])
        add("transform-no-out", tr, ["--out"])
        # --- replay
        rp = [B, "replay", "{BASE}/case"]
        add("replay-log-missing", rp + ["nonexistent.json", "--out=r"],
            ["nonexistent.json"])
        add("replay-log-empty", rp + ["l.json", "--out=r"], ["l.json"],
            lambda d: write(d + "/l.json", ""))
        add("replay-log-truncated", rp + ["l.json", "--out=r"], ["l.json"],
            lambda d: (shutil.copy(self.base + "/log.json", d + "/l.json"),
                       truncate(d + "/l.json")))
        add("replay-log-dev-zero", rp + ["/dev/zero", "--out=r"], ["/dev/zero"],
            timeout=40)
        add("replay-log-fifo", rp + ["{BASE}/fifo", "--out=r"], ["fifo"])
        add("replay-log-dir-without-case", rp + ["{BASE}/camp", "--out=r"],
            ["camp"])
        add("replay-case-without-log", rp + ["{BASE}/case", "--out=r"],
            ["transformation_log", "case"])
        for nm, fn in self.log_hand_mutations():
            add("replay-" + nm, rp + ["l.json", "--out=r"], ["l.json"],
                lambda d, fn=fn: dump_json(d + "/l.json",
                                           fn(copy.deepcopy(self.docs["log"]))))
        add("replay-wrong-original", [B, "replay", "{BASE}/vector_add.spv",
                                      "--sidecar={BASE}/sidecar.json",
                                      "{BASE}/log.json", "--out=r"],
            ["log.json", "module_hash", "record"])
        add("replay-nothing-to-do", rp + ["{BASE}/log.json"], ["--out"])
        # --- reduce
        add("reduce-time-abc", [B, "reduce", "{BASE}/finding",
                                "--reduce_time=abc"], ["--reduce_time"])
        add("reduce-time-0", [B, "reduce", "{BASE}/finding",
                              "--reduce_time=0"], ["--reduce_time"])
        add("reduce-time-overflow", [B, "reduce", "{BASE}/finding",
                                     "--reduce_time=99999999999999999999h"],
            ["--reduce_time"])
        add("reduce-spirv-reduce-nonexistent",
            [B, "reduce", "{BASE}/finding", "--spirv_reduce=/nonexistent"],
            ["--spirv_reduce"])
        add("reduce-timeout-0", [B, "reduce", "{BASE}/finding", "--timeout=0"],
            ["--timeout"])
        add("reduce-timeout-negative", [B, "reduce", "{BASE}/finding",
                                        "--timeout=-1"], ["--timeout"])
        add("reduce-not-a-finding", [B, "reduce", "{BASE}/case"], ["case"])
        add("reduce-missing-dir", [B, "reduce", "nonexistent"], ["nonexistent"])
        for nm, fn in (("empty", lambda p: write(p, "")),
                       ("not-json", lambda p: write(p, "mismatch\n")),
                       ("truncated", lambda p: truncate(p)),
                       ("is-directory", replace_with_dir),
                       ("fifo", replace_with_fifo),
                       ("dev-zero", replace_with_devzero),
                       ("missing", os.remove)):
            add("reduce-verdict-" + nm, [B, "reduce", "finding",
                                         "--reduce_time=5s"], ["verdict.json",
                                                               "finding"],
                lambda d, fn=fn: (self.copy_base("finding", d),
                                  fn(d + "/finding/verdict.json")),
                timeout=40)
        add("reduce-finding-case-broken", [B, "reduce", "finding",
                                           "--reduce_time=5s"],
            ["case.json"], lambda d: (self.copy_base("finding", d), write(
                d + "/finding/case/case.json", "{")), timeout=40)
        # --- check flags
        add("check-target-empty", [B, "check", "{BASE}/case", "--target="],
            ["--target"])
        add("check-module-dev-zero", [B, "check", "{BASE}/case", "--target=ref",
                                      "--module=/dev/zero"], ["/dev/zero"],
            timeout=40)
        add("check-module-missing", [B, "check", "{BASE}/case", "--target=ref",
                                     "--module=nonexistent.spv"],
            ["nonexistent.spv"])
        add("check-timeout-0", [B, "check", "{BASE}/case", "--target=ref",
                                "--timeout=0"], ["--timeout"])
        add("check-timeout-negative", [B, "check", "{BASE}/case",
                                       "--target=ref", "--timeout=-1"],
            ["--timeout"])
        add("check-two-cases", [B, "check", "{BASE}/case", "{BASE}/case",
                                "--target=ref"], ["CASE_DIR"])
        # --- campaign
        cp = [B, "--target=ref", "--iterations=3", "--jobs=1", "--no_reduce"]
        add("campaign-target-empty", [B, "--target=", "--iterations=1",
                                      "--out=c"], ["--target"])
        add("campaign-target-unknown", [B, "--target=hostile",
                                        "--iterations=1", "--out=c"],
            ["hostile"])
        add("campaign-jobs-0", [B, "--target=ref", "--iterations=1",
                                "--jobs=0", "--out=c"], ["--jobs"])
        # (not --jobs=1000000: a missing cap would fork a million workers)
        add("campaign-jobs-overflow", [B, "--target=ref", "--iterations=1",
                                       "--jobs=4294967296", "--out=c"],
            ["--jobs"])
        add("campaign-shard-bad", [B, "--target=ref", "--iterations=1",
                                   "--shard=3/2", "--out=c"], ["--shard"])
        add("campaign-shard-zero", [B, "--target=ref", "--iterations=1",
                                    "--shard=0/0", "--out=c"], ["--shard"])
        add("campaign-shard-abc", [B, "--target=ref", "--iterations=1",
                                   "--shard=abc", "--out=c"], ["--shard"])
        add("campaign-time-abc", [B, "--target=ref", "--time=abc",
                                  "--out=c"], ["--time"])
        add("campaign-time-0", [B, "--target=ref", "--time=0", "--out=c"],
            ["--time"])
        add("campaign-iterations-negative", [B, "--target=ref",
                                             "--iterations=-1", "--out=c"],
            ["--iterations"])
        add("campaign-out-is-file", cp + ["--out={BASE}/log.json"],
            ["log.json", "--out"])
        add("campaign-out-empty", cp + ["--out="], ["--out"])
        add("campaign-resume-other-flags", [B, "--target=ref",
                                            "--iterations=3", "--jobs=1",
                                            "--seed=99", "--out=camp",
                                            "--no_reduce"],
            ["camp", "seed"], lambda d: self.copy_base("camp", d))
        add("campaign-reduce-time-abc", cp + ["--out=c", "--reduce_time=abc"],
            ["--reduce_time"])
        add("campaign-state-is-dir", cp + ["--out=camp"], ["job-0.json",
                                                           "state"],
            lambda d: (self.copy_base("camp", d), replace_with_dir(
                d + "/camp/state/job-0.json")), timeout=60)
        add("campaign-state-fifo", cp + ["--out=camp"], ["job-0.json"],
            lambda d: (self.copy_base("camp", d), replace_with_fifo(
                d + "/camp/state/job-0.json")), timeout=60)
        add("campaign-state-truncated", cp + ["--out=camp"], ["job-0.json"],
            lambda d: (self.copy_base("camp", d), truncate(
                d + "/camp/state/job-0.json")), timeout=60)
        add("campaign-campaign.json-empty", cp + ["--out=camp"],
            ["campaign.json"],
            lambda d: (self.copy_base("camp", d), write(
                d + "/camp/campaign.json", "")), timeout=60)
        R.append(Run("hand:campaign-two-at-once-on-one-out",
                     [B, "--target=ref", "--iterations=100000", "--jobs=1",
                      "--out=c", "--no_reduce"], TWO, msg=["c"],
                     timeout=60, runner=self.two_campaigns))
        # --- merge
        add("merge-same-shard-twice", [B, "merge", "--out=m", "{BASE}/camp",
                                       "{BASE}/camp"], ["camp"])
        add("merge-same-shard-twice-other-spelling",
            [B, "merge", "--out=m", "{BASE}/camp", "{BASE}/camp/"], ["camp"])
        add("merge-counters-u64max-overflow", [B, "merge", "--out=m",
                                               "{BASE}/camp", "big"],
            ["stats.json", "big"], self.big_counters_shard)
        add("merge-counters-u64max-twice", [B, "merge", "--out=m", "big",
                                            "big2"],
            ["stats.json", "big"], lambda d: (
                self.big_counters_shard(d),
                shutil.copytree(d + "/big", d + "/big2")))
        add("merge-finding-without-verdict", [B, "merge", "--out=m", "camp"],
            ["verdict.json"], self.shard_with_bare_finding)
        add("merge-stats-missing", [B, "merge", "--out=m", "camp"],
            ["stats.json"], lambda d: (self.copy_base("camp", d),
                                       os.remove(d + "/camp/stats.json")))
        add("merge-stats-dir", [B, "merge", "--out=m", "camp"],
            ["stats.json"], lambda d: (self.copy_base("camp", d),
                                       replace_with_dir(d + "/camp/stats.json")))
        add("merge-stats-fifo", [B, "merge", "--out=m", "camp"],
            ["stats.json"], lambda d: (self.copy_base("camp", d),
                                       replace_with_fifo(d + "/camp/stats.json")))
        add("merge-stats-dev-zero", [B, "merge", "--out=m", "camp"],
            ["stats.json"], lambda d: (self.copy_base("camp", d),
                                       replace_with_devzero(
                                           d + "/camp/stats.json")),
            timeout=40)
        add("merge-findings-is-file", [B, "merge", "--out=m", "camp"],
            ["findings"], lambda d: (self.copy_base("camp", d),
                                     shutil.rmtree(d + "/camp/findings"),
                                     write(d + "/camp/findings", "x")))
        add("merge-out-is-shard", [B, "merge", "--out=camp", "camp"],
            ["--out", "camp"], lambda d: self.copy_base("camp", d))
        add("merge-out-is-file", [B, "merge", "--out={BASE}/log.json",
                                  "{BASE}/camp"], ["--out", "log.json"])
        add("merge-no-out", [B, "merge", "{BASE}/camp"], ["--out"])
        add("merge-shard-missing", [B, "merge", "--out=m", "nonexistent"],
            ["nonexistent"])
        # known-bugs and report: their flag and directory inputs.
        add("known-bugs-consumer-unknown",
            [B, "known-bugs", "--consumer=intel"], ["--consumer"])
        add("known-bugs-consumer-empty", [B, "known-bugs", "--consumer="],
            ["--consumer"])
        add("known-bugs-check-with-dir",
            [B, "known-bugs", "--check", "{BASE}/finding"], ["--check"])
        add("known-bugs-finding-missing", [B, "known-bugs", "nonexistent"],
            ["nonexistent"])
        add("known-bugs-finding-is-a-case", [B, "known-bugs", "{BASE}/case"],
            ["case"])
        add("report-missing", [B, "report", "nonexistent"], ["nonexistent"])
        add("report-no-argument", [B, "report"], ["FINDING_DIR"])
        add("report-two-arguments", [B, "report", "a", "b"], ["FINDING_DIR"])
        add("report-finding-is-a-case", [B, "report", "{BASE}/case"], ["case"])
        return R

    def log_hand_mutations(self):
        """Whole-log edits: skip/base/opcode numbers past uint32 etc."""
        out = []

        def descriptors(log):
            for path, v in walk(log):
                if isinstance(v, dict) and "skip" in v and "opcode" in v:
                    yield v

        def set_all(field, fn):
            def f(log):
                for d in descriptors(log):
                    d[field] = fn(d[field])
                return log
            return f
        if any(True for _ in descriptors(self.docs["log"])):
            for field in ("skip", "base", "opcode"):
                out.append(("%s-plus-2^32" % field,
                            set_all(field, lambda v: v + 4294967296)))
                out.append(("%s-u64max" % field,
                            set_all(field, lambda v: 2 ** 64 - 1)))
                out.append(("%s-negative" % field, set_all(field, lambda v: -1)))
                out.append(("%s-float" % field, set_all(field, lambda v: 0.5)))
        out.append(("records-not-array", lambda l: dict(l, records={})))
        out.append(("record-not-object",
                    lambda l: dict(l, records=[5] + l.get("records", []))))
        out.append(("record-kind-unknown",
                    lambda l: dict(l, records=[{"kind": UNKNOWN_ENUM}])))
        out.append(("format-wrong",
                    lambda l: dict(l, format="l0spv-transformations/999")))
        out.append(("records-100000-copies",
                    lambda l: dict(l, records=(l.get("records") or [{}])[:1]
                                   * 100000)))
        out.append(("module-hash-wrong",
                    lambda l: dict(l, module_hash="0000000000000000")))
        return out

    def first_buffer_file(self):
        for i, a in enumerate(self.docs["case"].get("args", [])):
            if a.get("kind") == "buffer":
                return a.get("file", "arg%d.bin" % i)
        return None

    def first_buffer_arg(self, j):
        for a in j.get("args", []):
            if a.get("kind") == "buffer":
                return a
        return {}

    def first_buffer_arg_or_first(self, j):
        for a in j.get("args", []):
            if not a:
                return a
        return j["args"][0]

    def big_counters_shard(self, d):
        self.copy_base("camp", d, "big")
        p = d + "/big/stats.json"
        j = load_json(p)
        for path, v in list(walk(j)):
            if isinstance(v, int) and not isinstance(v, bool) and \
                    last_key(path) not in ("shard", "shards", "seed"):
                j = set_at(j, path, 2 ** 64 - 1)
        dump_json(p, j)
        shutil.rmtree(d + "/big/findings")
        os.makedirs(d + "/big/findings")

    def shard_with_bare_finding(self, d):
        self.copy_base("camp", d)
        f = d + "/camp/findings/crash.ref.hostile-0000"
        os.makedirs(f + "/case")
        shutil.copytree(self.base + "/case", f + "/case", dirs_exist_ok=True)

    def two_campaigns(self, run, d, argv, timeout):
        """Starts a long campaign, then a second on the same --out."""
        first = subprocess.Popen(argv, cwd=d, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL,
                                 start_new_session=True)
        try:
            deadline = time.monotonic() + 10 * self.scale
            while time.monotonic() < deadline and not os.path.exists(
                    os.path.join(d, "c", "state", "job-0.json")):
                time.sleep(0.1)
            time.sleep(0.5)
            if first.poll() is not None:
                return Result(first.returncode, "", "the first campaign "
                              "ended before the second started", False, 0,
                              " ".join(argv))
            return run_process(argv, timeout, cwd=d)
        finally:
            try:
                os.killpg(first.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            first.wait()

    # -- driver --------------------------------------------------------------

    def all_runs(self):
        runs = self.hand_runs() + self.mutation_runs()
        if self.args.only:
            rx = re.compile(self.args.only)
            runs = [r for r in runs if rx.search(r.name)]
        return runs

    def execute(self, index, run):
        d = os.path.join(self.runs_dir, "%05d" % index)
        os.makedirs(d)
        subst = {"{B}": self.binary, "{BASE}": self.base}

        def expand(a):
            for k, v in subst.items():
                a = a.replace(k, v)
            return a
        argv = [expand(a) for a in run.argv]
        try:
            if run.setup:
                run.setup(d)
        except Exception as e:  # a battery bug, not a finding
            return run, Result(-999, "", "battery setup failed: %r" % e,
                               False, 0, " ".join(argv)), ("setup", repr(e))
        timeout = run.timeout * self.scale
        if run.runner:
            res = run.runner(run, d, argv, timeout)
        else:
            res = run_process(argv, timeout, cwd=d)
        res.cmd = "cd %s && %s" % (d, res.cmd)
        failure = classify(run, res)
        if not self.args.keep and failure[0] is None:
            shutil.rmtree(d, ignore_errors=True)
        return run, res, failure


class SetupError(Exception):
    pass


def load_json(p):
    with open(p) as f:
        return json.load(f)


def dump_json(p, j):
    with open(p, "w") as f:
        json.dump(j, f, indent=2)
        f.write("\n")


def write(p, text):
    if os.path.islink(p) or (os.path.exists(p) and not os.path.isfile(p)):
        os.remove(p)
    with open(p, "w") as f:
        f.write(text)


def write_bytes(p, data):
    with open(p, "wb") as f:
        f.write(data)


def patch_word(p, index, value):
    with open(p, "rb") as f:
        data = bytearray(f.read())
    if len(data) >= 4 * (index + 1):
        data[4 * index:4 * index + 4] = value.to_bytes(4, "little")
    with open(p, "wb") as f:
        f.write(data)


def normalize(text, work):
    text = text.replace(work, "<W>")
    text = re.sub(r"'[^']*'", "'Q'", text)
    text = re.sub(r'"[^"]*"', '"Q"', text)
    text = re.sub(r"^(l0spv-fuzz \w+: )[^:]+: ", r"\1FILE: ", text)
    text = re.sub(r"record \d+ \([a-z_]+\)", "record # (KIND)", text)
    text = re.sub(r"<W>/runs/\d+", "<RUN>", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x#", text)
    text = re.sub(r"\d+", "#", text).replace("l#spv", "l0spv")
    return text[:160]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", default=os.path.dirname(os.path.dirname(here)))
    ap.add_argument("--build-dir", default=None,
                    help="where corpora/vector_add.spv is (default: the "
                    "binary's directory)")
    ap.add_argument("--work", default=None,
                    help="scratch directory (default: a new temporary one)")
    ap.add_argument("--full", action="store_true",
                    help="every mutation with every consumer (no sampling)")
    ap.add_argument("--seed", type=int, default=20251125,
                    help="sampling seed without --full")
    ap.add_argument("--only", default="", help="run only names matching REGEX")
    ap.add_argument("--list", action="store_true",
                    help="print the run names and expected exit codes")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout-scale", type=float, default=float(
        os.environ.get("L0SPV_HOSTILE_TIMEOUT_SCALE", "1") or 1))
    ap.add_argument("--keep", action="store_true",
                    help="keep every run directory (failures are always kept)")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    if args.build_dir is None:
        args.build_dir = os.path.dirname(os.path.abspath(args.binary))
    made_work = args.work is None
    if made_work:
        args.work = tempfile.mkdtemp(prefix="l0spv-hostile-")
    args.work = os.path.abspath(args.work)
    if not os.access(args.binary, os.X_OK):
        print("battery: %s is not an executable" % args.binary, file=sys.stderr)
        return 2

    bat = Battery(args)
    t0 = time.monotonic()
    try:
        bat.setup()
    except SetupError as e:
        print("battery: setup failed: %s" % e, file=sys.stderr)
        return 2
    runs = bat.all_runs()
    if args.list:
        for r in runs:
            print("%-8s %s" % ("/".join(map(str, r.expect)), r.name))
        print("%d runs" % len(runs))
        return 0
    print("battery: %d runs, %d jobs, timeout scale %g, work %s (setup %.0f s)"
          % (len(runs), args.jobs, args.timeout_scale, args.work,
             time.monotonic() - t0), flush=True)

    per_class = {}
    failures = []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(bat.execute, i, r) for i, r in enumerate(runs)]
        for fut in concurrent.futures.as_completed(futs):
            run, res, (fail, detail) = fut.result()
            done += 1
            c = per_class.setdefault(run.cls, {"runs": 0, "fail": 0})
            c["runs"] += 1
            if fail:
                c["fail"] += 1
                failures.append((run, res, fail, detail))
                print("FAIL %-8s %s: %s\n     %s\n     stderr: %s" % (
                    fail, run.name, detail, res.cmd, first_line(res.err)),
                    flush=True)
            elif args.verbose:
                print("ok   rc %d %.1fs %s" % (res.rc, res.seconds, run.name),
                      flush=True)

    elapsed = time.monotonic() - t0
    kinds = {}
    for _, _, fail, _ in failures:
        kinds[fail] = kinds.get(fail, 0) + 1
    print("\n=== summary: %d runs in %.0f s: %d crashes, %d hangs, "
          "%d wrong exit codes, %d unclear messages, %d battery errors" % (
              len(runs), elapsed, kinds.get("crash", 0), kinds.get("hang", 0),
              kinds.get("wrong-rc", 0), kinds.get("bad-msg", 0),
              kinds.get("setup", 0)))
    for cls in sorted(per_class):
        print("  %-14s %4d runs, %4d failed" % (
            cls, per_class[cls]["runs"], per_class[cls]["fail"]))
    if failures:
        groups = {}
        for run, res, fail, detail in failures:
            key = (fail, run.cls, normalize(first_line(res.err), args.work)
                   if fail != "hang" else "")
            groups.setdefault(key, []).append((run, res, detail))
        print("\n=== failures grouped by (class, document, first stderr line)")
        for (fail, cls, line), items in sorted(
                groups.items(), key=lambda kv: (kv[0][0], kv[0][1], -len(kv[1]))):
            print("\n[%s] %s x%d: %s" % (fail, cls, len(items), line))
            for run, res, detail in items[:args.verbose and 1000 or 6]:
                print("  - %s (%s)\n    %s" % (run.name, detail, res.cmd))
            if len(items) > 6 and not args.verbose:
                print("  ... %d more (-v lists all)" % (len(items) - 6))
        print("\nfailed run directories are kept under %s/runs" % args.work)
    elif made_work and not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
