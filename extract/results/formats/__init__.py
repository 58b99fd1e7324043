"""The registry: every format module, in one place, and the function that runs them.

Adding a format is: a module copied from `_template.py` (its docstring is the
recipe), fixture pairs under `tests/fixtures/formats/`, one line in `MODULES` below,
and `python -m extract.dev.docs --write` (the docs' list and table of formats).
`run(format, text)` gives one format's tables with the work every format needs done
here once; `extract_results(text)` runs them all.
"""

from __future__ import annotations

import functools
import importlib
import logging
import re
import time
from collections.abc import Iterator
from types import ModuleType

from extract.results import prefilter
from extract.results.formats._layout import masked, ungutter
from extract.results.formats._rows import name_blocks
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.prefilter import Needs

__all__ = [
    "FormatInfo",
    "Measurement",
    "ResultTable",
    "PARSERS",
    "GENERIC_FORMATS",
    "by_name",
    "extract_results",
    "locate_numbers",
    "run",
]

log = logging.getLogger(__name__)

MODULES = [
    "yetus",
    "diffstat",
    "surefire",
    "googletest",
    "bazel_log",
    "compiler_diagnostics",
    "repl_transcript",
    "system_monitor",
    "coverage",
    "jmh",
    "hbase_pe",
    "ycsb",
    "testdfsio",
    "spark_benchmark",
    "google_benchmark",
    "go_bench",
    "benchstat",
    "criterion",
    "critcmp",
    "asv",
    "pytest_benchmark",
    "hyperfine",
    "memray",
    "ab",
    "wrk",
    "redis_benchmark",
    "fio",
    "sysbench",
    "pgbench",
    "kafka_perf",
    "cassandra_stress",
    "jmeter",
    "benchmark_js",
    "archery",
    "conbench",
    "datafusion_bench",
    "doris_bench",
    "luceneutil",
    "pulsar_perf",
    "omb",
    "memtier",
    "dropwizard_metrics",
    "autotvm",
    "tvm_bench",
    "benchmark_driver",
    "log_timing",
    "perf_stat",
    "vegeta",
    "go_tpc",
    "benchmarksql",
    "timeit",
    "gatling",
    "sql_timing",
    "solr",
    "gnu_time",
    "bash_time",
    "jira_table",
    "html_table",
    "markdown_table",
    "records",
    "json_records",
    "delimited",
    "ascii_table",
    "prose",
]

PARSERS: list[ModuleType] = sorted(
    (importlib.import_module(f"extract.results.formats.{m}") for m in MODULES),
    key=lambda mod: (mod.INFO.kind != "noise", mod.INFO.priority),
)


# The formats of generic layouts (tables, records, sentences), not of one tool.
GENERIC_FORMATS = frozenset(mod.INFO.name for mod in PARSERS if mod.INFO.generic)


# A part of a trigger: (regex or None for "always", the prefilter's name for its
# needles or None, the prefilter's name for the regex itself or None). Both names
# are declared to the prefilter (`extract.results.prefilter`), whose one scan of a
# text then says whether the needles are there and, in an ASCII text, whether the
# regex matches (when Hyperscan can compile it: `hits.decides`); one it can only
# approximate (a lookaround) it rules out where the approximation finds nothing,
# and else Python's `re` is asked.
Part = tuple[re.Pattern | None, str | None, str | None]


def _declare_parts(info: FormatInfo) -> tuple[Part, ...]:
    """The format's trigger as parts, one of which must match: `INFO.trigger_parts`,
    else the whole trigger with the format's needles; each declared to the prefilter."""
    sources = info.trigger_parts or ((info.trigger, info.needles, info.lower_needles),)
    parts = []
    for k, (source, needles, lower) in enumerate(sources):
        needles_name = regex_name = None
        if needles or lower:
            needles_name = f"format:{info.name}:{k}:needles"
            prefilter.declare(needles_name, Needs(literals=tuple(needles), lower=tuple(lower)))
        if source:
            regex_name = f"format:{info.name}:{k}:trigger"
            prefilter.declare(regex_name, Needs(patterns=(source,), caseless=True))
        parts.append((re.compile(source, re.I) if source else None, needles_name, regex_name))
    return tuple(parts)


