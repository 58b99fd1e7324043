"""The registry: every format module, in one place, and the function that runs them.

Adding a format is: a module under `extract/formats/`, fixture pairs under
`tests/fixtures/formats/`, and one line in `MODULES` below.
"""

from __future__ import annotations

import importlib
import logging
import re
from types import ModuleType

from extract.formats._needles import NeedleScan
from extract.formats.base import FormatInfo, Measurement, ResultTable, heading_before

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
    "delimited",
    "ascii_table",
    "prose",
]

PARSERS: list[ModuleType] = sorted(
    (importlib.import_module(f"extract.formats.{m}") for m in MODULES),
    key=lambda mod: (mod.INFO.kind != "noise", mod.INFO.priority),
)


_TRIGGERS = {
    mod.INFO.name: re.compile(mod.INFO.trigger, re.I) if mod.INFO.trigger else None
    for mod in PARSERS
}

_SCAN = NeedleScan(n for mod in PARSERS for n in mod.INFO.needles)

# (module, needles, lower_needles, trigger) in run order, read once.
_CHECKS = [
    (mod, frozenset(mod.INFO.needles), mod.INFO.lower_needles, _TRIGGERS[mod.INFO.name])
    for mod in PARSERS
]


def _has_needle(info: FormatInfo, text: str) -> bool:
    """One of the format's needles is in `text` (lower needles: in `text.lower()`);
    True when it has none."""
    if not info.needles and not info.lower_needles:
        return True
    if any(n in text for n in info.needles):
        return True
    lower = text.lower() if info.lower_needles else ""
    return any(n in lower for n in info.lower_needles)


def may_match(mod: ModuleType, text: str) -> bool:
    """False when the module's trigger says it cannot find anything in `text`.
    The needles are checked first: they are necessary for the trigger, and cheap."""
    info = mod.INFO
    if not _has_needle(info, text):
        return False
    trigger = _TRIGGERS[info.name]
    return trigger is None or trigger.search(text) is not None


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
    for mod, needles, lower_needles, trigger in _CHECKS:
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
        if trigger is not None and trigger.search(work) is None:
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
