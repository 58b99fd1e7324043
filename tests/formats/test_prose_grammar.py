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
    ("text", "expected"),
    [
        # from A went up / down to B, in Chinese (`从 … 升到 / 降至 …`)
        ("升级后平均RT从3ms升到7ms。", [(3.0, "ms"), (7.0, "ms")]),
        ("压测时响应时间从 120 ms 降至 45 ms。", [(120.0, "ms"), (45.0, "ms")]),
    ],
)
def test_chinese_timings_from_one_value_to_another(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(
    "text", ["每10秒执行一次。", "超时时间为30秒。", "从10点开始，每5分钟一次。"]
)
def test_chinese_schedules_and_timeouts_give_nothing(text):
    assert values(text) == []


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


def written_values(text: str) -> list[tuple[str | None, float, str | None]]:
    return [
        (m.written, m.value, m.unit)
        for t in extract_results(text)
        if t.format == "prose"
        for m in t.measurements
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the `x` written first
        ("The new index gives up to x10 times throughput on mixed loads.", [("up to x10", 10.0)]),
        ("Batching made the writer ×4 faster.", [("×4", 4.0)]),
        # `up to` before a factor or a change: the best result seen
        ("The cache speeds up the scan phase by up to 30% on big groups.", [("up to 30%", 30.0)]),
        ("We saw up to 17x) on the idle cluster, as the gains were large.", [("up to 17x", 17.0)]),
        # loose bounds: `a bit over`, `slightly more than`
        ("There is a bit over 3x increase in cold startup time.", [("a bit over 3x", 3.0)]),
        ("It was slightly more than 2x faster.", [("slightly more than 2x", 2.0)]),
        # a factor of a timed quantity named after `in`
        (
            "We got 3x in cold startup time and 2x in regular startup time.",
            [("3x", 3.0), ("2x", 2.0)],
        ),
        # a factor of more time or a longer run
        ("The jobs take 2x to 3x more time to run on the new SDK.", [("2x to 3x", 2.0)]),
    ],
)
def test_factors_and_changes_however_they_are_bounded(text, expected):
    assert [(w, v) for w, v, _ in written_values(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Run the cluster on x86 machines with x64 JVMs.",
        "Is the new writer x4 faster?",
        "The pool grows up to 30 s of backlog.",  # `up to` a duration is a bound
        "We allow up to 100 MB/s per client.",
        "It should be up to 3x faster once merged.",  # a hope, not a result
        "We saw x2 in the logs.",  # no speed word
    ],
)
def test_bounds_settings_hopes_and_names_are_no_factors(text):
    assert written_values(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # two durations set against each other need no verb
        ("it was `9120ms` vs `2204ms` (with the flag off)", [(9120.0, "ms"), (2204.0, "ms")]),
        ("Cold it is 41 s versus 12 s when warm.", [(41.0, "s"), (12.0, "s")]),
        # the time of a counted amount of work
        ("The client sends 2 million small messages in 48 seconds.", [(48.0, "seconds")]),
        ("We loaded 10k rows in 3.5 s on one node.", [(3.5, "s")]),
        # one duration written in two units
        ("The read step took 1 min 5 sec against 3 sec before.", [(65.0, "s"), (3.0, "sec")]),
        ("The build took 2 hours and 10 minutes.", [(7800.0, "s")]),
        ("The full build took 14m 32s, down from 22m 10s.", [(872.0, "s"), (1330.0, "s")]),
        # or in three
        ("The nightly job took 1 hr 12 min 33 sec.", [(4353.0, "s")]),
        ("A cold start took 5 min 3 sec 200 ms.", [(303.2, "s")]),
    ],
)
def test_durations_compared_counted_or_in_two_units(text, expected):
    assert [(v, u) for _, v, u in written_values(text)] == expected