# (module, trigger parts) in run order, read once.
_CHECKS = [(mod, _declare_parts(mod.INFO)) for mod in PARSERS]
_PARTS = {mod.INFO.name: parts for mod, parts in _CHECKS}
# Every prefilter name of the parts, to ask the scan about them all at once.
_NAMES = frozenset(
    name for parts in _PARTS.values() for _, *names in parts for name in names if name
)


def _runs(parts: tuple[Part, ...], text: str, ok: frozenset[str], decided: frozenset[str]) -> bool:
    """Whether one of the trigger's parts matches `text`, given the names of `_NAMES`
    its scan lets in (`ok`) and those it decides (plain set lookups: this runs for
    every parser on every message)."""
    for regex, needles, trigger in parts:
        if needles is not None and needles not in ok:
            continue
        if regex is None:
            return True
        if trigger is not None:
            if trigger not in ok:  # (the scan rules it out)
                continue
            if trigger in decided:
                return True
        if regex.search(text) is not None:  # (only the regex can say)
            return True
    return False


# A parser that may run: (its index in `_CHECKS`, the regexes one of which must match).
Step = tuple[int, tuple[re.Pattern, ...]]


@functools.lru_cache(maxsize=4096)
def _plan(ok: frozenset[str], decided: frozenset[str]) -> tuple[Step, ...]:
    """Which parsers may run on a text whose scan lets in `ok` and decides `decided`
    (`_runs` for every parser at once): (index in `_CHECKS`, regexes) in run order,
    () when one surely runs, else the regexes of its parts the scan could not decide,
    one of which must match. A parser the scan rules out is not there, so the registry
    walks the few that may run, not all of them. (By the names the scan found: most
    texts find one of a few such sets, and the walk over fifty parsers' parts took
    a tenth of reading a message.)"""
    plan: list[Step] = []
    for k, (_, parts) in enumerate(_CHECKS):
        regexes: list[re.Pattern] = []
        for regex, needles, trigger in parts:
            if needles is not None and needles not in ok:
                continue
            if regex is None or trigger is not None and trigger in decided and trigger in ok:
                regexes = []  # (this part runs it: the others need not be asked)
                plan.append((k, ()))
                break
            if trigger is not None and trigger not in ok:  # (the scan rules it out)
                continue
            regexes.append(regex)
        else:
            if regexes:
                plan.append((k, tuple(regexes)))
    return tuple(plan)


def triggered(text: str) -> tuple[int, int]:
    """(tool formats, generic formats) whose trigger the prefilter's one scan of `text`
    finds (needles there and, where the scan decides it, the trigger's pattern): a
    cheap sign of what the readers would look at. The scan is the one the readers
    reuse."""
    return _triggered(prefilter.scan(text).among(_NAMES))


@functools.lru_cache(maxsize=4096)
def _triggered(ok: frozenset[str]) -> tuple[int, int]:
    # (by the set of names the scan found: most mail finds one of a few such sets,
    # and the walk over every format's parts took a tenth of turning a message away)
    tools = generic = 0
    for mod, parts in _CHECKS:
        if mod.INFO.kind != "result":
            continue
        if any(
            (needles is None or needles in ok) and (trigger is None or trigger in ok)
            for _, needles, trigger in parts
        ):
            if mod.INFO.name in _GENERIC_NAMES:
                generic += 1
            else:
                tools += 1
    return tools, generic


# What the gate counts as generic: the generic formats, and the readers that are no one
# tool's either (delimited text, timings in logs and SQL shells).
_GENERIC_NAMES = GENERIC_FORMATS | {"delimited", "log-timing", "sql-timing"}


