"""The yield of nightly runs, night after night.

A night's yield is what its campaigns' CPU bought: job-hours (the sum of
every job's case time, stats.json case_nanos), cases, cases/s per target
(runs over the time spent in that target), and unique findings per
job-hour, split into new consumer bugs and known ones (known.json, written
when a reduced finding is matched against the registry; a finding not
reduced yet is "unmatched").

Each run directory gets yield-history.jsonl: the previous run's history
(ci/nightly's PREVIOUS_RUN_DIR) plus this night, one JSON object a line,
sorted by start time, at most MAX_NIGHTS. A previous run from before this
file existed counts with the yield computed from its own directory. The
report plots the history (cases/s per target, findings per CPU-hour).
"""

import json
import os
import time

from svg_chart import svg_chart

HISTORY_FILE = "yield-history.jsonl"
MAX_NIGHTS = 400
MAX_X_TICKS = 8
NUMBER_FIELDS = ("started_unix", "job_hours", "cases", "unique_findings",
                 "unique_findings_per_job_hour", "new_bugs_per_job_hour",
                 "known_bugs_per_job_hour")


def per_hour(count, hours):
    return count / hours if hours > 0 else 0.0


def night_yield(run, findings):
    """This night's yield from its campaigns and unique findings."""
    job_nanos = cases = 0
    runs, nanos = {}, {}
    for c in run["campaigns"]:
        stats = c["stats"]
        job_nanos += stats.get("case_nanos", 0)
        cases += stats.get("cases", 0)
        for name, t in stats.get("targets", {}).items():
            runs[name] = runs.get(name, 0) + t.get("runs", 0)
            nanos[name] = nanos.get(name, 0) + t.get("nanos", 0)
    hours = job_nanos / 3.6e12
    new = sum(1 for f in findings if f.get("known") == "")
    known = sum(1 for f in findings if f.get("known"))
    started = run["meta"].get("started_unix")
    return {
        "started_unix": int(started) if isinstance(started, (int, float)) else int(time.time()),
        "budget": str(run["meta"].get("budget", "?")),
        "job_hours": hours,
        "cases": cases,
        "cases_per_job_second": cases / (hours * 3600) if hours > 0 else 0.0,
        "targets": {name: {"runs": runs[name],
                           "cases_per_second": runs[name] / (nanos[name] / 1e9)
                           if nanos[name] else 0.0}
                    for name in sorted(runs)},
        "unique_findings": len(findings),
        "new_bugs": new,
        "known_bugs": known,
        "unmatched": len(findings) - new - known,
        "unique_findings_per_job_hour": per_hour(len(findings), hours),
        "new_bugs_per_job_hour": per_hour(new, hours),
        "known_bugs_per_job_hour": per_hour(known, hours),
    }


def check_night(night, where, error):
    """A history line must be an object with numeric fields; else error()."""
    if not isinstance(night, dict):
        raise error(f"{where}: not a JSON object")
    for key in NUMBER_FIELDS:
        value = night.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            raise error(f"{where}: '{key}' is {json.dumps(value)}, expected a "
                        "non-negative number (delete the line, or run without "
                        "the previous run to start a new history)")
    targets = night.get("targets", {})
    if not isinstance(targets, dict) or not all(
            isinstance(t, dict) and isinstance(t.get("cases_per_second"), (int, float))
            for t in targets.values()):
        raise error(f"{where}: 'targets' must map each target to "
                    "{\"cases_per_second\": number}")
    return night


def read_history(run_dir, error):
    """The nights recorded in RUN_DIR/yield-history.jsonl, or None."""
    path = os.path.join(run_dir, HISTORY_FILE)
    if not os.path.exists(path):
        return None
    nights = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    night = json.loads(line)
                except ValueError as e:
                    raise error(f"{path}:{number}: not valid JSON ({e}); delete the "
                                "line, or run without the previous run") from e
                nights.append(check_night(night, f"{path}:{number}", error))
    except OSError as e:
        raise error(f"{path}: cannot read ({e})") from e
    return nights


