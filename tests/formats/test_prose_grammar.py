"""The grammar of results in prose that the prose parser reads beyond `N unit`:
rates named before their number, CJK magnitudes, spaced thousands (text written here)."""

from __future__ import annotations

import pytest

from extract.results.formats import extract_results


def values(text: str) -> list[tuple[float, str | None]]:
    return [(m.value, m.unit) for t in extract_results(text) for m in t.measurements]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("After the change the TPS reached 38k on one broker.", [(38000.0, "TPS")]),
        ("The QPS of the gateway is 18000 now.", [(18000.0, "QPS")]),
        ("Throughput stabilised at about 10w.", [(100000.0, None)]),
        ("压测结果：TPS打到3.8万，瓶颈在磁盘。", [(38000.0, "TPS")]),
        ("峰值吞吐约2亿。", [(2e8, None)]),
        ("We saw around 20 000 operations per second.", [(20000.0, "operations per second")]),
    ],
)
def test_measured_rates_in_prose(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We set the QPS limit to 1000.",
        "Can the TPS reach 5000 with two brokers?",
        "The target throughput should be 20000.",
    ],
)
def test_settings_questions_and_targets_give_nothing(text):
    assert values(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Indexing throughput, 1 thread, was fine.",
        "The average QPS of the 20 JVMs is what we plot.",
        "Run it with --throughput 50000 to see the limit.",
    ],
)
def test_a_count_or_an_option_after_a_rate_name_is_no_rate(text):
    assert values(text) == []


def test_a_markdown_heading_in_a_flattened_mail_ends_the_sentence():
    text = (
        "## Changes Upgrade the plugin. This reduces the build time from 10 min to 2 min "
        "## How was this patch tested? Built before and after."
    )
    assert values(text) == [(10.0, "min"), (2.0, "min")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A full checkout over the LAN takes ~3:20 on that machine.", [(200.0, "s")]),
        ("Turning off the scanner brought it down to 2:40.", [(160.0, "s")]),
        ("The nightly build took 1:02:03 yesterday.", [(3723.0, "s")]),
    ],
)
def test_a_duration_written_as_a_clock_is_read_in_seconds(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(
    "text",
    ["The sync takes place at 10:30 UTC.", "It took until 10:30 am.", "Could it take 3:20?"],
)
def test_times_of_day_and_questions_are_no_durations(text):
    assert values(text) == []


def test_the_old_and_new_lines_of_a_prose_diff_are_read_with_their_side():
    text = (
        "README.md:\n```diff\n"
        "-With the new planner the full suite now runs in 640 seconds instead of 900 seconds.\n"
        "+With the new planner the full suite now runs in 590 seconds instead of 900 seconds.\n"
        '+    printf("%-35s %16s %12s\\n", name, "12s", "10s");\n'
        "```\n"
    )
    from extract.results.formats import extract_results

    got = {(m.variant, m.value) for t in extract_results(text) for m in t.measurements}
    assert ("[-]", 640.0) in got and ("[+]", 590.0) in got
    assert not any(v == 12.0 or v == 10.0 for _, v in got)  # code lines are not prose


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The pipelines run 2x to 3x slower on the new SDK.", [(2.0, "x")]),
        ("The build went from 27000~28000ms to 9000ms.", [(27000.0, "ms"), (9000.0, "ms")]),
        ("A lookup took 240 nano seconds in the profiler.", [(240.0, "nano seconds")]),
    ],
)
def test_ranges_with_to_or_a_tilde_and_units_in_two_words(text, expected):
    assert values(text) == expected
