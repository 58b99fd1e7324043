"""JMH results as JMH 1.x prints them (checked against JMH 1.37:
tests/fixtures/tools/jmh/make.sh).

Recognises
- the end-of-run text table `Benchmark [(param)...] Mode Cnt Score Error Units` (before
  1.10: `Samples`; 1.0: `Score error`, no `±`), with secondary rows `bench:gc.alloc.rate`
  (older `bench:·gc.alloc.rate`), percentile rows `bench:p0.99`, decimal commas, and
  `≈ 10⁻⁴` for scores too small to print (no number). Mail damage reads the same: the
  `±` mangled (`?`, `Â±`, `Ã‚Â±`, `�`, `+-`) or dropped, rows hard-wrapped or flattened
  onto one line, GitBox's indent, CRLF, HTML tags, split words (`M ode`); rows that go
  on under a short heading line (`after:`) form a table of their own with that heading;
  the same table retyped as a markdown or JIRA table (`| Benchmark | (size) | Mode |
  Cnt | Score | Error | Units |`: with JMH's Mode, Score and Units columns), its pipes
  read as blanks;
- rows quoted without their header (`Class.method [params] avgt 15 1.378 ± 0.055
  ms/op`), where a JMH time unit (`ms/op`, `ops/s`) marks them;
- the run log's `Result "name":` / `Secondary result "name:gc.alloc.rate":` blocks
  (`mean = 640.862 ±(99.9%) 113.354 ms/op` or `640.862 ±(99.9%) 113.354 ms/op
  [Average]`, `(min, avg, max) = (..), stdev = ..`, `Percentiles, unit:` lines); a
  block's score and percentiles are dropped when a text table of the message has the
  same result, so each result counts once;
- a verbose run's measured `Iteration N: 1.561 s/op` lines under its `# Benchmark:`
  line (warmup iterations are not read); the log's own lines (`# Warmup: 5 iterations,
  10 s each`, `# Fork: 1 of 5`) are claimed without measurements;
- CSV / SCSV exports (`"Benchmark","Mode","Threads","Samples","Score","Score Error
  (99.9%)","Unit","Param: x"`), read field by field so a re-indented, wrapped or
  flattened export reads the same; JSON (`{"jmhVersion": .., "primaryMetric": {..},
  "secondaryMetrics": {..}}`) and flat records one a line as Druid's runner prints
  them (`{"benchmark": .., "score": .., "scoreUnit": .., "p99": ..}`; a record cut off
  mid-line keeps its complete fields).

Measurements per result row: label = the benchmark (`bench:gc.alloc.rate` for secondary
results), variant = the heading before the block and the @Param values (`Before patch /
size=100`), metrics `Score` and `Score error` (unit from `Units`), `Cnt` (`count`;
CSV/JSON also `Threads`); Result blocks add `min`, `max`, `stdev`, `p50`...; flat JSON
records `p50`...`p99`. The mode (thrpt, avgt, ss, sample) stays in the cells.

The iteration lines are declared rows (`ITERATIONS`). Not declared as rows: the text
table is read column by column from its header (parameter columns vary, the Error column
may be missing or mangled, a row may be wrapped or quoted without its header), and the
Result blocks, CSV and JSON are three other shapes, each with its own reader.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable

from extract.results.formats._layout import (
    LETTER,
    LOCALE,
    NUM,
    TINY,
    inline_heading,
    json_at,
    line_caption,
    line_end,
    line_start,
    mask_tags,
    masked,
    overlaps,
    trimmed,
)
from extract.results.formats._rows import Rows, json_numbers, numbers, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="jmh",
    description="JMH text tables, run logs (Result blocks, iterations), CSV/SCSV and JSON results",
    signature=(
        "'Benchmark (param) Mode Cnt Score Error Units' header (old: Samples) + rows "
        "'name thrpt 5 123.4 ± 5.6 ops/s' (also quoted without the header); "
        "'Result \"name\": 12.3 ±(99.9%) 0.4 ns/op [Average]' / 'Secondary result'; "
        '\'"Benchmark","Mode","Threads","Samples","Score"\' CSV; \'"jmhVersion"\' JSON; '
        "'Iteration N: 1.561 s/op' lines under '# Benchmark: name'"
    ),
    priority=10,
    kind="result",
    trigger=(
        r'(?-i:Result\s*"|"jmhVersion"|"[bB]enchmark"|C ?n ?t\b|S ?a ?m ?p ?l ?e ?s\b'
        r"|(?:avgt|thrpt)\s|#[ \t]*(?:JMH version|Warmup Iteration|Benchmark mode))"
    ),
    # one part per alternative, each starting with a literal (the regex engine skips to it)
    trigger_parts=(
        (r'(?-i:Result\s*")', ("Result",), ()),
        (r'(?-i:"jmhVersion")', ('"jmhVersion"',), ()),
        (r'(?-i:"[bB]enchmark")', ('enchmark"',), ()),
        (r"(?-i:C ?n ?t\b)", ("Cn", "C n"), ()),
        (r"(?-i:S ?a ?m ?p ?l ?e ?s\b)", ("Sa", "S a"), ()),
        (r"(?-i:(?:avgt|thrpt)\s)", ("avgt", "thrpt"), ()),
        (
            r"(?-i:#[ \t]*(?:JMH version|Warmup Iteration|Benchmark mode))",
            ("JMH version", "Warmup Iteration", "Benchmark mode"),
            (),
        ),
    ),
)

_MODES = r"thrpt|avgt|sample|ss|all|Throughput|AverageTime|SampleTime|SingleShotTime"
# a score: 123.456, 1,234 (decimal comma), 3.4E8, NaN, or `≈ 10⁻⁴` / `≈ 0` (too small to print)
_NUM = rf"(?:{LOCALE}|NaN|{TINY})"
_UNIT = r"[A-Za-z#%µμ][^\s|<]*"
# the ± sign as written, or as mail mangles it: `?`, `Â±` (UTF-8 read as Latin-1, once
# or twice), `�` (undecodable), `+-` / `+/-` (retyped)
_PM = r"(?:(?:Ã‚)?Â±|±|\?|\ufffd{1,2}|\+/?-)"
_GAP = r"[ \t\r\n\u00a0]+"


def _kw(word: str) -> str:
    """A header word that the archive may have split with a space (`M ode`)."""
    return " ?".join(re.escape(c) for c in word)


_HEADER = re.compile(
    rf"{_kw('Benchmark')}(?P<params>(?:{_GAP}\(\w+\))*){_GAP}{_kw('Mode')}{_GAP}"
    rf"(?P<cnt>{_kw('Cnt')}|{_kw('Samples')}){_GAP}(?:{_kw('Score')}|{_kw('Mean')})"
    rf"(?:{_GAP}(?:(?:Score|Mean){_GAP})?(?:{_kw('Error')}|[Ee]rror))?{_GAP}{_kw('Units')}"
)
# `Result "name":` / `Secondary result "name:gc.alloc.rate":` blocks of the run log:
# `  906.085 ±(99.9%) 5483.596 ns/op [Average]`, then `(min, avg, max) = (..), stdev = ..`;
# sample and single-shot modes print `N = 5` / `mean = 37.600 ±(99.9%) 11.724 us/op`
# and `Percentiles, us/op:` lines `p(50.0000) = 39.123 us/op`. Mail may drop the `±`
# or turn `±(` into one `?` (`2.747 ?99.9%) 0.030`).
_RESULT = re.compile(
    rf"(?P<secondary>Secondary result|Result)\s*\"(?P<name>[^\"]{{1,300}})\"\s*:\s*"
    rf"(?:N\s*=\s*(?P<n>\d+)\s*)?(?:mean\s*=\s*)?(?P<score>{_NUM})\s*"
    rf"(?:{_PM}?\s*\(?\s*99[.,]9%\s*\)\s*(?P<err>{_NUM})\s*)?(?P<unit>[A-Za-z#%µμ][^\s\[\]<]*)"
    rf"(?:\s*\[(?P<mode>\w+)\])?"
    rf"(?:\s*\(min,\s*avg,\s*max\)\s*=\s*\((?P<min>{_NUM}),\s*(?P<avg>{_NUM}),\s*(?P<max>{_NUM})\)"
    rf"(?:,\s*stdev\s*=\s*(?P<stdev>{_NUM}))?)?"
    rf"(?:\s*CI\s*\(99[.,]9%\):\s*\[[^\]\n]{{0,80}}\](?:\s*\(assumes normal distribution\))?)?"
)
# The run log's own lines: settings (`# Warmup: 5 iterations, 10 s each`), progress and
# warmup iterations. Not results; claimed so that no generic parser reads them.
_LOG_LINE = re.compile(
    rf"#[ \t]*(?:Warmup Iteration[ \t]+\d+:[ \t]*{_NUM}[ \t]+[^\s#]+"
    r"|Run complete\. Total time: [\d:]+"
    r"|(?:JMH version|VM version|VM invoker|VM options|Blackhole mode|Warmup|Measurement"
    r"|Timeout|Threads|Benchmark mode|Benchmark|Parameters|Run progress|Fork"
    r"|Detecting actual CPU count)"
    r"[ \t]*:(?:(?!Iteration[ \t]+\d+:)[^\n#]){0,300})"
)
_LOG_SIGN = re.compile(r"#[ \t]*(?:JMH version|Benchmark|Warmup Iteration)[ \t]*:?")
# What may follow a Result block: its histogram, then the head of its percentiles.
_HISTOGRAM_PERCENTILES = re.compile(
    rf"(?:\s*Histogram, [^\n:]{{1,20}}:(?:\s*\[\s*{LOCALE},\s*{LOCALE}\)\s*=\s*\d+)*)?"
    r"(?:\s*Percentiles, (?P<unit>[^\s:]{1,20}):)?"
)
_PERCENTILE = re.compile(rf"\s*p\((?P<p>{NUM})\)\s*=\s*(?P<v>{_NUM})(?:[ \t]+[^\s]+)?")
# A verbose run's measured iterations (`# Warmup Iteration   1:` lines are not results),
# one a line (sometimes with the secondary results after them), or in a flattened log
# on one line with the `#` lines.
_ITERATION = (
    rf"(?<![\w#])(?<!Warmup )Iteration[ \t]+(?P<i>\d+):[ \t]+(?P<v>{_NUM})[ \t]+"
    rf"(?P<unit>[A-Za-z#%µμ][^\s\[\]<]*)"
)
_BENCHMARK_LINE = re.compile(r"#[ \t]*Benchmark:[ \t]*(?:\r?\n)?[ \t]*(?P<name>[^\s#]+)")
_MODE_LINE = re.compile(r"#[ \t]*Benchmark mode:[ \t]*(?P<mode>[^\n#]+)")
_CSV_HEADER = re.compile(r'"Benchmark"([,;])"Mode"\1"Threads"\1"Samples"\1"Score"')


def _num(written: str | None) -> float | None:
    """A JMH number: JMH prints no grouping, so a lone `,` is a decimal comma; `NaN` and
    `≈ 10⁻⁴` (too small to print) are none."""
    if not written or written.strip() == "NaN" or written.strip().startswith(("≈", "~")):
        return None
    return parse_number(written, decimal_comma=True)


def _caption(view: str, pos: int) -> str | None:
    """The line above a block when it names it; not the last line of a paragraph (the
    run log's closing notes end right above the summary table)."""
    start = line_start(view, pos)
    if view[start:pos].strip():
        # a block that starts mid-line (flattened mail): the clause before it, if it
        # ends with a colon (`... Here are the numbers: With the patch: Benchmark ...`)
        c = inline_heading(view[max(0, pos - 200) : pos])
    else:
        c = line_caption(view, start)  # past an indent (GitBox's 3 spaces)
    if c and c.endswith(".") and len(c.split()) > 5:
        return None
    return c


def _variant(heading: str | None, params: list[tuple[str, str]]) -> str | None:
    parts = [heading] if heading else []
    if params:
        parts.append(", ".join(f"{k}={v}" for k, v in params))
    return " / ".join(parts) or None


def _row_measurements(name, score, err, cnt, unit, variant, *, threads=None) -> list[Measurement]:
    if _num(score) is None:
        return []
    found = [("Score", score, unit, _num(score)), ("Score error", err, unit, _num(err))]
    for metric, n in (("Cnt", cnt), ("Threads", threads)):
        if n and n.strip().isdigit():
            found.append((metric, n, "count", float(n)))
    return [Measurement(k, v, u, name, variant, w.strip()) for k, w, u, v in found if v is not None]


def _add_row(table: ResultTable, m: re.Match, params: list[str], variant: str | None) -> None:
    """A text table's row `m` (its @Param cells `params`) and its measurements."""
    cells = [m["name"], *params, m["mode"], m["cnt"] or "", m["score"], m["err"] or "", m["unit"]]
    ms = _row_measurements(m["name"], m["score"], m["err"], m["cnt"], m["unit"], variant)
    table.add_row(cells, ms)


def _row_match(k: int) -> Callable[..., re.Match | None]:
    """A result row under a header with `k` @Param columns, matched where the header or
    the row before ends (only matched: searched, the name's run would be read again
    from each of its characters). Any gap between cells may hold a line break (a row
    hard-wrapped by the mail, or a flattened table)."""
    return re.compile(
        rf"[ \t\r\n\u00a0]*(?P<name>[^\s|()]+)"
        rf"(?P<params>(?:{_GAP}[^\s]+){{{k}}}){_GAP}(?P<mode>{_MODES})"
        rf"(?:{_GAP}(?P<cnt>\d+))?{_GAP}(?P<score>{_NUM})"
        rf"(?:(?:[ \t\r\n\u00a0]*{_PM}[ \t\r\n\u00a0]*|{_GAP})(?P<err>{_NUM}))?"
        rf"{_GAP}(?P<unit>{_UNIT})"
    ).match


# (a heading is no line of JMH's own: a header, a log line, a Result block; the blanks
# before it are the line's own, and a run of them is taken whole before the check)
_NOT_JMH = r"(?![^\S\n]*(?:Benchmark|#|Result|Iteration)\b)"
# ... or, flattened onto one line, a few words and a colon between two rows.
_INLINE_SPLIT = re.compile(
    rf"[ \t\u00a0]++{_NOT_JMH}(?P<h>[A-Za-z][^\n|:]{{0,40}}?:)(?=[ \t\u00a0])"
)
# A short line between two runs of rows of one table (`after:`, `With the patch`).
# (its indent taken whole, and the blanks after it: a heading tried from each blank of a
# long run, each length read to the run's end, took cubic time)
_SPLIT_HEADING = re.compile(
    rf"[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*+{_NOT_JMH}(?P<h>[^\n|]{{2,60}}?)[ \t\r]*+(?=\n)"
)


_SCORE_COLUMNS = ("Mode", "Cnt", "Score", "Error", "Units")


def _tell_modes_apart(table: ResultTable, mode_col: int) -> None:
    """One benchmark run in two modes of one unit (`avgt` and `sample`, both ms/op; `-bm
    all`): its scores would read as one quantity twice, so each is named by its mode."""
    modes: dict[tuple, set[str]] = {}
    for m in table.measurements:
        key = (m.label, m.metric, m.unit, m.variant)
        modes.setdefault(key, set()).add(table.rows[m.row][mode_col])
    for m in table.measurements:
        if len(modes[(m.label, m.metric, m.unit, m.variant)]) > 1:
            mode = table.rows[m.row][mode_col]
            m.variant = f"{m.variant}, {mode}" if m.variant else mode


def _text_tables(view: str) -> list[ResultTable]:
    out = []
    for h in _HEADER.finditer(view):
        params = re.findall(r"\((\w+)\)", h.group("params"))
        row_match = _row_match(len(params))
        columns = ["Benchmark", *[f"({p})" for p in params], *_SCORE_COLUMNS]
        start, pos = h.start(), h.end()
        heading = _caption(view, h.start())
        while (m := row_match(view, pos)) is not None:
            table = ResultTable(INFO.name, (start, pos), columns=list(columns), caption=heading)
            while m is not None:
                pvals = m.group("params").split()
                _add_row(table, m, pvals, _variant(heading, list(zip(params, pvals, strict=False))))
                pos = m.end()
                m = row_match(view, pos)
            table.span = (start, pos)
            _tell_modes_apart(table, 1 + len(params))
            out.append(table)
            # the same table may go on under a short heading line, without its header
            split = _SPLIT_HEADING.match(view, pos) or _INLINE_SPLIT.match(view, pos)
            if not split or not LETTER.search(split["h"]):
                break
            heading = split.group("h").strip().rstrip(":：").strip("*_# ") or None
            start, pos = split.start("h"), split.end()
    return out


def _result_blocks(view: str) -> list[ResultTable]:
    out = []
    for m in _RESULT.finditer(view):
        name = re.sub(r"\s+", "", m.group("name"))
        unit = m.group("unit").rstrip(".,;")
        found = [(key, m[key], unit) for key in ("min", "max", "stdev")]
        end = (head := _HISTOGRAM_PERCENTILES.match(view, m.end())).end()
        if head["unit"]:
            while (p := _PERCENTILE.match(view, end)) is not None:
                # `p(99.9900)` → `p99.99`
                found.append(("p" + trimmed(p["p"]), p["v"], head["unit"].rstrip(".,;")))
                end = p.end()
        table = ResultTable(
            INFO.name,
            (m.start(), end),
            columns=["Benchmark", "N", "Score", "Error", "Units"],
            caption=m["secondary"],
        )
        ms = _row_measurements(name, m["score"], m["err"], m["n"], unit, None)
        ms += numbers([(k, w, u, _num(w)) for k, w, u in found], name)
        table.add_row([name, m["n"] or "", m["score"], m["err"] or "", unit], ms)
        out.append(table)
    return out


def _one_run(between: str) -> bool:
    return between.count("\n") <= 1 and "#" not in between and "Result" not in between


# A verbose run's `Iteration N: 1.561 s/op` lines, one table per run of consecutive lines
# (label `Iteration N`, metric `Score` as in JMH's tables); `_iterations` names them.
ITERATIONS = Rows(
    row=_ITERATION,
    gap=_one_run,
    select=lambda rows: [m for m in rows if _num(m["v"]) is not None],
    fields=lambda m: [("Score", m["v"], m["unit"], _num(m["v"]))],
    label=lambda m: f"Iteration {m['i']}",
    cells=("i", "v", "unit"),
    columns=("Iteration", "Score", "Units"),
)


def _iterations(view: str) -> list[ResultTable]:
    """The runs of iteration lines, each under the `# Benchmark:` line above it (without
    one it is not JMH's log, and nothing is read): variant the benchmark; the caption is
    the run's mode line (`Single shot invocation time`)."""
    out = []
    benches = list(_BENCHMARK_LINE.finditer(view))
    starts = [b.end() for b in benches]
    for table in read(ITERATIONS, view):
        if not (k := bisect.bisect_right(starts, table.span[0])):
            continue
        bench = benches[k - 1]
        mode = _MODE_LINE.search(view, max(0, bench.start() - 300), bench.start())
        table.caption = mode.group("mode").strip() if mode else bench["name"]
        for m in table.measurements:
            m.variant = bench["name"]
        out.append(table)
    return out


# A field, quoted or bare, and the blanks after it, per separator: in SCSV
# (`;`-separated, written where the decimal mark is a comma) a bare field may hold a
# comma: `528,857143`.
_FIELD_OR = r'(?P<field>"(?P<q>(?:[^"]|"")*)"|{})[ \t]*'
_FIELD = {
    ",": re.compile(_FIELD_OR.format(r'[^\s,;"]*')),
    ";": re.compile(_FIELD_OR.format(r'[^\s;"]*')),
}
_BLANKS = re.compile(r"[ \t\r\n\u00a0]*")


def _csv_records(text: str, pos: int, sep: str) -> tuple[list[list[str]], int]:
    """The records of a JMH CSV/SCSV export from `pos`, and where they end. Fields are
    read one by one rather than by lines, so that a mail that re-indented, wrapped
    (inside a quoted header such as `"Score Error (99.9%)"`) or flattened the export
    reads the same; a record starts with a quoted benchmark name, and a record cut
    off mid-field ends the table."""
    records: list[list[str]] = []
    end = pos
    while True:
        gap = _BLANKS.match(text, pos)
        if records and (gap.group(0).count("\n") > 1 or not text.startswith('"', gap.end())):
            break
        pos = gap.end()
        record: list[str] = []
        while True:
            f = _FIELD[sep].match(text, pos)
            if f["q"] is not None:
                record.append(" ".join(f["q"].replace('""', '"').split()))
            elif text.startswith('"', pos):
                return records, end  # cut off inside a quoted field
            else:
                record.append(f["field"])
            pos = f.end("field")
            if text.startswith(sep, f.end()):
                pos = f.end() + 1
                continue
            break
        if len(record) < 2:
            break
        records.append(record)
        end = pos
    return records, end


def _csv_tables(text: str) -> list[ResultTable]:
    out = []
    for h in _CSV_HEADER.finditer(text):
        sep = h.group(1)
        records, end = _csv_records(text, h.start(), sep)
        if not records:
            continue
        header, body = records[0], [r for r in records[1:] if len(r) == len(records[0])]
        idx = {name: i for i, name in enumerate(header)}
        if not {"Benchmark", "Score", "Samples", "Unit", "Threads"} <= idx.keys():
            continue
        err_col = next((i for i, n in enumerate(header) if n.startswith("Score Error")), None)
        param_cols = [
            (i, n.removeprefix("Param: ")) for i, n in enumerate(header) if n.startswith("Param: ")
        ]
        heading = _caption(text, h.start())
        table = ResultTable(INFO.name, (h.start(), end), columns=header, caption=heading)
        for rec in body:
            params = [(n, rec[i]) for i, n in param_cols if rec[i]]
            name, score, cnt, unit, threads = (
                rec[idx[k]] for k in ("Benchmark", "Score", "Samples", "Unit", "Threads")
            )
            err = rec[err_col] if err_col is not None else None
            variant = _variant(heading, params)
            ms = _row_measurements(name, score, err, cnt, unit, variant, threads=threads)
            table.add_row(rec, ms)
        out.append(table)
    return out


def _json_tables(text: str) -> list[ResultTable]:
    out = []
    for m in re.finditer(r"\{\s*\"jmhVersion\"", text):
        if (found := json_at(text, m.start())) is None:
            continue
        obj, end = found
        if not isinstance(obj, dict) or not isinstance(obj.get("primaryMetric"), dict):
            continue
        name = str(obj.get("benchmark", ""))
        mode = str(obj.get("mode", ""))
        params = sorted((str(k), str(v)) for k, v in (obj.get("params") or {}).items())
        variant = _variant(None, params)
        table = ResultTable(
            INFO.name,
            (m.start(), end),
            columns=["Benchmark", "Mode", "Threads", "Forks", "Score", "Score Error", "Unit"],
        )
        metrics = [(name, obj["primaryMetric"])]
        for sec, metric in (obj.get("secondaryMetrics") or {}).items():
            if isinstance(metric, dict):
                metrics.append((f"{name}:{sec}", metric))
        threads = str(obj.get("threads", ""))
        for label, metric in metrics:
            score, err = str(metric.get("score")), str(metric.get("scoreError"))
            primary = threads if label == name else None  # (its threads are the run's)
            ms = _row_measurements(
                label, score, err, None, metric.get("scoreUnit"), variant, threads=primary
            )
            row = [label, mode, threads, str(obj.get("forks", "")), score, err]
            table.add_row([*row, str(metric.get("scoreUnit", ""))], ms)
        out.append(table)
    return out


def _json_lines(text: str) -> list[ResultTable]:
    """Flat result records, one JSON object a line (Druid's benchmark runner):
    `{"benchmark": .., "mode": .., "score": .., "scoreUnit": .., "scoreError": .., "p99": ..}`."""
    out = []
    table = None
    # one record a line; a flattened mail puts them all on one line
    for m in re.finditer(r'\{[^{}\n]{0,3000}?"benchmark"[^{}\n]{0,3000}?"score"', text):
        start = m.start()
        obj, end = json_at(text, start) or _cut_record(text, start)
        if not isinstance(obj, dict) or "scoreUnit" not in obj or "primaryMetric" in obj:
            continue
        name, unit = str(obj.get("benchmark", "")), str(obj.get("scoreUnit"))
        run_id = str(obj.get("id", ""))
        variant = (
            run_id[len(name) + 1 :] if run_id.startswith(name) and len(run_id) > len(name) else None
        )
        if table is None or text[table.span[1] : start].strip():
            table = ResultTable(
                INFO.name, (start, end), columns=["benchmark", "variant", "field", "value"]
            )
            out.append(table)
        fields = [("Score", obj.get("score"), unit), ("Score error", obj.get("scoreError"), unit)]
        fields += [(k, v, unit) for k, v in obj.items() if re.fullmatch(rf"p{NUM}", k)]
        fields.append(("Cnt", obj.get("sampleCount"), "count"))
        ms = [m for m in json_numbers(fields, name, variant) if m.value == m.value]  # (not NaN)
        table.add_row([name, variant or "", "score", str(obj.get("score"))], ms)
        table.span = (table.span[0], end)
    return out


def _cut_record(text: str, start: int) -> tuple[dict | None, int]:
    """A flat record cut off mid-line (archives truncate long lines): its fields up to
    the last complete one, or None."""
    end = line_end(text, start)
    following = text.find('{"', start + 1, end)  # the next record, on a flattened line
    end = following if following > 0 else end
    line = text[start:end].rstrip()
    cut = line.rfind(',"')
    if cut < 0 or "{" in line[1:cut]:
        return None, end  # nested objects are not a flat record
    try:
        obj = json.loads(line[:cut] + "}")
    except ValueError:
        return None, end
    return obj, end


def _bench_key(label: str | None) -> tuple[str, str]:
    """(method, secondary) of a benchmark name, as the summary table and the run log
    both name it: the table drops or shortens the package (`o.a.Foo.bar`), older JMH
    writes `bar:·gc.alloc.rate` where newer writes `bar:gc.alloc.rate`."""
    bench, _, sec = (label or "").partition(":")
    return bench.rsplit(".", 1)[-1], sec.replace("·", "")


def _same_result(a: Measurement, b: Measurement) -> bool:
    return a.value == b.value and a.unit == b.unit and _bench_key(a.label) == _bench_key(b.label)


# Result rows quoted without their header (the excerpt starts mid-table): a benchmark
# name `Class.method` (`:secondary`), @Param values, the mode, the count, `score ± error`
# and a unit, on one line or wrapped onto two; only read where a JMH unit names it.
_WS1 = r"(?:[ \t\u00a0]+(?:\r?\n[ \t\u00a0]*)?|\r?\n[ \t\u00a0]*)"
_BARE_ROW = re.compile(
    rf"(?<!\S)(?P<name>[A-Za-z_$][\w$]*(?:\.[\w$]+)+(?::[^\s]+)?)"
    rf"(?P<params>(?:{_WS1}(?!(?:thrpt|avgt|sample|ss)\s)[^\s±]+){{0,10}}?)"
    rf"{_WS1}(?P<mode>thrpt|avgt|sample|ss)(?:{_WS1}(?P<cnt>\d+))?{_WS1}(?P<score>{_NUM})"
    rf"(?:(?:[ \t\u00a0]*{_PM}{_WS1}?|{_WS1})(?P<err>{_NUM}))?{_WS1}(?P<unit>{_UNIT})"
    r"(?=\s|$)",
    re.M,
)
_JMH_UNIT = re.compile(r"(?:ops/(?:s|ms|us|µs|ns|min|hr)|(?:s|ms|us|µs|ns|min|hr)/op)")


def _bare_rows(view: str) -> list[ResultTable]:
    out = []
    table = None
    for m in _BARE_ROW.finditer(view):
        if _num(m.group("score")) is None:
            continue
        primary = ":" not in m.group("name")
        if table is None or view[table.span[1] : m.start()].strip():
            if not primary or not _JMH_UNIT.fullmatch(m.group("unit")):
                continue
            heading = _caption(view, m.start())
            table = ResultTable(
                INFO.name,
                (m.start(), m.end()),
                columns=["Benchmark", "Params", *_SCORE_COLUMNS],
                caption=heading,
            )
            out.append(table)
        elif primary and not _JMH_UNIT.fullmatch(m.group("unit")):
            continue
        pvals = m.group("params").split()
        variant = " / ".join(p for p in (table.caption, ", ".join(pvals)) if p) or None
        _add_row(table, m, [" ".join(pvals)], variant)
        table.span = (table.span[0], m.end())
    return out


# A JMH table retyped as a markdown or JIRA table (`| Benchmark | (size) | Mode | Cnt |
# Score | Error | Units |`, `||Benchmark||Mode||...||Units||`): its header line holds
# JMH's own columns, Mode, Score and Units; the separator under a markdown header.
_PIPED_HEADER = re.compile(r"(?m)^[ \t>]*+\|{1,2}[ \t]*Benchmark[ \t]*\|[^\n]*")
_JMH_COLUMNS = frozenset(("Mode", "Score", "Units"))
_PIPE_RULE = re.compile(r"[ \t>]*+\|?(?:[ \t]*+:?-{3,}+:?[ \t]*+\|)++[ \t]*+(?::?-{3,}+:?[ \t]*+)?")
_PIPED_LINE = re.compile(r"[ \t>]*+\|")


def _unpiped(view: str) -> str:
    """`view` with each piped JMH table read as JMH prints it: its lines' pipes and its
    separator line as blanks (offsets kept), so that the table's columns are JMH's own
    and its `Cnt` and @Param cells are read as what they are. Other tables keep their
    pipes."""
    if "|" not in view:
        return view
    spans = []
    for h in _PIPED_HEADER.finditer(view):
        if not _JMH_COLUMNS.issubset(cell.strip() for cell in h.group().split("|")):
            continue  # (a table of other columns: `Before | After`, read as a table)
        end = h.end()
        # (the table: its header and the piped lines right under it)
        while end < len(view) and _PIPED_LINE.match(view, end + 1):
            end = line_end(view, end + 1)
        spans.append((h.start(), end))
    if not spans:
        return view
    parts, pos = [], 0
    for a, b in spans:
        if a < pos:
            continue
        lines = view[a:b].split("\n")
        lines = [" " * len(x) if _PIPE_RULE.fullmatch(x) else x.replace("|", " ") for x in lines]
        parts += [view[pos:a], "\n".join(lines)]
        pos = b
    parts.append(view[pos:])
    return "".join(parts)


def parse(text: str) -> list[ResultTable]:
    view = _unpiped(mask_tags(text))
    tables = _text_tables(view) + _csv_tables(text) + _json_tables(text) + _json_lines(text)
    row_scores = [m for t in tables for m in t.measurements if m.metric == "Score"]
    for block in _result_blocks(view):
        if overlaps(block.span, [t.span for t in tables]):
            continue
        score = next((m for m in block.measurements if m.metric == "Score"), None)
        if score is not None and any(_same_result(score, m) for m in row_scores):
            # the same result is in the summary table: keep only what the table lacks
            block.measurements = [
                m for m in block.measurements if m.metric in ("min", "max", "stdev")
            ]
        tables.append(block)
    tables += _iterations(view)
    tables += _bare_rows(masked(view, [t.span for t in tables]))
    if _LOG_SIGN.search(view):
        tables += [
            ResultTable(INFO.name, (m.start(), m.end()), caption="run log")
            for m in _LOG_LINE.finditer(view)
        ]
    return tables
