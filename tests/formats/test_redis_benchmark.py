"""redis-benchmark: fixtures from the real tool against a local redis-server 7.0
(tests/fixtures/tools/redis-benchmark.sh: default report, -q, --csv), two written from
the pre-6.2 source (cumulative `99.90% <= 1 milliseconds` lines, old -q and CSV), and
focused cases."""

from __future__ import annotations

from extract.results.formats import by_name, extract_results
from tests.formats.golden import FIXTURES, rows_of, text_of

PARSE = by_name("redis-benchmark").parse


def _values(rows: list[dict]) -> list[tuple]:
    return sorted((r["label"], r["metric"], r["value"], r["unit"]) for r in rows)


def test_report_rows_of_each_section():
    got = {r["metric"]: r for r in rows_of(text_of("redis-benchmark--default-gitbox-crlf"))}
    assert got["requests"]["value"] == 3000 and got["duration"]["unit"] == "s"
    assert got["requests_per_sec"]["unit"] == "requests per second"
    assert got["percentile_latency_p50"]["value"] == got["latency_p50"]["value"]
    assert got["percentile_latency_p100"]["value"] == got["latency_max"]["value"]
    assert got["requests_within_0_103ms"]["unit"] == "%"
    assert {r["label"] for r in got.values()} == {"INCR"}


def test_cr_redrawn_live_lines_as_written_to_a_file():
    raw = (FIXTURES / "redis-benchmark--default-raw-cr.txt").read_bytes().decode("utf-8")
    assert "\r" in raw and "rps=" in raw
    assert _values(rows_of(raw)) == _values(rows_of(text_of("redis-benchmark--default-raw-cr")))
    assert {r["label"] for r in rows_of(raw)} == {"SET", "GET"}
    assert {r["variant"] for r in rows_of(raw)} == {None}  # the live line is no heading


def test_quiet_titles_with_parentheses_and_trailing_padding():
    rows = rows_of(text_of("redis-benchmark--quiet"))
    labels = [r["label"] for r in rows if r["metric"] == "requests_per_sec"]
    assert "LRANGE_100 (first 100 elements)" in labels and "MSET (10 keys)" in labels
    assert len(labels) == len(set(labels))
    assert {r["variant"] for r in rows} == {None}  # the command line above is no heading


def test_flattened_quiet_lines_keep_their_titles():
    rows = rows_of(text_of("redis-benchmark--quiet-flattened"))
    assert [r["label"] for r in rows if r["metric"] == "requests_per_sec"] == [
        "SET", "GET", "LPUSH", "LPUSH (needed to benchmark LRANGE)",
        "LRANGE_100 (first 100 elements)",
    ]  # fmt: skip


def test_quiet_lines_hard_wrapped_and_pasted_after_a_warning():
    text = (
        "this patch\n```\nubuntu% redis-benchmark -p 6666 -n 100000 -c 50 -q\n"
        "WARNING: Could not fetch server CONFIG\n"
        "PING_INLINE: 25497.20 requests per second, p50=1.175 msec          \n"
        "LPUSH (needed to benchmark LRANGE): 11371.39 requests per second,\n"
        "p50=3.415 msec\n```\n"
    )
    got = [(m.label, m.metric, m.value, m.unit, t.variant) for t in PARSE(text)
           for m in t.measurements]  # fmt: skip
    assert got == [
        ("PING_INLINE", "requests_per_sec", 25497.2, "requests per second", "this patch"),
        ("PING_INLINE", "latency_p50", 1.175, "ms", "this patch"),
        ("LPUSH (needed to benchmark LRANGE)", "requests_per_sec", 11371.39,
         "requests per second", "this patch"),
        ("LPUSH (needed to benchmark LRANGE)", "latency_p50", 3.415, "ms", "this patch"),
    ]  # fmt: skip


def test_custom_command_title_in_6_2_quiet_form():
    text = "script load redis.call('ping'): 69881.20 requests per second, p50=0.351 msec\n"
    (table,) = [t for t in PARSE(text) if t.measurements]
    assert table.measurements[0].label == "script load redis.call('ping')"


def test_prose_with_requests_per_second_is_not_redis_benchmark():
    for text in (
        "Throughput: 5000 requests per second on the old cluster.",
        "We measured it: 5000 requests per second, p50 looked fine.",
        "With redis we got about 80000 requests per second.",
        '"SET","81300.81"\n',  # one old-style CSV row alone
    ):
        assert [t for t in PARSE(text) if t.measurements] == [], text


def test_old_report_is_cumulative():
    rows = rows_of(text_of("redis-benchmark--v5-default-written"))
    got = [(r["label"], r["metric"], r["value"]) for r in rows if r["unit"] == "%"]
    assert got[:3] == [
        ("SET", "requests_within_1ms", 93.12),
        ("SET", "requests_within_2ms", 99.87),
        ("SET", "requests_within_3ms", 100.0),
    ]


def test_cluster_mode_settings_stay_inside_the_report():
    # written from redis-benchmark.c showLatencyReport (cluster branch), own numbers
    text = (
        "====== SET ======\n  100000 requests completed in 1.10 seconds\n"
        "  50 parallel clients\n  3 bytes payload\n  keep alive: 1\n"
        "  cluster mode: yes (3 masters)\n  node [0] configuration:\n    save: NONE\n"
        "    appendonly: no\n  node [1] configuration:\n    save: 3600 1 300 100\n"
        "    appendonly: no\n  multi-thread: yes\n  threads: 3\n\nSummary:\n"
        "  throughput summary: 90909.09 requests per second\n  latency summary (msec):\n"
        "          avg       min       p50       p95       p99       max\n"
        "        0.311     0.096     0.303     0.455     0.607     1.951\n"
    )
    (table,) = PARSE(text)
    got = {m.metric: m.value for m in table.measurements}
    assert got["requests_per_sec"] == 90909.09 and got["latency_max"] == 1.951
    assert 3600.0 not in got.values() and 3.0 not in got.values()


def test_csv_header_rows():
    rows = rows_of(text_of("redis-benchmark--csv"))
    assert {r["label"] for r in rows} == {"SET", "GET", "INCR", "LPUSH"}
    assert {r["metric"] for r in rows} == {
        "requests_per_sec", "latency_avg", "latency_min", "latency_p50", "latency_p95",
        "latency_p99", "latency_max",
    }  # fmt: skip


ODD = ["", "====== SET ======", "====== SET ======\n  100 requests completed in",
       "SET: 1", "SET: 1 requests per second, p50=", '"test","rps"', '"a","1"\n"b","2"',
       "Latency by percentile distribution:\n50.000% <= ", "SET: rps=-nan (overall: -nan)",
       "=" * 5000, "\x00\ufffd"]  # fmt: skip


def test_parse_survives_odd_input():
    for text in ODD:
        assert isinstance(PARSE(text), list)
    assert extract_results("redis-benchmark was run with -q and --csv") == []


def test_a_live_line_holds_rates_not_versions():
    # the live line redrawn while a test runs is claimed with the report; one whose
    # "rate" reads like a version (`1.2.3`) is not the tool's
    report = "====== SET ======\n  100000 requests completed in 1.23 seconds\n"
    live = "SET: rps={} (overall: 81300.8) avg_msec=0.303 (overall: 0.303)\n"
    claimed = [t.span for t in PARSE(report + live.format("81300.8")) if not t.rows]
    assert len(claimed) == 1
    assert PARSE(report + live.format("1.2.3"))[1:] == []
