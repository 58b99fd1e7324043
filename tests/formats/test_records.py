"""records: runs of `key: value` / `key=value` lines with numbers; config dumps and
identifiers give nothing."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import by_name, extract_results, run
from tests.formats.golden import rows_of, text_of


def rows(text: str, fmt: str = "records") -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
        if t.format == fmt
    ]


def test_one_pair_per_line_and_several_per_line_read_alike():
    one = "read_bw=412.5 MB/s\nread_lat_avg=3.8 ms\n"
    many = "read_bw=412.5 MB/s read_lat_avg=3.8 ms\n"
    assert [r[3:] for r in rows(one)] == [r[3:] for r in rows(many)]


def test_repeated_samples_are_numbered_lines():
    text = (
        "Sent: 2310 msg/s  Lag: 40 ms\nSent: 2295 msg/s  Lag: 38 ms\nSent: 2330 msg/s  Lag: 41 ms\n"
    )
    got = rows(text)
    assert [r[2] for r in got] == ["line 1"] * 2 + ["line 2"] * 2 + ["line 3"] * 2
    assert ("records", None, "line 3", "Lag", 41.0, "ms") in got


def test_heading_labels_a_block_under_a_code_fence():
    text = "Patched build:\n```\nbefore: 7100 rows/s\nafter: 9400 rows/s\n```\n"
    assert rows(text) == [
        ("records", "Patched build", None, "before", 7100.0, "rows/s"),
        ("records", "Patched build", None, "after", 9400.0, "rows/s"),
    ]


def test_chinese_colon_and_magnitude_suffix():
    text = "写入 TPS：12k\n读取 TPS：30k\n"
    assert [(r[3], r[4]) for r in rows(text)] == [("写入 TPS", 12000.0), ("读取 TPS", 30000.0)]


def test_keys_that_end_in_a_digit():
    """`v2.1: ...` alone: the trigger lets it through (it once required a letter)."""
    text = "v2.1: 8120 req/s\nv2.2: 9075 req/s\n"
    assert [(r[3], r[4], r[5]) for r in rows(text)] == [
        ("v2.1", 8120.0, "req/s"),
        ("v2.2", 9075.0, "req/s"),
    ]


def test_clock_times_are_no_pairs():
    assert rows("We met at 10:30 and at 11:45 the job was done.\nSee you at 9:15 tomorrow.") == []


def test_one_number_without_a_unit_is_not_a_block():
    assert rows_of("total: 4\n") == []
    assert rows(text_of("records--path-prefix").splitlines()[0]) != []  # one with a unit is


NOISE = {
    "config dump": "threads: 32\nport: 9092\nbatch.size: 16384\nretries: 5\n",
    "time settings": "session timeout: 30 s\nheartbeat interval: 3 s\nlog retention: 168 h\n",
    "ids": "PR: 4417\nBuild: 1189\nIssue: 20931\n",
    "stack trace": (
        "\tat org.example.Runner.main(Runner.java:118)\n"
        "\tat org.example.Runner.loop(Runner.java:240)\n"
    ),
    "sentence with a colon": "We tested it on the new cluster and found: 3 failures in 200 runs.\n",
    "table rows": "| a: 1 | b: 2 |\n| a: 3 | b: 4 |\n",
    "log line with ids": "time: 2024-05-06 10:11:12:345, threadId: 7, total: 9",
}


@pytest.mark.parametrize("name", sorted(NOISE))
def test_noise_gives_no_rows(name):
    assert rows(NOISE[name]) == []


def test_camel_case_config_keys_give_no_rows():
    """`serverWorkerThreads` names threads, `threadId` an id: settings, not results."""
    text = "serverWorkerThreads: 32\nmaxMessageSize: 65536\nflushIntervalMillis: 500\n"
    assert rows(text) == []


def test_survives_odd_input():
    parse = by_name("records").parse
    odd = ["", ":", "a:", "a: b", "a=1=2=3", "x: 1e999", "：" * 100, "\x00\ufffd" * 100]
    for text in odd:
        assert isinstance(parse(text), list)


@pytest.mark.parametrize(
    "text",
    ["a: 1 " * 20000, "a=" * 30000, "key name with words: " * 5000 + "1", ("k: 1\n" * 20000)],
    ids=["pairs", "equals", "long-key", "many-lines"],
)
def test_stays_linear_on_pathological_input(text):
    start = time.perf_counter()
    run("records", text)
    assert time.perf_counter() - start < 5.0


def test_a_flattened_series_of_records_is_split_at_its_first_key():
    lines = [
        "Send TPS: 240 Max RT: 292 AVG RT: 2.8",
        "Send TPS: 259 Max RT: 69 AVG RT: 2.3",
    ]
    prose = "I changed the producer so that it reports every ten seconds, and here it is: ```"
    flat = prose + " " + " ".join(lines) + " ``` That is all for now, thanks for looking."
    from extract.results.formats import extract_results

    got = [
        (m.variant, m.metric, m.value) for t in extract_results(flat) for m in t.measurements
        if t.format == "records"
    ]  # fmt: skip
    assert ("line 1", "Send TPS", 240.0) in got and ("line 2", "AVG RT", 2.3) in got
    assert len(got) == 6


def test_one_labelled_line_or_mixed_units_are_no_records():
    from extract.results.formats import extract_results

    one = "We restarted the broker and it took 45 sec\n"
    mixed = "   load catalog  4.25 sec\n  rebuild index  61.5 MB/s\n"
    for text in (one, mixed):
        assert not [t for t in extract_results(text) if t.format == "records"]


def test_rows_of_an_aligned_table_stay_the_table_readers():
    from extract.results.formats import extract_results

    text = (
        "case      before       after\n"
        "copy/1    640.2 MiB/s  1.2 GiB/s\n"
        "copy/2    512.0 MiB/s  0.9 GiB/s\n"
    )
    assert {t.format for t in extract_results(text)} == {"ascii-table"}


def test_the_arguments_of_a_call_in_a_flattened_line_are_code_not_records():
    from extract.results.formats.records import parse

    code = (
        "def run_benchmark( + starting_point=1, num_runs=10, num_elements_step=300, verbose=True):"
    )
    line = "A change to the benchmark tool, which now takes these arguments: " * 2 + code
    assert parse(line) == []
    # the same pairs as written in a result line are records
    run = "A run of the benchmark tool gave these figures at the end of it: " * 2
    assert parse(run + "p50=12 ms, p99=30 ms, max=41 ms")


def test_a_line_of_pipe_separated_cells_each_a_named_value_is_a_record():
    from extract.results.formats.records import parse

    text = (
        "Old client / old server : small msgs in 57.8 secs | 1k msgs in 53.2 secs\n"
        "New client / old server : small msgs in 51.4 secs | 1k msgs in 49.6 secs\n"
    )
    [table] = parse(text)
    got = [(m.label, m.metric, m.value, m.unit) for m in table.measurements]
    assert got[0] == ("Old client / old server", "small msgs", 57.8, "secs")
    assert got[3] == ("New client / old server", "1k msgs", 49.6, "secs")
    # cells that are not all named values (prose between bars) are no record
    assert parse("We tried it | it took 5 secs | and then more\nsee above | it took 7 secs |") == []


def test_label_dash_value_records_run_together_by_flattening_are_rows():
    from extract.results.formats import extract_results

    flat = (
        "Timings of the three versions on the same data set, measured on one node: "
        "Load in 1.2.0 - 5.7 min Load in 1.3.1 - 12 min Load in 1.4.0 - 5.2min "
        "Using the default options and a cold cache each time."
    )
    rows = [
        (m.label, m.value, m.unit)
        for t in extract_results(flat)
        if t.format == "records"
        for m in t.measurements
    ]
    assert rows == [
        ("Load in 1.2.0", 5.7, "min"),
        ("Load in 1.3.1", 12.0, "min"),
        ("Load in 1.4.0", 5.2, "min"),
    ]
    # two such records in a sentence are prose, not a run
    assert not [
        t
        for t in extract_results(flat.replace("Load in 1.4.0 - 5.2min ", ""))
        if t.format == "records"
    ]


def test_lines_of_named_value_cells_run_together_by_flattening_are_rows():
    from extract.results.formats.records import parse

    flat = (
        "The same test on each pair of client and server, ten runs each, on one host: "
        "Old client / old server : small msgs in 57.8 secs | 1k msgs in 53.2 secs "
        "New client / old server : small msgs in 51.4 secs | 1k msgs in 49.6 secs "
        "and that is all."
    )
    [table] = parse(flat)
    got = [(m.label, m.metric, m.value) for m in table.measurements]
    assert got == [
        ("Old client / old server", "small msgs", 57.8),
        ("Old client / old server", "1k msgs", 53.2),
        ("New client / old server", "small msgs", 51.4),
        ("New client / old server", "1k msgs", 49.6),
    ]


def test_a_host_and_port_inside_a_value_is_no_record():
    from extract.results.formats.records import parse

    got = [
        (m.metric, m.value)
        for t in parse(
            "--producer-props bootstrap.servers=b1:9092 acks=1\np99=12.5 ms max=40 ms\n"
            + "bin/perf-test.sh --topic perf --num-records 5000 --record-size 512 --throughput -1"
            + " --producer-props servers=b1:9092 acks=1 linger.ms=0"
        )
        for m in t.measurements
    ]
    assert ("b1", 9092.0) not in got and ("p99", 12.5) in got


def test_markdown_around_a_key_and_more_values_after_its_pair():
    text = (
        "Results:\n"
        "- `main`: 4.10 us/op, 51 allocs/op, 3.2 KB/op\n"
        "- **patched**: 3.05 us/op, 40 allocs/op, 2.6 KB/op\n"
    )
    got = [(r[1], r[3], r[4], r[5]) for r in rows(text)]
    assert got == [
        ("main", "time", 4.10, "us/op"),
        ("main", "allocs/op", 51.0, "allocs/op"),
        ("main", "KB/op", 3.2, "KB/op"),
        ("patched", "time", 3.05, "us/op"),
        ("patched", "allocs/op", 40.0, "allocs/op"),
        ("patched", "KB/op", 2.6, "KB/op"),
    ]


def test_more_values_after_a_pair_may_be_named_by_a_statistic():
    """`*Before*: 4200 req/s, p99 45 ms`: the pair's key names the line, the statistic
    before a later value its metric."""
    text = "*Before*: 4200 req/s, p99 45 ms\n*After*: 6100 req/s, p99 31 ms\n"
    got = [(r[1], r[3], r[4], r[5]) for r in rows(text)]
    assert got == [
        ("Before", "throughput", 4200.0, "req/s"),
        ("Before", "p99", 45.0, "ms"),
        ("After", "throughput", 6100.0, "req/s"),
        ("After", "p99", 31.0, "ms"),
    ]
    got = [(r[3], r[4]) for r in rows("Before: 4200 req/s, mean 3.1 ms, stddev 0.4 ms\n")]
    assert got == [("throughput", 4200.0), ("mean", 3.1), ("stddev", 0.4)]
    # (a word that is no statistic does not name a value: `max 10 threads` is a setting)
    assert [r[4] for r in rows("Before: 4200 req/s, with 10 threads\n")] == [4200.0]


def test_more_values_that_go_on_as_a_sentence_are_not_a_list():
    """`x: 5 ms, 3 ms of which in GC and the rest waiting`: the words after the values
    make the line a sentence; only its own pair counts."""
    got = rows("pause: 5 ms, 3 ms of which went to the collector and the rest to waiting\n")
    assert all(r[4] != 3.0 for r in got)


def test_a_profile_breakdown_gives_the_share_of_each_function():
    text = (
        "Most of the 80 s went to:\n"
        "41% os_file_rename / RenameFileW\n"
        "13.5% os_file_open / OpenFileW\n"
        "- 6% in io.buffer.PoolArena.allocate()\n"
    )
    got = [(r[1], r[3], r[4], r[5]) for r in rows(text)]
    assert got == [
        ("os_file_rename / RenameFileW", "share", 41.0, "%"),
        ("os_file_open / OpenFileW", "share", 13.5, "%"),
        ("io.buffer.PoolArena.allocate()", "share", 6.0, "%"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Survey results:\n30% of users\n70% of admins\n",  # no code names
        "Only one line:\n41% os_file_rename\n",  # one line alone is a sentence
        "Odd:\n140% foo_bar\n150% baz_qux\n",  # over 100% is no share
    ],
)
def test_lines_that_are_no_profile_give_no_shares(text):
    assert [r for r in rows(text) if r[5] == "%"] == []


def test_records_in_a_flattened_line_leave_the_sentences_around_them_to_prose():
    text = (
        "Hello all. I was able to push 2 million small messages in 61 seconds with the new "
        "codec, which is a nice result. Old client : small msgs in 57.8 secs | 1k msgs in "
        "53.2 secs New client : small msgs in 41.5 secs | 1k msgs in 40.9 secs Thanks."
    )
    got = {(t.format, m.value) for t in extract_results(text) for m in t.measurements}
    assert ("prose", 61.0) in got
    assert {("records", 57.8), ("records", 41.5)} <= got
    prose_spans = [t.span for t in extract_results(text) if t.format == "prose"]
    records_spans = [t.span for t in extract_results(text) if t.format == "records"]
    assert records_spans and records_spans[0][0] > text.index("nice result")
    assert prose_spans and prose_spans[0][1] <= records_spans[0][0]


def test_a_wrapped_sentence_ending_in_a_pair_is_no_record():
    """A hard-wrapped sentence whose last line reads `part, key : 14 minutes`: the
    comma before the key says the line goes on from the one above."""
    text = (
        "Tuning the collector options such as the young generation size, parallel\n"
        "collection, initial heap size : 14 minutes\n"
    )
    assert rows(text) == []
    got = [(t.format, m.value) for t in extract_results(text) for m in t.measurements]
    assert got == [("prose", 14.0)]


def test_a_full_stop_after_a_unit_ends_the_sentence_not_the_unit():
    got = [(r[3], r[4], r[5]) for r in rows("Before: 12000 msg/s. After: 18500 msg/s.\n")]
    assert got == [("Before", 12000.0, "msg/s"), ("After", 18500.0, "msg/s")]
    # a dot followed by more of the token is still no end: `v: 1.2.3` is a version
    assert rows("engine: 2.4.1\nparser: 1.0.9\n") == []


def test_a_row_of_named_cells_wrapped_onto_two_lines():
    text = (
        "Numbers for 1M messages:\n\n"
        "   Old client : small msgs in 57.8 secs | 1k msgs in 53.2\n"
        "   secs | 10k msgs in 66.1 secs\n"
        "   New client : small msgs in 41.5 secs | 1k msgs in 40.9\n"
        "   secs | 10k msgs in 49.0 secs\n"
    )
    got = [(r[1], r[3], r[4]) for r in rows(text)]
    assert ("Old client", "10k msgs", 66.1) in got and ("New client", "1k msgs", 40.9) in got
    assert len(got) == 6
    assert [t.format for t in extract_results(text)] == ["records"]  # nothing left to prose


def test_a_run_of_pairs_in_a_long_line_takes_no_label_from_the_line_itself():
    text = (
        "Status after 50 sec: 1000000 operations; 17966 current ops/sec; a long line of log "
        "output [READ: Count=2764, Max=8487, Min=125, Avg=547.82] [CLEANUP: Count=20, "
        "Max=1013, Min=0, Avg=71.4]"
    )
    labels = {
        m.label for t in extract_results(text) if t.format == "records" for m in t.measurements
    }
    assert not any(label and "CLEANUP" in label and "Count" in label for label in labels)


def test_a_factor_is_a_unit_of_a_record_but_a_size_is_no_factor():
    assert [(r[3], r[4], r[5]) for r in rows("speedup: 1.8x\nsaving: 35%\n")] == [
        ("speedup", 1.8, "x"),
        ("saving", 35.0, "%"),
    ]
    assert rows("resolution: 1920x1080\ndepth: 24bit\n") == []


def test_named_value_lists_and_profile_shares_in_a_flattened_line():
    text = (
        "Here are the numbers from my laptop for the change, run a few times each: "
        "- `main`: 4.10 us/op, 51 allocs/op - **patched**: 3.05 us/op, 40 allocs/op - "
        "and the time went to 41% os_file_rename / RenameFileW 13.5% os_file_open / "
        "OpenFileW 6% io_buffer_alloc and the rest elsewhere."
    )
    got = {(r[1], r[3], r[4]) for r in rows(text)}
    assert {("main", "time", 4.1), ("patched", "allocs/op", 40.0)} <= got
    assert {
        ("os_file_rename / RenameFileW", "share", 41.0),
        ("io_buffer_alloc", "share", 6.0),
    } <= got


def test_label_value_unit_lines_run_together_in_a_flattened_line():
    lines = [
        "The load run printed these timings on the test machine, per batch size:",
        "    1 batch     2.125 sec",
        "   10 batches   3.5 sec",
        "  100 batches   9.75 sec",
        "Fixed cost per run 1.9",
    ]
    for text in ("\n".join(lines), " ".join(" ".join(lines).split())):
        got = [(r[1], r[4], r[5]) for r in rows(text) if r[0] == "records"]
        assert got == [
            ("1 batch", 2.125, "sec"),
            ("10 batches", 3.5, "sec"),
            ("100 batches", 9.75, "sec"),
        ]
    # words between values that are a sentence are not labels
    said = "It took 5 s at first. Then 6 s. Then after the fix 7 s, I think, and 8 s later."
    assert not [r for r in rows(said + " " + said) if r[0] == "records"]


def test_bare_values_take_the_one_unit_their_heading_states():
    text = "Scan times per query (ms), 3 runs each:\nq1: 41.5\nq7: 12.25\nall: 310\n"
    assert {r[5] for r in rows(text)} == {"ms"}
    # (a value with its own unit keeps it, and a heading of two units states none)
    assert {r[5] for r in rows("Times (ms):\nq1: 41.5 s\nq7: 12.2 s\n")} == {"s"}
    assert {r[5] for r in rows("Latency (ms) and rate (ops/s):\np50: 4.1\nrate: 900\n")} == {None}


def test_a_key_that_names_its_unit_gives_it():
    text = (
        "Run 2:\nSend TPS: 112345 | Max RT(ms): 234 | Average RT(ms): 1.215\nOps per sec: 6564.26\n"
    )
    got = {r[3]: r[5] for r in rows(text)}
    assert got["Max RT(ms)"] == "ms" and got["Average RT(ms)"] == "ms"
    assert got["Ops per sec"] == "Ops per sec"
    assert got["Send TPS"] is None  # (a rate's name, no unit stated)


def test_an_elision_or_html_fence_between_samples_keeps_one_block():
    """`...` (lines left out) and `<pre>` / `</pre>` lines are fences, as `_layout.FENCE`
    says for every format: samples on both sides are one series, not two blocks."""
    for fence in ("...", "</pre>\n<pre>"):
        text = f"Sent: 2310 msg/s\n{fence}\nSent: 2295 msg/s\nSent: 2330 msg/s\n"
        assert [r[2] for r in rows(text)] == ["line 1", "line 2", "line 3"], fence


def test_a_key_is_one_field_of_an_aligned_line():
    """`read_chunk  iterations=100  mean=12.3ms`: the name before the blanks is the
    line's, not part of the key `iterations` (a setting, dropped)."""
    line = "Benchmark: read_chunk  iterations=100  mean=12.3ms  p95=15.1ms\n"
    assert [(r[1], r[3], r[4]) for r in rows(line)] == [
        ("Benchmark: read_chunk", "mean", 12.3),
        ("Benchmark: read_chunk", "p95", 15.1),
    ]
    # (a key's own words are set apart by one blank)
    text = "run 1: read latency=5ms write latency=9ms\n"
    assert [(r[1], r[3]) for r in rows(text)] == [
        ("run 1", "read latency"),
        ("run 1", "write latency"),
    ]


