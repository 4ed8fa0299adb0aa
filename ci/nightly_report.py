#!/usr/bin/env python3
"""Renders the report of a nightly run directory (ci/nightly).

    ci/nightly_report.py RUN_DIR [--previous PREVIOUS_RUN_DIR]

Reads RUN_DIR/nightly.json (what ran, notes), every campaign under
RUN_DIR/campaigns/<name>/ (stats.json, stats-history.jsonl, findings/), and
RUN_DIR/coverage.json (`l0spv-fuzz generate --stats --json`), and writes

  RUN_DIR/report.html    self-contained (inline CSS and SVG, no network)
  RUN_DIR/report.md      the same facts as Markdown
  RUN_DIR/signatures.txt one finding signature per line (the next night's
                         "new since the previous run" compares against it)
  RUN_DIR/yield-history.jsonl  the previous run's nights plus this one
                         (ci/nightly_yield.py): the yield across nights

The report: unique findings by target and verdict (each with its reduced
kernel's disassembly when the finding was reduced, else the generated one,
and its reproduce command), which findings are new since the previous run,
cases/s and findings over time (SVG charts from stats-history.jsonl),
the yield across nights (cases/s per target and findings per CPU-hour,
new and known bugs apart: SVG charts and a table),
per-target rates of build failures (rejected-valid), timeouts and crashes
with time per run and harness overhead, each target's reach (the opcodes
and OpenCL.std instructions its cases held, by opcode family:
ci/nightly_reach.py), and the generator's opcode coverage.

Python 3 standard library only. Exit 0 on success, 2 on a missing or
malformed input (the message names the file) or a failed write (every
output is written whole or not at all).
"""

import argparse
import html
import json
import os
import sys
import time

import nightly_reach
import nightly_yield
from svg_chart import svg_chart

# Verdict kinds that are findings (oracles/verdict/verdict.h).
FINDING_KINDS = ("crash", "timeout", "rejected-valid", "accepted-invalid",
                 "mismatch", "target-ub", "ub")
MAX_DISASSEMBLY_LINES = 400


class InputError(Exception):
    """A missing or malformed input file (exit 2)."""


def read_json(path, default=None):
    if not os.path.exists(path):
        if default is not None:
            return default
        raise InputError(f"{path}: missing")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: not valid JSON ({e})") from e


def read_history(path):
    """Snapshots of stats-history.jsonl; a line cut by a kill is skipped."""
    points = []
    if not os.path.exists(path):
        return points
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                snap = json.loads(line)
            except ValueError:
                continue
            if isinstance(snap, dict) and "stats" in snap:
                points.append(snap)
    points.sort(key=lambda s: s.get("elapsed_s", 0))
    return points