def test_before_who_had_it_names_the_old_side():
    """`510 ms, before it was 380 ms`: `before` opens the clause of the old value, not
    a side of the new one; `12 s before and 9 s after` are one quantity's two sides."""
    text = "With the patch a commit takes 510 ms, before it was 380 ms."
    assert [(m.value, m.variant) for t in extract_results(text) for m in t.measurements] == [
        (510.0, None),
        (380.0, "before"),
    ]
    for text in (
        "The query took 12 s before and 9 s after.",
        "The query took 12 s before this change and 9 s after it.",
        "The query took 12 s without the patch, and 9 s after.",
    ):
        found = extract_results(text)
        assert [(m.value, m.label, m.variant) for t in found for m in t.measurements] == [
            (12.0, "The query", "before"),
            (9.0, "The query", "after"),
        ], text
    # (`after it was` opens a condition, and a new quantity between is not the same one)
    found = extract_results("After it was idle for 30 minutes, the first query took 45 ms.")
    assert all(m.variant is None for t in found for m in t.measurements)


def test_what_a_ratio_makes_faster_names_it_when_nothing_before_does():
    for text in (
        "~2.3x faster checkpoints with the same state size.",
        ":rocket: ~2.3x faster checkpoints with the same state size.",
    ):
        assert [m.label for t in extract_results(text) for m in t.measurements] == ["checkpoints"]
    text = "The new planner makes joins 2.3x faster."
    assert [m.label for t in extract_results(text) for m in t.measurements] == [
        "The new planner makes joins"
    ]


def test_a_log_line_s_time_and_prefix_name_nothing():
    text = "INFO  [main] 2024-05-01 10:00:01,123 Completed 1000000 writes in 45.2 seconds"
    assert [m.label for t in extract_results(text) for m in t.measurements] == [
        "Completed 1000000 writes"
    ]


def test_a_rate_named_first_in_its_sentence_labels_its_values():
    text = "Throughput doubled (from 1.2k to 2.4k qps) after the fix."
    got = [
        (m.value, m.unit, m.label, m.variant) for t in extract_results(text) for m in t.measurements
    ]
    assert got == [
        (1200.0, "qps", "Throughput doubled", "before"),
        (2400.0, "qps", "Throughput doubled", "after"),
    ]


def test_between_two_values_is_a_range():
    assert written_values("The scan takes between 2 and 3 s now.") == [
        ("between 2 and 3 s", 2.0, "s")
    ]
    # (two values of a list are no range)
    assert [v for _, v, _ in written_values("The scans took 2 s and 3 s.")] == [2.0, 3.0]


def test_a_clause_after_an_earlier_value_names_the_next_one():
    """`compresses at 480 MB/s and decompresses at 1.9 GB/s`: the second value is named
    by its own clause, not by one that runs over the first value; a qualifier after a
    value (`on Win7`) is no clause of its own."""

    def labels(text):
        return [(m.value, m.label) for t in extract_results(text) for m in t.measurements]

    text = "The new codec compresses at 480 MB/s and decompresses at 1.9 GB/s."
    assert labels(text) == [(480.0, "The new codec compresses"), (1.9, "decompresses")]
    text = "The GC time went from 12ms to 8ms and the allocation rate from 1.1 GB/s to 0.7 GB/s."
    assert [label for _, label in labels(text)][2:] == ["the allocation rate"] * 2
    text = "A full checkout takes ~3:20 on Win7 and 13 s on Linux."
    assert labels(text)[1][1].startswith("A full checkout")


def test_a_number_s_own_rate_unit_leads_no_other_number():
    text = "Requests over 300 rps already get 503 from the limiter."
    assert 503.0 not in [v for _, v, _ in written_values(text)]
    # (a rate named before its number still leads it)
    assert [v for _, v, _ in written_values("TPS reached 38k after the fix.")] == [38000.0]


def test_requests_and_calls_per_second_are_rates():
    assert [
        (v, u) for _, v, u in written_values("The gateway handles 12k RPS now, up from 9k.")
    ] == [
        (12000.0, "RPS"),
        (9000.0, "RPS"),
    ]
    assert [v for _, v, _ in written_values("We commit ~510 cps, before it was ~380 cps.")] == [
        510.0,
        380.0,
    ]


