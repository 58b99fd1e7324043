"""Labels of the numbers no reader read (`extract.results.describe`), on text written
here: a table's row and column, a record's key, a sentence's clause."""

from extract.results.describe import describe
from extract.results.judge import judge_numbers


def described(text):
    """(label, metric, variant) of each number of `text`, by its written form."""
    return {c.number.written: describe(text, c) for c in judge_numbers(text, [], [])}


def test_a_bar_table_cell_is_named_by_its_row_and_column_and_the_heading_above():
    text = (
        "Results before the patch:\n\n"
        "| query | time (ms) | rows |\n"
        "|-------|-----------|------|\n"
        "| q1    | 120.5     | 10   |\n"
        "| q2    | 88.1      | 20   |\n"
    )
    got = described(text)
    assert got["120.5"] == ("q1", "time (ms)", "Results before the patch")
    assert got["88.1"] == ("q2", "time (ms)", "Results before the patch")


def test_an_aligned_table_names_a_cell_by_the_header_above_it():
    text = (
        "Task            QPS base    QPS patch\n"
        "Prefix3           147.12       129.27\n"
        "Wildcard           98.40       101.30\n"
    )
    got = described(text)
    assert got["129.27"][:2] == ("Prefix3", "QPS patch")
    assert got["98.40"][:2] == ("Wildcard", "QPS base")


def test_a_comma_separated_row_is_named_by_its_first_cell_and_the_header():
    text = "Metric Name, Min, Max, Mean\ntopology-0, 0.038, 0.236, 0.082\n"
    got = described(text)
    assert got["0.236"][:2] == ("topology-0", "Max")
    assert got["0.082"][:2] == ("topology-0", "Mean")


def test_a_row_without_a_name_is_named_by_its_column():
    text = "| threads | throughput (ops/s) |\n|---|---|\n| 16 | 5230.5 |\n"
    assert described(text)["5230.5"][:2] == ("throughput (ops/s)", "throughput (ops/s)")


def test_a_sentence_with_two_blanks_inside_is_no_table():
    text = "The build took 12 min before.  With the patch it takes 7 min now."
    label, _, _ = described(text)["7"]
    assert "patch" in label


def test_a_record_is_named_by_the_words_before_its_pairs():
    text = "2019-10-14 14:03:51 1250 sec: 100 operations; [READ: Count=2764, Max=8487, Avg=547.82]"
    got = described(text)
    assert got["8487"][:2] == ("READ", "Max") and got["547.82"][:2] == ("READ", "Avg")


def test_a_log_line_prefix_names_nothing_and_a_key_may_start_with_digits():
    text = (
        "08:13:19.005 [main] INFO org.example.Producer - Throughput produced: 1946.9 msg/s"
        " --- Latency: mean: 11.303 ms - med: 6.485 - 95pct: 45.137 - 99pct: 68.0\n"
    )
    got = described(text)
    assert got["1946.9"][:2] == ("Throughput produced", "Throughput produced")
    assert got["11.303"][:2] == ("Latency", "mean")
    assert got["6.485"][:2] == ("Latency", "med")
    assert got["45.137"][:2] == ("Latency", "95pct")


def test_lines_of_records_are_named_by_the_heading_above_them():
    text = "writer run, 20 threads:\n  count = 1000\n  mean = 6.21 ms\n  75% <= 6.22 ms\n"
    got = described(text)
    assert got["6.21"] == ("mean", "mean", "writer run, 20 threads")
    assert got["6.22"][2] == "writer run, 20 threads"


def test_an_item_of_a_list_is_named_by_the_words_after_it():
    text = "100 records sent, 62.1 records/sec, 149.22 ms avg latency, 1276.00 ms max latency."
    got = described(text)
    assert got["149.22"][:2] == ("avg latency", "latency")
    assert got["1276.00"][:2] == ("max latency", "latency")
    assert got["62.1"][1] == "throughput"


