"""JMH results: text tables, `Result "..."` blocks, CSV/SCSV and JSON.

Recognises
- the end-of-run text table `Benchmark [(param)...] Mode Cnt Score Error Units`
  (JMH < 1.5: `Samples`; error after `±`, a mangled `?` or `Â±`; decimal comma under
  some locales; secondary rows `bench:·gc.alloc.rate`), also when flattened onto one
  line, wrapped in HTML tags, or with words split by the archive (`M ode`);
- `Result "name":` blocks (`N = 5` / `mean = 640.862 ?(99.9%) 113.354 ms/op`, or the
  newer `640.862 ±(99.9%) 113.354 ms/op [Average]`) - dropped when the same numbers
  are in a text table of the same message, so each result counts once;
- a verbose run's measured `Iteration N: 1.561 s/op` lines under its `# Benchmark:`
  line (label `Iteration N`, variant the benchmark; warmup iterations are not read);
- CSV / SCSV (`"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)",
  "Unit","Param: x"`, decimal comma with `;`) and JSON (`{"jmhVersion": ..,
  "primaryMetric": {..}, "secondaryMetrics": {..}}` elements; also flat one-line
  records `{"benchmark": .., "score": .., "scoreUnit": .., "p99": ..}` as Druid prints;
  a record cut off mid-line keeps its complete fields).

Measurements per result row: label = benchmark name (`bench:·gc.alloc.rate` for
secondary results), variant = the heading before the block and the @Param values
(`Before patch / size=100`), metric `Score` (unit from `Units`), `Score error`
(same unit), `Cnt` (unit `count`; CSV/JSON also `Threads`); Result blocks add `min`,
`max`, `stdev`; flat JSON records add `p50`...`p99`. The mode (thrpt, avgt,
ss, sample) is kept in the row cells.
"""

from __future__ import annotations

import csv
import io
import json
import re

from extract.results.formats._grid import dedupe, line_caption, mask_tags
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="jmh",
    description="JMH text tables, Result blocks, verbose-run iterations, CSV/SCSV and JSON results",
    signature=(
        "'Benchmark (param) Mode Cnt Score Error Units' header (old: Samples) + rows "
        "'name thrpt 5 123.4 ± 5.6 ops/s'; 'Result \"name\": ... ±(99.9%)'; "
        '\'"Benchmark","Mode","Threads","Samples","Score"\' CSV; \'"jmhVersion"\' JSON; '
        "'Iteration N: 1.561 s/op' lines under '# Benchmark: name'"
    ),
    priority=10,
    kind="result",
    trigger=r'(?-i:Result\s*"|"jmhVersion"|"[bB]enchmark"|C ?n ?t\b|S ?a ?m ?p ?l ?e ?s\b)',
    # one part per alternative, each starting with a literal (the regex engine skips to it)
    trigger_parts=(
        (r'(?-i:Result\s*")', ("Result",), ()),
        (r'(?-i:"jmhVersion")', ('"jmhVersion"',), ()),
        (r'(?-i:"[bB]enchmark")', ('enchmark"',), ()),
        (r"(?-i:C ?n ?t\b)", ("Cn", "C n"), ()),
        (r"(?-i:S ?a ?m ?p ?l ?e ?s\b)", ("Sa", "S a"), ()),
    ),
)

_MODES = r"thrpt|avgt|sample|ss|all|Throughput|AverageTime|SampleTime|SingleShotTime"
# a score: 123.456, 1,234 (decimal comma), 3.4E8, NaN, or `≈ 10⁻⁴` / `≈ 0` (too small to print)
_NUM = (
    r"(?:[-+]?\d[\d,.]*(?:[eE][-+]?\d+)?|NaN"
    r"|[≈~]\s*[-+]?\d[\d.,]*(?:\s*[x×]\s*10)?[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]*)"
)
_UNIT = r"[A-Za-z#%µμ][^\s|<]*"
_PM = r"(?:±|\?|Â±|\+-)"
_GAP = r"[ \t\r\n\u00a0]+"


def _kw(word: str) -> str:
    """A header word that the archive may have split with a space (`M ode`)."""
    return " ?".join(re.escape(c) for c in word)


