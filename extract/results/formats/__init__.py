"""The registry: every format module, in one place, and the function that runs them.

Adding a format is: a module under `extract/results/formats/`, fixture pairs under
`tests/fixtures/formats/`, and one line in `MODULES` below.
"""

from __future__ import annotations

import importlib
import logging
import re
from types import ModuleType

from extract.results.formats._needles import NeedleScan
from extract.results.formats.base import FormatInfo, Measurement, ResultTable, heading_before

__all__ = [
    "FormatInfo",
    "Measurement",
    "ResultTable",
    "heading_before",
    "PARSERS",
    "by_name",
    "extract_results",
]

log = logging.getLogger(__name__)

MODULES = [
    "yetus",
    "surefire",
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
    "pytest_benchmark",
    "hyperfine",
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
    "dropwizard_metrics",
    "autotvm",
    "tvm_bench",
    "benchmark_driver",
    "log_timing",
    "sql_timing",
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


_TRIGGERS = {
    mod.INFO.name: re.compile(mod.INFO.trigger, re.I) if mod.INFO.trigger else None
    for mod in PARSERS
}

# A part of a trigger: (regex or None for "always", needles, lower needles).
Part = tuple[re.Pattern | None, frozenset[str], tuple[str, ...]]


def _parts(info: FormatInfo) -> tuple[Part, ...]:
    """The format's trigger as parts, one of which must match: `INFO.trigger_parts`,
    else the whole trigger with the format's needles."""
    if info.trigger_parts:
        return tuple(
            (re.compile(source, re.I), frozenset(needles), tuple(lower))
            for source, needles, lower in info.trigger_parts
        )
    return ((_TRIGGERS[info.name], frozenset(info.needles), info.lower_needles),)


# (module, trigger parts) in run order, read once.
_CHECKS = [(mod, _parts(mod.INFO)) for mod in PARSERS]
_PARTS = {mod.INFO.name: parts for mod, parts in _CHECKS}
_SCAN = NeedleScan(n for _, parts in _CHECKS for _, needles, _ in parts for n in needles)


def _part_may_match(part: Part, text: str) -> bool:
    regex, needles, lower_needles = part
    if (needles or lower_needles) and not (
        any(n in text for n in needles) or any(n in text.lower() for n in lower_needles)
    ):
        return False
    return regex is None or regex.search(text) is not None


def may_match(mod: ModuleType, text: str) -> bool:
    """False when the module's trigger says it cannot find anything in `text`.
    The needles are checked first: they are necessary for the trigger, and cheap."""
    return any(_part_may_match(part, text) for part in _PARTS[mod.INFO.name])


def by_name(name: str) -> ModuleType:
    for mod in PARSERS:
        if mod.INFO.name == name:
            return mod
    raise KeyError(name)


def _mask(text: str, span: tuple[int, int]) -> str:
    """Blank out a span, keeping offsets and line breaks, so later parsers skip it."""
    start, end = span
    blank = "\n".join(" " * len(part) for part in text[start:end].split("\n"))
    return text[:start] + blank + text[end:]


def extract_results(text: str, *, strict: bool = False) -> list[ResultTable]:
    """Every result table in `text`, in text order. Noise recognisers run first and
    their spans are removed; then result parsers run from specific to generic, and
    a span claimed by one parser is not seen by the ones after it.

    A parser that raises is skipped (and logged), so one parser's bug costs only its
    own tables, never the message; `strict=True` (the tests) re-raises instead."""
    found: list[ResultTable] = []
    work = text
    found_needles = None  # _SCAN.found(work), once a format with needles asks
    lower = None  # work.lower(), once a format with lower needles asks
    for mod, parts in _CHECKS:
        for trigger, needles, lower_needles in parts:
            if needles or lower_needles:
                if needles and found_needles is None:
                    found_needles = _SCAN.found(work)
                if not needles or needles.isdisjoint(found_needles):
                    if not lower_needles:
                        continue
                    if lower is None:
                        lower = work.lower()
                    if not any(n in lower for n in lower_needles):
                        continue
            if trigger is None or trigger.search(work) is not None:
                break
        else:
            continue
        try:
            tables = mod.parse(work)
        except Exception:
            if strict:
                raise
            log.warning("format %s failed on a message; skipped", mod.INFO.name, exc_info=True)
            continue
        for table in tables:
            work = _mask(work, table.span)
            found_needles = lower = None
            if mod.INFO.kind == "result" and table.measurements:
                found.append(table)
    found = _drop_prose_repeats(found)
    for table in found:
        for m in table.measurements:
            if m.variant is None:
                m.variant = table.variant
    found.sort(key=lambda t: t.span)
    return found


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
