"""ApacheBench (ab): fixtures from the real tool (tests/fixtures/tools/ab.sh) and
focused cases."""

from __future__ import annotations

from extract.results.formats import by_name, run
from tests.formats.golden import FIXTURES, rows_of, text_of


def _values(rows: list[dict]) -> list[tuple]:
    return sorted((r["label"], r["metric"], r["value"], r["unit"]) for r in rows)


def test_flattened_and_wrapped_copies_of_one_run_give_the_same_rows():
    # one run, flattened onto a line and hard-wrapped at 72 columns by the script
    flat = rows_of(text_of("ab--flattened"))
    wrapped = rows_of(text_of("ab--wrapped-crlf"))
    assert _values(flat) == _values(wrapped)
    # `(mean, across all concurrent\nrequests)` wrapped still names the second figure
    metrics = [r["metric"] for r in wrapped]
    assert "time_per_request_mean_across_concurrent" in metrics
    assert {r["variant"] for r in flat} == {"ab results for the patched build"}


def test_crlf_line_ends_as_stored():
    raw = (FIXTURES / "ab--wrapped-crlf.txt").read_bytes().decode("utf-8")
    assert "\r\n" in raw
    assert _values(rows_of(raw)) == _values(rows_of(raw.replace("\r\n", "\n")))


def test_command_line_names_the_url_not_the_variant():
    rows = rows_of(text_of("ab--default"))
    assert {r["variant"] for r in rows} == {None}
    rps = next(r for r in rows if r["metric"] == "requests_per_second")
    assert rps["label"].startswith("http://127.0.0.1:") and rps["unit"] == "#/sec"


def test_post_body_sent_and_its_rates():
    got = {r["metric"]: (r["value"], r["unit"]) for r in rows_of(text_of("ab--post-non2xx"))}
    assert got["total_body_sent"][1] == "bytes"
    assert got["transfer_rate_sent"][1] == got["transfer_rate_total"][1] == "KB/sec"
    assert got["transfer_rate_total"][0] > got["transfer_rate_sent"][0]
    assert got["non_2xx_responses"] == got["complete_requests"]


def test_without_banner():
    ab = (
        "Concurrency Level:      10\nTime taken for tests:   1.5 seconds\n"
        "Complete requests:      1000\n"
        "Failed requests:        0\nRequests per second:    666.67 [#/sec] (mean)\n"
        "Time per request:       15.000 [ms] (mean)\n"
    )
    (table,) = run("ab", ab)
    assert {m.metric: m.value for m in table.measurements}["requests_per_second"] == 666.67
    assert "concurrency" not in " ".join(m.metric for m in table.measurements)


ODD = ["", "This is ApacheBench, Version", "Requests per second: 1 [#/sec]",
       "Percentage of the requests served within a certain time (ms)\n  50%",
       "Connection Times (ms)\n min mean[+/-sd] median max\nConnect: 0 0",
       "-" * 5000, "\x00\ufffd"]  # fmt: skip


def test_parse_survives_odd_input():
    parse = by_name("ab").parse
    for text in ODD:
        assert isinstance(parse(text), list)


def test_without_a_banner_a_version_like_rate_is_no_report():
    # the report is found by its rate when no banner opens it; `1.2.3` is no rate
    line = "Requests per second:    {} [#/sec] (mean)\n"
    assert [t.caption for t in run("ab", "ab ran:\n\n" + line.format("1036.10"))]
    assert run("ab", "ab ran:\n\n" + line.format("1.2.3")) == []