_HEADER = re.compile(
    rf"{_kw('Benchmark')}(?P<params>(?:{_GAP}\(\w+\))*){_GAP}{_kw('Mode')}{_GAP}"
    rf"(?P<cnt>{_kw('Cnt')}|{_kw('Samples')}){_GAP}(?:{_kw('Score')}|{_kw('Mean')})"
    rf"{_GAP}(?:(?:Score|Mean){_GAP})?(?:{_kw('Error')}|[Ee]rror){_GAP}{_kw('Units')}"
)
_RESULT = re.compile(
    rf"Result\s*\"(?P<name>[^\"]{{1,300}})\"\s*:\s*"
    rf"(?:N\s*=\s*(?P<n>\d+)\s*)?(?:mean\s*=\s*)?(?P<score>{_NUM})\s*"
    rf"(?:{_PM}\s*\(99[.,]9%\)\s*(?P<err>{_NUM})\s*)?(?P<unit>[A-Za-z#%µμ][^\s\[\]<]*)"
    rf"(?:\s*\[(?P<mode>\w+)\])?"
    rf"(?:\s*\(min, avg, max\) = \((?P<min>{_NUM}), (?P<avg>{_NUM}), (?P<max>{_NUM})\)"
    rf"(?:, stdev = (?P<stdev>{_NUM}))?)?"
)
# A verbose run's measured iterations (`# Warmup Iteration` lines are not results);
# a fork's lines stand one per line, sometimes with the secondary results after them.
_ITERATION = re.compile(
    rf"^[ \t]*Iteration\s+(?P<i>\d+):\s+(?P<v>{_NUM})\s+(?P<unit>[A-Za-z#%µμ][^\s\[\]<]*)",
    re.M,
)
_BENCHMARK_LINE = re.compile(r"^# Benchmark: (?P<name>\S+)", re.M)
_MODE_LINE = re.compile(r"^# Benchmark mode: (?P<mode>[^\n]+)", re.M)
_CSV_HEADER = re.compile(r'^"Benchmark"([,;])"Mode"\1"Threads"\1"Samples"\1"Score"', re.M)


def _num(written: str | None) -> float | None:
    """A JMH number: JMH prints no grouping, so a lone `,` is a decimal comma."""
    if not written:
        return None
    s = written.strip()
    if s == "NaN" or s.startswith(("≈", "~")):
        return None
    if "," in s and "." not in s:
        s = s.replace(",", ".")
    elif "," in s:
        s = s.replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def _variant(heading: str | None, params: list[tuple[str, str]]) -> str | None:
    parts = [heading] if heading else []
    if params:
        parts.append(", ".join(f"{k}={v}" for k, v in params))
    return " / ".join(parts) or None


def _row_measurements(
    name, score, err, cnt, unit, variant, row, *, threads=None, err_metric="Score error"
) -> list[Measurement]:
    out = []
    value = _num(score)
    if value is None:
        return out
    out.append(Measurement("Score", value, unit, name, variant, score.strip(), row))
    e = _num(err)
    if e is not None:
        out.append(Measurement(err_metric, e, unit, name, variant, err.strip(), row))
    if cnt and cnt.strip().isdigit():
        out.append(Measurement("Cnt", float(cnt), "count", name, variant, cnt.strip(), row))
    if threads and threads.strip().isdigit():
        out.append(Measurement("Threads", float(threads), "count", name, variant, threads, row))
    return out


def _text_tables(text: str, view: str) -> list[ResultTable]:
    out = []
    for h in _HEADER.finditer(view):
        params = re.findall(r"\((\w+)\)", h.group("params"))
        k = len(params)
        row_re = re.compile(
            rf"[ \t\r\n\u00a0]*(?P<name>[^\s|()]+)"
            rf"(?P<params>(?:{_GAP}[^\s]+){{{k}}}){_GAP}(?P<mode>{_MODES})"
            rf"(?:{_GAP}(?P<cnt>\d+))?{_GAP}(?P<score>{_NUM})"
            rf"(?:[ \t\u00a0]*{_PM}?[ \t\u00a0]*(?P<err>{_NUM}))?{_GAP}(?P<unit>{_UNIT})"
        )
        pos = h.end()
        heading = line_caption(view, h.start())
        columns = [
            "Benchmark",
            *[f"({p})" for p in params],
            "Mode",
            "Cnt",
            "Score",
            "Error",
            "Units",
        ]
        table = ResultTable(INFO.name, (h.start(), h.end()), columns=columns, variant=None)
        while True:
            m = row_re.match(view, pos)
            if not m:
                break
            pvals = m.group("params").split()
            row = [
                m.group("name"),
                *pvals,
                m.group("mode"),
                m.group("cnt") or "",
                m.group("score"),
                m.group("err") or "",
                m.group("unit"),
            ]
            table.rows.append(row)
            variant = _variant(heading, list(zip(params, pvals, strict=False)))
            table.measurements += _row_measurements(
                m.group("name"),
                m.group("score"),
                m.group("err"),
                m.group("cnt"),
                m.group("unit"),
                variant,
                len(table.rows) - 1,
            )
            pos = m.end()
        if table.rows:
            table.span = (h.start(), pos)
            table.caption = heading
            out.append(table)
    return out


