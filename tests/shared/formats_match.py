"""How a found measurement is compared with an expected row of a fixture.

Values and units are compared strictly; names loosely (the fixtures' names are
suggestions for a normalised schema): at least half of the expected label's words
and one of the metric's words must appear in the measurement's label, variant,
metric, its table's caption and columns, or the cells of its row.
"""

from __future__ import annotations

import math
import re

from extract.results.formats import Measurement, ResultTable


def words(*texts: str | None) -> set[str]:
    out: set[str] = set()
    for t in texts:
        if t:
            out |= {w for w in re.split(r"[^0-9a-zà-ÿ]+", t.lower()) if w}
    return out


def haystack(table: ResultTable, m: Measurement) -> set[str]:
    cells = table.rows[m.row] if m.row is not None and m.row < len(table.rows) else []
    return words(m.label, m.variant, m.metric, table.caption, table.variant, *table.columns, *cells)


def same_value(expected: float, found: float) -> bool:
    return math.isclose(expected, found, rel_tol=1e-6, abs_tol=1e-9)


def matches(row: dict, table: ResultTable, m: Measurement) -> bool:
    if not same_value(float(row["value"]), m.value):
        return False
    if (row.get("unit") or "") != (m.unit or ""):
        return False
    hay = haystack(table, m)
    label = words(row.get("label"), row.get("group"))
    metric = words(row.get("metric"))
    label_ok = not label or len(label & hay) * 2 >= len(label)
    metric_ok = not metric or bool(metric & hay)
    return label_ok and metric_ok


def find(row: dict, tables: list[ResultTable]) -> Measurement | None:
    for t in tables:
        for m in t.measurements:
            if matches(row, t, m):
                return m
    return None
