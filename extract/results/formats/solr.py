"""Apache Solr's query time, `QTime`, as Solr prints it: returns one table per time.

Solr reports how long a request took as `QTime`, in milliseconds (its response
header's `QTime`, the time from the request's parse to its response), in three
forms people paste:
* the request log line of `SolrCore` (`o.a.s.c.S.Request`): `[core]  webapp=/solr
  path=/select params={q=*:*&rows=0} hits=1203344 status=0 QTime=9012`;
* the JSON response header: `"responseHeader":{"status":0,"QTime":12,...}` (a blank
  or a line break may follow the colon, as a pretty-printed response has it);
* the XML one: `<int name="QTime">12</int>`.

Measurements: metric `QTime`, unit `ms`. Label = the request's handler path and its
query when the line gives them (`/select q=*:*`); variant = a name that leads the
line (`before: webapp=...`, `8.11.2:`; not a log level, `INFO:`), else, for the next
record of a log, that of the record above, else the heading above (above its first
line, for a record a wrap broke; above its document, for a JSON or XML header). The
table spans a log record's request, so that its `hits` (how many documents matched)
and `status`, the request's result and not its performance, are no one's rows.

Not declared as rows: the time sits at the end of a log line of any length, or in a
JSON or XML document; each is found by its own mark and its line read around it.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import heading_above
from extract.results.formats._rows import numbers
from extract.results.formats.base import FormatInfo, ResultTable

INFO = FormatInfo(
    name="solr",
    description="Apache Solr query times (QTime) in request logs and response headers",
    signature='`... path=/select params={q=...} hits=N status=0 QTime=12`, `"QTime":12`, '
    '`<int name="QTime">12</int>`',
    priority=15,
    kind="result",
    trigger=r"(?-i:QTime)",
    needles=("QTime",),
)

# (each form's mark, then its digits: found in one pass from the mark, never tried at
# every position of a long line; a sentence's full stop may follow)
_QTIME = re.compile(r"(?-i:\bQTime(?:=|\"[ \t]*+:[ \t\r\n]*+|\">))(?P<ms>\d{1,9})(?!\.?\d)")
_PATH = re.compile(r"\bpath=(?P<path>/[^\s&{}]{1,80})")
# (the query: `q=` opens the params or follows a `&`; up to the next `&`, `}` or blank)
_QUERY = re.compile(r"[{&]q=(?P<q>[^&}\s]{1,80})")
# A name that leads the line, as a person labels a run: `before:`, `with the patch:`,
# `8.11.2:`. Not a log record's level (`INFO: [core] webapp=...`, Solr 4's format).
_LEAD = re.compile(
    r"[ \t>*_-]*+(?P<name>[A-Za-z][\w .()+-]{0,40}?|\d+(?:\.\d+)+[\w.-]{0,10})[ \t]*+:[ \t]"
)
_LOG_LEVEL = re.compile(r"(?i:info|warn|warning|error|debug|trace|fine|finer|severe|notice)")
# A line of a JSON or XML document, above its header: the document's own lines
_DOCUMENT_LINE = re.compile(r"[ \t]*+[{}\[\]\"<]")
_DOCUMENT_LINES = 30  # (how far up a document's first line is looked for)
_WRAPPED_LINES = 6  # (how many lines a wrap may have broken a request log record into)
_REQUEST_REACH = 4000  # (how far before its time a request's `webapp=` is looked for)


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0  # (where the previous time ended)
    line_at = -1  # (where the line of this time starts)
    variant = None
    for m in _QTIME.finditer(text):
        # (the line's start looked for back to the previous time only: a line of many
        # times is walked once, not once a time)
        nl = text.rfind("\n", floor, m.start())
        first_on_line = nl >= 0 or line_at < 0
        line_at = nl + 1 if nl >= 0 else max(line_at, 0)
        # (the request: from its `webapp=` (a wrap may have put it on a line above) or
        # its line's start to its time, never before the previous time)
        begin = max(line_at, floor)
        webapp = text.rfind("webapp=", max(floor, m.start() - _REQUEST_REACH), m.start())
        if 0 <= webapp < begin:
            begin = max(text.rfind("\n", floor, webapp) + 1, floor)
        segment = text[begin : m.start()]
        label = None
        if path := _PATH.search(segment):
            label = path["path"]
            if query := _QUERY.search(segment):
                label += f" q={query['q']}"
        if first_on_line:
            variant = _variant(text, m, min(begin, line_at), floor, bool(tables), variant)
        table = ResultTable(
            format=INFO.name,
            # (the request's line is the table's: its hits and status are no one's rows)
            span=(begin if m.group().startswith("QTime=") else m.start(), m.end()),
            columns=["QTime"],
            caption=label,
            variant=variant,
        )
        table.add_row([m["ms"]], numbers([("QTime", m["ms"], "ms")], label))
        floor = m.end()
        tables.append(table)
    return tables


def _variant(
    text: str, m: re.Match, line_at: int, floor: int, after_one: bool, prev: str | None
) -> str | None:
    """The name of the run a time on a new line belongs to: the name that leads its line;
    else, for a log line right under the previous time's (`after_one`: there is one), that
    one's; else the heading above it (above its document, for a JSON or XML header)."""
    lead = _LEAD.match(text, line_at, min(len(text), line_at + 80))
    if lead and not _LOG_LEVEL.fullmatch(lead["name"].strip()):
        return lead["name"].strip()
    log_line = m.group().startswith("QTime=")
    between = text[floor:line_at]
    if log_line and after_one and not between.strip() and "\n\n" not in between:
        return prev  # (the next record of the same log)
    block = line_at
    if log_line:
        # (a record a wrap broke over lines: its first line, under its heading's `:`
        # or a blank line)
        for _ in range(_WRAPPED_LINES):
            above = text.rfind("\n", floor, block - 1) + 1
            line = text[max(above, floor) : block].strip()
            if block <= floor or not line or line.endswith(":"):
                break
            block = max(above, floor)
    else:
        for _ in range(_DOCUMENT_LINES):
            if block <= floor:
                break
            above = text.rfind("\n", floor, block - 1) + 1
            if not _DOCUMENT_LINE.match(text, max(above, floor), block):
                break
            block = max(above, floor)
    return heading_above(text, block, floor)
