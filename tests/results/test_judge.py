"""The number model's inputs: links to what the readers made of a number, and the
general features of its context (`extract.results.judge`), on text written here."""

from hypothesis import given, settings
from hypothesis import strategies as st

from extract.results.describe import describe
from extract.results.formats import Measurement, ResultTable, extract_results
from extract.results.judge import (
    _KEY_RUN,
    _TAILS_BY_END,
    NumberModel,
    _may_be_date,
    _may_be_version,
    _nearest_cell,
    judge_numbers,
    load_model,
    unit_class,
)
from extract.results.message import message_results

JMH = """Benchmark          Mode  Cnt    Score   Error  Units
Foo.bar            avgt   30  118.803 ± 2.440  ms/op
Foo.baz            avgt   30  106.804 ± 2.136  ms/op
"""


def feats(text, value, tables=()):
    cands = judge_numbers(text, list(tables), [])
    return next(c for c in cands if c.number.value == value).features


def test_unit_classes():
    assert [unit_class(u) for u in ("ms", "ops/s", "MB", "MB/s", "%", "x", "rows", "", "foo")] == [
        "time", "rate", "bytes", "byterate", "percent", "factor", "count", "none", "word",
    ]  # fmt: skip


def test_a_reader_measurement_is_linked_with_its_metric_class():
    tables = extract_results(JMH)
    score = feats(JMH, 118.803, tables)
    count = feats(JMH, 30, tables)
    assert "format=jmh" in score and "metric=perf" in score
    assert "metric=count" in count


def test_the_column_header_above_names_a_column_without_a_reader():
    assert "column=perf" in feats(JMH, 118.803)
    assert "column=count" in feats(JMH, 30)
    assert "column=error" in feats(JMH, 2.44)
    assert "after_plus_minus" in feats(JMH, 2.44)


def test_a_header_that_says_what_is_wanted_hedges_its_column():
    text = (
        "| scenario | producers | target rate | p99 latency |\n|---|---|---|---|\n"
        "| small | 4 | 50000 msg/s | 12.5 ms |\n| large | 16 | 200000 msg/s | 31.5 ms |\n"
    )
    assert "header=hedge" in feats(text, 50000)
    assert "header=hedge" not in feats(text, 12.5)


def test_words_around_a_number():
    text = "The full build now takes 12 min; the default timeout is 30 s. See PR #4567."
    assert "left=took" in feats(text, 12)
    assert "left=hedge" in feats(text, 30)
    assert "left=id" in feats(text, 4567)
    # (a setting's word in the plural is the same word)
    assert "left=hedge" in feats("Raise the readiness timeouts from 120 s to 180 s", 120)


def test_chinese_words_and_units_around_a_number():
    assert "left=time" in feats("平均延迟 30 毫秒", 30)
    assert "left=rate" in feats("消费速度在1W左右", 10000)
    assert "unit=rate" in feats("单队列 2W 条/秒", 20000)
    assert "unit=time" in feats("全量导入 25 分钟", 25)
    assert unit_class("5万/秒"[2:]) == "rate" and unit_class("次每秒") == "rate"


def test_the_words_before_a_number_stop_at_a_full_width_stop():
    # (Chinese puts no blank after 。: the sentence before is not this number's)
    f = feats("测试环境：JDK 8。测试结果：优化前平均 RT 35ms", 35)
    assert "left=version" not in f and "left=time" in f


def test_both_sides_of_a_comparison_are_paired():
    text = "the scan went from 412 to 236 s"
    assert "paired" in feats(text, 412) and "paired_unit=time" in feats(text, 412)


def test_log_lines_config_and_ordinals():
    assert "line=log" in feats("2024-05-02 03:14:07,123 INFO flushed 12 MB", 12)
    assert "glued_key" in feats("-Dfoo.timeout=30", 30)
    assert "ordinal" in feats("1. run the job\n", 1)