def test_query_planning_is_a_step_that_takes_time_not_a_plan():
    assert [v for _, v, _ in written_values("Planning dropped from 95s to 11s.")] == [95.0, 11.0]
    assert written_values("We are planning to cut it from 95 s to 11 s.") == []
    assert written_values("The planned speedup is from 95 s to 11 s.") == []


def test_without_the_patch_who_had_it_names_the_old_side():
    text = "Bootstrap finished in 3m12s, without the patch it's 7m40s."
    assert [(m.value, m.variant) for t in extract_results(text) for m in t.measurements] == [
        (192.0, None),
        (460.0, "before"),
    ]


def test_a_time_named_in_camel_case_is_a_cue():
    """Tools and APIs name their times in camel case (Solr's `QTime`, `responseTime`):
    the duration after one is measured, and a version beside it is no value."""
    text = "The facet query shows QTime 9000ms on 8.11, and QTime 850ms on 8.6."
    assert [(v, u) for _, v, u in written_values(text)] == [(9000.0, "ms"), (850.0, "ms")]
    assert written_values("The responseTime went down to 45 ms.") == [("45 ms", 45.0, "ms")]
    # (a setting's name is still no cue: `Timeout` goes on after `Time`)
    assert written_values("We use a connectTimeout of 30 ms.") == []


def test_a_duration_in_parts_is_named_by_the_side_after_its_last_part():
    text = "The full build took 1 hour 12 minutes before and 48 minutes 10 seconds after."
    assert [(m.value, m.variant) for t in extract_results(text) for m in t.measurements] == [
        (4320.0, "before"),
        (2890.0, "after"),
    ]


def test_each_line_of_a_list_of_results_names_its_own_values():
    """A line that ends with a value is a row of its own: the next line's values are
    named by that line, not by the rows above it. A version at a line's end is no
    value (a hard-wrapped sentence goes on after it)."""
    text = "Throughput with the patch:\n\nsmall 1.2 GB/s -> 4.8 GB/s\nmedium 1.3 GB/s -> 5.1 GB/s\n"
    got = [(m.label, m.value) for t in extract_results(text) for m in t.measurements]
    assert got == [("small", 1.2), ("small", 4.8), ("medium", 1.3), ("medium", 5.1)]
    wrapped = "We should ship the cache in the 1.0.0 binaries\nas the startup takes 3x less time.\n"
    labels = [m.label for t in extract_results(wrapped) for m in t.measurements]
    assert labels and all("binaries" in label for label in labels), labels


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The consumer now reads about 30k msg/s, up from roughly 18k.", [30000.0, 18000.0]),
        ("p99 is 12 ms now, down from 31.", [12.0, 31.0]),
        ("Build time is 4.2 min (was 9.8).", [4.2, 9.8]),
        ("With the change union is 1523 ops/s vs 1102 before.", [1523.0, 1102.0]),
        ("Latency is 12 ms versus 31.", [12.0, 31.0]),
        # (or the side it was on, in words that bring no number of their own)
        ("It takes 12 ms, down from 31 in the old build.", [12.0, 31.0]),
        ("The scan finishes in 212s instead of 347 with the old planner.", [212.0, 347.0]),
        ("Compaction now finishes in 3.5 hours where it used to take about 9.", [3.5, 9.0]),
        ("Latency is down to 12 ms from 30 on the same box.", [12.0, 30.0]),
        # (words after the other value may name another quantity: not taken)
        ("It takes 12 ms, down from 31 with 8 threads.", [12.0]),
        ("It reads 20 MB/s vs 4 threads.", [20.0]),
    ],
)
def test_a_value_set_against_one_with_a_unit_takes_its_unit(text, expected):
    got = [m for t in extract_results(text) for m in t.measurements]
    assert [m.value for m in got] == expected
    assert len({m.unit for m in got}) == 1
    if len(got) == 2 and ("from" in text or "was" in text):  # (the new value, the old)
        assert [m.variant for m in got] == ["after", "before"]


