#!/usr/bin/env python3
"""Hostile consumers and hostile environments (Python 3 standard library).

Fake consumers (shell scripts this test writes, first on PATH as
`spirv-opt`) misbehave the ways real ones do: they print bytes that are not
UTF-8, flood stdout, put a directory, a FIFO or a link to /dev/zero where
their output belongs, leave daemons behind (in their session, or detached
with setsid), or hang. The environment misbehaves too: a file-size limit,
SIGINT/SIGTERM/SIGKILL mid-run, a closed stdout, case files that are links
to other files of the machine, output paths holding quotes, spaces and
$(...). Every class has at least two variants; each run must end with its
documented exit code, lose no byte and no finding, and leave no process and
no file in TMPDIR behind.

Usage: consumers.py --binary=PATH/l0spv-fuzz --work=DIR [--only=REGEX]
                    [--timeout-scale=F] [--verbose]
Exit 0 when every check passes, 1 when any fails, 2 when it cannot set up.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

SCALE = float(os.environ.get("L0SPV_HOSTILE_TIMEOUT_SCALE", "1"))
REAL_SPIRV_OPT = shutil.which("spirv-opt") or "/usr/bin/spirv-opt"

# The body of a fake spirv-opt: $out is the path after -o. --version goes to
# the real one so the target probes as available.
FAKE_HEAD = """#!/bin/bash
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
case "$1" in --version|--help) exec %s "$@";; esac
""" % REAL_SPIRV_OPT

MODES = {
    "latin1": "printf 'error: caf\\xe9 \\xff\\xfe at word 5\\n' >&2; kill -SEGV $$",
    "binflood": "head -c 300000 /dev/urandom; echo 'fatal: caf\\xe9' >&2; exit 1",
    "dir": 'rm -f "$out"; mkdir -p "$out"; exit 0',
    "devzero": 'rm -f "$out"; ln -s /dev/zero "$out"; exit 0',
    "fifo": 'rm -f "$out"; mkfifo "$out"; exit 0',
    # (Daemons start before the --version answer too: see DAEMONS.)
    "pipedaemon": 'exec %s "$@"' % REAL_SPIRV_OPT,
    "setsid": 'exec %s "$@"' % REAL_SPIRV_OPT,
    "hang": "exec sleep 3133",
    "crashflood": "head -c 200000 /dev/zero | tr '\\0' x >&2; "
                  "kill -SEGV $$",
    "crash": "echo 'spirv-opt: fatal: caf\\xe9 pass' >&2; kill -SEGV $$",
}
MARKERS = ("sleep 3131", "sleep 3132", "sleep 3133")
# Started first thing, so `targets` (which asks --version) meets them too:
# a grandchild that keeps the pipes open, in the consumer's session; a
# double fork that leaves the session and every descriptor.
DAEMONS = {
    "pipedaemon": "sleep 3131 &\n",
    "setsid": "(setsid sleep 3132 </dev/null >/dev/null 2>&1 &)\n",
}


class Env:
    def __init__(self, binary, work, verbose):
        self.binary = os.path.abspath(binary)
        self.work = os.path.abspath(work)
        self.verbose = verbose
        self.failures = []
        self.fake = os.path.join(self.work, "fake-bin")
        self.tmp = os.path.join(self.work, "tmp")
        self.empty = os.path.join(self.work, "no-consumers")

    def fail(self, test, why):
        self.failures.append("%s: %s" % (test, why))
        print("FAIL %s: %s" % (test, why), flush=True)

    def environ(self):
        env = dict(os.environ)
        env["PATH"] = self.fake + ":" + env.get("PATH", "/usr/bin:/bin")
        env["TMPDIR"] = self.tmp
        # Only the fake spirv-opt: no PyPI releases beside it.
        env["L0SPV_CONSUMERS_DIR"] = self.empty
        env["LC_ALL"] = "C"
        return env

    def fake_consumer(self, mode):
        os.makedirs(self.fake, exist_ok=True)
        path = os.path.join(self.fake, "spirv-opt")
        with open(path, "w") as f:
            head = FAKE_HEAD.split("\n", 1)
            f.write(head[0] + "\n" + DAEMONS.get(mode, "") + head[1] +
                    MODES[mode] + "\n")
        os.chmod(path, 0o755)

    def run(self, args, timeout=120, stdin=None, stdout=subprocess.PIPE,
            preexec=None, cwd=None):
        start = time.time()
        try:
            p = subprocess.run([self.binary] + args, env=self.environ(),
                               stdout=stdout, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, timeout=timeout *
                               SCALE, preexec_fn=preexec, cwd=cwd)
        except subprocess.TimeoutExpired:
            return None, b"", b"(hung)", time.time() - start
        if self.verbose:
            print("  $ %s -> %d (%.1fs)" % (" ".join(args), p.returncode,
                                            time.time() - start))
        out = p.stdout if p.stdout is not None else b""
        return p.returncode, out, p.stderr, time.time() - start


def leftover_processes():
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if any(m in cmd for m in MARKERS):
            found.append("%s %s" % (pid, cmd.strip()))
    return found


def check_clean(env, test):
    """No daemon of a fake consumer and nothing in TMPDIR after a command."""
    deadline = time.time() + 2 * SCALE
    while leftover_processes() and time.time() < deadline:
        time.sleep(0.05)
    left = leftover_processes()
    if left:
        env.fail(test, "processes left behind: %s" % left)
        for entry in left:
            try:
                os.kill(int(entry.split()[0]), signal.SIGKILL)
            except OSError:
                pass
    stray = os.listdir(env.tmp)
    if stray:
        env.fail(test, "TMPDIR not clean: %s" % stray)
        for name in stray:
            shutil.rmtree(os.path.join(env.tmp, name), ignore_errors=True)


def expect_rc(env, test, rc, want, err):
    if rc is None:
        env.fail(test, "hung")
        return False
    if rc not in want:
        env.fail(test, "exit %d, wanted %s; stderr: %r" % (rc, want,
                                                          err[-600:]))
        return False
    if b"terminate called" in err or b"AddressSanitizer" in err or \
            b"runtime error:" in err:
        env.fail(test, "crash report on stderr: %r" % err[-600:])
        return False
    return True


# ---------------------------------------------------------------------------
# The classes.

def test_non_utf8(env, case):
    """A consumer's bytes reach the result intact, escaped for JSON."""
    for mode, cmd in (("latin1", "run"), ("binflood", "check")):
        test = "non-utf8/%s/%s" % (mode, cmd)
        env.fake_consumer(mode)
        args = [cmd, case, "--target=spirv-opt", "--json"]
        rc, out, err, _ = env.run(args)
        if not expect_rc(env, test, rc, (1,), err):
            continue
        try:
            doc = json.loads(out.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            env.fail(test, "stdout is not UTF-8 JSON: %s" % e)
            continue
        text = json.dumps(doc)
        if "caf\\\\xe9" not in text:
            env.fail(test, "the byte 0xe9 is not shown as \\xe9: %s" %
                     text[:400])
        check_clean(env, test)
    # A campaign records the consumer's crash, not a bogus one of ref.
    for batch in ("1", "4"):
        test = "non-utf8/campaign/batch=%s" % batch
        env.fake_consumer("latin1")
        out_dir = os.path.join(env.work, "camp-utf8-" + batch)
        shutil.rmtree(out_dir, ignore_errors=True)
        rc, out, err, _ = env.run(["campaign", "--target=ref,spirv-opt",
                                   "--iterations=3", "--batch=" + batch,
                                   "--out=" + out_dir, "--seed=11"],
                                  timeout=300)
        if not expect_rc(env, test, rc, (0, 1), err):
            continue
        names = os.listdir(os.path.join(out_dir, "findings"))
        if not any(n.startswith("crash.spirv-opt") for n in names):
            env.fail(test, "no crash.spirv-opt finding: %s" % names)
        if any(".ref." in n for n in names):
            env.fail(test, "a finding against ref: %s" % names)
        for n in names:
            with open(os.path.join(out_dir, "findings", n, "verdict.json"),
                      "rb") as f:
                raw = f.read()
            raw.decode("utf-8")  # must not raise
            if n.startswith("crash.spirv-opt") and b"caf\\\\xe9" not in raw:
                env.fail(test, "%s/verdict.json lost the byte 0xe9" % n)
        check_clean(env, test)


def test_odd_outputs(env, case):
    """A directory, a FIFO or /dev/zero where the output belongs."""
    for mode in ("dir", "fifo", "devzero"):
        test = "odd-output/%s" % mode
        env.fake_consumer(mode)
        rc, out, err, took = env.run(["run", case, "--target=spirv-opt",
                                      "--timeout=20"], timeout=60)
        if not expect_rc(env, test, rc, (1, 2), err):
            continue
        if b"not a regular file" not in err and b"no usable" not in err:
            env.fail(test, "the message does not say what the output is: "
                     "%r" % err[-400:])
        if took > 15 * SCALE:
            env.fail(test, "took %.1f s (blocked on the output?)" % took)
        check_clean(env, test)


def test_daemons(env, case):
    """Nothing a consumer starts outlives the command."""
    for mode in ("pipedaemon", "setsid"):
        for cmd in (["run", case, "--target=spirv-opt"],
                    ["targets"]):
            test = "daemon/%s/%s" % (mode, cmd[0])
            env.fake_consumer(mode)
            rc, out, err, took = env.run(cmd, timeout=90)
            if not expect_rc(env, test, rc, (0,), err):
                continue
            if took > 20 * SCALE:
                env.fail(test, "took %.1f s: waited for the daemon" % took)
            check_clean(env, test)


def test_file_size_limit(env, case):
    """`ulimit -f`: an exit-2 error naming the file, no SIGXFSZ."""
    import resource

    def limit_to(n):
        return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    for name, args, cap in (
            ("generate", ["generate", "--seed=5", "--count=3",
                          "--out=" + os.path.join(env.work, "gen-fsize")],
             4096),
            ("run-dump", ["run", case, "--dump=" +
                          os.path.join(env.work, "dump-fsize")], 300)):
        test = "fsize/%s" % name
        rc, out, err, _ = env.run(args, preexec=limit_to(cap))
        if not expect_rc(env, test, rc, (2,), err):
            continue
        if b"file-size limit" not in err:
            env.fail(test, "the message does not name the limit: %r" %
                     err[-300:])
        check_clean(env, test)
    test = "fsize/campaign"
    out_dir = os.path.join(env.work, "camp-fsize")
    shutil.rmtree(out_dir, ignore_errors=True)
    # Room for the modules a run writes, not for a finding holding the
    # consumer's 200 KB of stderr.
    env.fake_consumer("crashflood")
    rc, out, err, _ = env.run(["campaign", "--target=ref,spirv-opt",
                               "--iterations=4", "--out=" + out_dir],
                              preexec=limit_to(96 << 10), timeout=300)
    if expect_rc(env, test, rc, (2,), err):
        tmp_left = [n for n in os.listdir(os.path.join(out_dir, "findings"))
                    if n.startswith(".tmp-")] if os.path.isdir(
                        os.path.join(out_dir, "findings")) else []
        if tmp_left:
            env.fail(test, "left %s" % tmp_left)
    check_clean(env, test)


def test_signals(env, case):
    """SIGINT/SIGTERM stop a run at once with its consumer; SIGKILL's
    scratch is swept by the next command."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        test = "signal/%s" % signal.Signals(sig).name
        env.fake_consumer("hang")
        # A background job of a script: SIGINT arrives ignored.
        p = subprocess.Popen(
            [env.binary, "run", case, "--target=spirv-opt",
             "--timeout=600"], env=env.environ(), stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        deadline = time.time() + 30 * SCALE
        while not leftover_processes() and time.time() < deadline:
            time.sleep(0.05)
        p.send_signal(sig)
        try:
            p.wait(timeout=10 * SCALE)
        except subprocess.TimeoutExpired:
            env.fail(test, "run did not stop")
            p.kill()
            p.wait()
        if p.returncode != -sig:
            env.fail(test, "ended with %s, not by the signal" % p.returncode)
        p.stderr.close()
        # Scratch of a signalled run is swept by the next command.
        env.run(["targets"])
        check_clean(env, test)
    test = "signal/SIGKILL"
    env.fake_consumer("hang")
    p = subprocess.Popen([env.binary, "run", case, "--target=spirv-opt",
                          "--timeout=600"], env=env.environ(),
                         stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 30 * SCALE
    while not leftover_processes() and time.time() < deadline:
        time.sleep(0.05)
    p.kill()
    p.wait()
    env.run(["targets"])
    check_clean(env, test)


def test_closed_stdout(env, case):
    """Results nobody can receive: exit 2."""
    for name, args in (("targets-json", ["targets", "--json"]),
                       ("lint", ["lint", os.path.join(case, "module.spv")]),
                       ("run-json", ["run", case, "--json"]),
                       ("generate-stats", ["generate", "--seed=3",
                                           "--count=2", "--stats", "--out=" +
                                           os.path.join(env.work, "g-st")])):
        test = "closed-stdout/%s" % name
        rc, out, err, _ = env.run(
            args, stdout=None,
            preexec=lambda: os.close(1))
        if expect_rc(env, test, rc, (2,), err) and \
                b"standard output" not in err:
            env.fail(test, "the message does not name stdout: %r" %
                     err[-300:])
        check_clean(env, test)


def test_links_out_of_case(env, case):
    """Argument files must stay inside the case directory."""
    evil = os.path.join(env.work, "evil-case")
    shutil.rmtree(evil, ignore_errors=True)
    shutil.copytree(case, evil)
    os.remove(os.path.join(evil, "arg0.bin"))
    os.symlink("/etc/passwd", os.path.join(evil, "arg0.bin"))
    for name, args in (("run", ["run", evil]),
                       ("check", ["check", evil, "--target=ref"])):
        test = "links/%s" % name
        rc, out, err, _ = env.run(args)
        if expect_rc(env, test, rc, (2,), err) and b"arg0.bin" not in err:
            env.fail(test, "the message does not name the file: %r" %
                     err[-300:])
    # merge refuses a finding holding such a link.
    test = "links/merge"
    shard = os.path.join(env.work, "evil-shard")
    shutil.rmtree(shard, ignore_errors=True)
    env.fake_consumer("crash")
    env.run(["campaign", "--target=ref,spirv-opt", "--iterations=1",
             "--out=" + shard])
    found = [n for n in os.listdir(os.path.join(shard, "findings"))
             if not n.startswith(".")] if os.path.isdir(
                 os.path.join(shard, "findings")) else []
    if not found:
        env.fail(test, "set-up: no finding to plant a link in")
        return
    case_dir = os.path.join(shard, "findings", found[0], "case")
    os.remove(os.path.join(case_dir, "module.spv"))
    os.symlink("/etc/passwd", os.path.join(case_dir, "module.spv"))
    merged = os.path.join(env.work, "evil-merged")
    shutil.rmtree(merged, ignore_errors=True)
    rc, out, err, _ = env.run(["merge", "--out=" + merged, shard])
    if expect_rc(env, test, rc, (2,), err) and b"symbolic link" not in err:
        env.fail(test, "the message does not name the link: %r" % err[-300:])
    copied = os.path.join(merged, "findings", found[0], "case", "module.spv")
    if os.path.exists(copied):
        with open(copied, "rb") as f:
            if b"root:" in f.read():
                env.fail(test, "/etc/passwd was copied into the merge")
    check_clean(env, test)


def test_commands_for_users(env, case):
    """A finding's reproduce command runs as written, whatever its path."""
    for label in ("quote", "dollar"):
        test = "reproduce/%s" % label
        weird = {"quote": "it's a \"dir\" with spaces",
                 "dollar": "$(touch PWNED) and `x`"}[label]
        out_dir = os.path.join(env.work, weird)
        shutil.rmtree(out_dir, ignore_errors=True)
        env.fake_consumer("crash")
        rc, out, err, _ = env.run(["check", case, "--target=spirv-opt",
                                   "--save_finding=" + out_dir])
        if not expect_rc(env, test, rc, (1,), err):
            continue
        findings = os.path.join(out_dir, "findings")
        names = [n for n in os.listdir(findings) if not n.startswith(".")]
        with open(os.path.join(findings, names[0], "verdict.json")) as f:
            command = json.load(f)["reproduce"]
        sh = subprocess.run(["sh", "-c", command], env=env.environ(),
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=env.work,
                            timeout=120 * SCALE)
        if sh.returncode != 1:
            env.fail(test, "`%s` exited %d: %r" % (command, sh.returncode,
                                                  sh.stderr[-300:]))
        if os.path.exists(os.path.join(env.work, "PWNED")):
            env.fail(test, "the command ran $(...) of the path")
        check_clean(env, test)


SPVASM_ENDLESS = """OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "endless"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %ptr
%main = OpFunction %void None %fn
%out = OpFunctionParameter %ptr
%entry = OpLabel
OpBranch %loop
%loop = OpLabel
OpLoopMerge %exit %loop None
OpBranch %loop
%exit = OpLabel
OpReturn
OpFunctionEnd
"""

SPVASM_HUGE = """OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "huge"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %ptr
%n = OpConstant %ulong LENGTH
%arr = OpTypeArray %uint %n
%parr = OpTypePointer STORAGE %arr
%pu = OpTypePointer STORAGE %uint
%zero = OpConstant %uint 0
GLOBAL
%main = OpFunction %void None %fn
%out = OpFunctionParameter %ptr
%entry = OpLabel
LOCAL
%p = OpAccessChain %pu %a %zero
OpStore %p %zero
OpReturn
OpFunctionEnd
"""


def write_case(env, name, spvasm, entry):
    d = os.path.join(env.work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "k.spvasm"), "w") as f:
        f.write(spvasm)
    subprocess.run(["spirv-as", "--target-env", "spv1.2",
                    os.path.join(d, "k.spvasm"), "-o",
                    os.path.join(d, "module.spv")], check=True)
    os.remove(os.path.join(d, "k.spvasm"))
    with open(os.path.join(d, "arg0.bin"), "wb") as f:
        f.write(b"\0" * 4)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"format": "l0spv-case/1", "entry_point": entry,
                   "global": [1, 1, 1], "local": [1, 1, 1],
                   "args": [{"kind": "buffer", "bytes": 4,
                             "file": "arg0.bin", "result": True}]}, f)
    return d