def read_text(path, max_lines=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    if max_lines is not None and len(lines) > max_lines:
        cut = len(lines) - max_lines
        lines = lines[:max_lines] + [f"; ... {cut} more lines in the file"]
    return "\n".join(lines)


def load_finding(path, campaign):
    verdict = read_json(os.path.join(path, "verdict.json"))
    for key in ("kind", "target", "signature"):
        if key not in verdict:
            raise InputError(f"{path}/verdict.json: no '{key}'")
    seeds_dir = os.path.join(path, "seeds")
    seeds = len(os.listdir(seeds_dir)) if os.path.isdir(seeds_dir) else 1
    # The reduced kernel (`l0spv-fuzz reduce` writes reduced/)
    # when there is one, else the generated case.
    disassembly, reduced = None, False
    for candidate in ("reduced/module.spvasm", "reduced/case/module.spvasm"):
        text = read_text(os.path.join(path, candidate), MAX_DISASSEMBLY_LINES)
        if text is not None:
            disassembly, reduced = text, True
            break
    if disassembly is None:
        disassembly = read_text(os.path.join(path, "case", "module.spvasm"),
                                MAX_DISASSEMBLY_LINES)
    # Known consumer bug or new (reducers/known_match.h writes known.json
    # after reduction): None = not matched yet, "" = new, else the entry.
    known_path = os.path.join(path, "known.json")
    known_doc = read_json(known_path) if os.path.exists(known_path) else None
    known = None
    if isinstance(known_doc, dict):
        known = known_doc.get("known") or ""
    reproduce = verdict.get("reproduce", "")
    reduced_reproduce = read_text(os.path.join(path, "reduced", "REPRODUCE"))
    if reduced and reduced_reproduce:
        reproduce = reduced_reproduce.strip()
    return {
        "dir": os.path.basename(path),
        "path": path,
        "campaign": campaign,
        "kind": verdict["kind"],
        "target": verdict["target"],
        "signature": verdict["signature"],
        "explanation": verdict.get("explanation", ""),
        "first_seed": verdict.get("first_seed"),
        "seeds": seeds,
        "reproduce": reproduce,
        "reduced": reduced,
        "known": known,
        "disassembly": disassembly or "(no disassembly in the finding)",
    }


def load_campaign(path):
    name = os.path.basename(path)
    stats = read_json(os.path.join(path, "stats.json"), default={})
    findings = []
    fdir = os.path.join(path, "findings")
    if os.path.isdir(fdir):
        for entry in sorted(os.listdir(fdir)):
            full = os.path.join(fdir, entry)
            if os.path.isdir(full) and not entry.startswith(".tmp-"):
                findings.append(load_finding(full, name))
    return {
        "name": name,
        "stats": stats,
        "history": read_history(os.path.join(path, "stats-history.jsonl")),
        "findings": findings,
    }


def load_run(run_dir):
    if not os.path.isdir(run_dir):
        raise InputError(f"{run_dir}: not a directory")
    meta = read_json(os.path.join(run_dir, "nightly.json"), default={})
    campaigns = []
    cdir = os.path.join(run_dir, "campaigns")
    if os.path.isdir(cdir):
        for entry in sorted(os.listdir(cdir)):
            if os.path.isdir(os.path.join(cdir, entry)):
                campaigns.append(load_campaign(os.path.join(cdir, entry)))
    coverage = read_json(os.path.join(run_dir, "coverage.json"), default={})
    return {"dir": run_dir, "meta": meta, "campaigns": campaigns,
            "coverage": coverage}


def run_signatures(run):
    return sorted({f["signature"] for c in run["campaigns"]
                   for f in c["findings"]})


def previous_signatures(previous_dir):
    """Signatures of an earlier run: its signatures.txt, else its findings."""
    if previous_dir is None:
        return None
    listed = os.path.join(previous_dir, "signatures.txt")
    if os.path.exists(listed):
        with open(listed, encoding="utf-8") as f:
            return {line.strip() for line in f if line.strip()}
    return set(run_signatures(load_run(previous_dir)))


def target_rows(run):
    """Per campaign and target: runs, verdict counts, rates, time per run."""
    rows = []
    for c in run["campaigns"]:
        stats = c["stats"]
        case_ns = stats.get("case_nanos", 0)
        harness = (100.0 * stats.get("harness_nanos", 0) / case_ns
                   if case_ns else None)
        for name, t in sorted(stats.get("targets", {}).items()):
            runs = t.get("runs", 0)
            v = t.get("verdicts", {})

            def rate(kind):
                return 100.0 * v.get(kind, 0) / runs if runs else 0.0

            rows.append({
                "campaign": c["name"], "target": name, "runs": runs,
                "ok": v.get("ok", 0), "skipped": v.get("skipped", 0),
                "build_failure_pct": rate("rejected-valid"),
                "timeout_pct": rate("timeout"), "crash_pct": rate("crash"),
                "mismatch_pct": rate("mismatch"),
                "ms_per_run": (t.get("nanos", 0) / runs / 1e6) if runs else 0,
                "harness_pct": harness,
            })
    return rows


def rate_series(campaign):
    """(elapsed s, cases/s over the interval) and (elapsed s, findings)."""
    cases, findings = [], []
    prev_t, prev_n = 0.0, 0
    for snap in campaign["history"]:
        t = float(snap.get("elapsed_s", 0))
        n = int(snap["stats"].get("cases", 0))
        if t > prev_t:
            cases.append((t, (n - prev_n) / (t - prev_t)))
        prev_t, prev_n = t, n
        findings.append((t, int(snap.get("unique_findings", 0))))
    return cases, findings


def all_findings(run):
    return sorted((f for c in run["campaigns"] for f in c["findings"]),
                  key=lambda f: (f["target"], f["kind"], f["signature"]))


def fmt_pct(value):
    return "–" if value is None else f"{value:.1f} %"


CSS = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; font-size: 90%; }
th { background: #f0f0f0; }
td.num { text-align: right; }
.new { color: #fff; background: #d62728; padding: 0 4px; border-radius: 3px; }
pre { background: #f7f7f7; padding: 8px; overflow-x: auto; font-size: 80%; }
code { font-size: 90%; }
.chart text { font-size: 11px; fill: #333; }
.chart .chart-title { font-size: 13px; font-weight: bold; }
.note { color: #555; }
"""


def render_html(run, previous, nights):
    meta = run["meta"]
    findings = all_findings(run)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>l0spv-fuzz nightly report</title>",
           f"<style>{CSS}</style></head><body>",
           "<h1>l0spv-fuzz nightly report</h1>"]
    started = meta.get("started_unix")
    when = (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started))
            if started else "unknown time")
    out.append(f"<p>Run of {html.escape(when)}, budget "
               f"{html.escape(str(meta.get('budget', '?')))}, "
               f"{len(run['campaigns'])} campaign(s), targets: "
               f"<code>{html.escape(', '.join(meta.get('targets', [])) or 'ref')}</code>. "
               f"Directory <code>{html.escape(run['dir'])}</code>.</p>")
    notes = meta.get("notes", [])
    if notes:
        out.append('<ul class="note">' + "".join(
            f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>")

    # Summary by target and verdict.
    new_count = (sum(1 for f in findings if f["signature"] not in previous)
                 if previous is not None else None)
    out.append("<h2>Findings</h2>")
    summary = {}
    for f in findings:
        summary.setdefault((f["target"], f["kind"]), 0)
        summary[(f["target"], f["kind"])] += 1
    prev_note = ("no previous run given" if previous is None
                 else f"{new_count} new since the previous run")
    out.append(f"<p>{len(findings)} unique finding(s); {html.escape(prev_note)}; "
               f"{html.escape(known_note(findings))}.</p>")
    if summary:
        out.append('<table id="findings-summary"><tr><th>target</th><th>verdict</th>'
                   "<th>unique findings</th></tr>")
        for (target, kind), n in sorted(summary.items()):
            out.append(f"<tr><td>{html.escape(target)}</td><td>{html.escape(kind)}</td>"
                       f'<td class="num">{n}</td></tr>')
        out.append("</table>")
    out.append('<table id="findings"><tr><th>#</th><th>target</th><th>verdict</th>'
               "<th>signature</th><th>hits</th><th>campaign</th><th>status</th>"
               "<th>known bug</th></tr>")
    for i, f in enumerate(findings, 1):
        is_new = previous is not None and f["signature"] not in previous
        status = '<span class="new">new</span>' if is_new else (
            "seen before" if previous is not None else "")
        out.append(f'<tr class="finding"><td><a href="#f{i}">{i}</a></td>'
                   f"<td>{html.escape(f['target'])}</td><td>{html.escape(f['kind'])}</td>"
                   f"<td><code>{html.escape(f['signature'])}</code></td>"
                   f'<td class="num">{f["seeds"]}</td><td>{html.escape(f["campaign"])}</td>'
                   f"<td>{status}</td><td>{html.escape(known_cell(f))}</td></tr>")
    out.append("</table>")
    if previous is not None:
        gone = sorted(previous - set(run_signatures(run)))
        if gone:
            out.append("<p>Seen in the previous run, not in this one: " +
                       ", ".join(f"<code>{html.escape(s)}</code>" for s in gone) + "</p>")
    for i, f in enumerate(findings, 1):
        which = "reduced kernel" if f["reduced"] else "generated kernel (not reduced)"
        out.append(f'<h3 id="f{i}">{i}. {html.escape(f["kind"])} on '
                   f'{html.escape(f["target"])}</h3>')
        # Multi-line explanations (a consumer's stack dump) keep their lines.
        if "\n" in f["explanation"]:
            first, rest = f["explanation"].split("\n", 1)
            out.append(f"<p>{html.escape(first)}</p><details><summary>details</summary>"
                       f"<pre>{html.escape(rest)}</pre></details>")
        else:
            out.append(f"<p>{html.escape(f['explanation'])}</p>")
        out.append(f"<p>Finding directory <code>{html.escape(f['path'])}</code>; "
                   f"first seed {html.escape(str(f['first_seed']))}.</p>")
        out.append(f"<p>Reproduce:</p><pre>{html.escape(f['reproduce'])}</pre>")
        out.append(f"<details><summary>{which}: disassembly</summary>"
                   f'<pre class="disassembly">{html.escape(f["disassembly"])}</pre></details>')

    # Over time.
    out.append("<h2>Over time</h2>")
    rates, found = {}, {}
    for c in run["campaigns"]:
        rates[c["name"]], found[c["name"]] = rate_series(c)
    out.append(svg_chart("chart-cases-per-second", "Cases per second", rates,
                         "seconds into the run", "cases/s"))
    out.append(svg_chart("chart-findings", "Unique findings", found,
                         "seconds into the run", "findings"))

    out += nightly_yield.render_html(nights, html.escape)

    # Per-target rates.
    out.append("<h2>Targets</h2>")
    out.append('<table id="targets"><tr><th>campaign</th><th>target</th><th>runs</th>'
               "<th>ok</th><th>skipped</th><th>build failures</th><th>timeouts</th>"
               "<th>crashes</th><th>mismatches</th><th>ms/run</th>"
               "<th>harness overhead</th></tr>")
    for r in target_rows(run):
        out.append(
            f"<tr><td>{html.escape(r['campaign'])}</td><td>{html.escape(r['target'])}</td>"
            f'<td class="num">{r["runs"]}</td><td class="num">{r["ok"]}</td>'
            f'<td class="num">{r["skipped"]}</td>'
            f'<td class="num">{fmt_pct(r["build_failure_pct"])}</td>'
            f'<td class="num">{fmt_pct(r["timeout_pct"])}</td>'
            f'<td class="num">{fmt_pct(r["crash_pct"])}</td>'
            f'<td class="num">{fmt_pct(r["mismatch_pct"])}</td>'
            f'<td class="num">{r["ms_per_run"]:.1f}</td>'
            f'<td class="num">{fmt_pct(r["harness_pct"])}</td></tr>')
    out.append("</table>")
    out.append('<p class="note">Build failures = rejected-valid verdicts (a valid, '
               "lint-clean module the consumer refused); harness overhead = case time "
               "outside every target, per campaign.</p>")

    out += nightly_reach.render_html(run, html.escape)

    # Coverage.
    cov = run["coverage"]
    out.append("<h2>Generator coverage</h2>")
    if cov:
        out.append(f"<p>{cov.get('modules', 0)} generated modules (median "
                   f"{cov.get('median_instructions', '?')} instructions): "
                   f"{cov.get('distinct_opcodes', 0)} distinct core opcodes, "
                   f"{cov.get('distinct_opencl_std', 0)} OpenCL.std instructions.</p>")
        out.append('<table id="coverage"><tr><th>opcode</th><th>modules</th>'
                   "<th>occurrences</th></tr>")
        for name, c in sorted(cov.get("opcodes", {}).items(),
                              key=lambda kv: (kv[1].get("modules", 0), kv[0])):
            out.append(f"<tr><td>{html.escape(name)}</td>"
                       f'<td class="num">{c.get("modules", 0)}</td>'
                       f'<td class="num">{c.get("occurrences", 0)}</td></tr>')
        out.append("</table>")
    else:
        out.append("<p>No coverage table in this run.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def known_note(findings):
    """'N new bug(s), M known (registry)' over the matched findings."""
    known = sum(1 for f in findings if f.get("known"))
    new = sum(1 for f in findings if f.get("known") == "")
    unmatched = sum(1 for f in findings if f.get("known") is None)
    note = f"{new} new consumer bug(s), {known} known (corpora/known-consumer-bugs)"
    if unmatched:
        note += f", {unmatched} not matched (not reduced)"
    return note


def known_cell(f):
    if f.get("known"):
        return f["known"]
    return "new" if f.get("known") == "" else ""


def render_markdown(run, previous, nights):
    meta = run["meta"]
    findings = all_findings(run)
    lines = ["# l0spv-fuzz nightly report", ""]
    lines.append(f"Budget {meta.get('budget', '?')}, {len(run['campaigns'])} campaign(s), "
                 f"targets: `{', '.join(meta.get('targets', [])) or 'ref'}`.")
    for n in meta.get("notes", []):
        lines.append(f"- {n}")
    lines += ["", "## Findings", ""]
    if previous is not None:
        new = sum(1 for f in findings if f["signature"] not in previous)
        lines.append(f"{len(findings)} unique finding(s), {new} new since the previous run; "
                     f"{known_note(findings)}.")
    else:
        lines.append(f"{len(findings)} unique finding(s) (no previous run given); "
                     f"{known_note(findings)}.")
    lines += ["", "| # | target | verdict | signature | hits | new | known bug |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for i, f in enumerate(findings, 1):
        new = ("yes" if f["signature"] not in previous else "no") if previous is not None else ""
        lines.append(f"| {i} | {f['target']} | {f['kind']} | `{f['signature']}` | "
                     f"{f['seeds']} | {new} | {known_cell(f)} |")
    for i, f in enumerate(findings, 1):
        lines += ["", f"### {i}. {f['kind']} on {f['target']}", "", f["explanation"], "",
                  "```sh", f["reproduce"], "```", "",
                  "Reduced kernel:" if f["reduced"] else "Generated kernel (not reduced):",
                  "", "```", f["disassembly"], "```"]
    lines += ["", "## Targets", "",
              "| campaign | target | runs | build failures | timeouts | crashes | "
              "mismatches | ms/run | harness overhead |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in target_rows(run):
        lines.append(f"| {r['campaign']} | {r['target']} | {r['runs']} | "
                     f"{fmt_pct(r['build_failure_pct'])} | {fmt_pct(r['timeout_pct'])} | "
                     f"{fmt_pct(r['crash_pct'])} | {fmt_pct(r['mismatch_pct'])} | "
                     f"{r['ms_per_run']:.1f} | {fmt_pct(r['harness_pct'])} |")
    lines += ["", "## Over time", ""]
    for c in run["campaigns"]:
        rates, found = rate_series(c)
        if rates:
            avg = sum(r for _, r in rates) / len(rates)
            lines.append(f"- {c['name']}: {len(c['history'])} snapshots, mean "
                         f"{avg:.1f} cases/s, {found[-1][1] if found else 0} findings at the end")
        else:
            lines.append(f"- {c['name']}: no snapshots")
    lines += [""] + nightly_yield.render_markdown(nights)
    lines += [""] + nightly_reach.render_markdown(run)
    cov = run["coverage"]
    lines += ["", "## Generator coverage", ""]
    if cov:
        lines.append(f"{cov.get('modules', 0)} modules: {cov.get('distinct_opcodes', 0)} "
                     f"distinct core opcodes, {cov.get('distinct_opencl_std', 0)} "
                     "OpenCL.std instructions (full table in report.html).")
    else:
        lines.append("No coverage table in this run.")
    return "\n".join(lines) + "\n"


def write_atomically(path, text):
    """Writes PATH whole or not at all (a full disk raises OSError)."""
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def yield_history(run, previous_dir):
    """The nights up to this one: the previous run's history (or that run
    itself, from before histories were kept), else this directory's own
    history (a report rendered again), plus tonight."""
    nights = None
    if previous_dir is not None:
        nights = nightly_yield.read_history(previous_dir, InputError)
        if nights is None:
            prev = load_run(previous_dir)
            nights = ([nightly_yield.night_yield(prev, all_findings(prev))]
                      if prev["campaigns"] and prev["meta"].get("started_unix") else [])
    if nights is None:
        nights = nightly_yield.read_history(run["dir"], InputError) or []
    return nightly_yield.merge(nights, nightly_yield.night_yield(run, all_findings(run)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--previous", help="an earlier run directory to diff against")
    args = parser.parse_args(argv)
    try:
        run = load_run(args.run_dir)
        previous = previous_signatures(args.previous)
        nights = yield_history(run, args.previous)
    except InputError as e:
        print(f"nightly_report: {e}", file=sys.stderr)
        return 2
    outputs = {
        "report.html": render_html(run, previous, nights),
        "report.md": render_markdown(run, previous, nights),
        "signatures.txt": "".join(s + "\n" for s in run_signatures(run)),
        nightly_yield.HISTORY_FILE: nightly_yield.history_text(nights),
    }
    for name, text in outputs.items():
        path = os.path.join(args.run_dir, name)
        try:
            write_atomically(path, text)
        except OSError as e:
            print(f"nightly_report: cannot write {path}: {e.strerror or e}; free "
                  "space or fix permissions, then run ci/nightly_report.py again",
                  file=sys.stderr)
            return 2
    print(f"report: {os.path.join(args.run_dir, 'report.html')} "
          f"({len(all_findings(run))} findings)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
