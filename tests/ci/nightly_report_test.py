#!/usr/bin/env python3
"""Tests of ci/nightly_report.py on a run directory built here.

    nightly_report_test.py             the renderer's unit tests
    nightly_report_test.py --chromium  renders a report and loads it in
                                       headless Chromium (exit 77 = skipped:
                                       no chromium on this machine)
"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(HERE, "..", "..", "ci"))
import nightly_report  # noqa: E402


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def stats(cases, targets):
    return {"cases": cases, "generator_errors": 0, "new_findings": 0,
            "duplicate_hits": 0, "case_nanos": cases * 10_000_000,
            "harness_nanos": cases * 100_000, "targets": targets}


def make_finding(campaign_dir, name, kind, target, signature, seeds=2,
                 reduced=False):
    d = os.path.join(campaign_dir, "findings", name)
    write(os.path.join(d, "verdict.json"), json.dumps({
        "kind": kind, "target": target, "signature": signature,
        "explanation": f"{target} did <something> wrong\nStack dump:\n#0 frame",
        "first_seed": 7,
        "reproduce": f"l0spv-fuzz check {d}/case --target='{target}'"}))
    write(os.path.join(d, "case", "module.spvasm"),
          "; SPIR-V\nOpCapability Kernel\n; generated\n")
    for s in range(seeds):
        write(os.path.join(d, "seeds", str(s)), "")
    if reduced:
        write(os.path.join(d, "reduced", "module.spvasm"),
              "; SPIR-V\nOpCapability Kernel\n; REDUCED-KERNEL\n")
        write(os.path.join(d, "reduced", "REPRODUCE"),
              f"l0spv-fuzz check {d}/reduced --target='{target}'\n")
    return d


def make_run(root, signatures=("crash:spirv-opt:signal-11", "mismatch:opencl:bytes"),
             started=1_700_000_000):
    """A run directory as ci/nightly leaves it: one campaign, two findings."""
    c = os.path.join(root, "campaigns", "plain")
    targets = {
        "ref": {"runs": 100, "nanos": 200_000_000, "verdicts": {"ok": 100}},
        "spirv-opt": {"runs": 100, "nanos": 900_000_000,
                      "verdicts": {"ok": 90, "crash": 6, "rejected-valid": 4}},
        "opencl:Portable Computing Language": {
            "runs": 100, "nanos": 90_000_000_000,
            "verdicts": {"ok": 95, "mismatch": 3, "timeout": 2}},
    }
    write(os.path.join(c, "stats.json"), json.dumps(stats(100, targets)))
    lines = []
    for i, (t, n, f) in enumerate([(10, 20, 0), (20, 45, 1), (30, 70, 2), (40, 100, 2)]):
        lines.append(json.dumps({"elapsed_s": t, "unix_s": 1_700_000_000 + t,
                                 "unique_findings": f, "stats": stats(n, targets)}))
    write(os.path.join(c, "stats-history.jsonl"), "\n".join(lines) + "\n{\"cut")
    make_finding(c, "crash.spirv-opt.a", "crash", "spirv-opt", signatures[0],
                 reduced=True)
    make_finding(c, "mismatch.opencl.b", "mismatch",
                 "opencl:Portable Computing Language", signatures[1])
    write(os.path.join(root, "coverage.json"), json.dumps({
        "modules": 2000, "median_instructions": 371, "distinct_opcodes": 154,
        "distinct_opencl_std": 125,
        "opcodes": {"OpIAdd": {"modules": 1900, "occurrences": 9000},
                    "OpAll": {"modules": 3, "occurrences": 3}},
        "opencl_std": {}}))
    write(os.path.join(root, "nightly.json"), json.dumps({
        "budget": "15m", "started_unix": started,
        "targets": ["ref", "spirv-opt"], "mutate": False,
        "notes": ["--mutate not available in this build"]}))
    return root


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nightly_report_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def render(self, run, previous=None):
        argv = [run] + (["--previous", previous] if previous else [])
        self.assertEqual(nightly_report.main(argv), 0)
        with open(os.path.join(run, "report.html"), encoding="utf-8") as f:
            page = f.read()
        with open(os.path.join(run, "report.md"), encoding="utf-8") as f:
            md = f.read()
        return page, md

    def test_known_and_new_findings_are_counted_apart(self):
        run = make_run(os.path.join(self.tmp, "run"))
        findings = os.path.join(run, "campaigns", "plain", "findings")
        names = sorted(os.listdir(findings))
        write(os.path.join(findings, names[0], "known.json"),
              json.dumps({"known": "spirv_opt_constant_branch_crash",
                          "how": "signature"}))
        write(os.path.join(findings, names[1], "known.json"),
              json.dumps({"known": None, "how": None}))
        page, md = self.render(run)
        self.assertIn("1 new consumer bug(s), 1 known", page)
        self.assertIn("1 new consumer bug(s), 1 known", md)
        self.assertIn("spirv_opt_constant_branch_crash", md)
        self.assertIn("| new |", md)

    def test_reach_table_by_target_and_opcode_family(self):
        run = make_run(os.path.join(self.tmp, "run"))
        path = os.path.join(run, "campaigns", "plain", "stats.json")
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        s["targets"]["spirv-opt"]["runs"] = 45
        s["coverage"] = {
            "spirv-opt": {"core": ["OpIAdd", "OpISub", "OpGroupNonUniformBallot",
                                   "OpAtomicFAddEXT"],
                          "opencl_std": ["sqrt"]},
            "opencl:Portable Computing Language": {"core": ["OpIAdd"],
                                                   "opencl_std": []}}
        write(path, json.dumps(s))
        classes = {"OpIAdd": "Arithmetic", "OpISub": "Arithmetic",
                   "OpGroupNonUniformBallot": "Non-Uniform",
                   "OpAtomicFAddEXT": "Atomic"}
        rows = nightly_report.nightly_reach.reach_rows(
            nightly_report.load_run(run), classes)
        by_target = {r["target"]: r for r in rows}
        self.assertEqual(by_target["spirv-opt"]["core"], 4)
        self.assertEqual(by_target["spirv-opt"]["runs"], 45)
        self.assertEqual(by_target["spirv-opt"]["families"],
                         {"Arithmetic": 2, "Non-Uniform": 1, "Atomic": 1})
        md = "\n".join(nightly_report.nightly_reach.render_markdown(
            nightly_report.load_run(run), classes))
        self.assertIn("| Arithmetic | Atomic | Non-Uniform |", md)
        self.assertIn("| plain | spirv-opt | 45 % | 4 | 1 | 2 | 1 | 1 |", md)
        page, md = self.render(run)
        self.assertIn('id="reach"', page)
        self.assertIn("## Reach per target", md)

    def test_reach_without_coverage_says_so(self):
        run = make_run(os.path.join(self.tmp, "run"))
        page, md = self.render(run)
        self.assertIn("No per-target coverage in this run.", page)
        self.assertIn("No per-target coverage in this run.", md)

    def test_findings_table_charts_rates_coverage(self):
        run = make_run(os.path.join(self.tmp, "run"))
        page, md = self.render(run)
        self.assertEqual(page.count('<tr class="finding">'), 2)
        self.assertIn('id="chart-cases-per-second"', page)
        self.assertIn('id="chart-findings"', page)
        self.assertIn("<polyline", page)
        # The reduced kernel is shown when there is one, else the generated.
        self.assertIn("REDUCED-KERNEL", page)
        self.assertIn("reduced kernel: disassembly", page)
        self.assertIn("generated kernel (not reduced)", page)
        self.assertIn("--target=&#x27;spirv-opt&#x27;", page)  # repro command
        # Escaped, never raw HTML from a finding.
        self.assertNotIn("did <something>", page)
        # A stack dump keeps its lines, folded under the first one.
        self.assertIn("<summary>details</summary><pre>Stack dump:\n#0 frame</pre>", page)
        # Rates: 4 rejected-valid of 100 spirv-opt runs; 2 timeouts on PoCL.
        self.assertRegex(page, r"spirv-opt</td><td class=\"num\">100</td>.*?4\.0 %")
        self.assertIn("2.0 %", page)
        self.assertIn("OpAll", page)
        self.assertIn("no previous run given", page)
        self.assertIn("| 1 | opencl:Portable Computing Language | mismatch |", md)
        self.assertIn("REDUCED-KERNEL", md)
        with open(os.path.join(run, "signatures.txt"), encoding="utf-8") as f:
            self.assertEqual(f.read().split(),
                             ["crash:spirv-opt:signal-11", "mismatch:opencl:bytes"])
        # No network: nothing is loaded from elsewhere.
        self.assertNotRegex(page, r"(src|href)=\"https?:")

    def test_new_since_previous_run(self):
        previous = make_run(os.path.join(self.tmp, "prev"),
                            ("crash:spirv-opt:signal-11", "timeout:ocloc-tgllp:x"))
        self.render(previous)
        run = make_run(os.path.join(self.tmp, "run"))
        page, md = self.render(run, previous)
        self.assertIn("1 new since the previous run", page)
        self.assertEqual(page.count('<span class="new">new</span>'), 1)
        self.assertIn("Seen in the previous run, not in this one", page)
        self.assertIn("timeout:ocloc-tgllp:x", page)
        self.assertIn("1 new since the previous run", md)

    def test_previous_run_without_signatures_file_is_scanned(self):
        previous = make_run(os.path.join(self.tmp, "prev"))
        run = make_run(os.path.join(self.tmp, "run"))
        page, _ = self.render(run, previous)
        self.assertIn("0 new since the previous run", page)

    def test_rates_over_time(self):
        run = nightly_report.load_run(make_run(os.path.join(self.tmp, "run")))
        rates, found = nightly_report.rate_series(run["campaigns"][0])
        self.assertEqual([round(r, 1) for _, r in rates], [2.0, 2.5, 2.5, 3.0])
        self.assertEqual([n for _, n in found], [0, 1, 2, 2])  # cut line skipped

    def history(self, run):
        with open(os.path.join(run, "yield-history.jsonl"), encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def test_yield_of_a_night(self):
        run = make_run(os.path.join(self.tmp, "run"))
        findings = os.path.join(run, "campaigns", "plain", "findings")
        write(os.path.join(findings, "crash.spirv-opt.a", "known.json"),
              json.dumps({"known": "spirv_opt_constant_branch_crash"}))
        page, md = self.render(run)
        [night] = self.history(run)
        # 100 cases of 10 ms: 1 job-second; 2 unique findings, 1 known.
        self.assertAlmostEqual(night["job_hours"], 1 / 3600)
        self.assertAlmostEqual(night["cases_per_job_second"], 100)
        self.assertAlmostEqual(night["unique_findings_per_job_hour"], 7200)
        self.assertAlmostEqual(night["known_bugs_per_job_hour"], 3600)
        self.assertEqual((night["new_bugs"], night["known_bugs"], night["unmatched"]),
                         (0, 1, 1))
        # spirv-opt: 100 runs in 0.9 s.
        self.assertAlmostEqual(night["targets"]["spirv-opt"]["cases_per_second"], 111.1, 1)
        self.assertIn('id="chart-yield-cases"', page)
        self.assertIn('id="chart-yield-findings"', page)
        self.assertIn('<table id="yield">', page)
        self.assertIn("## Yield across nights", md)
        self.assertIn("spirv-opt 111.1", md)

    def test_yield_history_chains_through_previous_runs(self):
        day = 86_400
        runs = [make_run(os.path.join(self.tmp, f"night{i}"), started=1_700_000_000 + i * day)
                for i in range(3)]
        self.render(runs[0])
        self.render(runs[1], runs[0])
        page, _ = self.render(runs[2], runs[1])
        nights = self.history(runs[2])
        self.assertEqual([n["started_unix"] for n in nights],
                         [1_700_000_000 + i * day for i in range(3)])
        # One line per target across the three nights, dated on the x axis.
        chart = page[page.index('id="chart-yield-cases"'):]
        chart = chart[:chart.index("</svg>")]
        self.assertEqual(chart.count('<polyline class="series"'), 3)
        line = re.search(r'data-series="spirv-opt"[^>]*points="([^"]*)"', chart)
        self.assertEqual(len(line.group(1).split()), 3)
        self.assertEqual(re.findall(r'class="x-tick"[^>]*>([^<]*)<', chart),
                         ["11-14", "11-15", "11-16"])
        # Rendering a night again does not add it twice.
        self.render(runs[2], runs[1])
        self.assertEqual(len(self.history(runs[2])), 3)

    def test_previous_run_without_history_counts_from_its_directory(self):
        prev = make_run(os.path.join(self.tmp, "prev"), started=1_600_000_000)
        run = make_run(os.path.join(self.tmp, "run"))
        self.render(run, prev)
        self.assertEqual([n["started_unix"] for n in self.history(run)],
                         [1_600_000_000, 1_700_000_000])

    def test_malformed_history_is_exit_2_naming_file_and_line(self):
        prev = make_run(os.path.join(self.tmp, "prev"), started=1_600_000_000)
        self.render(prev)
        history = os.path.join(prev, "yield-history.jsonl")
        run = make_run(os.path.join(self.tmp, "run"))
        for bad, expected in [("{cut", "yield-history.jsonl:2: not valid JSON"),
                              ('{"started_unix": "x"}', "'started_unix' is \"x\""),
                              ("[1]", "not a JSON object")]:
            with open(history, "a", encoding="utf-8") as f:
                f.write(bad + "\n")
            with self.assertRaises(nightly_report.InputError) as e:
                nightly_report.yield_history(nightly_report.load_run(run), prev)
            self.assertIn(expected, str(e.exception))
            self.assertEqual(nightly_report.main([run, "--previous", prev]), 2)
            os.unlink(history)
            self.render(prev)  # starts a clean history again

    def test_failed_write_is_exit_2_and_leaves_no_partial_file(self):
        run = make_run(os.path.join(self.tmp, "run"))
        os.makedirs(os.path.join(run, "report.md"))  # cannot be replaced by a file
        self.assertEqual(nightly_report.main([run]), 2)
        self.assertEqual([f for f in os.listdir(run) if ".tmp-" in f], [])

    def test_empty_run_renders(self):
        run = os.path.join(self.tmp, "empty")
        os.makedirs(run)
        page, md = self.render(run)
        self.assertIn("0 unique finding(s)", page)
        self.assertIn("no snapshots recorded", page)
        self.assertIn("No coverage table", md)

    def test_missing_run_dir_is_exit_2(self):
        self.assertEqual(nightly_report.main([os.path.join(self.tmp, "nope")]), 2)

    def test_malformed_verdict_is_exit_2_naming_the_file(self):
        run = make_run(os.path.join(self.tmp, "run"))
        bad = os.path.join(run, "campaigns", "plain", "findings",
                           "crash.spirv-opt.a", "verdict.json")
        write(bad, "{not json")
        with self.assertRaises(nightly_report.InputError) as e:
            nightly_report.load_run(run)
        self.assertIn("verdict.json", str(e.exception))
        self.assertEqual(nightly_report.main([run]), 2)

    def test_verdict_without_signature_is_an_error(self):
        run = make_run(os.path.join(self.tmp, "run"))
        write(os.path.join(run, "campaigns", "plain", "findings", "x", "verdict.json"),
              json.dumps({"kind": "crash", "target": "t"}))
        self.assertEqual(nightly_report.main([run]), 2)


# Runs in the page after layout: measures every chart as the browser drew
# it and writes the result into <pre id="layout-check"> for --dump-dom.
LAYOUT_PROBE = """<script>
window.addEventListener('load', () => {
  const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1 &&
                             r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  const charts = [...document.querySelectorAll('svg.chart')].map(svg => {
    const box = svg.getBoundingClientRect();
    const series = [...svg.querySelectorAll('.series')].map(s => {
      const r = s.getBoundingClientRect();
      return {name: s.dataset.series, width: r.width, height: r.height,
              inside: inside(r, box),
              points: s.points ? s.points.numberOfItems : 1};
    });
    const legendsInside = [...svg.querySelectorAll('.legend')].every(
        t => inside(t.getBoundingClientRect(), box));
    const ticks = [...svg.querySelectorAll('.x-tick')].map(t => t.getBoundingClientRect());
    const overlap = ticks.some((r, i) => i > 0 && r.left < ticks[i - 1].right);
    return {id: svg.id, width: box.width, height: box.height, series,
            legends: svg.querySelectorAll('.legend').length, legendsInside,
            ticks: ticks.length, overlap};
  });
  const pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = JSON.stringify(charts);
  document.body.appendChild(pre);
});
</script>"""


def chart_problems(charts, targets):
    """What is wrong with the charts as drawn (an empty list: nothing)."""
    problems = []
    by_id = {c["id"]: c for c in charts}
    for chart_id in ("chart-cases-per-second", "chart-findings", "chart-yield-cases",
                     "chart-yield-findings"):
        c = by_id.get(chart_id)
        if c is None:
            problems.append(f"{chart_id}: not drawn")
            continue
        if c["width"] < 600 or c["height"] < 200:
            problems.append(f"{chart_id}: drawn {c['width']}x{c['height']} px")
        if not c["series"] or c["legends"] != len(c["series"]):
            problems.append(f"{chart_id}: {len(c['series'])} series, "
                            f"{c['legends']} legend entries")
        if not c["legendsInside"]:
            problems.append(f"{chart_id}: a legend entry is cut off")
        if c["overlap"]:
            problems.append(f"{chart_id}: x-axis labels overlap")
        for s in c["series"]:
            if not s["inside"]:
                problems.append(f"{chart_id}: series {s['name']} drawn outside the chart")
            if s["points"] > 1 and s["width"] <= 0:
                problems.append(f"{chart_id}: series {s['name']} has no width")
    yield_cases = by_id.get("chart-yield-cases", {"series": []})
    names = sorted(s["name"] for s in yield_cases["series"])
    if names != sorted(targets):
        problems.append(f"chart-yield-cases: series {names}, expected {sorted(targets)}")
    if any(s["points"] != 3 for s in yield_cases["series"]):
        problems.append("chart-yield-cases: expected 3 nights per target")
    return problems


def chromium_check():
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("SKIPPED: no chromium on this machine (ci/install-deps.sh installs "
              "Debian's chromium); the report was not checked in a browser")
        return 77
    tmp = tempfile.mkdtemp(prefix="nightly_report_chromium_")
    try:
        # Three nights, each against the one before: the yield charts have
        # three points per target.
        runs = [make_run(os.path.join(tmp, f"night{i}"), started=1_700_000_000 + i * 86_400)
                for i in range(3)]
        for i, run in enumerate(runs):
            if nightly_report.main([run] + (["--previous", runs[i - 1]] if i else [])) != 0:
                return 1
        with open(os.path.join(runs[-1], "report.html"), encoding="utf-8") as f:
            page = f.read()
        probed = os.path.join(tmp, "probed.html")
        with open(probed, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", LAYOUT_PROBE + "</body>"))
        proc = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", f"--user-data-dir={tmp}/profile",
             "--window-size=1200,3000", "--virtual-time-budget=5000",
             "--dump-dom", "file://" + probed],
            capture_output=True, text=True, timeout=120, check=False)
        dom = proc.stdout
        checks = {
            "findings table with 2 rows": dom.count('class="finding"') == 2,
            "targets table": 'id="targets"' in dom,
            "yield table with 3 nights": dom.count("<tr><td>2023-11-1") == 3,
        }
        failed = [name for name, ok in checks.items() if not ok]
        probe = re.search(r'<pre id="layout-check">(.*?)</pre>', dom, re.S)
        if probe is None:
            failed.append("the layout probe did not run")
        else:
            charts = json.loads(html.unescape(probe.group(1)))
            failed += chart_problems(charts, ["ref", "spirv-opt",
                                              "opencl:Portable Computing Language"])
        if proc.returncode != 0 or failed:
            print(f"chromium exit {proc.returncode}; problems: {failed}\n"
                  f"{proc.stderr[-2000:]}")
            return 1
        print(f"chromium ({browser}) drew the report: " + ", ".join(checks) +
              f"; {len(charts)} charts measured, every series inside its chart, "
              "legends complete, x labels apart")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if "--chromium" in sys.argv:
        sys.exit(chromium_check())
    unittest.main()
