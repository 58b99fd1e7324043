"""wrk: fixtures from the real tool (tests/fixtures/tools/wrk.sh) and focused cases."""

from __future__ import annotations

from extract.results.formats import by_name, extract_results, run
from tests.formats.golden import FIXTURES, rows_of, text_of


def _values(rows: list[dict]) -> list[tuple]:
    return sorted((r["label"], r["metric"], r["value"], r["unit"]) for r in rows)


def test_flattened_and_indented_copies_of_one_run_give_the_same_rows():
    # both fixtures are the same --latency run, mangled two ways by the script
    flat = rows_of(text_of("wrk--flattened"))
    indented = rows_of(text_of("wrk--gitbox-indent-crlf"))
    assert _values(flat) == _values(indented)
    assert {r["variant"] for r in flat} == {"With the patch"}
    assert {r["metric"] for r in flat} >= {"latency_p50", "latency_p99", "requests_per_sec"}


def test_crlf_line_ends_as_stored():
    raw = (FIXTURES / "wrk--gitbox-indent-crlf.txt").read_bytes().decode("utf-8")
    assert "\r\n" in raw
    assert _values(rows_of(raw)) == _values(rows_of(raw.replace("\r\n", "\n")))


def test_latency_distribution_socket_errors_and_non_2xx():
    got = {r["metric"]: (r["value"], r["unit"]) for r in rows_of(text_of("wrk--latency-non2xx"))}
    assert got["latency_p99"][1] == "ms"
    assert got["non_2xx_3xx_responses"] == (got["requests"][0], "count")
    assert {"socket_errors_connect", "socket_errors_timeout"} <= set(got)


def test_two_runs_under_headings_in_a_fence():
    rows = rows_of(text_of("wrk--fenced-two-runs"))
    assert [r["variant"] for r in rows if r["metric"] == "requests_per_sec"] == ["before", "after"]


def test_without_running_line():
    wrk = (
        "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
        "    Latency     1.20ms  300.00us   5.00ms   80.00%\n"
        "    Req/Sec     4.10k   200.00     4.50k    70.00%\n"
        "  81920 requests in 10.00s, 9.50MB read\n"
        "Requests/sec:   8192.00\nTransfer/sec:    0.95MB\n"
    )
    (table,) = run("wrk", wrk)
    got = {m.metric: (m.value, m.unit) for m in table.measurements}
    assert got["latency_stdev"] == (300.0, "us")
    assert got["req_per_sec_per_thread_avg"] == (4100.0, "req/s")
    assert got["duration"] == (10.0, "s")
    assert got["transfer_per_sec"] == (0.95, "MB/s")


def test_thread_and_connection_counts_give_no_rows():
    rows = rows_of(text_of("wrk--default"))
    assert not [r for r in rows if r["value"] in (2.0, 8.0) and r["metric"] != "latency_avg"]


ODD = ["", " ", "Running 1s test @", "Running 1s test @ http://x\n  2 threads and",
       "Thread Stats Avg Stdev Max +/- Stdev\nLatency 1ms 1ms 1ms 1%", "Requests/sec:",
       "Latency Distribution\n 50% ", "-" * 5000, "\x00\ufffd"]  # fmt: skip


def test_parse_survives_odd_input():
    parse = by_name("wrk").parse
    for text in ODD:
        assert isinstance(parse(text), list)
    assert extract_results("Running 5 tests @ lunch, wrk next week") == []
