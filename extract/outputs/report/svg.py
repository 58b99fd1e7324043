"""Charts as inline SVG strings: pure functions from numbers and labels to markup.

Every label is escaped here (labels come from mail); no style attributes, so the
report's Content-Security-Policy can forbid inline styles other than its own sheet.
They take any value a database column holds: a NULL label is empty, a NULL or NaN
value draws no bar, an infinite one a full bar, and every coordinate stays finite
however big the numbers (bars are scaled by division, never by multiplying first).
"""

from __future__ import annotations

import math
from html import escape

# Colour-blind-safe palette (Okabe-Ito), then grey for "other".
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
OTHER = "#999999"


def fmt(value: float | None) -> str:
    """A number for people: 6 significant digits, no trailing zeros."""
    if value is None:
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if number != number:  # NaN
        return "NaN"
    if math.isinf(number):
        return "∞" if number > 0 else "−∞"
    if abs(number) >= 1e4 and number.is_integer() and abs(number) < 1e21:
        return f"{number:,.6g}"
    return f"{number:.6g}"


def _text(value: object) -> str:
    """A label or note: NULL is empty."""
    return "" if value is None else str(value)


def _magnitude(value: float | None) -> float:
    """A bar's length before scaling: |value|; 0 for NULL, NaN and what is no number."""
    try:
        number = abs(float(value))
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return 0.0 if number != number else number


def _share(size: float, top: float) -> float:
    """size / top in 0..1, for any sizes (infinite ones included)."""
    if top <= 0 or size <= 0:
        return 0.0
    if math.isinf(size):
        return 1.0
    if math.isinf(top):
        return 0.0
    return min(size / top, 1.0)