def test_a_number_is_fenced_inside_a_block_and_not_after_it():
    for open_, close in (("```", "```"), ("{noformat}", "{noformat}"), ("<pre>", "</pre>")):
        text = f"Run:\n{open_}\nscan 41 ms\n{close}\nSo it took 52 minutes.\n"
        assert "fenced" in feats(text, 41), open_
        assert "fenced" not in feats(text, 52), open_


def test_the_shipped_model_takes_measurements_and_refuses_settings():
    model = load_model()
    text = "With the patch the query took 1.8 s instead of 4.2 s (16 threads, 1000 rows)."
    cands = judge_numbers(text, [], [], model=model)
    taken = {c.number.value for c in cands if c.taken}
    assert {1.8, 4.2} <= taken and not {16.0, 1000.0} & taken


def test_a_number_no_reader_read_is_described_by_its_context():
    text = 'write latency p99=12.5ms, avg=3ms\n{"consumer": {"records_per_sec": 570060.4}}'
    cands = judge_numbers(text, [], [])
    by_value = {c.number.value: describe(text, c) for c in cands}
    assert by_value[12.5][:2] == ("write latency p99", "write latency p99")
    assert by_value[3.0][:2] == ("write latency", "avg")
    assert by_value[570060.4][:2] == ("consumer.records_per_sec", "records_per_sec")


def test_a_slowdown_is_never_a_speedup_and_a_range_is_one_measurement():
    from extract.results.message import message_results

    found = message_results("It takes 2-5x longer with the new codec, and the scan is 3x slower.")
    got = [(m.written, m.metric) for t in found.tables for m in t.measurements]
    assert ("2-5x", "slowdown") in got and all(w != "5" for w, _ in got)
    assert all(metric != "speedup" for _, metric in got)


def test_a_number_that_names_a_value_is_a_key():
    text = "latency percentiles: 99.9=8027, 99.99=8487\nIteration   1: 2.754 ns/op"
    assert "as_key" in feats(text, 99.99) and "as_key" not in feats(text, 8487)
    assert "as_key" in feats(text, 1) and "as_key" not in feats(text, 2.754)


def test_counts_of_a_total_and_numbers_grouped_in_brackets():
    text = (
        "[Task  3/15]  Progress: (2128/2128) | 4875.32 s\ntime:   [1.2357 ms 1.2558 ms 1.2785 ms]"
    )
    assert "slash_over" in feats(text, 3) and "slash_under" in feats(text, 15)
    assert {"group=first", "group_n=2"} <= set(feats(text, 2128))
    assert "group=first" in feats(text, 1.2357) and "group=mid" in feats(text, 1.2558)
    assert {"group=last", "group_n=3+"} <= set(feats(text, 1.2785))
    assert not any(f.startswith("group") for f in feats(text, 4875.32))


def test_markup_attributes_hex_colours_and_build_names():
    html = '<span style="font-size:10.5pt;color:#24292f">took 640.8 ms</span>'
    assert "in_tag" in feats(html, 10.5) and "in_tag" not in feats(html, 640.8)
    assert "hex" in feats(html, 24292)
    assert "dash_after" in feats("OpenJDK 64-Bit Server VM, 25.282-b08", 25.282)


def test_error_words_versions_and_timestamps():
    assert "left=error" in feats("mean = 6.21 ms, stddev = 8.77 ms", 8.77)
    assert "left=version" in feats("after the upgrade to 12.0 nothing changed", 12.0)
    assert "left=version" not in feats("After the upgrade the query takes 9000ms", 9000)
    # (upgraded to, version: in Chinese)
    assert "left=version" in feats("升级到 3.2 之后 TPS 提升到 1.5W", 3.2)
    assert "left=version" in feats("新版本 2 的 TPS 更高", 2)
    assert "date_part" in feats("started 2023-12-26 18:27:23", 12)
    assert "left=date" in feats("2023-12-26 18:27:23 started", 18 * 3600 + 27 * 60 + 23)


