"""Arrow `archery benchmark diff` tables.

Recognises the comparison table with header `benchmark  baseline  contender  change
[%]  [counters]`: the 2019-20 ursabot reStructuredText form (`====  ====` rules, often
inside a ```diff fence with `-`/`+` markers) and the 2021+ pandas form under
`Non-regressions: (N)` / `Regressions: (N)` (right-aligned, an optional index column,
a Python-dict `counters` column).

Measurements: label = benchmark (`UniqueInt64/5`), metrics `baseline` and `contender`
with their unit (`570.247 MiB/sec` → unit `MiB/s`), `change` in `%`; variant = the
section (`Regressions`, `Non-regressions`) when there is one. The Google Benchmark
console table archery prints before it is left to the google-benchmark format.
"""

from __future__ import annotations

import re

from extract.formats._grid import dedupe, norm_unit, number
from extract.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="archery",
    description="Arrow archery benchmark diff tables",
    signature=(
        "header 'benchmark  baseline  contender  change [%] [counters]' (RST '====' rules or "
        "under 'Regressions: (N)' / 'Non-regressions: (N)'); cells '570.247 MiB/sec'"
    ),
    priority=10,
    kind="result",
)

_HEADER = re.compile(
    r"^[ \t+-]*(?:\d+[ \t]+)?benchmark[ \t]+baseline[ \t]+contender[ \t]+change(?:[ \t]*%)?"
    r"(?:[ \t]+counters)?[ \t]*$",
    re.M,
)
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_ROW = re.compile(
    rf"^[ \t+-]*(?:\d+[ \t]+)?(?P<name>\S+)[ \t]+(?P<b>{_NUM})[ \t]*(?P<bu>[A-Za-z][\w/]*)"
    rf"[ \t]+(?P<c>{_NUM})[ \t]*(?P<cu>[A-Za-z][\w/]*)[ \t]+(?P<ch>{_NUM})[ \t]*%?"
    r"(?:[ \t]+(?P<counters>\{.*\}))?[ \t]*$"
)
_SECTION = re.compile(r"^\s*((?:Non-)?[Rr]egressions):\s*\(\d+\)\s*$")
_RULE = re.compile(r"^[ \t+-]*[=-]{3,}[ \t=-]*$")


def parse(text: str) -> list[ResultTable]:
    try:
        tables = []
        for h in _HEADER.finditer(text):
            before = text[max(0, h.start() - 300) : h.start()].splitlines()
            section = next((m.group(1) for x in reversed(before) if (m := _SECTION.match(x))), None)
            table = ResultTable(
                INFO.name,
                h.span(),
                columns=["benchmark", "baseline", "contender", "change %", "counters"],
                variant=section,
            )
            pos = h.end() + 1
            for line in text[pos:].splitlines(keepends=True):
                body = line.rstrip("\r\n")
                m = _ROW.match(body)
                if m is None:
                    if _RULE.match(body) and not table.rows:
                        pos += len(line)
                        continue
                    if _RULE.match(body):
                        table.span = (h.start(), pos + len(body))
                    break
                r = len(table.rows)
                name = m.group("name")
                table.rows.append(
                    [name, f"{m.group('b')} {m.group('bu')}", f"{m.group('c')} {m.group('cu')}",
                     m.group("ch"), m.group("counters") or ""]
                )  # fmt: skip
                for metric, key, unit in (
                    ("baseline", "b", norm_unit(m.group("bu"))),
                    ("contender", "c", norm_unit(m.group("cu"))),
                    ("change", "ch", "%"),
                ):
                    value = number(m.group(key))
                    if value is not None:
                        table.measurements.append(
                            Measurement(metric, value, unit, name, None, m.group(key), r)
                        )
                table.span = (h.start(), pos + len(body))
                pos += len(line)
            if table.rows:
                tables.append(table)
        dedupe(tables, text)
        return tables
    except Exception:  # a parser bug must not lose the message; the other formats still run
        return []