def test_a_statistic_of_what_names_a_later_value():
    text = "* *Before*: 41,200 ops/sec, avg latency 3.1 ms, p99 12.4 ms\n"
    assert [(r[1], r[3], r[4]) for r in rows(text)] == [
        ("Before", "throughput", 41200.0),
        ("Before", "avg latency", 3.1),
        ("Before", "p99", 12.4),
    ]
    assert [r[3] for r in rows("After: 55,800 ops/sec, latency p99 8.9 ms\n")] == [
        "throughput",
        "latency p99",
    ]


def test_a_pair_that_went_from_one_value_to_another_has_both_sides():
    text = "- write amplification: 8.2 -> 3.1\n- p99 read latency: 38 → 14 ms\n"
    assert [(r[3], r[4], r[5], r[2]) for r in rows(text)] == [
        ("write amplification", 8.2, None, "before"),
        ("write amplification", 3.1, None, "after"),
        ("p99 read latency", 38.0, "ms", "before"),
        ("p99 read latency", 14.0, "ms", "after"),
    ]
    # (a setting that went from one value to another is still no result)
    found = extract_results("threads: 8 -> 16\nlatency: 12 ms\np99: 30 ms\n")
    assert sorted(m.value for t in found for m in t.measurements) == [12.0, 30.0]


