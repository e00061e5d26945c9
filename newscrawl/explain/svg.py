"""Small inline-SVG charts for the explain report: line, bar and dot series on linear axes, with
horizontal threshold lines, shaded vertical bands and labelled markers. No JavaScript, no dependencies.

Every string that reaches the SVG (titles, labels, series names) is escaped; colours must be ``#rgb`` or
``#rrggbb`` (checked), so a chart cannot carry markup from the page it describes.

>>> svg = chart([Series("raw", [(0, 1), (1, 3)], "#336699", "bar")], title="a < b")
>>> svg.startswith("<svg") and "a &lt; b" in svg
True
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")

#: chart geometry in px (the report's charts are drawn at this size and scale with the page width); the
#: right margin holds the threshold lines' labels, outside the plot, where no bar or dot can cover them
WIDTH, HEIGHT = 1000, 280
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 64, 124, 50, 42
#: least vertical distance between two threshold labels, in px (one line of 11 px text)
LABEL_GAP = 13
#: longest threshold label drawn in the margin (longer ones are cut with "…"; the legend has them whole)
MAX_LABEL_CHARS = 18


@dataclass(frozen=True, slots=True)
class Series:
    """Points ``(x, y)`` drawn as a polyline, bars from the axis, or dots."""

    name: str
    points: Sequence[tuple[float, float]]
    color: str
    kind: Literal["line", "bar", "dots"] = "line"


@dataclass(frozen=True, slots=True)
class HLine:
    """A horizontal threshold line at ``y``."""

    y: float
    label: str
    color: str
    dashed: bool = True


@dataclass(frozen=True, slots=True)
class Band:
    """A shaded vertical band from ``x0`` to ``x1``."""

    x0: float
    x1: float
    label: str
    color: str
    opacity: float = 0.15


@dataclass(frozen=True, slots=True)
class Marker:
    """One labelled point, drawn as a ring or a cross over the series."""

    x: float
    y: float
    label: str
    color: str
    shape: Literal["ring", "cross"] = "ring"


#: C0 control characters but tab, LF and CR: not allowed in XML, meaningless in a report
_CONTROL = dict.fromkeys(c for c in range(32) if c not in (9, 10, 13))


def esc(text: object) -> str:
    """Escape for SVG/HTML text and attribute values (control characters dropped).

    >>> esc('<a href="x">\x07')
    '&lt;a href=&quot;x&quot;&gt;'
    """
    return html.escape(str(text).translate(_CONTROL), quote=True)


def color(value: str) -> str:
    """``value`` when it is a hex colour; raises ValueError otherwise."""
    if not _COLOR.match(value):
        raise ValueError(f"not a hex colour: {value!r}")
    return value


def num(value: float) -> str:
    """A short decimal for coordinates and tick labels."""
    if not math.isfinite(value):
        return "0"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values from at most ``lo`` to at least ``hi``.

    >>> nice_ticks(0, 10)
    [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    """
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / max(count, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step + 1e-9) * step
    last = math.ceil(hi / step - 1e-9) * step
    count_out = round((last - first) / step)
    return [float(round(first + k * step, 10)) for k in range(count_out + 1)]


