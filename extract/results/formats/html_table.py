"""HTML `<table>` markup (bots such as GlutenPerfBot post raw tables; GitHub mail
keeps them as markup).

Recognises `<table>...</table>` (read with BeautifulSoup: `<th>`/`<td>`, `colspan`,
`<font color>`, `<b>`, links), with the caption from `<caption>`, the `<summary>` of an
enclosing `<details>`, or the title line before it (`===== Performance report for
TPCH SF2000 ... ====`).

Measurements as `_grid` reads a grid: variant = the column group of a spanning header
row; unit-less cells are seconds when a header or the caption speaks of time
(`native_4262_time.csv`). Tables of plain data give none.
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_left

from extract.results.formats._grid import clean_cell, grid_table, read_cell
from extract.results.formats._layout import line_caption, mask_tags, replace_tags
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="html-table",
    description="HTML <table> markup",
    signature="'<table>' ... '<tr><td>' ... '</table>' markup (incl. '<font color>', '<details>')",
    priority=30,
    generic=True,
    kind="result",
    # a table, or a slice of its rows (an excerpt that starts inside the table)
    trigger=r"<table\b|<tr\b",
    lower_needles=("<table", "<tr"),
)

_OPEN_TABLE = re.compile(r"<table\b", re.I)
_CLOSE_TABLE = re.compile(r"</table\s*>", re.I)
_LAST_CELL = re.compile(r".*</t[dhr]\s*>", re.I | re.S)


def _table_spans(text: str) -> list[tuple[int, int]]:
    """`<table>...</table>`; a table cut short (an excerpt, a truncated mail) ends
    after its last complete cell."""
    spans = []
    opens = list(_OPEN_TABLE.finditer(text))
    # (every close tag found once: searching on from each open tag was quadratic)
    closes = list(_CLOSE_TABLE.finditer(text))
    close_starts = [c.start() for c in closes]
    for k, m in enumerate(opens):
        if spans and m.start() < spans[-1][1]:
            continue  # nested
        c = bisect_left(close_starts, m.end())
        close = closes[c] if c < len(closes) else None
        nxt = opens[k + 1] if k + 1 < len(opens) else None
        if close and (nxt is None or close.start() < nxt.start()):
            spans.append((m.start(), close.end()))
            continue
        limit = nxt.start() if nxt else len(text)
        last = _LAST_CELL.match(text, m.start(), limit)
        if last:
            spans.append((m.start(), last.end()))
    return spans


_ROW_RUN = re.compile(
    r"<tr\b(?:(?!</?tr\b|</?table\b).){0,5000}?</tr\s*>"
    r"(?:\s*(?:</?(?:tbody|thead|tfoot)\b[^>]{0,100}>\s*)*<tr\b(?:(?!</?tr\b|</?table\b).){0,5000}?</tr\s*>)+",
    re.I | re.S,
)


def _row_slices(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Runs of two `<tr>…</tr>` rows or more outside any `<table>`: a slice of a
    table whose start the excerpt (or a quoting mail client) left out."""
    if "<tr" not in text.lower():
        return []
    return [
        m.span() for m in _ROW_RUN.finditer(text) if not any(s <= m.start() < e for s, e in taken)
    ]


def _grid(table) -> tuple[list[list[str]], list[list[str]]]:
    """(header levels, body rows), colspans expanded."""
    header: list[list[str]] = []
    body: list[list[str]] = []
    for tr in table.find_all("tr"):
        cells: list[str] = []
        all_th = True
        for cell in tr.find_all(["td", "th"]):
            text = clean_cell(cell.get_text(" ", strip=True))
            try:
                span = max(1, min(50, int(cell.get("colspan", 1))))
            except (TypeError, ValueError):
                span = 1
            cells += [text] * span
            all_th = all_th and cell.name == "th"
        if not cells:
            continue
        # the first row names the columns unless most of its cells are values (a slice)
        values = sum(read_cell(c) is not None for c in cells[1:]) if not (body or header) else 0
        if not body and (all_th or (not header and values < max(1, (len(cells) - 1) / 2))):
            header.append(cells)
        else:
            body.append(cells)
    return header, body


_SUMMARY_OPEN = re.compile(r"<summary", re.I)
_SUMMARY_CLOSE = re.compile(r"</summary>", re.I)


def _summaries(text: str) -> list[str]:
    """What `<summary ...>` and `</summary>` hold, in order: the groups of
    `re.findall(r"<summary[^>]*>(.*?)</summary>", text, re.I | re.S)`, in time linear
    in `text` (from each `<summary` the regex read the rest again for a `>`)."""
    out = []
    at = 0
    while (opener := _SUMMARY_OPEN.search(text, at)) is not None:
        tag_end = text.find(">", opener.end())
        close = _SUMMARY_CLOSE.search(text, tag_end + 1) if tag_end >= 0 else None
        if close is None:  # (nor has any `<summary` after it)
            break
        out.append(text[tag_end + 1 : close.start()])
        at = close.end()
    return out


def _caption(text: str, start: int, soup) -> str | None:
    cap = soup.find("caption")
    if cap and cap.get_text(strip=True):
        return clean_cell(cap.get_text(" ", strip=True))
    before = text[max(0, start - 600) : start]
    if (summary := _summaries(before)) and "</details>" not in before.split(summary[-1])[-1]:
        return clean_cell(replace_tags(summary[-1], " "))
    return line_caption(text, start, max_len=200)


def parse(text: str) -> list[ResultTable]:
    lower = text.lower()
    if "<table" not in lower and "<tr" not in lower:
        return []
    from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning

    tables = []
    view = mask_tags(text)  # the lines before a table, read without their markup
    spans = _table_spans(text) if _OPEN_TABLE.search(text) else []
    slices = set(_row_slices(text, spans))
    for start, end in sorted([*spans, *slices]):
        markup = f"<table>{text[start:end]}</table>" if (start, end) in slices else text[start:end]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
            soup = BeautifulSoup(markup, "html.parser")
        table_el = soup.find("table")
        if table_el is None:
            continue
        levels, body = _grid(table_el)
        if not body:
            continue
        ncol = max(len(r) for r in [*levels, *body])
        padded = [lv + [""] * (ncol - len(lv)) for lv in levels]
        columns = [
            " / ".join(dict.fromkeys(x for x in col if x)) for col in zip(*padded, strict=True)
        ]
        caption = _caption(text, start, soup)
        levels = levels or [[""] * ncol]
        table = grid_table(
            INFO.name, view, (start, end), levels, body, columns=columns, caption=caption
        )
        tables.append(table)
    return tables