def test_exit_codes(env, case):
    """Cases the reference cannot judge are exit 2, saying why."""
    endless = write_case(env, "endless", SPVASM_ENDLESS, "endless")
    for name, extra in (("timeout", ["--timeout=3"]),
                        ("steps", ["--ref_steps=100000"])):
        test = "exit/endless-%s" % name
        rc, out, err, _ = env.run(["check", endless, "--target=ref"] + extra)
        if expect_rc(env, test, rc, (2,), err) and b"cannot run" not in err:
            env.fail(test, "the message does not say so: %r" % err[-300:])
        check_clean(env, test)
    for storage, length in (("Function", "2147483648"),
                            ("Workgroup", "4611686018427387904")):
        test = "exit/huge-%s" % storage
        text = SPVASM_HUGE.replace("LENGTH", length).replace(
            "STORAGE", storage)
        if storage == "Function":
            text = text.replace("GLOBAL\n", "").replace(
                "LOCAL", "%a = OpVariable %parr Function")
        else:
            text = text.replace("GLOBAL", "%a = OpVariable %parr Workgroup"
                                ).replace("LOCAL\n", "")
        huge = write_case(env, "huge-" + storage, text, "huge")
        rc, out, err, _ = env.run(["run", huge])
        if not expect_rc(env, test, rc, (2,), err):
            continue
        if b"memory" not in err or (b"GiB" not in err and b"2^64" not in err):
            env.fail(test, "the message names neither memory nor size: %r"
                     % err[-300:])
    # A finding whose module was swapped for another kernel's.
    shard = os.path.join(env.work, "swap-shard")
    shutil.rmtree(shard, ignore_errors=True)
    env.fake_consumer("crash")
    env.run(["campaign", "--target=ref,spirv-opt", "--iterations=1",
             "--out=" + shard])
    findings = os.path.join(shard, "findings")
    names = [n for n in os.listdir(findings) if not n.startswith(".")] \
        if os.path.isdir(findings) else []
    if not names:
        env.fail("exit/swapped", "set-up: no finding")
        return
    shutil.copy(os.path.join(endless, "module.spv"),
                os.path.join(findings, names[0], "case", "module.spv"))
    for cmd in ("reduce", "report"):
        test = "exit/swapped-%s" % cmd
        rc, out, err, _ = env.run([cmd, os.path.join(findings, names[0])])
        if expect_rc(env, test, rc, (2,), err) and \
                b"do not belong together" not in err:
            env.fail(test, "the mismatch is not named: %r" % err[-300:])
        check_clean(env, test)


TESTS = [test_non_utf8, test_odd_outputs, test_daemons, test_file_size_limit,
         test_signals, test_closed_stdout, test_links_out_of_case,
         test_commands_for_users, test_exit_codes]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    env = Env(a.binary, a.work, a.verbose)
    shutil.rmtree(env.work, ignore_errors=True)
    for d in (env.work, env.tmp, env.empty):
        os.makedirs(d)
    if not shutil.which("spirv-as"):
        print("consumers.py: spirv-as is not installed", file=sys.stderr)
        return 2
    case = os.path.join(env.work, "case")
    rc, out, err, _ = env.run(["generate", "--seed=21", "--count=1",
                               "--out=" + case])
    if rc != 0:
        print("consumers.py: cannot generate a case: %r" % err,
              file=sys.stderr)
        return 2
    for t in TESTS:
        if a.only and not re.search(a.only, t.__name__):
            continue
        print("== %s" % t.__name__, flush=True)
        t(env, case)
    left = leftover_processes()
    for entry in left:
        os.kill(int(entry.split()[0]), signal.SIGKILL)
    print("%d failure(s)" % len(env.failures))
    for f in env.failures:
        print("  " + f)
    return 1 if env.failures else 0


if __name__ == "__main__":
    sys.exit(main())
