"""The number model's inputs: links to what the readers made of a number, and the
general features of its context (`extract.results.judge`), on text written here."""

from extract.results.describe import describe
from extract.results.formats import extract_results
from extract.results.judge import judge_numbers, load_model, unit_class

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


def test_words_around_a_number():
    text = "The full build now takes 12 min; the default timeout is 30 s. See PR #4567."
    assert "left=took" in feats(text, 12)
    assert "left=hedge" in feats(text, 30)
    assert "left=id" in feats(text, 4567)


def test_both_sides_of_a_comparison_are_paired():
    text = "the scan went from 412 to 236 s"
    assert "paired" in feats(text, 412) and "paired_unit=time" in feats(text, 412)


def test_log_lines_config_and_ordinals():
    assert "line=log" in feats("2024-05-02 03:14:07,123 INFO flushed 12 MB", 12)
    assert "glued_key" in feats("-Dfoo.timeout=30", 30)
    assert "ordinal" in feats("1. run the job\n", 1)


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