def test_a_point_in_time_written_as_one_number_is_a_date():
    """Unix seconds or milliseconds under a word for a point in time: when a sample was
    printed. The same digits as a count, or under `elapsed`, are no date."""
    line = "Current Time: 1690000001000 | Send TPS: 45123 | Max RT(ms): 245"
    assert "date_part" in feats(line, 1690000001000)
    assert "date_part" not in feats(line, 45123)
    assert "date_part" in feats("ts=1690000001, latency=3.1ms", 1690000001)
    assert "date_part" not in feats("Elapsed time: 1690000001 ns", 1690000001)
    assert "date_part" not in feats("rows scanned: 1690000001000", 1690000001000)
    found = message_results(
        "Producer benchmark, before and after:\n\n"
        "Current Time: 1690000001000 | Send TPS: 45123 | Max RT(ms): 245 | Average RT(ms): 2.812\n"
        "Current Time: 1690000011000 | Send TPS: 52310 | Max RT(ms): 198 | Average RT(ms): 2.421\n"
    )
    values = {m.value for t in found.tables for m in t.measurements}
    assert {45123, 52310, 2.812, 2.421} <= values
    assert not values & {1690000001000, 1690000011000}


def test_hardware_named_by_its_line_is_a_model_not_a_measurement():
    text = "on an Intel Xeon Platinum 8175M CPU and an AMD EPYC 7763: 41.2 ms"
    assert "left=version" in feats(text, 8175e6)
    assert "left=version" in feats(text, 7763)
    assert "left=version" not in feats(text, 41.2)
    found = message_results("The scan took 41.2 ms on a Xeon Platinum 8175M CPU.\n")
    values = {m.value for t in found.tables for m in t.measurements}
    assert 41.2 in values and 8175e6 not in values


def test_a_comma_separated_row_has_a_column_header():
    text = "Metric Name, Min, Max, Mean\ntopology-0, 0.038, 0.236, 0.082\n"
    assert {"row_label", "column=perf"} <= set(feats(text, 0.082))
    # (a sentence with commas is no table)
    prose = "We ran it twice, once with 12 threads, once with 24, and saw 3.5 s.\n"
    assert not any(f.startswith("column=") for f in feats(prose, 3.5))


def test_the_words_before_a_number_stop_at_the_clause_of_the_number_before_it():
    text = "the new kernel allows up to 3800 gflops, the old one 2900 gflops"
    assert "left=hedge" in feats(text, 3800) and "left=hedge" not in feats(text, 2900)
    # (in one clause the words reach back past the number before: `took 12 s and 15 s`)
    assert "left=took" in feats("it took 12 s and 15 s", 15)


def test_the_words_after_a_number_stop_at_the_end_of_its_sentence():
    text = "the indexer peaked at 30k writes per second; it should stay under 50k"
    assert "right=hedge" not in feats(text, 30000)
    # (within its sentence they are read: `12 s, it should be 5`)
    assert "right=hedge" in feats("the job ran 12 s, it should be 5", 12)


def test_a_line_that_describes_a_machine():
    spec = "- 3 x r5.4xlarge workers (16 vCPU, 128 GiB RAM), gp3 volumes with 3000 IOPS"
    assert "line=spec" in feats(spec, 3000)
    assert "line=spec" not in feats("random reads: 3000 IOPS before, 4100 IOPS after", 3000)


def test_ci_is_the_build_not_an_interval():
    assert "left=error" not in feats("the CI build now takes 14 minutes", 14)
    assert "left=error" in feats("the error is 3 ms either way", 3)


def test_a_verb_that_reports_a_run_is_no_bound_before_up_to():
    reached = feats("with the patch the kernels reached up to 3800 gflops", 3800)
    assert "left=result" in reached and "left=hedge" not in reached
    assert "left=hedge" in feats("a query may run for up to 30 s", 30)
    assert "unit=time&left=result" in feats("the facet query shows QTime 9000ms now", 9000)