def test_a_change_with_the_values_it_went_between_in_brackets():
    text = "- Write throughput: **+18%** (2,310 → 2,726 ops/s)\n- p99: -22% (41 ms → 32 ms)\n"
    assert [(r[3], r[4], r[5], r[2]) for r in rows(text)] == [
        ("Write throughput", 18.0, "%", None),
        ("Write throughput", 2310.0, "ops/s", "before"),
        ("Write throughput", 2726.0, "ops/s", "after"),
        ("p99", -22.0, "%", None),
        ("p99", 41.0, "ms", "before"),
        ("p99", 32.0, "ms", "after"),
    ]
    # (brackets after a value that is no change are not its sides)
    assert [r[4] for r in rows("latency: 41 ms (12 → 9 threads)\np99: 30 ms\n")] == [41.0, 30.0]


def test_a_flattened_list_of_pairs_keeps_its_pairs_across_the_bullets():
    text = (
        "Results: - write amplification: 8.2 → 3.1 - compaction throughput: 64 MB/s → "
        "118 MB/s - p99 read latency: 38 ms → 14 ms - the rest is unchanged.\n"
    )
    assert [(r[3], r[4], r[2]) for r in rows(text)] == [
        ("write amplification", 8.2, "before"),
        ("write amplification", 3.1, "after"),
        ("compaction throughput", 64.0, "before"),
        ("compaction throughput", 118.0, "after"),
        ("p99 read latency", 38.0, "before"),
        ("p99 read latency", 14.0, "after"),
    ]