def test_a_version_that_opens_its_line_names_its_values():
    text = "Five runs each:\n\n2.5.5: 41,233 ops/s, mean 0.24 ms\n"
    got = [(m.label, m.value) for t in extract_results(text) for m in t.measurements]
    assert ("2.5.5", 41233.0) in got
    # (a version inside a sentence names nothing by itself)
    text = "We upgraded to 2.5.5: it takes 12 s now."
    assert [m.label for t in extract_results(text) for m in t.measurements] != ["2.5.5"]


def test_a_long_line_before_a_key_and_its_value_is_no_wrapped_sentence():
    """A line as long as a hard-wrapped one, then a line that opens with a key and a
    value (`Run 1: 41.2s`): two lines of results, not one sentence wrapped."""
    text = (
        "Results of 3 runs each, measured on the same machine with the same data set:\n"
        "Run 1: 34.5s, Run 2: 33.9s, Run 3: 35.1s with this change\n"
        "Run 1: 41.2s, Run 2: 40.8s, Run 3: 42.0s on master\n"
    )
    got = {m.value: m.label for t in extract_results(text) for m in t.measurements}
    assert got[41.2] == "Run 1"


def test_down_to_the_new_value_from_the_old_one():
    """`to A from B` names the sides the other way round from `from A to B`."""
    got = [
        m
        for t in extract_results("GC pauses are down to ~20ms from ~150ms.")
        for m in t.measurements
    ]
    assert [(m.value, m.variant) for m in got] == [(20.0, "after"), (150.0, "before")]
    assert got[0].label == got[1].label
    got = [m for t in extract_results("Latency went from 150ms to 20ms.") for m in t.measurements]
    assert [(m.value, m.variant) for m in got] == [(150.0, "before"), (20.0, "after")]


def test_a_duration_in_two_units_at_a_sentences_end_says_where_it_stands():
    """The second part of `5 minutes 10 seconds` ends the sentence's last match: the
    joined measurement is located in the text (its span), and no part of it is left
    for the number model to take again."""
    text = "On 2.2 the import takes 3 minutes 20 seconds, on 2.3 it takes 5 minutes 10 seconds."
    got = [m for t in extract_results(text) for m in t.measurements]
    assert [(m.value, m.span and text[m.span[0] : m.span[1]]) for m in got] == [
        (200.0, "3 minutes 20 seconds"),
        (310.0, "5 minutes 10 seconds"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Meet me in 10 minutes, vs the usual slot.",
        "The job runs every 10 minutes.",
        "Keep 10k rows in 30 s windows.",  # a window is a setting
    ],
)
def test_durations_without_a_comparison_or_work_stay_out(text):
    assert written_values(text) == []


def test_a_timing_against_a_clock_after_vs():
    text = "A full checkout takes ~3:20 on the laptop\nvs. ~0:13 on the server."
    assert [(v, u) for _, v, u in written_values(text)] == [(200.0, "s"), (13.0, "s")]
    assert written_values("The call is at 9:30 vs. the old slot.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The lock manager is responsible for 30% of the time in these tests.", 30.0),
        ("The parser spends 42% of its time in tokenising.", 42.0),
    ],
)
def test_a_measured_share_of_the_time(text, expected):
    got = [(m.value, m.metric) for t in extract_results(text) for m in t.measurements]
    assert got == [(expected, "share of time")]


@pytest.mark.parametrize(
    "text",
    ["90% of the time it just works.", "Half the team, 50% of the time, works remotely."],
)
def test_of_the_time_without_a_cost_is_no_share(text):
    assert written_values(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("On disk the new format is 35% smaller than the old one.", [(35.0, "%")]),
        ("压测结果：写入延迟降低了40%。", [(40.0, "%")]),
        ("优化后耗时20ms左右。", [(20.0, "ms")]),
        ("性能瓶颈在磁盘，util飙到93%", [(93.0, "%")]),
    ],
)
def test_size_changes_and_numbers_against_cjk_letters(text, expected):
    assert [(v, u) for _, v, u in written_values(text)] == expected