def test_a_time_as_shells_print_it_and_words_in_brackets():
    text = "2.43user 0.39system 0:02.10elapsed 134%CPU"
    assert "unit=time" in feats(text, 2.43) and "unit=time" in feats(text, 0.39)
    # (brackets that hold a clause, not a list of values, are no group)
    prose = "it is faster (~6k/ms before goes to ~35k/ms now)"
    assert not any(f.startswith("group") for f in feats(prose, 6000))


def test_columns_that_name_settings():
    text = "| cpu limit | workers | QPS |\n|---|---|---|\n| 4 | 8 | 10594 |\n"
    assert "column=count" in feats(text, 4) and "column=count" in feats(text, 8)
    assert "column=perf" in feats(text, 10594)


def test_a_key_before_a_colon_is_no_source_line():
    text = "Time to access example at i=10%\t: 4.0us\nat Foo.java:329\n"
    assert "left=code" not in feats(text, 4.0)
    assert "left=code" in feats(text, 329)


def test_a_window_tail_is_tried_only_against_the_patterns_its_end_allows():
    """`_TAILS_BY_END` (which tail patterns a window's last character allows, each
    searched from its widest match's length before the end, where its `_TAIL_MAY`
    check lets it) finds what searching every pattern from the window's start finds:
    on windows written to end each way, alone and after a long sentence."""
    from extract.results import judge as J

    windows = [
        "see issue #", "p99 <=", "latency >", "on 2024-05-", "at 2024/05/06t", "run 26/12/",
        "foo.java:", "bar.py:", "jdk", "upgraded to", "graviton3", "xeon platinum", "rc2",
        "spark", "count:", "took", "", "é", "x =", "node", "v", "upgrading from",
        "threadripper", "2024-05-06T", "releases of", "1 2024/05/06T",
    ]  # fmt: skip
    for tail in windows + [f"the run we made on the old cluster {w}" for w in windows]:
        every = [f for f, rx in J._TAILS if rx.search(tail)]
        allowed = [
            f
            for f, rx, widest, may in J._TAILS_BY_END.get(tail[-1:], J._TAILS_ANY)
            if (may is None or may(tail)) and rx.search(tail, max(0, len(tail) - widest))
        ]
        assert allowed == every, tail
    assert any(rx.search("jdk") for _, rx, _, _ in J._TAILS_BY_END["k"])


def test_a_number_whose_sibling_a_reader_read():
    """An unread number in the same kind of unit on the line of a read one, or at the
    same place of a line shaped like one that was read, says so; read ones do not."""
    text = (
        "Flush: 120 MB/s, then 95 MB/s at 64 threads\n"
        "  1,234.5 msec cpu-clock   # 1.9 CPUs\n"
        "  987.6 msec cpu-clock   # 1.8 CPUs\n"
    )
    start = text.index("120")
    first = text.index("1,234.5")
    table = ResultTable("prose", (0, len(text)))
    table.measurements = [
        Measurement("throughput", 120.0, "MB/s", "Flush", None, "120", span=(start, start + 3)),
        Measurement("time", 1234.5, "msec", "cpu", None, "1,234.5", span=(first, first + 7)),
    ]
    assert "sibling=line" in feats(text, 95, [table])
    assert "sibling=line" not in feats(text, 64, [table])  # (a count: another kind)
    assert "sibling=shape" in feats(text, 987.6, [table])
    assert not {"sibling=line", "sibling=shape"} & set(feats(text, 120, [table]))
    assert not {"sibling=line", "sibling=shape"} & set(feats(text, 95))  # (no reader)


def test_a_grouped_number_counts_all_its_integer_digits():
    assert "digits=5+" in feats("took 12,345.67 msec", 12345.67)
    assert "digits=3-4" in feats("took 9,876.54 msec", 9876.54)
    assert "digits=1" in feats("took 3,5 s", 3.5)  # (a decimal comma)


