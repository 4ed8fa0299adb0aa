"""The reach table of the nightly report: per campaign and target, how much of
the language the target received (stats.json "coverage": the usable core
opcodes outside images and the OpenCL.std instructions of the cases it ran to
a verdict other than skipped), split by opcode family (the core grammar's
instruction classes: Arithmetic, Atomic, Non-Uniform, Group, ...).

The classes come from SPIRV-Headers' core grammar (L0SPV_SPIRV_GRAMMAR, else
the Debian path); without it every opcode counts as one family, "core".
Python 3 standard library only.
"""

import json
import os

DEFAULT_GRAMMAR = "/usr/include/spirv/unified1/spirv.core.grammar.json"


def opcode_classes(path=None):
    """{opname: class} from the core grammar, {} when it cannot be read."""
    path = path or os.environ.get("L0SPV_SPIRV_GRAMMAR", DEFAULT_GRAMMAR)
    try:
        with open(path, encoding="utf-8") as f:
            grammar = json.load(f)
        return {i["opname"]: i.get("class", "core")
                for i in grammar.get("instructions", [])
                if isinstance(i, dict) and "opname" in i}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def reach_rows(run, classes):
    """Rows {campaign, target, cases, runs, core, opencl_std, families}."""
    rows = []
    for c in run["campaigns"]:
        stats = c["stats"]
        coverage = stats.get("coverage", {})
        if not isinstance(coverage, dict):
            continue
        for target, reach in sorted(coverage.items()):
            if not isinstance(reach, dict):
                continue
            core = [n for n in reach.get("core", []) if isinstance(n, str)]
            families = {}
            for name in core:
                family = classes.get(name, "core")
                families[family] = families.get(family, 0) + 1
            rows.append({
                "campaign": c["name"], "target": target,
                "cases": stats.get("cases", 0),
                "runs": stats.get("targets", {}).get(target, {}).get("runs", 0),
                "core": len(core),
                "opencl_std": len(reach.get("opencl_std", [])),
                "families": families,
            })
    return rows


def family_columns(rows):
    return sorted({f for r in rows for f in r["families"]})


def _share(r):
    return f"{100.0 * r['runs'] / r['cases']:.0f} %" if r["cases"] else "–"


def render_html(run, escape, classes=None):
    classes = opcode_classes() if classes is None else classes
    rows = reach_rows(run, classes)
    out = ["<h2>Reach per target</h2>"]
    if not rows:
        out.append("<p>No per-target coverage in this run.</p>")
        return out
    cols = family_columns(rows)
    out.append('<table id="reach"><tr><th>campaign</th><th>target</th>'
               "<th>share of cases</th><th>core opcodes</th><th>OpenCL.std</th>" +
               "".join(f"<th>{escape(c)}</th>" for c in cols) + "</tr>")
    for r in rows:
        out.append(
            f"<tr><td>{escape(r['campaign'])}</td><td>{escape(r['target'])}</td>"
            f'<td class="num">{_share(r)}</td><td class="num">{r["core"]}</td>'
            f'<td class="num">{r["opencl_std"]}</td>' +
            "".join(f'<td class="num">{r["families"].get(c, 0)}</td>' for c in cols) +
            "</tr>")
    out.append("</table>")
    out.append('<p class="note">Distinct usable core opcodes (outside images) per '
               "family of the core grammar, in the cases each target ran to a verdict "
               "other than skipped; each case is routed to a drawn subset of the "
               "targets and avoids only their known bugs.</p>")
    return out


def render_markdown(run, classes=None):
    classes = opcode_classes() if classes is None else classes
    rows = reach_rows(run, classes)
    lines = ["## Reach per target", ""]
    if not rows:
        return lines + ["No per-target coverage in this run."]
    cols = family_columns(rows)
    lines.append("| campaign | target | share of cases | core opcodes | OpenCL.std | " +
                 " | ".join(cols) + " |")
    lines.append("| --- " * (5 + len(cols)) + "|")
    for r in rows:
        lines.append(f"| {r['campaign']} | {r['target']} | {_share(r)} | {r['core']} | "
                     f"{r['opencl_std']} | " +
                     " | ".join(str(r["families"].get(c, 0)) for c in cols) + " |")
    return lines