def merge(history, night):
    """History plus this night: one entry per start time, oldest first."""
    by_start = {n["started_unix"]: n for n in history}
    by_start[night["started_unix"]] = night
    return [by_start[k] for k in sorted(by_start)][-MAX_NIGHTS:]


def history_text(nights):
    return "".join(json.dumps(n, sort_keys=True) + "\n" for n in nights)


def night_label(night):
    return time.strftime("%m-%d", time.gmtime(night["started_unix"]))


def x_ticks(nights):
    step = max(1, -(-len(nights) // MAX_X_TICKS))
    return [(i + 1, night_label(n)) for i, n in enumerate(nights) if i % step == 0]


def series(nights):
    """(cases/s per target, findings per CPU-hour) by night number (1..N)."""
    rates, found = {}, {"unique findings": [], "new bugs": [], "known bugs": []}
    for i, night in enumerate(nights, 1):
        for name, t in night.get("targets", {}).items():
            rates.setdefault(name, []).append((i, t["cases_per_second"]))
        found["unique findings"].append((i, night["unique_findings_per_job_hour"]))
        found["new bugs"].append((i, night["new_bugs_per_job_hour"]))
        found["known bugs"].append((i, night["known_bugs_per_job_hour"]))
    return rates, found


def render_html(nights, escape):
    rates, found = series(nights)
    ticks = x_ticks(nights)
    span = (0.5, len(nights) + 0.5)  # one night sits in the middle
    out = ["<h2>Yield across nights</h2>",
           f'<p class="note">{len(nights)} night(s) in {HISTORY_FILE}; a CPU-hour is '
           "a job-hour (the sum of every job's case time). New and known bugs count "
           "reduced findings matched against the registry.</p>",
           svg_chart("chart-yield-cases", "Cases per second per target, by night",
                     rates, "night (UTC date)", "cases/s", x_ticks=ticks, x_range=span),
           svg_chart("chart-yield-findings", "Findings per CPU-hour, by night",
                     found, "night (UTC date)", "findings / CPU-hour", x_ticks=ticks,
                     x_range=span),
           '<table id="yield"><tr><th>night</th><th>budget</th><th>CPU-hours</th>'
           "<th>cases</th><th>cases/CPU-s</th><th>unique findings</th>"
           "<th>per CPU-hour</th><th>new bugs / CPU-hour</th>"
           "<th>known bugs / CPU-hour</th></tr>"]
    for night in nights[-14:]:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(night["started_unix"]))
        out.append(
            f"<tr><td>{escape(when)}</td><td>{escape(str(night.get('budget', '?')))}</td>"
            f'<td class="num">{night["job_hours"]:.2f}</td>'
            f'<td class="num">{night["cases"]}</td>'
            f'<td class="num">{night.get("cases_per_job_second", 0):.2f}</td>'
            f'<td class="num">{night["unique_findings"]}</td>'
            f'<td class="num">{night["unique_findings_per_job_hour"]:.1f}</td>'
            f'<td class="num">{night["new_bugs_per_job_hour"]:.1f}</td>'
            f'<td class="num">{night["known_bugs_per_job_hour"]:.1f}</td></tr>')
    out.append("</table>")
    return out


def render_markdown(nights):
    lines = ["## Yield across nights", "",
             "| night | CPU-hours | cases | cases/CPU-s | unique findings | per CPU-hour | "
             "new bugs / CPU-hour | known bugs / CPU-hour |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for night in nights[-14:]:
        when = time.strftime("%Y-%m-%d", time.gmtime(night["started_unix"]))
        lines.append(f"| {when} | {night['job_hours']:.2f} | {night['cases']} | "
                     f"{night.get('cases_per_job_second', 0):.2f} | "
                     f"{night['unique_findings']} | "
                     f"{night['unique_findings_per_job_hour']:.1f} | "
                     f"{night['new_bugs_per_job_hour']:.1f} | "
                     f"{night['known_bugs_per_job_hour']:.1f} |")
    last = nights[-1] if nights else None
    if last and last.get("targets"):
        lines += ["", "Cases/s per target tonight: " + ", ".join(
            f"{name} {t['cases_per_second']:.1f}"
            for name, t in sorted(last["targets"].items())) + "."]
    return lines
