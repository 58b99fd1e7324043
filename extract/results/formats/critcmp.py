"""critcmp: comparisons of criterion baselines (Rust; arrow-rs / DataFusion bots).

Recognises the header `group  <baseline>  <baseline>...` over a `-----  ------` rule
and rows `<name>  1.00  301.7±1.10µs  ? ?/sec  1.03  310.2±2.00µs  ? ?/sec`: per
baseline the ratio to the fastest, `mean±stddev` with its unit, and a throughput
(`12.5 MB/sec`, or `? ?/sec` when none); `±` and `µ` as mail mangled them (`Â±`, `Âµs`,
`?`) too, and a table flattened onto one line.

Measurements: label = the benchmark (may contain spaces), variant = the baseline,
`time` and `stddev` (unit as printed), `ratio` (`x`), `throughput` (`MB/sec` spelled
`MB/s`); the first baseline's time and throughput are the `before` side, the others'
the `after`.

Each header makes its block's row pattern (a group of cells per baseline it names);
a row's name is whatever stands before its cells on its line.
"""

from __future__ import annotations

import re

from extract.results.formats._grid import norm_unit
from extract.results.formats._layout import NUM
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="critcmp",
    description="critcmp comparison tables",
    signature="'group  <base>  <new>' over '-----  ------'; cells '1.00  301.7±1.10µs  ? ?/sec'",
    priority=10,
    kind="result",
    trigger=r"±[\d.]|(?-i:\d\?\d+\.\d+(?:[num?]s|s))",
    # `±` as mail mangled it: `Â±` (still holds `±`), or `?` from a console without it
    trigger_parts=(
        (r"±[\d.]", ("±",), ()),
        (r"(?-i:\d\?\d+\.\d+(?:[num?]s|s))", ("?",), ()),
    ),
)

# (the names end at a non-blank, and at the next `group` word: from each `group` of a
# line the names are read once, up to where the next one's are)
_HEADER = (
    r"(?<!\S)group[ \t]++(?P<names>(?:(?!(?<!\S)group[ \t])[^\n]){0,399}?\S)\s++"
    r"(?P<rules>-{3,}(?:[ \t]+-{3,})+)"
)
# (`{{`: the group names are formatted per baseline, after NUM is put in)
_CELL = (
    rf"(?P<ratio{{i}}>\d+\.\d+)\s+(?P<mean{{i}}>{NUM})(?:Â?±|\?)(?P<sd{{i}}>{NUM})"
    r"(?P<unit{i}>ns|µs|μs|Âµs|\?s|us|ms|s)"
    rf"\s+(?:\?\s+\?/sec|(?P<tp{{i}}>{NUM})\s*(?P<tpu{{i}}>\S+/sec))"
)

# (from the first digit of a run only; searched in a slice that starts at a cell)
_ONE_CELL = re.compile(r"(?<!\d)" + _CELL.format(i=""))


def _sided(m: Measurement, column: int) -> Measurement:
    """The first baseline is the one the others are compared with: `before`; each other
    is an `after` (extract.results.comparisons). Ratios and stddevs are not sides."""
    if m.metric in ("time", "throughput"):
        m.side, m.side_name, m.quantity = (
            ("before" if column == 0 else "after"),
            m.variant,
            m.metric,
        )
    return m


def _block(h: re.Match) -> Rows | None:
    """The rows under header `h`: a name, then a group of cells per baseline it names."""
    names = h["names"].split()
    if len(names) != len(h["rules"].split()) - 1:
        return None

    def found(m: re.Match):
        for i, base in enumerate(names):
            # `Âµs` (UTF-8 read as Latin-1), `?s` (no µ): microseconds
            unit = re.sub(r"^(?:Âµ|\?)", "µ", m[f"unit{i}"])
            for metric, key, u in (
                ("ratio", "ratio", "x"),
                ("time", "mean", unit),
                ("stddev", "sd", unit),
            ):
                written = m[f"{key}{i}"]
                yield _sided(Measurement(metric, float(written), u, m["name"], base, written), i)
            if tp := m[f"tp{i}"]:
                tpu = norm_unit(m[f"tpu{i}"])
                yield _sided(Measurement("throughput", float(tp), tpu, m["name"], base, tp), i)

    cells = r"\s+".join(_CELL.format(i=i) for i in range(len(names)))
    return Rows(
        # (the name: up to 150 characters on the line, before the first cells, which
        # start at a digit run's first digit: one way to read a long run of digits)
        row=rf"(?P<name>\S[^\n]{{0,149}}?)\s*(?<!\d){cells}",
        fields=found,
        label="name",
        columns=["group", *names],
        cells=lambda m, name: [
            name,
            *(c[0] for c in _ONE_CELL.finditer(m.string[m.start("ratio0") : m.end()])),
        ],
    )


ROWS = Rows(row=None, fields=(), header=_HEADER, for_header=_block)


def parse(text: str) -> list[ResultTable]:
    return read(ROWS, text)