def _positive(value: float | None) -> float:
    """A stacked segment's size: the value when positive, else 0 (NULL, NaN too)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return number if number > 0 else 0.0


def _series_colour(name: str, index: int) -> str:
    return OTHER if name == "other" or index >= len(PALETTE) else PALETTE[index]


def _svg(width: int, height: int, title: str, body: list[str], css_class: str) -> str:
    return (
        f'<svg class="chart {css_class}" role="img" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _clip(text: str, n: int) -> str:
    """At most n characters; a cut label ends with a visible ellipsis."""
    return text if len(text) <= n else text[: n - 1] + "…"


def _fit(text: str, n: int, sep: str = " / ") -> str:
    """A "label / params / metric" label in at most n characters that keeps its last
    part (the metric) whole where it can: the earlier parts are cut first."""
    if len(text) <= n or sep not in text:
        return _clip(text, n)
    head, tail = text.rsplit(sep, 1)
    room = n - len(sep) - len(tail)
    if room < 4:  # a metric too long to keep whole
        return _clip(text, n)
    return _clip(head, room) + sep + tail


def _chars(space: float, font_size: int) -> int:
    """How many characters fit in `space` pixels: a wide average glyph (0.62 em), so
    a label ends inside the chart rather than past its edge."""
    return max(4, int(space / (0.62 * font_size)))


def _label(x: float, y: float, full: str, shown: str, attrs: str = "") -> str:
    """A text with its full wording as a tooltip (an SVG <title>), so a cut label can
    still be read."""
    return (
        f'<g class="label"><title>{escape(full)}</title>'
        f'<text x="{x}" y="{y}"{attrs}>{escape(shown)}</text></g>'
    )


def hbar_chart(
    items: list[tuple[str, float, str]],
    *,
    title: str,
    width: int = 640,
    label_width: int = 240,
    max_value: float | None = None,
    css_class: str = "hbar",
) -> str:
    """Horizontal bars: one (label, value, text shown after the bar) per row."""
    row, top = 22, 8
    height = top * 2 + row * max(len(items), 1)
    items = [(_text(label), value, _text(note)) for label, value, note in items]
    note_space = 10 + 7 * max((len(note) for _, _, note in items), default=0)
    bar_space = max(60, width - label_width - note_space)
    sizes = [_positive(v) for _, v, _ in items]
    top_value = _positive(max_value) or max(sizes, default=0) or 1
    body = []
    for i, ((label, _value, note), size) in enumerate(zip(items, sizes, strict=True)):
        y = top + i * row
        w = max(1.0, bar_space * _share(size, top_value))
        body.append(
            f'<g class="bar"><title>{escape(label)}: {escape(note)}</title>'
            + _label(
                label_width - 6,
                y + 15,
                label,
                _clip(label, _chars(label_width - 6, 12)),
                ' text-anchor="end" font-size="12"',
            )
            + f'<rect x="{label_width}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" '
            f'fill="{PALETTE[0]}"/>'
            f'<text x="{label_width + w + 6:.1f}" y="{y + 15}" font-size="12">{escape(note)}</text>'
            "</g>"
        )
    if not items:
        body.append(f'<text x="10" y="{top + 15}" font-size="12">no data</text>')
    return _svg(width, height, title, body, css_class)


def stacked_columns(
    categories: list[str],
    series: list[tuple[str, list[float]]],
    *,
    title: str,
    width: int = 640,
    height: int = 260,
    css_class: str = "stacked",
) -> str:
    """Vertical columns, one per category (e.g. a year), stacked by series (e.g. a
    project), with a legend on the right."""
    left, bottom, top, legend_w = 36, 24, 10, 150
    plot_w, plot_h = width - left - legend_w - 10, height - top - bottom
    categories = [_text(c) for c in categories]
    series = [(_text(name), [_positive(v) for v in values]) for name, values in series]
    totals = [sum(s[1][i] for s in series) for i in range(len(categories))]
    top_value = max(totals, default=0) or 1
    col_w = plot_w / max(len(categories), 1)
    label_every = max(1, math.ceil(32 / col_w))  # category labels must not overlap
    body = [
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        f'stroke="#666"/>',
        f'<text x="{left - 4}" y="{top + 10}" text-anchor="end" font-size="11">'
        f"{fmt(top_value)}</text>",
        f'<text x="{left - 4}" y="{top + plot_h}" text-anchor="end" font-size="11">0</text>',
    ]
    for i, cat in enumerate(categories):
        x = left + i * col_w
        y = top + plot_h
        for j, (name, values) in enumerate(series):
            v = values[i]
            if v <= 0:
                continue
            h = min(plot_h * _share(v, top_value), y - top)
            y -= h
            colour = _series_colour(name, j)
            body.append(
                f'<rect class="bar" x="{x + col_w * 0.15:.1f}" y="{y:.1f}" '
                f'width="{col_w * 0.7:.1f}" height="{h:.1f}" fill="{colour}">'
                f"<title>{escape(name)} {escape(cat)}: {fmt(v)}</title></rect>"
            )
        if i % label_every == 0:
            body.append(
                f'<text x="{x + col_w / 2:.1f}" y="{height - 8}" text-anchor="middle" '
                f'font-size="11">{escape(cat)}</text>'
            )
    for j, (name, _) in enumerate(series):
        colour = _series_colour(name, j)
        ly = top + j * 18
        lx = width - legend_w
        body.append(
            f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{colour}"/>'
            + _label(lx + 16, ly + 11, name, _clip(name, _chars(legend_w - 20, 12)),
                     ' font-size="12"')
        )  # fmt: skip
    if not categories:
        body.append(f'<text x="{left + 10}" y="{top + 20}" font-size="12">no data</text>')
    return _svg(width, height, title, body, css_class)


def pair_bars(
    pairs: list[tuple[str, str, float, str, float, str]],
    *,
    title: str,
    width: int = 640,
    css_class: str = "pairs",
) -> str:
    """Before/after bars, one group per (label, before name, before value, after name,
    after value, ratio text); each group is scaled to its own larger value, since the
    pairs of one message can have different units."""
    label_w, group_h, bar_h = 260, 46, 16
    height = 8 + group_h * max(len(pairs), 1)
    bar_space = width - label_w - 190  # room for "name value" after the bar
    body = []
    for i, (label, b_name, b_val, a_name, a_val, ratio) in enumerate(pairs):
        y = 8 + i * group_h
        label, b_name, a_name, ratio = map(_text, (label, b_name, a_name, ratio))
        top_value = max(_magnitude(b_val), _magnitude(a_val)) or 1
        body.append(
            _label(
                label_w - 6,
                y + 14,
                label,
                _fit(label, _chars(label_w - 6, 12)),
                ' text-anchor="end" font-size="12"',
            )
            + f'<text x="{label_w - 6}" y="{y + 32}" text-anchor="end" font-size="11" '
            f'fill="#555">{escape(ratio)}</text>'
        )
        for k, (name, val, colour) in enumerate(
            ((b_name, b_val, PALETTE[1]), (a_name, a_val, PALETTE[0]))
        ):
            w = max(1.0, bar_space * _share(_magnitude(val), top_value))
            by = y + 2 + k * (bar_h + 4)
            body.append(
                f'<rect class="bar" x="{label_w}" y="{by}" width="{w:.1f}" height="{bar_h}" '
                f'fill="{colour}"><title>{escape(name)}: {fmt(val)}</title></rect>'
                + _label(
                    f"{label_w + w + 4:.1f}",
                    by + 12,
                    f"{name} {fmt(val)}",
                    f"{_clip(name, 14)} {fmt(val)}",
                    ' font-size="11"',
                )
            )
    if not pairs:
        body.append('<text x="10" y="20" font-size="12">no data</text>')
    return _svg(width, height, title, body, css_class)