def _result_blocks(view: str) -> list[ResultTable]:
    out = []
    for m in _RESULT.finditer(view):
        name = re.sub(r"\s+", "", m.group("name"))
        unit = m.group("unit").rstrip(".,;")
        table = ResultTable(
            INFO.name,
            (m.start(), m.end()),
            columns=["Benchmark", "N", "Score", "Error", "Units"],
            rows=[[name, m.group("n") or "", m.group("score"), m.group("err") or "", unit]],
            caption="Result",
        )
        table.measurements = _row_measurements(
            name, m.group("score"), m.group("err"), m.group("n"), unit, None, 0
        )
        for key in ("min", "max", "stdev"):
            value = _num(m.group(key))
            if value is not None:
                table.measurements.append(
                    Measurement(key, value, unit, name, None, m.group(key), 0)
                )
        out.append(table)
    return out


def _iterations(view: str) -> list[ResultTable]:
    """The `Iteration N: 1.561 s/op` lines of a verbose run, one table per run of
    consecutive lines, named by the `# Benchmark:` line above them (without one it is
    not JMH's log, and nothing is read). Label `Iteration N`, metric `Score` as in
    JMH's tables, variant the benchmark; the caption is the run's mode line
    (`Single shot invocation time`)."""
    out = []
    run: list[re.Match] = []

    def flush() -> None:
        if not run:
            return
        benches = list(_BENCHMARK_LINE.finditer(view, 0, run[0].start()))
        if benches:
            bench = benches[-1]
            name = bench.group("name")
            mode = _MODE_LINE.search(view, max(0, bench.start() - 300), bench.start())
            table = ResultTable(
                INFO.name,
                (run[0].start(), run[-1].end()),
                columns=["Iteration", "Score", "Units"],
                caption=mode.group("mode").strip() if mode else name,
            )
            for r, m in enumerate(run):
                value = _num(m.group("v"))
                if value is None:
                    continue
                unit = m.group("unit")
                table.rows.append([m.group("i"), m.group("v"), unit])
                table.measurements.append(
                    Measurement(
                        "Score", value, unit, f"Iteration {m.group('i')}", name, m.group("v"), r
                    )
                )
            out.append(table)
        run.clear()

    for m in _ITERATION.finditer(view):
        if run and view.count("\n", run[-1].end(), m.start()) > 1:
            flush()
        run.append(m)
    flush()
    return out


def _csv_tables(text: str) -> list[ResultTable]:
    out = []
    for h in _CSV_HEADER.finditer(text):
        sep = h.group(1)
        end = h.start()
        lines = []
        for line in text[h.start() :].splitlines(keepends=True):
            if lines and not line.startswith('"'):
                break
            lines.append(line)
            end += len(line)
        try:
            records = list(csv.reader(io.StringIO("".join(lines)), delimiter=sep))
        except csv.Error:
            continue
        header, body = records[0], [r for r in records[1:] if r]
        idx = {name: i for i, name in enumerate(header)}
        err_col = next((i for i, n in enumerate(header) if n.startswith("Score Error")), None)
        param_cols = [
            (i, n.removeprefix("Param: ")) for i, n in enumerate(header) if n.startswith("Param: ")
        ]
        heading = line_caption(text, h.start())
        table = ResultTable(INFO.name, (h.start(), end), columns=header, rows=body, caption=heading)
        for r, rec in enumerate(body):
            if len(rec) < len(header):
                continue
            params = [(n, rec[i]) for i, n in param_cols]
            table.measurements += _row_measurements(
                rec[idx["Benchmark"]],
                rec[idx["Score"]],
                rec[err_col] if err_col is not None else None,
                rec[idx["Samples"]],
                rec[idx["Unit"]],
                _variant(heading, params),
                r,
                threads=rec[idx["Threads"]],
            )
        out.append(table)
    return out