def trigger_parts() -> list[tuple[str, bool, tuple[tuple[str, ...], ...]]]:
    """(name, generic, parts) of each format that reads results, in the registry's
    order; a part is the prefilter's names of its needles and of its pattern. The gate
    scans for them itself (`extract.results.gate`), as `triggered` counts them from the
    readers' scan."""
    return [
        (
            mod.INFO.name,
            mod.INFO.name in _GENERIC_NAMES,
            tuple(tuple(filter(None, (needles, rx))) for _, needles, rx in parts),
        )
        for mod, parts in _CHECKS
        if mod.INFO.kind == "result"
    ]


def may_match(mod: ModuleType, text: str) -> bool:
    """False when the module's trigger says it cannot find anything in `text`."""
    hits = prefilter.scan(text)
    return _runs(_PARTS[mod.INFO.name], text, hits.among(_NAMES), hits.decided)


def by_name(name: str) -> ModuleType:
    for mod in PARSERS:
        if mod.INFO.name == name:
            return mod
    raise KeyError(name)


def run(fmt: ModuleType | str, text: str) -> list[ResultTable]:
    """The tables one format finds in `text` (a module or its name), in text order,
    with the work the registry does for every format: the text without a `| ` gutter
    (`INFO.gutter`), each table's format and its variant from the heading above it
    (`INFO.heading`), and a block repeated verbatim in one message (an edited comment
    quoted with its previous version) counted once: later copies keep their span but
    no measurements (unless `INFO.keeps_repeats`)."""
    mod = by_name(fmt) if isinstance(fmt, str) else fmt
    info = mod.INFO
    view = ungutter(text) if info.gutter else text
    tables = mod.parse(view)
    for t in tables:
        t.format = info.name
    if info.heading:
        name_blocks(tables, view, info.heading, info.not_heading)
    tables.sort(key=lambda t: t.span)
    if not info.keeps_repeats:
        _drop_repeats(tables, view)
    return tables


def _drop_repeats(tables: list[ResultTable], text: str) -> None:
    seen: set[str] = set()
    for t in tables:
        key = " ".join(text[t.span[0] : t.span[1]].split())
        if key in seen:
            t.measurements = []
        seen.add(key)


def extract_results(
    text: str,
    *,
    strict: bool = False,
    plain: bool = False,
    noise: list | None = None,
    spent: dict[str, float] | None = None,
) -> list[ResultTable]:
    """Every result table in `text`, in text order. Noise recognisers run first and
    their spans are removed; then result parsers run from specific to generic, and
    a span claimed by one parser is not seen by the ones after it.

    A parser runs only where its trigger can match (one prefilter scan per text,
    again after a span is removed); `plain=True` runs every parser everywhere, which
    must give the same tables (a test compares them).

    A parser that raises is skipped (and logged), so one parser's bug costs only its
    own tables, never the message; `strict=True` (the tests) re-raises instead.
    `noise`, when given, receives the tables the noise recognisers found (CI reports,
    build summaries: what the text says that is not a result). `spent`, when given,
    adds up the seconds of the trigger checks (`trigger checks`) and of each format
    that ran (`parser <name>`): what `make bench` reports."""
    found: list[ResultTable] = []
    work = text
    # `_plan` of prefilter.scan(work), from the next parser on: made when a parser is
    # to be asked about, again once a parser's tables are masked out of `work`
    plan: Iterator[Step] | None = None
    clock = time.perf_counter if spent is not None else None
    k = 0  # the index in `_CHECKS` of the next parser that may run
    while k < len(_CHECKS):
        if not plain:
            if plan is None:
                hits = prefilter.scan(work)
                planned = _plan(hits.among(_NAMES), hits.decided)
                plan = (entry for entry in planned if entry[0] >= k)
            entry = next(plan, None)
            if entry is None:
                break
            k, step = entry
            if step:  # (only the regexes of the parts the scan left open can say)
                start = clock() if clock else 0.0
                runs = any(regex.search(work) is not None for regex in step)
                if clock:
                    spent["trigger checks"] = spent.get("trigger checks", 0.0) + clock() - start
                if not runs:
                    k += 1
                    continue
        mod = _CHECKS[k][0]
        k += 1
        start = clock() if clock else 0.0
        try:
            tables = run(mod, work)
        except Exception:
            if strict:
                raise
            log.warning("format %s failed on a message; skipped", mod.INFO.name, exc_info=True)
            continue
        finally:
            if clock:
                key = f"parser {mod.INFO.name}"
                spent[key] = spent.get(key, 0.0) + clock() - start
        if tables:  # (later formats skip what this one claimed)
            work, plan = masked(work, [t.span for t in tables]), None
        for table in tables:
            if mod.INFO.kind == "result" and table.measurements:
                found.append(table)
            elif mod.INFO.kind == "noise" and noise is not None:
                noise.append(table)
    found = _drop_prose_repeats(found)
    for table in found:
        for m in table.measurements:
            if m.variant is None:
                m.variant = table.variant
        locate_numbers(text, table)
    found.sort(key=lambda t: t.span)
    return found