def test_an_unread_number_the_blind_model_is_sure_of_is_taken():
    """In a message whose readers read a number, one they did not read is taken when
    the blind model reaches `unread_threshold`, and only then."""
    text = "Before: 120 MB/s. After: 171 MB/s."
    start = text.index("120")
    table = ResultTable("prose", (0, len(text)))
    table.measurements = [
        Measurement("throughput", 120.0, "MB/s", "Before", None, "120", span=(start, start + 3))
    ]
    full = NumberModel({"reader=prose": 5.0}, -2.0, 0.5)
    full.blind = NumberModel({"unit=byterate": 4.0}, -2.0, 0.5)
    for unread_threshold, taken in ((None, {120.0}), (0.9, {120.0}), (0.8, {120.0, 171.0})):
        full.unread_threshold = unread_threshold
        cands = judge_numbers(text, [table], [], model=full)
        assert {c.number.value for c in cands if c.taken} == taken


def test_a_key_starts_after_the_last_value_of_the_sentence_before():
    from extract.results.judge import key_before

    assert key_before("in 45,678ms. Read Throughput = ") == "Read Throughput"
    assert key_before("Avg. Latency: ") == "Avg. Latency"  # (no value ends that `.`)
    assert key_before("med: 6.4 - 95pct:") == "95pct"


def test_a_value_no_reader_read_on_a_line_of_values_is_named_by_the_line():
    from extract.results.describe import _line_record_name

    assert _line_record_name("fillrandom   :       2.345 micros/op ") == "fillrandom"
    assert _line_record_name("run time:   1 minute ") == "run time"
    # (an old value set beside the new one is the same line's: `(was 85 MB/s)`)
    assert _line_record_name("- write throughput: 120 MB/s (was ") == "write throughput"
    assert _line_record_name("p99: 12 ms vs ") == "p99"
    assert _line_record_name("startup: 3.1 s (before: ") == "startup"
    # (a statistic named before its value is the line's too: `mean 0.24 ms`)
    assert _line_record_name("master: 41,233 ops/s, mean ") == "master"
    assert _line_record_name("master: 41,233 ops/s, mean 0.24 ms, 99th ") == "master"
    # (words between the key and the number: a sentence, not a record)
    assert _line_record_name("Result: the new path took ") == ""
    assert _line_record_name("no key here 12 ms ") == ""


def test_siblings_of_numbers_on_one_long_line_cost_linear_time():
    """2,000 read numbers on one 100 kB line: the line's shape is made once."""
    import time

    text = "".join(f"v{k}: {k % 97 + 1}.5 ms | " for k in range(2000)).ljust(100_000) + "\n"
    table = ResultTable("records", (0, len(text)))
    for c in judge_numbers(text, [], []):
        if c.number.unit == "ms":
            span = (c.number.start, c.number.end)
            table.measurements.append(
                Measurement("t", c.number.value, "ms", "v", None, c.number.written, span=span)
            )
    started = time.process_time()
    judge_numbers(text, [table], [])
    assert time.process_time() - started < 1.0  # (3 s when each read number made it)


def test_an_unread_number_is_not_named_by_other_values():
    """A line's values between its name and the number, or a record line above, name
    nothing; a ratio is a speedup whatever words stand near it."""
    from extract.results.describe import text_tables

    def described(text):
        cands = [c for c in judge_numbers(text, [], []) if c.number.unit]
        return {
            m.value: (m.label, m.metric) for t in text_tables(text, cands) for m in t.measurements
        }

    got = described("fillrandom   :   2.345 micros/op   426439 ops/sec;   47.2 MB/s\n")
    assert got[47.2] == ("fillrandom", "throughput")
    got = described(
        "http_req_duration....: avg=12.3ms  max=310ms\nhttp_reqs............: 98231   1637.1/s\n"
    )
    assert got[1637.1] == ("http_reqs", "throughput")
    assert described("调度耗时从 45 秒降到 12 秒左右，提升约 3.7 倍。\n")[3.7][1] == "speedup"