def chart(
    series: Sequence[Series],
    *,
    title: str,
    x_label: str = "",
    y_label: str = "",
    hlines: Sequence[HLine] = (),
    bands: Sequence[Band] = (),
    markers: Sequence[Marker] = (),
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """One chart as an ``<svg>`` element (a string)."""
    xs = [x for s in series for x, _ in s.points] + [b.x0 for b in bands] + [b.x1 for b in bands]
    xs += [m.x for m in markers]
    ys = [y for s in series for _, y in s.points] + [h.y for h in hlines] + [m.y for m in markers]
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    if x_hi <= x_lo:
        x_hi = x_lo + 1
    has_bars = any(s.kind == "bar" for s in series)
    if has_bars:  # room for the first and last bar
        x_lo, x_hi = x_lo - 0.5, x_hi + 0.5
    y_ticks = nice_ticks(min(0.0, min(ys, default=0.0)), max(ys, default=1.0) or 1.0)
    y_lo, y_hi = y_ticks[0], y_ticks[-1]
    left, right = MARGIN_LEFT, width - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, height - MARGIN_BOTTOM

    def px(x: float) -> float:
        return left + (x - x_lo) / (x_hi - x_lo) * (right - left)

    def py(y: float) -> float:
        return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top)

    out = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{esc(title)}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{left}" y="20" class="title">{esc(title)}</text>',
    ]
    for b in bands:
        x0, x1 = sorted((px(max(b.x0, x_lo)), px(min(b.x1, x_hi))))
        c = color(b.color)
        out.append(
            f'<rect x="{num(x0)}" y="{top}" width="{num(max(x1 - x0, 1))}" height="{bottom - top}" '
            f'fill="{c}" fill-opacity="{num(b.opacity)}" stroke="{c}" stroke-opacity="0.6">'
            f"<title>{esc(b.label)}</title></rect>"
        )
    for t in y_ticks:  # grid and y axis labels
        ty = num(py(t))
        out.append(f'<line x1="{left}" y1="{ty}" x2="{right}" y2="{ty}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{left - 6}" y="{ty}" class="tick" text-anchor="end" dy="4">{num(t)}</text>')
    for t in (t for t in nice_ticks(x_lo, x_hi, 10) if x_lo <= t <= x_hi):
        tx = num(px(t))
        out.append(f'<line x1="{tx}" y1="{bottom}" x2="{tx}" y2="{bottom + 4}" stroke="#555555"/>')
        out.append(f'<text x="{tx}" y="{bottom + 16}" class="tick" text-anchor="middle">{num(t)}</text>')
    out.append(f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#555555"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#555555"/>')
    if x_label:
        out.append(
            f'<text x="{(left + right) / 2}" y="{height - 6}" class="axis" text-anchor="middle">'
            f"{esc(x_label)}</text>"
        )
    if y_label:
        out.append(
            f'<text x="14" y="{(top + bottom) / 2}" class="axis" text-anchor="middle" '
            f'transform="rotate(-90 14 {(top + bottom) / 2})">{esc(y_label)}</text>'
        )
    bar_w = max((right - left) / max(x_hi - x_lo, 1) * 0.8, 1.0)  # 80% of one x unit, at least 1 px
    for s in series:
        c = color(s.color)
        if s.kind == "bar":
            parts = []
            for x, y in s.points:
                y0, y1 = sorted((py(0 if y_lo <= 0 else y_lo), py(y)))
                parts.append(
                    f'<rect x="{num(px(x) - bar_w / 2)}" y="{num(y0)}" width="{num(bar_w)}" '
                    f'height="{num(max(y1 - y0, 0.5))}"/>'
                )
            out.append(f'<g fill="{c}" fill-opacity="0.75">{"".join(parts)}</g>')
        elif s.kind == "dots":
            dots = "".join(f'<circle cx="{num(px(x))}" cy="{num(py(y))}" r="2.5"/>' for x, y in s.points)
            out.append(f'<g fill="{c}" fill-opacity="0.7">{dots}</g>')
        elif s.points:
            pts = " ".join(f"{num(px(x))},{num(py(y))}" for x, y in s.points)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="1.8"/>')
    for h, label_y in zip(hlines, label_positions([py(h.y) for h in hlines], top, bottom), strict=True):
        hy = num(py(h.y))
        dash = ' stroke-dasharray="6 4"' if h.dashed else ""
        c = color(h.color)
        label = h.label if len(h.label) <= MAX_LABEL_CHARS else h.label[: MAX_LABEL_CHARS - 1] + "…"
        out.append(
            f'<line x1="{left}" y1="{hy}" x2="{right}" y2="{hy}" stroke="{c}" stroke-width="1.5"{dash}/>'
        )
        out.append(
            f'<text x="{right + 6}" y="{num(label_y)}" dy="4" class="label" text-anchor="start" fill="{c}">'
            f"{esc(label)}</text>"
        )
    for m in markers:
        mx, my, c = num(px(m.x)), num(py(m.y)), color(m.color)
        if m.shape == "cross":
            cx, cy = px(m.x), py(m.y)
            out.append(
                f'<path d="M{num(cx - 5)},{num(cy - 5)}L{num(cx + 5)},{num(cy + 5)}'
                f'M{num(cx - 5)},{num(cy + 5)}L{num(cx + 5)},{num(cy - 5)}" stroke="{c}" stroke-width="2.5"/>'
            )
        else:
            out.append(f'<circle cx="{mx}" cy="{my}" r="7" fill="none" stroke="{c}" stroke-width="2.5"/>')
        dy = 16 if m.shape == "cross" else -7  # crosses label below, rings above: both stay legible
        out.append(f'<text x="{mx}" y="{my}" dx="9" dy="{dy}" class="label" fill="{c}">{esc(m.label)}</text>')
    out.append(_legend(series, hlines, bands, left))
    out.append("</svg>")
    return "".join(out)


def label_positions(ys: Sequence[float], top: float, bottom: float, gap: float = LABEL_GAP) -> list[float]:
    """Where to write the labels of lines at heights ``ys`` (px) in the margin beside the plot: at their
    line, moved apart just enough to be ``gap`` px from each other and kept within ``top``..``bottom``.

    >>> label_positions([100.0, 104.0, 300.0], 50, 238)
    [100.0, 113.0, 238.0]
    >>> label_positions([230.0, 235.0, 236.0], 50, 238)
    [212.0, 225.0, 238.0]
    """
    top, bottom = float(top), float(bottom)
    order = sorted(range(len(ys)), key=lambda k: ys[k])
    placed = [0.0] * len(ys)
    last = top - gap
    for k in order:  # top down, each at least ``gap`` below the one above
        last = max(min(max(ys[k], top), bottom), last + gap)
        placed[k] = last
    overflow = (placed[order[-1]] - bottom) if order else 0.0
    if overflow > 0:  # pushed past the bottom: move the bunch up again, keeping the gaps
        for k in reversed(order):
            placed[k] = min(placed[k], bottom)
            bottom = placed[k] - gap
    return placed


def _legend(series: Sequence[Series], hlines: Sequence[HLine], bands: Sequence[Band], left: int) -> str:
    """One row of colour swatches and names under the title."""
    items = [(s.name, s.color) for s in series] + [(h.label, h.color) for h in hlines]
    items += [(b.label, b.color) for b in bands]
    parts = []
    x = left
    for name, c in items:
        text = name if len(name) <= 48 else name[:47] + "…"
        parts.append(
            f'<rect x="{x}" y="27" width="12" height="12" fill="{color(c)}"/>'
            f'<text x="{x + 16}" y="37" class="legend">{esc(text)}</text>'
        )
        x += int(6.5 * len(text)) + 34
    return "<g>" + "".join(parts) + "</g>"