def test_a_clause_that_names_nothing_takes_the_words_after_it_or_the_sentence_before():
    got = described("With the new codec we saw 28 S for the full scan.")
    assert "full scan" in got["28"][0]
    text = "I ran the parser benchmark with caching enabled. It was 14149ms."
    assert "parser benchmark" in described(text)["14149"][0]


def test_the_sentence_before_is_never_read_from_a_code_block():
    """A sentence right after a fenced block of tool output takes no name or heading
    from the block's last row (values and the dashes a tool prints for none): that
    text is the tool's. (Inside the block, its rows keep the heading above the
    opening fence.)"""
    for open_, close in (("```", "```"), ("{noformat}", "{noformat}"), ("<pre>", "</pre>")):
        text = (
            f"Our runs:\n\n{open_}\nReads    0.00    ---    ---\n"
            f"Writes   0.00    ---    ---\n{close}\n\nIt went from 88k to 103k ops/sec."
        )
        got = described(text)
        for number in ("88k", "103k"):
            label, _, variant = got[number]
            assert "Writes" not in label and "Writes" not in (variant or ""), (open_, got)
        assert got["0.00"][2] == "Our runs"


def test_a_prose_measurement_with_an_empty_label_is_named_from_its_context():
    from extract.results.message import message_results

    body = (
        "I ran the template rendering benchmark on the new release.\n\n"
        "It was 14149ms with the old engine vs 3169ms with the new one, a big win."
    )
    found = message_results(body)
    labels = [m.label for t in found.tables for m in t.measurements]
    assert labels and all(
        "benchmark" in (label or "") or "engine" in (label or "") for label in labels
    )


def test_name_metric_value_lines_are_rows():
    text = "[OVERALL], RunTime(ms), 50503\n[OVERALL], Throughput(ops/sec), 19800.8\n"
    got = described(text)
    assert got["50503"][:2] == ("[OVERALL]", "RunTime(ms)")
    assert got["19800.8"][:2] == ("[OVERALL]", "Throughput(ops/sec)")


def test_a_time_as_shells_print_it_is_named_by_its_word():
    text = "HDFS -text\n2.43user 0.39system 0:02.10elapsed 134%CPU\n"
    got = described(text)
    assert got["2.43"][1:] == ("user", "HDFS -text")
    assert got["0:02.10"][1] == "elapsed"


WRK_RUN = """Running 30s test @ http://127.0.0.1:8080/
  4 threads and 100 connections
Requests/sec:  {rps}
Transfer/sec:      1.74MB
"""


def test_several_runs_of_a_tool_are_told_apart_in_the_variant():
    from extract.results.message import message_results

    body = (
        "Two runs on the same box.\n\n$ wrk -t4 -c100 -d30s http://127.0.0.1:8080/\n"
        + WRK_RUN.format(rps="11234.50")
        + "\n$ wrk -t4 -c400 -d30s http://127.0.0.1:8080/\n"
        + WRK_RUN.format(rps="13990.20")
    )
    found = message_results(body)
    rps = {m.value: m.variant for t in found.tables for m in t.measurements if m.value > 10000}
    assert len(rps) == 2 and len(set(rps.values())) == 2
    assert "-c400" in (rps[13990.2] or "")
    # (without a heading or a command, the ordinal)
    plain = (
        "I ran wrk twice on the same box, here is what it printed.\n\n"
        + WRK_RUN.format(rps="11234.50")
        + "\n"
        + WRK_RUN.format(rps="13990.20")
    )
    found = message_results(plain)
    variants = {m.value: m.variant for t in found.tables for m in t.measurements}
    assert variants[11234.5] == "run 1" and variants[13990.2] == "run 2"


def test_each_value_of_a_list_is_named_by_the_list_s_key():
    text = "INFO Perf: [RandomReadTest] Summary of timings (ms): [141302, 141522, 140684]\n"
    got = described(text)
    for written in ("141302", "141522", "140684"):
        assert got[written][:2] == ("RandomReadTest", "Summary of timings (ms)")


