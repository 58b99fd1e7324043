"""Apache Solr's query time, `QTime`, as Solr prints it: returns one table per line.

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
line (`before: webapp=...`, `patched:`), else the heading above. `hits` (how many
documents matched) and `status` are the request's result, not its performance: not
measured.

Not declared as rows: the time sits at the end of a log line of any length, or in a
JSON or XML document; each is found by its own mark and its line read around it.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import heading_above, line_end, line_start
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
# every position of a long line)
_QTIME = re.compile(r"(?-i:\bQTime(?:=|\"[ \t]*+:[ \t\r\n]*+|\">))(?P<ms>\d{1,9})(?![\d.])")
_PATH = re.compile(r"\bpath=(?P<path>/[^\s&{}]{1,80})")
# (the query: `q=` opens the params or follows a `&`; up to the next `&`, `}` or blank)
_QUERY = re.compile(r"[{&]q=(?P<q>[^&}\s]{1,80})")
# A name that leads the line, as a person labels a run: `before:`, `with the patch:`.
_LEAD = re.compile(r"[ \t>*_-]*+(?P<name>[A-Za-z][\w .()+-]{0,40}?)[ \t]*+:[ \t]")


def parse(text: str) -> list[ResultTable]:
    tables = []
    floor = 0
    for m in _QTIME.finditer(text):
        start = line_start(text, m.start())
        line = text[start : line_end(text, m.start())]
        label = None
        if path := _PATH.search(line):
            label = path["path"]
            if query := _QUERY.search(line):
                label += f" q={query['q']}"
        lead = _LEAD.match(line)
        variant = lead["name"] if lead and "=" not in lead["name"] else None
        if variant is None:
            # (a log line is its own block; a JSON or XML document's header is inside
            # the document: its heading is the one above the paragraph)
            if m.group().startswith("QTime="):
                block = start
            else:
                blank = text.rfind("\n\n", floor, start)
                block = blank + 2 if blank >= 0 else floor
            variant = heading_above(text, block, floor)
        table = ResultTable(
            format=INFO.name,
            span=(m.start(), m.end()),
            columns=["QTime"],
            caption=label,
            variant=variant,
        )
        table.add_row([m["ms"]], numbers([("QTime", m["ms"], "ms")], label))
        floor = m.end()
        tables.append(table)
    return tables