def locate_numbers(text: str, table: ResultTable) -> None:
    """Give each measurement of `table` that has none the `span` of its `written`
    text inside the table's span: of the occurrences not taken by another of the
    table's numbers, the one nearest to where the previous number was found (a
    reader emits a row's numbers together, not always in text order: JMH's score
    before its count), looking back at most `_LOOK_BACK` characters; else the first
    free one in the table. An occurrence must stand alone: no digit or dot right
    before it, no digit (or decimal point and digit) right after it (`12` is not
    found inside `112` or `12.5`). A number that cannot be found keeps None.
    (Searches start where the last one was found, so a table of one value repeated
    thousands of times costs linear time, not quadratic.)"""
    start, end = table.span
    taken = {m.span[0] for m in table.measurements if m.span is not None}
    missing: set[str] = set()
    near = start
    for m in table.measurements:
        w = m.written
        if m.span is not None or not w or w in missing:
            continue
        ahead = _free(text, w, near, end, taken, forward=True)
        back = _free(text, w, max(start, near - _LOOK_BACK), near, taken, forward=False)
        found = [h for h in (ahead, back) if h is not None]
        hit = min(found, key=lambda i: (abs(i - near), i)) if found else None
        if hit is None:
            hit = _free(text, w, start, end, taken, forward=True)
        if hit is None:
            missing.add(w)
            continue
        m.span = (hit, hit + len(w))
        taken.add(hit)
        near = hit


_LOOK_BACK = 400


def _free(text: str, w: str, lo: int, hi: int, taken: set, *, forward: bool) -> int | None:
    """The first (or last) free-standing, untaken occurrence of `w` in text[lo:hi]."""
    glued_first, glued_last = w[0].isdigit(), w[-1].isdigit()
    i = text.find(w, lo, hi) if forward else text.rfind(w, lo, hi)
    while i >= 0:
        j = i + len(w)
        ok = i not in taken
        if ok and glued_first and i > 0:
            before = text[i - 1]
            ok = not (before.isdigit() or before == ".")
        if ok and glued_last and j < len(text):
            after = text[j]
            ok = not (after.isdigit() or (after == "." and text[j + 1 : j + 2].isdigit()))
        if ok:
            return i
        i = text.find(w, i + 1, hi) if forward else text.rfind(w, lo, i)
    return None


def _drop_prose_repeats(tables: list[ResultTable]) -> list[ResultTable]:
    """A sentence that restates a number from a table of the same message
    ("dump takes 9 sec ..." above a table with "9 sec") is not a second measurement."""
    in_tables = {
        (round(m.value, 9), (m.unit or "").strip().lower())
        for t in tables
        if t.format != "prose"
        for m in t.measurements
    }
    kept = []
    for t in tables:
        if t.format == "prose":
            t.measurements = [
                m
                for m in t.measurements
                if (round(m.value, 9), (m.unit or "").strip().lower()) not in in_tables
            ]
        if t.measurements:
            kept.append(t)
    return kept