def test_an_unread_number_s_metric_agrees_with_its_unit():
    """The performance word nearest to a number names it only when its unit allows:
    a time is no throughput, a rate no latency; `99th` is a percentile."""
    from extract.results.describe import _nearest_metric

    assert _nearest_metric("41,233 ops/s, mean 0.24 ms, 99th ", "", "time") == "99th"
    assert _nearest_metric("throughput went up, now ", "", "time") == ""
    assert _nearest_metric("latency is fine, we get ", "", "rate") == ""
    assert _nearest_metric("throughput went up, now ", "", "rate") == "throughput"
    assert _nearest_metric("", " p99 latency", "time") == "p99"


def test_a_statistic_named_before_an_unread_value_is_its_metric():
    from extract.results.describe import text_tables

    text = "master: 41,233 ops/s, mean 0.24 ms, 99th 1.12 ms\n"
    cands = [c for c in judge_numbers(text, [], []) if c.number.unit == "ms"]
    got = [(m.label, m.metric, m.value) for t in text_tables(text, cands) for m in t.measurements]
    assert got == [("master", "mean", 0.24), ("master", "99th", 1.12)]


def test_a_key_starts_after_the_value_of_the_pair_before():
    from extract.results.judge import key_before

    assert key_before("Results: avg=12.4ms p50=") == "p50"
    assert key_before("took 10ms total:") == "total"
    # (a key may start with a number glued to letters, or hold an ordinal)
    assert key_before("latency 95pct:") == "latency 95pct"
    assert key_before("the 2nd run:") == "the 2nd run"


@st.composite
def _cells(draw):
    """Cells in order, not overlapping, none empty: (starts, ends)."""
    starts, ends, at = [], [], draw(st.integers(0, 3))
    for _ in range(draw(st.integers(1, 8))):
        width = draw(st.integers(1, 6))
        starts.append(at)
        ends.append(at + width)
        at += width + draw(st.integers(0, 4))
    return starts, ends


@settings(max_examples=300, deadline=None)
@given(_cells(), st.integers(0, 60), st.integers(1, 8))
def test_the_nearest_header_cell_is_the_first_that_minimises_its_key(cells, lo, width):
    # (what `_nearest_cell` finds by bisection: min over the cells of (-overlap, distance
    # of the ends), the first on a tie)
    starts, ends = cells
    hi = lo + width

    def key(i):
        return (-max(0, min(hi, ends[i]) - max(lo, starts[i])), abs(ends[i] - hi))

    assert _nearest_cell(starts, ends, lo, hi) == min(range(len(starts)), key=key)


def test_a_number_under_two_header_cells_takes_the_one_it_overlaps_most():
    # `name  latency  count` over `a      12345   7`: 12345 (6-11) overlaps latency (6-13)
    assert _nearest_cell([0, 6, 15], [4, 13, 20], 6, 11) == 1
    # between cells: the one whose end is nearest its end, the first of two as near
    assert _nearest_cell([0, 10], [2, 14], 5, 8) == 0
    assert _nearest_cell([0, 10], [2, 14], 6, 9) == 1


_TAIL_TEXT = st.lists(
    st.sampled_from(
        ["jdk", "rc", "graviton", "upgraded", " to", "版本", "升级", "xrc", "v", "2024", "-",
         "/", "01", "1", " ", "a", "java", ":", "#", "t", "ver", "sions"]
    ),
    min_size=1,
    max_size=6,
).map("".join)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(_TAIL_TEXT)
def test_a_tail_check_turns_away_only_what_its_pattern_cannot_match(tail):
    # (`_may_be_version` and `_may_be_date` stand before the patterns they spare)
    tail = tail.rstrip(" \t")
    if not tail:
        return
    for family, rx, widest, may in _TAILS_BY_END.get(tail[-1], ()):
        if may is not None and rx.search(tail, max(0, len(tail) - widest)):
            assert may(tail), (family, tail)