def test_a_number_glued_to_a_latin_word_stays_out():
    assert written_values("See run5ms and abc20% in the ids; v2x faster.") == []


def test_a_cjk_sentence_breaks_its_label_at_its_commas():
    text = "今天压测了新集群，broker 一个节点，TPS打到2.5万，瓶颈在磁盘。"
    labels = [m.label for t in extract_results(text) for m in t.measurements]
    assert labels == ["broker 一个节点"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The query now takes 3,5 s instead of 12,25 s.", [(3.5, "s"), (12.25, "s")]),
        ("With the fix it is 1,5x faster.", [(1.5, "x")]),
        ("The export takes 1,250 ms on the old disk.", [(1250.0, "ms")]),  # thousands
    ],
)
def test_decimal_commas_and_thousands_commas(text, expected):
    assert [(v, u) for _, v, u in written_values(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Caching the parse tree saves 40 s per build.", [(40.0, "s")]),
        ("The new layout cut 2 minutes off the nightly job.", [(2.0, "minutes")]),
    ],
)
def test_time_saved_or_cut_is_measured(text, expected):
    assert [(v, u) for _, v, u in written_values(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write throughput increased by 3x with the new batching.", [("3x", 3.0)]),
        ("It sped the scan up by ~2x on wide tables.", [("~2x", 2.0)]),
        ("Load time is down 60%.", [("60%", 60.0)]),
        ("Tail latency is up by 12% since the upgrade.", [("12%", 12.0)]),
        (
            "On my laptop it processes 3 million rows per second.",
            [("3 million rows per second", 3e6)],
        ),
    ],
)
def test_changes_by_a_factor_or_a_direction_and_magnitude_words(text, expected):
    assert [(w, v) for w, v, _ in written_values(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Pick up 60% of the tickets next sprint.",  # no change of a measured quantity
        "Divide the pool by 3x the core count.",  # no change verb before `by`
        "Code coverage is up 5% this month.",  # coverage is no performance
    ],
)
def test_directions_and_factors_without_a_measured_change(text):
    assert written_values(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The suite finishes in 4m30s instead of 7m10s.", [(270.0, "s"), (430.0, "s")]),
        # (a bare `35m` is kept as written, in minutes)
        ("The job took 1h 20m before and 35m after.", [(4800.0, "s"), (35.0, "min")]),
        ("The nightly build took 2h5m10s.", [(7510.0, "s")]),
    ],
)
def test_durations_in_glued_units(text, expected):
    assert [(v, u) for _, v, u in written_values(text)] == expected


def test_a_bare_m_is_no_minute_without_a_glued_duration():
    assert written_values("The run loaded 35m rows in total.") == []


def test_a_sentence_opening_with_a_pronoun_keeps_the_one_before_as_context():
    text = (
        "I reran the checkout-latency benchmark on the old branch. Any ideas?\n\n"
        "It was `812ms` vs `301ms` with the cache on."
    )
    (table,) = [t for t in extract_results(text) if t.format == "prose"]
    assert "checkout-latency benchmark" in table.caption
    assert table.caption.endswith("with the cache on.")
    # a sentence that names its own subject keeps its own caption
    text = "I reran the checkout-latency benchmark.\n\nThe cold start took 812 ms."
    (table,) = [t for t in extract_results(text) if t.format == "prose"]
    assert table.caption == "The cold start took 812 ms."


def test_a_question_is_no_context():
    text = "Did the checkout-latency benchmark change?\n\nIt took 812 ms vs 301 ms."
    (table,) = [t for t in extract_results(text) if t.format == "prose"]
    assert "benchmark" not in table.caption


