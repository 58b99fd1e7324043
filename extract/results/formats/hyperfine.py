"""hyperfine: terminal output and its markdown, CSV and JSON exports.

Recognises
* the terminal blocks: `Benchmark 1: <command>`, `Time (mean ± σ): 410.3 ms ± 19.9 ms
  [User: 173.7 ms, System: 1314.5 ms]` (one run: `Time (abs ≡):`) and `Range (min …
  max): 389.7 ms … 452.1 ms  10 runs`;
* the `Summary` block: `'a' ran` (>= 1.17: unquoted) then `1.02 ± 0.06 times faster
  than 'b'` (`slower` with `--reference`, `As fast (1.00 ± 0.01) as 'b'`); the
  `Relative speed comparison` block of `--sort command` (`  2.47 ±  0.92  sleep 0.05`);
* `--export-markdown`: `| Command | Mean [s] | Min [s] | Max [s] | Relative |` with cells
  `2.275 ± 0.046`; the same table as `--export-orgmode` (`|--+--|`, `=cmd=`) and
  `--export-asciidoc` (`|===`, one `| cell` a line);
* `--export-csv` (`command,mean,stddev,median,user,system,min,max[,parameter_x]`) and
  `--export-json` (`{"results": [{"command": ..., "mean": ..., "times": [...]}]}`), in s.

Measurements: label = the command; `mean`, `stddev`, `median`, `user`, `system`, `min`,
`max` in the unit printed by each value (exports: the header's; CSV/JSON `s`), `runs`,
`relative` (`x`) and from the summary `times faster than <command>` (`x`) with its
`stddev`. Variant = the heading before a run of blocks. Mail damage reads the same:
flattened, wrapped, CRLF, indented, ANSI colour debris (`[1;32m`), `±`/`σ`/`…`/`≡` as
`?` or as UTF-8 read as Latin-1 (`Â±`).

`RELATIVE` and `CSV` are declared rows. Not declared as rows: the console block is
several differently shaped lines (`Time (mean ± σ)`, `Range`, the summary's ratios), and
the markdown, JSON, AsciiDoc and Org exports are read separately.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from extract.results.formats._layout import (
    COLOURS,
    FLOAT,
    NUM,
    json_at,
    numbers_back,
    repaired,
    spans_back,
)
from extract.results.formats._rows import (
    ADJACENT,
    Field,
    Rows,
    disjoint,
    json_numbers,
    name_blocks,
    numbers,
    read,
)
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="hyperfine",
    description="hyperfine 'Time (mean ± σ)' blocks and its markdown/CSV/JSON exports",
    signature=(
        "'Benchmark N: <cmd>' + 'Time (mean ± σ): X ms ± Y ms' + 'Range (min … max):'; "
        "'Summary ... times faster than'; '| Command | Mean [s] | Min [s] | Max [s] | Relative |'; "
        "'command,mean,stddev,median,user,system,min,max'; '{\"results\": [{\"command\": ...'"
    ),
    priority=10,
    kind="result",
    trigger=r"(?-i:Time \(|times (?:faster|slower) than|As fast \(|Mean \["
    r"|Relative speed comparison|command,mean,stddev|\"command\"\s*:)",
    needles=(
        "Time (",
        "times faster than",
        "times slower than",
        "As fast (",
        "Mean [",
        "Relative speed comparison",
        "command,mean,stddev",
        '"command"',
    ),
)

# --- mail damage -------------------------------------------------------------------

# ANSI colour codes (with their ESC byte, or the `[1;32m` debris left without it),
# carriage returns, and UTF-8 symbols read as Latin-1.
_DAMAGE = re.compile(rf"{COLOURS}|\r|Â±|Ïƒ|â€¦|â‰¡|Âµ")
_REPAIR = {"Â±": "±", "Ïƒ": "σ", "â€¦": "…", "â‰¡": "≡", "Âµ": "µ"}


# --- terminal output ---------------------------------------------------------------

_U = r"(?:ns|µs|μs|us|ms|s)"
_PM = r"[±?]"  # `±`, or `?` once a gateway lost it
_CMD = r"[^\n]{1,300}?(?:\n[ \t]*[^\s\n][^\n]{0,200}?)?"  # one line, or wrapped onto two
_BLOCK = re.compile(
    rf"Benchmark(?: #?\d+)?:[ \t]*(?P<cmd>{_CMD})\s+"
    rf"Time \((?:mean {_PM} [σ?]|abs [≡?])\):\s*(?P<mean>{NUM})\s*(?P<mu>{_U})"
    rf"(?:\s*{_PM}\s*(?P<sd>{NUM})\s*(?P<su>{_U}))?"
    rf"(?:\s*\[User:\s*(?P<user>{NUM})\s*(?P<uu>{_U}),\s*System:\s*(?P<sys>{NUM})\s*(?P<yu>{_U})\])?"
    rf"(?:\s*Range \(min […?] max\):\s*(?P<min>{NUM})\s*(?P<minu>{_U})\s*[…?]\s*(?P<max>{NUM})\s*"
    rf"(?P<maxu>{_U})(?:\s*(?P<runs>\d+) runs)?)?"
)
_RATIO = rf"(?P<x>{NUM})(?:\s*{_PM}\s*(?P<sd>{NUM}))?"
_SUMMARY = re.compile(
    r"Summary\s+(?:'(?P<q1>[^'\n]+)'|(?P<p1>[^\n']+?)) ran"
    rf"(?=\s+(?:{NUM}(?:\s*{_PM}\s*{NUM})? times (?:faster|slower) than|As fast \())"
)
_VS = re.compile(
    rf"\s+(?:{_RATIO} times (?P<dir>faster|slower) than"
    rf"|As fast \((?P<x2>{NUM})(?:\s*{_PM}\s*(?P<sd2>{NUM}))?\) as)[ \t]+"
    r"(?:'(?P<q>[^'\n]+)'|(?P<p>[^\n]+))"
)
# (metric, group of the value, group of its unit) in a terminal block
_BLOCK_VALUES = (
    ("mean", "mean", "mu"),
    ("stddev", "sd", "su"),
    ("user", "user", "uu"),
    ("system", "sys", "yu"),
    ("min", "min", "minu"),
    ("max", "max", "maxu"),
)
# `--style basic`'s ratios: `Relative speed comparison`, then `  1.00  cmd` lines
RELATIVE = Rows(
    header=r"Relative speed comparison[ \t]*\r?\n",
    row=rf"[ \t]+{_RATIO}[ \t]+(?P<cmd>\S[^\n]*)(?:\n|$)",
    gap=ADJACENT,
    fields=(Field("relative", "x", "x"), Field("relative stddev", "sd", "x")),
    label=lambda m: m["cmd"].strip(),
    cells=lambda m, cmd: [cmd, m["x"], m["sd"] or ""],
    columns=("Command", "relative", "stddev"),
    caption="Relative speed comparison",
)


def _ratio(metric: str, x: str, sd: str | None, label: str) -> list[Measurement]:
    """A ratio (unit `x`) and its stddev when given."""
    return numbers([(metric, x, "x"), (f"{metric} stddev", sd, "x")], label)


def _known(name: str, commands: list[str]) -> str:
    """An unquoted command name: the longest benchmarked command it starts with
    (a flattened mail runs the next words on), else the name as read."""
    best = ""
    for cmd in commands:
        if len(cmd) > len(best) and (name == cmd or name.startswith(cmd + " ")):
            best = cmd
    return best or name.strip()


def _blocks(text: str) -> list[ResultTable]:
    out, commands = [], []
    for b in _BLOCK.finditer(text):
        cmd = " ".join(b.group("cmd").split())
        commands.append(cmd)
        table = ResultTable(
            INFO.name,
            b.span(),
            columns=["Command", "mean", "stddev", "user", "system", "min", "max", "runs"],
        )
        found = [(metric, b[key], b[unit]) for metric, key, unit in _BLOCK_VALUES]
        cells = [f"{b[key]} {b[unit]}" if b[key] else "" for _, key, unit in _BLOCK_VALUES]
        found.append(("runs", b["runs"], "count"))
        table.add_row([cmd, *cells, b["runs"] or ""], numbers(found, cmd))
        out.append(table)
    for s in _SUMMARY.finditer(text):
        quoted = s.group("q1") is not None
        fastest = s.group("q1") if quoted else _known(s.group("p1"), commands)
        columns = ["Command", "ratio", "stddev", "than"]
        table = ResultTable(INFO.name, s.span(), columns, caption="Summary")
        pos = s.end()
        while (v := _VS.match(text, pos)) is not None:
            if v.group("q") is not None:
                other, end = v.group("q"), v.end()
            else:  # unquoted: to the line end, or to a benchmarked command's end
                other = _known(v.group("p"), commands)
                end = v.start("p") + len(other)
            if v.group("dir"):
                metric, x, sd = f"times {v.group('dir')} than {other}", v.group("x"), v.group("sd")
            else:
                metric, x, sd = f"as fast as {other}", v.group("x2"), v.group("sd2")
            table.add_row([fastest, x, sd or "", other], _ratio(metric, x, sd, fastest))
            pos = end
        table.span = (s.start(), pos)
        if table.rows:
            out.append(table)
    return out + read(RELATIVE, text)


# --- exports -----------------------------------------------------------------------

# markdown (`|:---|---:|`) and Emacs org-mode (`|--+--|`) exports: one row a line
_EXPORT_HEADER = re.compile(
    r"\|\s*Command\s*\|\s*Mean \[(?P<unit>\w+)\]\s*\|\s*Min \[\w+\]\s*\|\s*Max \[\w+\]\s*\|"
    r"\s*Relative\s*\|\s*\|(?:[ \t]*:?-+:?[ \t]*[|+])+"
)
# (a command's `|` is written `\|`; its own backslashes are kept: `'.*\.jpg$'`,
# `'tcp\\|udp'` for `'tcp\|udp'`)
# (a gateway may wrap a row: a cell goes on over a line break, unless a row follows)
_WRAP = r"\n(?![ \t]*\|)"
_EXPORT_ROW = re.compile(
    rf"\s*\|((?:[^|\n\\]|\\\||\\|{_WRAP})*)\s*\|" + rf"((?:[^|\n]|{_WRAP})*)\s*\|" * 4
)
# the AsciiDoc export: `|===`, then one `| cell` a line, rows apart by a blank line
_ADOC_HEADER = re.compile(
    r"(?:\[cols=\"[^\"\n]*\"\]\s*)?\|===\s*"
    r"\|\s*Command\s*\|\s*Mean \[(?P<unit>\w+)\]\s*\|\s*Min \[\w+\]\s*"
    r"\|\s*Max \[\w+\]\s*\|\s*Relative[ \t]*"
)
_ADOC_ROW = re.compile(r"\s*\|((?:[^|\n\\]|\\\||\\)*)" + r"\s*\|([^|\n]*)" * 4)
_ADOC_END = re.compile(r"\s*\|===")
_VALUE = re.compile(rf"^({NUM})(?:\s*{_PM}\s*({NUM}))?$")


def _exports(text: str) -> list[ResultTable]:
    return _markup(text, _EXPORT_HEADER, _EXPORT_ROW.match) + _markup(
        text, _ADOC_HEADER, _ADOC_ROW.match
    )


def _markup(text: str, header: re.Pattern, row_at: Callable) -> list[ResultTable]:
    """The tables under each `header`; `row_at(text, pos)` matches a row where the last
    one ended (only there: a row's leading blanks are read once)."""
    out = []
    for h in header.finditer(text):
        unit = h.group("unit")
        table = ResultTable(
            INFO.name,
            h.span(),
            columns=["Command", f"Mean [{unit}]", f"Min [{unit}]", f"Max [{unit}]", "Relative"],
        )
        pos = h.end()
        while (row := row_at(text, pos)) is not None:
            cells = [c.strip() for c in row.groups()]
            mean = _VALUE.match(cells[1])
            if not mean:
                break
            cells = [" ".join(c.split()) for c in cells]
            cmd = cells[0].replace("\\|", "|")
            if len(cmd) > 1 and cmd[0] == cmd[-1] and cmd[0] in "`=":  # code: `x` or =x=
                cmd = cmd[1:-1]
            found = [("mean", mean[1], unit), ("stddev", mean[2], unit)]
            for metric, cell in (("min", cells[2]), ("max", cells[3])):
                if re.fullmatch(NUM, cell):
                    found.append((metric, cell, unit))
            ms = numbers(found, cmd)
            if rel := _VALUE.match(cells[4]):
                ms += _ratio("relative", rel[1], rel[2], cmd)
            table.add_row(cells, ms)
            pos = row.end()
        if header is _ADOC_HEADER and (end := _ADOC_END.match(text, pos)):
            pos = end.end()
        table.span = (h.start(), pos)
        if table.rows:
            out.append(table)
    return out


# The numbers of a CSV row and of a JSON result, in seconds.
_FIELDS = ("mean", "stddev", "median", "user", "system", "min", "max")
_CSV_HEADER = r"command,mean,stddev,median,user,system,min,max(?P<params>(?:,parameter_\w+)*)"


def _csv_rows(head: re.Match) -> Rows:
    """The rows under a CSV header with its parameter columns: the command, the seven
    numbers (in seconds), the parameter values (settings, not results: cells only)."""
    return Rows(
        # the command may be hard-wrapped by a gateway (its spaces are the only places
        # to break a CSV row); parameter values are read up to a space, as a flattened
        # mail runs the next row on after the last field
        row=(
            r'\s*(?P<cmd>"(?:[^"]|"")*"|[^,"\s][^,"]{0,300}?)'
            + "".join(rf",(?P<{f}>{FLOAT})" for f in _FIELDS)
            + r"(?P<params>"
            + r",[^,\s]*" * head["params"].count(",")
            + r")(?![^\s])"
        ),
        gap=ADJACENT,
        fields=tuple(Field(f, f, "s") for f in _FIELDS),
        label=lambda m: " ".join(_unquoted(m["cmd"]).split()),
        cells=lambda m, cmd: [cmd, *(m[f] for f in _FIELDS), *m["params"].split(",")[1:]],
        columns=head[0].split(","),
        caption="hyperfine --export-csv",
    )


def _unquoted(cell: str) -> str:
    return cell[1:-1].replace('""', '"') if cell.startswith('"') else cell


CSV = Rows(header=_CSV_HEADER, row=None, fields=(), for_header=_csv_rows)


_JSON_START = re.compile(r'\{\s*"results"\s*:\s*\[')


def _json(text: str) -> list[ResultTable]:
    out = []
    pos = 0
    while (m := _JSON_START.search(text, pos)) is not None:
        if (found := json_at(text, m.start())) is None:
            pos = m.end()
            continue
        data, pos = found
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            continue
        columns = ["command", *_FIELDS, "runs"]
        table = ResultTable(INFO.name, (m.start(), pos), columns, caption="hyperfine --export-json")
        for item in results:
            if not isinstance(item, dict) or not isinstance(item.get("command"), str):
                continue
            if not isinstance(item.get("mean"), int | float):
                continue
            cmd = item["command"]
            ms = json_numbers([(key, item.get(key), "s") for key in _FIELDS], cmd)
            written = {m.metric: m.written for m in ms}
            cells = [cmd, *(written.get(key, "") for key in _FIELDS)]
            times = item.get("times")
            if isinstance(times, list) and times:
                ms += numbers([("runs", str(len(times)), "count")], cmd)
            cells.append(str(len(times)) if isinstance(times, list) else "")
            table.add_row(cells, ms)
        if table.rows:
            out.append(table)
    return out


# --- all together ------------------------------------------------------------------

# What stands between two tables of one run: blank lines and hyperfine's warnings.
_BETWEEN = re.compile(r"(?:\s|Warning:[^\n]*)*")


def parse(text: str) -> list[ResultTable]:
    clean, index = repaired(text, _DAMAGE, _REPAIR)  # (and where each character was)
    kept = disjoint(_blocks(clean) + _exports(clean) + read(CSV, clean) + _json(clean))
    name_blocks(kept, clean, "block", joins=_BETWEEN.fullmatch)  # (one run: one heading)
    spans_back(kept, index)
    numbers_back(kept, index)
    return kept