def test_a_key_written_with_several_blanks_is_named_whole():
    # (`Warmup Iteration   1`: the key is taken off the record's name whole, not
    # by its length with one blank between its words)
    text = "# Fork: 1 of 1\n# Warmup Iteration   1: 5123.75 ops/s\n"
    label, metric, _ = described(text)["5123.75"]
    assert metric == "Warmup Iteration 1"
    assert label == "Warmup Iteration 1"


def test_a_row_of_values_above_a_cell_is_no_header():
    # (a row above with one number reads as a header; its number names nothing)
    text = "bench.beta | 1164.46 |\nbench.alpha | fast | 998.12\n"
    label, metric, _ = described(text)["998.12"]
    assert label == "bench.alpha"
    assert metric != "1164.46"


JMH_FORK = """# Benchmark: org.example.ChompBench.chomp

# Fork: 1 of 1
# Warmup Iteration   1: 3.101 ns/op
# Warmup Iteration   2: {warm} ns/op
Iteration   1: {first} ns/op
Iteration   2: 2.780 ns/op

"""


def test_a_tool_s_comment_line_of_values_does_not_name_a_run():
    # (`# Warmup Iteration 2: 3.001 ns/op` is no shell command with a `#` prompt)
    from extract.results.message import message_results

    body = (
        "JMH printed this:\n\n"
        + JMH_FORK.format(warm="3.001", first="2.754")
        + JMH_FORK.format(warm="2.987", first="2.911")
    )
    found = message_results(body)
    variants = {m.value: m.variant for t in found.tables for m in t.measurements}
    assert variants[2.754] != variants[2.911]
    assert not any("ns/op" in (v or "") for v in variants.values()), variants


def test_the_same_quantity_under_two_headings_is_told_apart():
    from extract.results.message import message_results

    text = (
        "Top frames before the change:\n  38.2%  org.apache.foo.Codec.decode\n"
        "  12.1%  java.util.HashMap.get\nafter:\n  21.7%  org.apache.foo.Codec.decode\n"
        "  12.4%  java.util.HashMap.get\n"
    )
    got = {
        m.value: m.variant
        for t in message_results(text, subject="cpu profile").tables
        for m in t.measurements
    }
    assert got[38.2] == got[12.1] == "Top frames before the change"
    assert got[21.7] == got[12.4] == "after"


def test_sections_with_one_heading_are_told_apart_by_the_heading_above_it():
    from extract.results.message import message_results

    section = "--- load stats ---\nElapsed: {e} ms\nOps per sec: {r}\n"
    text = (
        "Namespace benchmark, 100k files:\n\nbefore:\n"
        + section.format(e=21345, r=4684.9)
        + "\nafter:\n"
        + section.format(e=15022, r=6656.9)
    )
    got = {
        m.value: m.variant
        for t in message_results(text, subject="load benchmark").tables
        for m in t.measurements
    }
    assert got[21345] == got[4684.9] == "before"
    assert got[15022] == got[6656.9] == "after"


def test_a_number_s_metric_is_a_word_of_its_own_sentence():
    got = described("Cold start is about 19s without it. Memory usage is around 600MB.")
    assert got["19"][1] == "time"
    got = described("Throughput was 5200 ops/s on the old box. It took 3 s to warm up.")
    assert got["3"][1] == "time"


def test_a_clause_that_names_nothing_is_named_by_its_sentence_s_subject():
    got = described(
        "Cold start of the service is ~7s with the cache enabled, and about 19s without it."
    )
    assert got["19"][0] == "Cold start of the service"


def test_a_chinese_clause_names_its_number_without_blanks_between_words():
    # (full-width marks end a clause with no blank after them, and Chinese writes no
    # blank between its words: the label is the clause, not the line)
    got = described("优化后启动时间缩短到 12 秒，提升比较明显。之前的版本要 45 秒。\n")
    assert got["12"][0] == "优化后启动时间缩短到"
    assert "提升" not in got["12"][0] and "之前" not in got["12"][0]
    assert got["45"][0] == "之前的版本要"