def test_within_a_share_of_a_reference_is_a_result():
    got = written_values("With the fix, performance is within 15% of the unchecked reads.")
    assert got == [("15%", 15.0, "%")]
    assert written_values("Keep the error within 5% of the budget.") == []


def test_a_hard_wrapped_sentence_goes_on_across_a_capitalised_line():
    text = (
        "We are seeing the nightly pipelines taking 2x to 3x more time to run in\n"
        "Apache Foo SDK 2.50 compared to Apache Foo SDK 2.44.\n"
    )
    (table,) = [t for t in extract_results(text) if t.format == "prose"]
    assert "2.44" in table.caption
    # short lines, or lines ending in a number or a URL, end where they end
    text = (
        "I feel like checkout, with a 2x performance drop seen in our recent tests, is bad\n"
        "https://example.org/archive/2010-12/0161.shtml\n"
        "Do we need to be faster than 1.6 to do a release?\n"
    )
    assert [w for w, _, _ in written_values(text)] == ["2x"]


def test_an_indented_capitalised_line_starts_a_sentence():
    text = (
        "   checkout, with a 2x performance drop which I saw in recent tests, is bad\n"
        "   https://example.org/archive/0161.shtml\n"
        "   Do we need to be faster than before?\n"
    )
    assert [w for w, _, _ in written_values(text)] == ["2x"]


def test_an_indented_diff_fence_reads_its_own_lines():
    text = (
        "   README.md:\n   ```diff\n"
        "   -With the new planner the full suite now runs in 640 seconds on one node.\n"
        "   +With the new planner the full suite now runs in 590 seconds on one node.\n"
        "   ```\n"
    )
    got = {(m.variant, m.value) for t in extract_results(text) for m in t.measurements}
    assert got == {("[-]", 640.0), ("[+]", 590.0)}


def test_a_diff_line_wrapped_by_the_mailer_goes_on_in_the_next_line():
    text = (
        "README.md:\n```diff\n"
        "-With the new planner the full suite now runs in 640 seconds, down from\n"
        "900 seconds.\n"
        "+With the new planner the full suite now runs in 590 seconds, down from\n"
        "900 seconds.\n"
        " The rest of the page is unchanged and has 12 s in it as context.\n"
        "```\n"
    )
    got = sorted((m.variant, m.value) for t in extract_results(text) for m in t.measurements)
    assert got == [("[+]", 590.0), ("[+]", 900.0), ("[-]", 640.0), ("[-]", 900.0)]


def test_a_diff_hunk_flattened_onto_one_line_reads_its_own_lines():
    text = (
        "README.md:\n```diff\n"
        "@@ -3,2 +3,2 @@ The suite runs on one node with 8 cores. -With the new planner the "
        "full suite now runs in 640 seconds on one node. +With the new planner the full "
        "suite now runs in 590 seconds on one node.\n```\n"
    )
    got = {(m.variant, m.value) for t in extract_results(text) for m in t.measurements}
    assert got == {("[-]", 640.0), ("[+]", 590.0)}
    # a hyphen inside a sentence is no diff mark
    inline = text.replace(". -With", ", -With").replace(". +With", ", +With")
    got = {m.variant for t in extract_results(inline) for m in t.measurements}
    assert not got & {"[-]", "[+]"}


def test_a_question_ends_before_a_lowercase_sentence():
    text = "Should we see improvements already? it was 9120ms vs 2204ms with the flag off"
    assert [w for w, _, _ in written_values(text)] == ["9120ms", "2204ms"]


def test_a_long_line_ending_in_a_comma_goes_on_below_a_capital():
    text = (
        "we see throughput increased about 17%, heap allocation decreased about 95%,\n"
        "Young\ngeneration size decreased about 81.7% with the pooled buffers.\n"
    )
    (table,) = [t for t in extract_results(text) if t.format == "prose"]
    assert [m.value for m in table.measurements] == [17.0, 95.0, 81.7]