def _json_tables(text: str) -> list[ResultTable]:
    out = []
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{\s*\"jmhVersion\"", text):
        try:
            obj, end = decoder.raw_decode(text, m.start())
        except ValueError:
            continue
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
        for label, metric in metrics:
            score, err = metric.get("score"), metric.get("scoreError")
            row = [
                label,
                mode,
                str(obj.get("threads", "")),
                str(obj.get("forks", "")),
                str(score),
                str(err),
            ]
            row.append(str(metric.get("scoreUnit", "")))
            table.rows.append(row)
            table.measurements += _row_measurements(
                label,
                str(score),
                str(err),
                None,
                metric.get("scoreUnit"),
                variant,
                len(table.rows) - 1,
                threads=str(obj.get("threads", "")) if label == name else None,
            )
        out.append(table)
    return out


def _json_lines(text: str) -> list[ResultTable]:
    """Flat result records, one JSON object a line (Druid's benchmark runner):
    `{"benchmark": .., "mode": .., "score": .., "scoreUnit": .., "scoreError": .., "p99": ..}`."""
    out = []
    decoder = json.JSONDecoder()
    table = None
    for m in re.finditer(r'^[ \t]*\{[^\n]*"benchmark"[^\n]*"score"', text, re.M):
        start = text.index("{", m.start())
        try:
            obj, end = decoder.raw_decode(text, start)
        except ValueError:
            obj, end = _cut_record(text, start)
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
        r = len(table.rows)
        table.rows.append([name, variant or "", "score", str(obj.get("score"))])
        fields = [("Score", obj.get("score"), unit), ("Score error", obj.get("scoreError"), unit)]
        fields += [(k, v, unit) for k, v in obj.items() if re.fullmatch(r"p\d+(?:\.\d+)?", k)]
        fields.append(("Cnt", obj.get("sampleCount"), "count"))
        for metric, value, u in fields:
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
                table.measurements.append(
                    Measurement(metric, float(value), u, name, variant, str(value), r)
                )
        table.span = (table.span[0], end)
    return out


def _cut_record(text: str, start: int) -> tuple[dict | None, int]:
    """A flat record cut off mid-line (archives truncate long lines): its fields up to
    the last complete one, or None."""
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    line = text[start:end]
    cut = line.rfind(',"')
    if cut < 0 or "{" in line[1:cut]:
        return None, end  # nested objects are not a flat record
    try:
        obj = json.loads(line[:cut] + "}")
    except ValueError:
        return None, end
    return obj, end


def _same_result(a: Measurement, b: Measurement) -> bool:
    names = (a.label or "", b.label or "")
    short, long_ = sorted(names, key=len)
    return (
        a.value == b.value
        and a.unit == b.unit
        and long_.endswith(short.split(":")[0].split(".")[-1])
    )


def parse(text: str) -> list[ResultTable]:
    try:
        view = mask_tags(text)
        tables = (
            _text_tables(text, view) + _csv_tables(text) + _json_tables(text) + _json_lines(text)
        )
        row_scores = [m for t in tables for m in t.measurements if m.metric == "Score"]
        for block in _result_blocks(view):
            if any(block.span[0] < t.span[1] and t.span[0] < block.span[1] for t in tables):
                continue
            score = next((m for m in block.measurements if m.metric == "Score"), None)
            if score is not None and any(_same_result(score, m) for m in row_scores):
                # the same result is in the summary table: keep only what the table lacks
                block.measurements = [
                    m for m in block.measurements if m.metric in ("min", "max", "stdev")
                ]
            tables.append(block)
        tables += _iterations(view)
    except Exception:  # a parser bug must not lose the message; the other formats still run
        return []
    tables.sort(key=lambda t: t.span)
    dedupe(tables, text)
    return tables