def test_the_tail_checks_on_written_windows():
    assert _may_be_version("upgraded to") and _may_be_version("on jdk")
    assert _may_be_version("graviton2") and _may_be_version("rc")
    assert not _may_be_version("latency") and not _may_be_version("p99")
    assert _may_be_date("on 2024-01-") and _may_be_date("at 2024/01/15")
    assert not _may_be_date("took 15")


def test_an_epoch_is_ten_or_thirteen_digits():
    # (`_context` tries `EPOCH` only on numbers written that long)
    from extract.results.formats._layout import EPOCH
    from extract.results.judge import _EPOCH_LENGTHS

    assert [k for k in range(1, 30) if EPOCH.fullmatch("1" * k)] == list(_EPOCH_LENGTHS)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab1_ .()/%-:=,;#é²\t", max_size=70),
    st.integers(0, 60),
)
def test_a_key_is_read_back_as_far_as_key_characters_reach(text, reach):
    # (`key_before` finds the run of key characters with a regex over the reversed
    # window: the run a walk back one character at a time finds)
    tail = (text + ":").rstrip(" \t\"'")
    head = tail[:-1].rstrip(" \t")
    k = len(head)
    while k > 0 and len(head) - k < reach and (head[k - 1].isalnum() or head[k - 1] in " .()/%-_"):
        k -= 1
    window = head[max(0, len(head) - reach) :] if reach > 0 else ""
    assert len(head) - _KEY_RUN.match(window[::-1]).end() == k


def test_a_numbers_written_form_gives_its_shape_features():
    from extract.results.judge import _written_features

    # (written, shape, magnitude, value, unitless, plain)
    assert _written_features("2000", "int", "", 2000.0, True, True) == (
        "shape=int", "digits=3-4", "round", "year",
    )  # fmt: skip
    assert _written_features("2000", "int", "", 2000.0, False, False) == (
        "shape=int", "digits=3-4", "round_measured",
    )  # fmt: skip
    assert _written_features("-512", "int", "", -512.0, True, False) == (
        "shape=int", "digits=3-4", "pow2", "sign=-",
    )  # fmt: skip
    assert _written_features("12,345.6", "grouped", "", 12345.6, True, True) == (
        "shape=grouped", "digits=5+",
    )  # fmt: skip
    assert _written_features("3k", "int", "k", 3000.0, True, True) == (
        "shape=int", "digits=1", "magnitude",
    )  # fmt: skip


def test_what_a_reader_read_is_named_once_for_its_format_metric_role_and_unit():
    from extract.results.judge import _reader_features

    assert _reader_features("jmh", "Score", "result", None, "time") == (
        "reader=tool", "format=jmh", "metric=perf", "reader=tool&unit=time",
    )  # fmt: skip
    assert _reader_features("markdown-table", "iterations", "warmup", "after", "none") == (
        "reader=table", "format=markdown-table", "metric=count", "role=warmup",
        "reader=table&unit=none", "side",
    )  # fmt: skip


def test_a_columns_numbers_share_its_features_and_each_column_has_its_own():
    from extract.results.judge import _Bounds, _column_features, _line_header

    text = "name    latency  count\nscan    12.5     30\nwrite   14.1     32\n"
    row = text.index("write")
    header = _line_header(text, row)
    bounds = _Bounds(header)
    line = text[row : text.index("\n", row)]
    expected = {
        "write": ("column=name",),
        "14.1": ("row_label", "column=perf"),
        "32": ("row_label", "column=count"),
    }
    for written, feats in expected.items():
        col = line.index(written)
        assert _column_features(header, col, len(written), bounds) == feats
        assert _column_features(header, col, len(written), None) == feats
    # (made once for each cell: the second number of a cell is given the same)
    assert len(bounds.features) == 3
