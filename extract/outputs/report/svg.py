"""Charts as inline SVG strings: pure functions from numbers and labels to markup.

Every label is escaped here (labels come from mail); no style attributes, so the
report's Content-Security-Policy can forbid inline styles other than its own sheet.
They take any value a database column holds: a NULL label is empty, a NULL or NaN
value draws no bar, an infinite one a full bar, and every coordinate stays finite
however big the numbers (bars are scaled by division, never by multiplying first).
"""

from __future__ import annotations

import math
import re
from html import escape

from extract.outputs.numbers import number_text

# Colour-blind-safe palette (Okabe-Ito), then grey for "other".
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
OTHER = "#999999"


def fmt(value: float | None) -> str:
    """A number as written: no exponent the message did not use (1803345.402, not
    1.80335e+06); `extract.outputs.numbers`."""
    return number_text(value)


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


# A word of a label: a run of letters and digits (`_`, `.`, `/`, `=`, spaces separate).
_WORD = re.compile(r"[^\W_]+")


def _render(text: str, words: list[re.Match], kept: list[bool]) -> str:
    """`text` with its dropped words left out: every run of dropped words, with the
    separators around them, becomes one "…"."""
    out, pos, gap = [], 0, False
    for i, w in enumerate(words):
        before = text[pos : w.start()]  # the separator before this word
        if kept[i]:
            if gap:
                out.append("…")
            elif i == 0 or kept[i - 1]:
                out.append(before)
            gap = False
            out.append(w.group())
        else:
            gap = True
        pos = w.end()
    if gap:
        out.append("…")
    elif words:
        out.append(text[pos:])
    else:
        out.append(text)
    return "".join(out)


def _fit_one(text: str, n: int, shared: set[str]) -> str:
    """`text` in at most n characters, keeping the words that tell it apart from the
    other labels of its chart (those not in `shared`): shared words are left out first,
    the middle ones, then the last, then the first; what room is left goes to the
    start of the first word."""
    if len(text) <= n:
        return text
    words = list(_WORD.finditer(text))
    kept = [True] * len(words)
    order = [i for i in range(1, len(words) - 1)] + [len(words) - 1, 0]
    for i in order:
        if 0 <= i < len(words) and words[i].group() in shared and kept[i]:
            kept[i] = False
            if len(_render(text, words, kept)) <= n:
                break
    shown = _render(text, words, kept)
    if len(shown) > n:
        return _clip(shown, n)
    if words and not kept[0] and words[0].start() == 0:  # room for the start of the text
        room = n - len(shown)
        if room >= 4:
            shown = words[0].group()[: room - 1] + shown
    return shown


def fit_labels(texts: list[str], n: int) -> list[str]:
    """Each text in at most n characters, cut so that the part that differs from the
    other labels of the chart stays: `RecordBatchBenchmark.measureValidation /
    size=10 / Score` and the same with `size=20` become `RecordBatch…size=10…` and
    `RecordBatch…size=20…`, not the same `RecordBatchBench…` twice. A cut label
    shows "…" where words were left out, and its full text is its tooltip."""
    distinct = list(dict.fromkeys(texts))
    if len(distinct) > 1:
        word_sets = [{w.group() for w in _WORD.finditer(t)} for t in distinct]
        shared = set.intersection(*word_sets)
    else:
        shared = {w.group() for w in _WORD.finditer(distinct[0])} if distinct else set()
    fitted = {t: _fit_one(t, n, shared) for t in distinct}
    seen: dict[str, list[str]] = {}
    for t in distinct:
        seen.setdefault(fitted[t], []).append(t)
    for same in seen.values():  # still alike: their ends differ, show those
        if len(same) > 1:
            for t in same:
                if len(t) > n:
                    fitted[t] = "…" + t[len(t) - n + 1 :]
    return [fitted[t] for t in texts]


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
    shown = fit_labels([label for label, _, _ in items], _chars(label_width - 6, 12))
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
                shown[i],
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
    names = fit_labels([name for name, _ in series], _chars(legend_w - 20, 12))
    for j, (name, _) in enumerate(series):
        colour = _series_colour(name, j)
        ly = top + j * 18
        lx = width - legend_w
        body.append(
            f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{colour}"/>'
            + _label(lx + 16, ly + 11, name, names[j], ' font-size="12"')
        )  # fmt: skip
    if not categories:
        body.append(f'<text x="{left + 10}" y="{top + 20}" font-size="12">no data</text>')
    return _svg(width, height, title, body, css_class)


def pair_bars(
    pairs: list[tuple[str, str, float, str, float, str]],
    *,
    title: str,
    width: int = 880,
    css_class: str = "pairs",
) -> str:
    """Before/after bars, one group per (label, before name, before value, after name,
    after value, ratio text); each group is scaled to its own larger value, since the
    pairs of one message can have different units. Labels and side names are cut to
    fit keeping what tells them apart (`fit_labels`)."""
    label_w, group_h, bar_h, name_chars = 360, 46, 16, 14
    height = 8 + group_h * max(len(pairs), 1)
    pairs = [
        (_text(label), _text(b_name), b_val, _text(a_name), a_val, _text(ratio))
        for label, b_name, b_val, a_name, a_val, ratio in pairs
    ]
    labels = fit_labels([p[0] for p in pairs], _chars(label_w - 6, 12))
    names = dict(
        zip(
            (sides := list(dict.fromkeys(n for p in pairs for n in (p[1], p[3])))),
            fit_labels(sides, name_chars),
            strict=True,
        )
    )
    # room after the longest bar for "name value" (numbers as written can be long)
    longest = max(
        (len(names[n]) + 1 + len(fmt(v)) for p in pairs for n, v in ((p[1], p[2]), (p[3], p[4]))),
        default=0,
    )
    bar_space = max(60, width - label_w - 10 - math.ceil(0.62 * 11 * longest))
    body = []
    for i, (label, b_name, b_val, a_name, a_val, ratio) in enumerate(pairs):
        y = 8 + i * group_h
        top_value = max(_magnitude(b_val), _magnitude(a_val)) or 1
        body.append(
            _label(
                label_w - 6,
                y + 14,
                label,
                labels[i],
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
                    f"{names[name]} {fmt(val)}",
                    ' font-size="11"',
                )
            )
    if not pairs:
        body.append('<text x="10" y="20" font-size="12">no data</text>')
    return _svg(width, height, title, body, css_class)