def test_a_rate_name_does_not_reach_across_a_cjk_clause_or_to_a_list_number():
    assert values("压测结果：QPS下降了相当数值；2、RT上升。") == []
    assert values("QPS下降 2、RT上升") == []
    assert values("压测结果：TPS打到3.8万；RT上升。") == [(38000.0, "TPS")]


def test_the_rate_of_a_machine_part_in_a_hardware_list_is_a_spec():
    text = "Hardware: 64 cores, 256G memory, 8 HDD, network bandwidth 25GB/s"
    assert written_values(text) == []
    # a measured bandwidth, outside such a list, stays a result
    assert [w for w, _, _ in written_values("The scan reached a disk bandwidth of 1.2GB/s.")] == [
        "1.2GB/s"
    ]


def test_bare_minutes_set_against_each_other_in_a_sentence_about_time():
    text = "The E2E job got faster.\n\nMost of it comes from the compile time, ~6m down to ~3m."
    got = [
        (t.format, m.value, m.unit, m.variant)
        for t in extract_results(text)
        for m in t.measurements
    ]
    assert got == [("prose", 6.0, "min", "before"), ("prose", 3.0, "min", "after")]
    assert written_values("We moved 6m rows to 3m rows.") == []


@pytest.mark.parametrize(
    "text",
    [
        "The vendor claims up to 10x faster scans.",
        "In theory this gives 3x faster reads.",
        "The new driver promises 40% lower latency.",
    ],
)
def test_claims_and_figures_in_theory_are_no_results(text):
    assert written_values(text) == []


def test_promising_is_no_promise():
    text = "The result looks promising: the build takes ~10 minutes after the change."
    assert [w for w, _, _ in written_values(text)] == ["~10 minutes"]


@pytest.mark.parametrize(
    "text",
    [
        "If it takes more than 10 s, the watchdog kills it.",
        "In the worst case it is 10x slower, in theory.",
        "It might be 2x faster, maybe more.",
        "Downloads are up 20% this month.",  # a direction, but of no performance
        "The cluster was down 30% of the time last week.",  # uptime, not a change
    ],
)
def test_conditions_trailing_hedges_and_directions_of_other_things(text):
    assert written_values(text) == []


def test_a_result_after_a_condition_is_stated():
    text = "If you enable the flag, the scan took 3 s instead of 9 s."
    assert [w for w, _, _ in written_values(text)] == ["3 s", "9 s"]


def test_a_number_after_a_digit_and_a_comma_is_an_item_of_a_list():
    assert written_values("The run with params 1000,1ms took long.") == []


@pytest.mark.parametrize(
    "text",
    [
        "GC pauses are now around 50 ms, down from 300 ms.",
        "Startup takes 3.2s now (was 5.1s).",
        "The suite finishes in 4m30s instead of 7m10s.",
    ],
)
def test_a_new_value_then_the_old_one_it_replaced(text):
    got = [(m.variant, m.label) for t in extract_results(text) for m in t.measurements]
    assert [v for v, _ in got] == ["after", "before"]
    assert got[0][1] == got[1][1]


def test_values_set_against_each_other_by_vs_keep_no_side():
    got = [
        m.variant for t in extract_results("It is 230ms vs 410ms on trunk.") for m in t.measurements
    ]
    assert got == [None, None]


def test_the_side_named_before_each_number():
    got = [
        (m.value, m.variant)
        for t in extract_results("without patch 12.3s, with patch 8.1s")
        for m in t.measurements
    ]
    assert got == [(12.3, "before"), (8.1, "after")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The average is 123.4 ms (stddev 2.1 ms).", [(123.4, "ms"), (2.1, "ms")]),
        ("We got 120k writes/s on the new disks.", [(120000.0, "writes/s")]),
    ],
)
def test_statistics_of_timings_and_more_things_per_second(text, expected):
    assert [(v, u) for _, v, u in written_values(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("处理耗时从120ms降到了45ms。", [(120.0, "before"), (45.0, "after")]),
        ("吞吐从 1.2万 提升到 3.5万。", [(12000.0, "before"), (35000.0, "after")]),
        ("TPS went from 38k to 52k on two brokers.", [(38000.0, "before"), (52000.0, "after")]),
    ],
)
def test_from_a_to_b_in_chinese_and_after_a_rate_name(text, expected):
    got = [(m.value, m.variant) for t in extract_results(text) for m in t.measurements]
    assert got == expected