def test_a_times_sign_before_another_number_is_no_factor():
    # (a printed data frame's size, `6 × 4`, is no speed-up: no factor's unit)
    rows = [
        (m.metric, m.value, m.unit)
        for t in extract_results("# A tibble: 6 × 4\n")
        for m in t.measurements
    ]
    assert all(unit not in ("x", "×") for _, _, unit in rows)
    found = [
        (m.metric, m.value, m.unit)
        for t in extract_results("speedup: 1.5x 2.0x\n")
        for m in t.measurements
    ]
    assert ("speedup", 1.5, "x") in found
    found = [
        (m.metric, m.value, m.unit)
        for t in extract_results("q1: 2.5x 120 ms\n")
        for m in t.measurements
    ]
    assert ("q1", 2.5, "x") in found


def test_a_logger_s_level_is_no_label():
    # (`INFO: Elapsed time: ...`: the level says how the line was logged; the heading
    # above names what was measured)
    text = "After the patch:\nINFO: Elapsed time: 263.9s, Critical Path: 121.4s\n"
    labels = {m.label for t in extract_results(text) for m in t.measurements}
    assert labels == {"After the patch"}


def test_the_dots_that_lead_a_name_to_its_value_are_no_part_of_it():
    text = (
        "Load test summary:\n"
        "  request_latency.........: avg=12.3ms p95=30.2ms\n"
        "  bytes_received..........: 52 MB\n"
    )
    got = {(r[1], r[3]) for r in rows(text)}
    assert ("request_latency", "avg") in got and ("request_latency", "p95") in got
    assert any(metric == "bytes_received" for _, metric in got)
    assert not any("." in (label or "") + metric for label, metric in got)
