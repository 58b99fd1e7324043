"""sysbench: fixtures from the real tool (tests/fixtures/tools/sysbench.sh: cpu, memory,
fileio, threads, oltp_read_write on PostgreSQL), one written from the 0.5 source, and
focused cases."""

from __future__ import annotations

import re

from extract.results.formats import by_name, run
from extract.results.formats.sysbench import _unit_after_comma
from tests.formats.golden import cases, rows_of, text_of


def _values(rows: list[dict]) -> list[tuple]:
    return sorted((r["label"], r["metric"], r["value"], r["unit"]) for r in rows)


def test_indented_and_wrapped_copies_of_one_run_give_the_same_rows():
    # one oltp run: GitBox-indented, and hard-wrapped at 72 columns under a heading
    indented = rows_of(text_of("sysbench--oltp-pgsql-interval-gitbox"))
    wrapped = rows_of(text_of("sysbench--oltp-pgsql-wrapped"))
    assert _values(indented) == _values(wrapped)
    assert {r["variant"] for r in wrapped} == {"With the patch (4 threads)"}
    intervals = {r["label"] for r in wrapped if r["metric"] == "tps"}
    assert intervals == {"interval 1s", "interval 2s", "interval 3s"}


def test_units_of_fairness_fileio_and_memory():
    got = {
        (r["label"], r["metric"]): r["unit"] for c in cases("sysbench") for r in rows_of(text_of(c))
    }
    assert got[("Threads fairness", "execution_time_avg")] == "s"
    assert got[("Threads fairness", "events_avg")] == "count"
    assert got[("File operations", "reads_per_sec")] == "1/s"
    assert got[("Throughput", "read")] == "MiB/s"
    memory = {r["metric"]: r["unit"] for r in rows_of(text_of("sysbench--memory-crlf"))}
    assert memory["transfer_rate"] == "MiB/sec"
    assert memory["operations_rate"] == "1/s"
    assert got[("SQL statistics", "transactions_rate")] == "per sec"


def test_sysbench_05_sections():
    rows = rows_of(text_of("sysbench--v05-oltp-memory-written"))
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in rows}
    assert got[("per-request statistics", "approx_95_percentile")] == (21.37, "ms")
    assert got[("Test execution summary", "total_time_taken_by_event_execution")] == (261.0412, "s")
    assert got[("OLTP test statistics", "read_write_requests_rate")] == (11023.87, "per sec")
    assert got[("Memory", "transferred")] == (102400.0, "MB")
    assert {r["variant"] for r in rows if r["label"] == "Memory"} == {"Memory, same build"}


def test_full_latency_block_and_fairness():
    text = (
        "sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\n\n"
        "General statistics:\n    total time:                          10.0012s\n"
        "    total number of events:              12345\n\n"
        "Latency (ms):\n         min:                                    0.52\n"
        "         avg:                                    0.81\n"
        "         max:                                   12.34\n"
        "         95th percentile:                        1.12\n"
        "         sum:                                 9998.76\n\n"
        "Threads fairness:\n    events (avg/stddev):           12345.0000/0.00\n"
        "    execution time (avg/stddev):   9.9988/0.00\n"
    )
    tables = run("sysbench", text)
    got = {(m.label, m.metric): (m.value, m.unit) for t in tables for m in t.measurements}
    assert got[("Latency", "95th_percentile")] == (1.12, "ms")
    assert got[("Latency", "sum")] == (9998.76, "ms")
    assert got[("Threads fairness", "events_avg")] == (12345.0, "count")
    assert got[("Threads fairness", "execution_time_avg")] == (9.9988, "s")
    assert got[("General statistics", "total_time")] == (10.0012, "s")
    # `Latency (ms):` alone (no sysbench banner or statistics) is too generic to claim
    assert run("sysbench", "Latency (ms):\n  min: 3\n  max: 9\n") == []


def test_setup_lines_are_not_a_heading():
    rows = rows_of(text_of("sysbench--cpu"))
    assert {r["variant"] for r in rows} == {None}  # not `Threads started!`


ODD = ["", "[ 1s ] thds:", "SQL statistics:\n queries performed:\n read:", "sysbench 1.0",
       "General statistics:\n total time:", "Threads fairness:\n events (avg/stddev): 1/",
       "Total operations: 5 (", "-" * 5000, "\x00\ufffd"]  # fmt: skip


def test_parse_survives_odd_input():
    parse = by_name("sysbench").parse
    for text in ODD:
        assert isinstance(parse(text), list)


def test_a_unit_after_a_comma_is_found_as_the_pattern_did():
    keys = ["read, MiB/s", "written,MiB/s", "reads/s", ", /s", "a,/s", "a, b c/s", "x ,  ab/s"]
    assert (
        [_unit_after_comma(k) for k in keys]
        == [bool(re.search(r",\s*\S+/s$", k)) for k in keys]
        == [True, True, False, False, False, False, True]
    )


def test_an_interval_line_names_its_percentile_as_a_number():
    """The percentile in `lat (ms,99.9%)` is read as `_layout.NUM`: `99.9` names the
    metric; a line whose percentile is no number (`9.9.9`) is not sysbench's."""
    line = (
        "[ {t}s ] thds: 8 tps: 258.32 qps: 4133.04 (r/w/o: 3616.74/0.00/516.30) "
        "lat (ms,{pct}%): 4.10 err/s: 0.00 reconn/s: 0.00\n"
    )

    def latencies(pct: str) -> list[str]:
        text = line.format(t=10, pct=pct) + line.format(t=20, pct=pct)
        return [
            m.metric for t in run("sysbench", text) for m in t.measurements if "lat" in m.metric
        ]

    assert latencies("99.9") == ["latency_p99_9", "latency_p99_9"]
    assert latencies("9.9.9") == []