def test_a_rate_name_then_a_value_of_another_unit_is_not_its_second_value():
    assert values("The QPS is 18000 to 5 ms.") == [(18000.0, "QPS")]


def test_a_number_after_a_comparison_sign_is_a_bound():
    assert written_values("Our p99 is hard to keep < 2ms on that hardware.") == []
    assert written_values("The p99 is now 1.8ms on that hardware.") == [("1.8ms", 1.8, "ms")]


def test_a_second_clock_timing_joined_by_and():
    text = "The option brought the times down to 1:20 and 0:10 respectively."
    assert [v for _, v, _ in written_values(text)] == [80.0, 10.0]
    assert written_values("We meet at 9:00 and 10:30 tomorrow.") == []


def test_a_statistic_named_far_before_a_timing_does_not_make_it_one():
    text = "OPS: Operations Per Second, computed as 1 / Mean\n1 passed, 3 deselected in 0.28s\n"
    assert written_values(text) == []


@pytest.mark.parametrize(
    ("text", "written"),
    [
        # the main clause hopes, the clause of reason states what was measured
        ("Would be great to ship this,\nas there's a 3x increase in startup speed.", ["3x"]),
        ("We should merge it, because it gives 3x higher throughput.", ["3x"]),
        # a modal inside the clause of reason still hedges it
        ("Would be great to ship this, as there should be a 3x faster startup.", []),
        ("It would be 2x faster since it avoids a copy.", []),
    ],
)
def test_a_clause_of_reason_states_what_the_hoping_main_clause_does_not(text, written):
    assert [w for w, _, _ in written_values(text)] == written


@pytest.mark.parametrize(
    ("text", "written"),
    [
        # the load a workload was run at is its setting ...
        ("The read topology at 40k tuples/s, as the consumer logged it:", []),
        ("With 8 clients at 2000 req/s the p99 was 12 ms.", ["12 ms"]),
        # ... a verb before `at` states a rate that was reached
        ("Throughput peaked at 40k tuples/s after the patch.", ["40k tuples/s"]),
    ],
)
def test_a_workload_at_a_rate_is_run_at_it_a_verb_at_a_rate_reaches_it(text, written):
    assert [w for w, _, _ in written_values(text)] == written


def test_a_signed_percentage_is_a_change_with_its_sign():
    got = written_values("We got +45% throughput, -30% p99 latency with the patch.")
    assert [(w, v) for w, v, _ in got] == [("+45%", 45.0), ("-30%", -30.0)]
    # (a sign glued to a word or a number is an expression's or a flag's)
    assert written_values("the -Xmx45% flag stays as it is") == []
    assert [v for _, v, _ in written_values("10-30% faster on every query")] == [10.0]


def test_lag_is_a_latency():
    text = "Average replication lag was 120 ms with the old fetcher and 45 ms with the new one."
    assert [(v, u) for _, v, u in written_values(text)] == [(120.0, "ms"), (45.0, "ms")]


def test_a_duration_is_never_named_by_a_rate_word():
    text = "We ran it again: avg throughput 137 MB/s, peak 171 MB/s, end to end p99 48 ms."
    metrics = {m.written: m.metric for t in extract_results(text) for m in t.measurements}
    assert metrics["48 ms"] == "p99"
    assert metrics["137 MB/s"] == "throughput"
    text = "The write throughput went from 120 MB/s to 180 MB/s and the build time to 3 s."
    metrics = {m.written: m.metric for t in extract_results(text) for m in t.measurements}
    assert metrics["180 MB/s"] == "throughput"
