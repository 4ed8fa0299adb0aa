"""Line charts as inline SVG for the nightly report (no scripts, no network).

    svg_chart(chart_id, title, {name: [(x, y), ...]}, x_label, y_label,
              x_ticks=None)

x_ticks, when given, is [(x, label), ...]: the x axis shows those labels
(dates of nights, say) instead of five evenly spaced numbers; x_range
(lo, hi) sets the axis' span (default 0 to the largest x). Every series
is a <polyline class="series" data-series=NAME> (a <circle> when it has
one point) with a legend entry; the browser test measures them.
"""

import html

CHART_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                 "#8c564b", "#e377c2", "#17becf")


def y_tick(value):
    """A y-axis label that fits left of the axis: 7200, 12.5, 0.031."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def svg_chart(chart_id, title, series, x_label, y_label, width=760,
              height=260, x_ticks=None, x_range=None):
    """A line chart as inline SVG: series = {name: [(x, y), ...]}; the x
    axis spans x_range (lo, hi), by default 0 to the largest x."""
    pad_l, pad_r, pad_t, pad_b = 60, 270, 30, 40
    points = [p for s in series.values() for p in s]
    parts = [f'<svg id="{chart_id}" class="chart" xmlns="http://www.w3.org/2000/svg" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="{html.escape(title)}">',
             f'<title>{html.escape(title)}</title>',
             f'<text x="{pad_l}" y="18" class="chart-title">{html.escape(title)}</text>']
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    x0, y0 = pad_l, pad_t + plot_h
    parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x0 + plot_w}" y2="{y0}" stroke="#444"/>')
    parts.append(f'<line x1="{x0}" y1="{pad_t}" x2="{x0}" y2="{y0}" stroke="#444"/>')
    parts.append(f'<text x="{x0 + plot_w / 2}" y="{height - 6}" text-anchor="middle">'
                 f'{html.escape(x_label)}</text>')
    parts.append(f'<text x="14" y="{pad_t + plot_h / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {pad_t + plot_h / 2})">{html.escape(y_label)}</text>')
    if not points:
        parts.append(f'<text x="{x0 + 10}" y="{pad_t + 20}">no snapshots recorded</text></svg>')
        return "\n".join(parts)
    min_x, max_x = x_range or (0.0, max(p[0] for p in points) or 1.0)
    span_x = (max_x - min_x) or 1.0
    max_y = max(p[1] for p in points) or 1.0

    def px(x):
        return x0 + plot_w * (x - min_x) / span_x

    def py(y):
        return y0 - plot_h * y / max_y

    for i in range(5):
        y_val = max_y * i / 4
        y = y0 - plot_h * i / 4
        parts.append(f'<line x1="{x0 - 4}" y1="{y:.1f}" x2="{x0 + plot_w}" y2="{y:.1f}" '
                     f'stroke="#ddd"/>')
        parts.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{y_tick(y_val)}</text>')
    ticks = x_ticks if x_ticks is not None else [
        (min_x + span_x * i / 4, f"{min_x + span_x * i / 4:.0f}") for i in range(5)]
    for x_val, label in ticks:
        parts.append(f'<text class="x-tick" x="{px(x_val):.1f}" y="{y0 + 16}" '
                     f'text-anchor="middle">{html.escape(label)}</text>')
    for i, (name, pts) in enumerate(sorted(series.items())):
        colour = CHART_COLOURS[i % len(CHART_COLOURS)]
        label = html.escape(name, quote=True)
        if len(pts) == 1:
            x, y = pts[0]
            parts.append(f'<circle class="series" data-series="{label}" cx="{px(x):.1f}" '
                         f'cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        elif pts:
            coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
            parts.append(f'<polyline class="series" data-series="{label}" fill="none" '
                         f'stroke="{colour}" stroke-width="2" points="{coords}"/>')
        ly = pad_t + 14 + 16 * i
        parts.append(f'<rect x="{x0 + plot_w + 12}" y="{ly - 9}" width="10" height="10" '
                     f'fill="{colour}"/>')
        parts.append(f'<text class="legend" x="{x0 + plot_w + 26}" y="{ly}">'
                     f'{html.escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
