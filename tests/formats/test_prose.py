"""prose: measured numbers written in sentences; hedged, planned, configured and
quoted numbers give nothing. Also its fast paths against the simple regex code."""

from __future__ import annotations

import random
import re
import sys
import time

import pytest

from extract.results.formats import extract_results, run
from extract.results.formats import prose as P
from extract.results.units import to_si
from tests.conftest import SEEDS, seed
from tests.formats.golden import FIXTURES, cases, rows_of, text_of


def rows(text: str) -> list[tuple]:
    """(format, label, variant, metric, value, unit) of every measurement found."""
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text)
        for m in t.measurements
    ]


def written(text: str) -> list[tuple]:
    return [
        (m.written, m.variant)
        for t in extract_results(text)
        if t.format == "prose"
        for m in t.measurements
    ]


def test_from_a_to_b_shares_its_label():
    got = rows(text_of("prose--from-to"))
    before, after = got[0], got[1]
    assert (before[2], after[2]) == ("before", "after")
    assert before[1] == after[1]


def test_a_noun_that_starts_like_a_plan_word_is_no_hedge():
    """`planner` is a query planner, not `planned`: the sentence is a result."""
    assert written("The new query planner cut the compile time from 8.2 s to 3.1 s.") == [
        ("8.2 s", "before"),
        ("3.1 s", "after"),
    ]
    assert written("We planned to cut the compile time from 8.2 s to 3.1 s.") == []


def test_cjk_magnitude_before_a_word():
    got = rows("TPS reached 2.5万 on the new disks.")
    assert [(r[4], r[5]) for r in got] == [(25000.0, "TPS")]


def test_a_finished_sentence_does_not_label_the_next_line():
    got = rows("I upgraded the cluster.\nQPS was about 3w.")
    assert [(r[1], r[4]) for r in got] == [("QPS", 30000.0)]


def test_hard_wrapped_sentence_reads_as_one():
    text = "After the rewrite the full\nrebuild took 95 sec on my machine."
    assert written(text) == [("95 sec", None)]


PROSE_POSITIVE = [
    (
        "This cuts the image build time from 12 min to 3 min.",
        [("12 min", "before"), ("3 min", "after")],
    ),
    (
        "Ingest went from 210k rows/sec -> 480k rows/sec after this change.",
        [("210k rows/sec", "before"), ("480k rows/sec", "after")],
    ),
    ("The patched reader is 3x faster than trunk.", [("3x", None)]),
    ("It improved throughput by 25% on our cluster.", [("25%", None)]),
    (
        "Without the fix the export took around 41 sec; it takes 12 sec with the patch.",
        [("around 41 sec", None), ("12 sec", "after")],
    ),
    (
        "The test time on slow machines is 0:40 min -> 3:20 min.",
        [("0:40 min", "before"), ("3:20 min", "after")],
    ),
]


@pytest.mark.parametrize("text,expected", PROSE_POSITIVE)
def test_prose_finds_measured_numbers(text, expected):
    assert written(text) == expected


def test_prose_values_are_numbers_as_written():
    found = {
        m.written: (m.value, m.unit)
        for t in extract_results(
            "It went from ~4k/ms to ~21k/ms, and the build from 3:20 min to 2,250 ms."
        )
        for m in t.measurements
    }
    assert found["~4k/ms"] == (4000, "/ms")
    assert found["~21k/ms"] == (21000, "/ms")
    assert found["3:20 min"] == (200, "s")
    assert found["2,250 ms"] == (2250, "ms")


PROSE_NEGATIVE = [
    "Released on 2024-06-11 in version 2.8.1 (KAFKA-4321), see https://x.test/a%20b for 5 minutes.",
    "This should be 30% faster once the cache is warm.",
    "We expect a 4x speedup from the new codec.",
    "Set the session timeout to 45 seconds and the heartbeat interval to 5 s.",
    "Fixed by pre-generating 20k keys (50x the cache capacity) and iterating over them.",
    "Run with --warmup 5s -t 8 -c 320 and @Warmup(iterations = 5, time = 2).",
    "Code coverage increased to 81% with 2,345 lines covered.",
    "Can we reach 5 ms? Could we get 40% lower latency?",
    "[INFO] BUILD SUCCESS\n[INFO] Total time:  03:12 min\n[INFO] Finished at: 2024-05-02T09:10",
    "> The old import took 12 min to finish.\n> Now it takes 3 min.\n\nThanks, merged.",
    "```\ntook 41 sec\n```",
    "Finished release [optimized] target(s) in 0.41s",
    "Sleeping 3s for propagation. Waiting 10 minutes before retry.",
    "We run the job with a 200 ms poll timeout and a 10 s flush interval.",
]


@pytest.mark.parametrize("text", PROSE_NEGATIVE)
def test_prose_stays_silent_on_noise(text):
    assert rows(text) == []


def test_seed0_prose_reads_the_sentences_not_the_table():
    text = seed("000")
    tables = extract_results(text)
    table_spans = [t.span for t in tables if t.format != "prose"]
    # Read alone, prose finds the sentences' numbers ...
    alone = list(run("prose", text))
    found = [m.written for t in alone for m in t.measurements]
    assert "9 sec" in found and "around 27 sec" in found and "3x" in found
    # ... but in the registry the table's `9 sec` / `27 sec` are counted once, by the
    # table, and prose keeps only what the table does not say (the 3x).
    prose = [(m.written, m.unit) for t in tables if t.format == "prose" for m in t.measurements]
    assert prose == [("3x", "x")]
    prose_spans = [t.span for t in tables if t.format == "prose"]
    assert not any(a[0] < b[1] and b[0] < a[1] for a in prose_spans for b in table_spans)


ODD = [
    "",
    "\n\n\n",
    "\x00\x01\ufffd" * 50,
    "from to -> → 1 s",
    "factor of ",
    "TPS 万",
    "took 1:99:99 min",
    "1 records sent, 1 records/sec (1 MB/sec), 1 ms avg latency, 1 max latency.",
]


def test_never_raises():
    for text in ODD:
        assert isinstance(run("prose", text), list)


def test_is_linear_on_long_flattened_lines():
    # a flattened thread is one long line; a quadratic regex would take minutes here
    text = (
        "Some words 12 ms, a table | 3 | and ```code``` plus 2020-01-01 12:00:00,123 INFO x: "
        * 2500
    ) + " " * 20000
    start = time.perf_counter()
    run("prose", text)
    assert time.perf_counter() - start < 2.0


_ALL = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]


def test_prose_wide_digits_are_the_other_digits_of_re():
    assert set(P.WIDE_DIGITS) == {c for c in _ALL if not c.isascii() and re.match(r"\d", c)}


_OLD_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z`*(\[\"'])|(?<=[!?])\s+(?=[a-z])|\n[ \t]*\n"
    r"|\n(?=[ \t]*(?:[-*•>#]|\d+[.)])\s)"
    r"|\s\|\s|\n[ \t]*(?=[A-Z#])|\s(?=#{2,6}[ \t])"
)


# (and a full-width stop, which Chinese writes with no blank after it)
_OLD_ENDS_WITH_CJK = re.compile(_OLD_SENTENCE_END.pattern + r"|(?<=[。！？])[ \t]*+(?![\s|#])")


def _texts() -> list[str]:
    """Real-form texts: the fixtures and seeds, also flattened onto one line."""
    out = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.txt"))]
    out += [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    return out + [" ".join(t.split()) for t in out]


def _prose_samples() -> list[str]:
    rnd = random.Random(11)
    words = list(P._QUALIFIERS) + ["approx", "approxi", "than", "more", "x", "X", "%", "ms"]
    words += ["12", "1,234", "3.5", "4:40", "2-5", "320k", "7 ", "0", "٣", "s", "sec", "min"]
    words += ["rows/sec", "times faster", "QPS", ".", "!", "?", "-", "/", "=", ":", "#", "|"]
    words += [" ", " ", "  ", "\n", "\n\n", "\t", "\xa0", "A", "The", "* ", "1) ", ">", "v"]
    words += ["，", "到", "耗时", "万", "up", "to", "a bit", "something", "。", "！", "？", "测试"]
    out = _texts()
    for _ in range(4000):
        out.append("".join(rnd.choice(words) for _ in range(rnd.randint(0, 30))))
    return out


def test_prose_candidates_are_the_regex_matches():
    def spans(ms):
        return [(m.span(), m.groupdict()) for m in ms]

    for t in _prose_samples():
        assert spans(P._candidates(t)) == spans(P._CANDIDATE.finditer(t)), t[:200]
        if any(P._CANDIDATE.finditer(t)):  # the gate on each sentence
            assert P._NUMBER_UNIT_RE.search(t), t[:200]


def test_prose_quote_marks_and_fences():
    old_quote_mark = re.compile(r"(?<=\s)>(?=\s)")
    for t in [*_prose_samples(), "a > b", ">\n>", " >", "x >> y", "\n> a"]:
        assert P._QUOTE_MARK.sub(" ", t) == old_quote_mark.sub(" ", t)
        if P._FENCE.search(t):
            assert any(f in t for f in P._FENCE_STARTS)


def test_prose_clause_before_is_the_split():
    for t in _prose_samples() + ["a;b(c" * 100, "(" + "x" * 300, "x" * 160 + ")" + "y" * 10]:
        for start in {0, 1, len(t) // 2, len(t) - 1, len(t)} | set(range(0, len(t), 97)):
            if 0 <= start <= len(t):
                expected = re.split(r"[;()\[\]]", t[:start])[-1][-150:]
                reasons = list(P._REASON_CLAUSE.finditer(expected))
                if reasons:  # (and after the last clause of reason that opens in it)
                    expected = expected[reasons[-1].end() :]
                assert P._clause_before(t, start) == expected


def _old_label(sentence: str, pos: int) -> str | None:
    head = sentence[:pos]
    # (a version that opens its line and a colon after it: `2.5.5: 41,233 ops/s`)
    version = re.search(r"(?:^|\n)[ \t*>-]*([vV]?\d+(?:\.\d+)+(?:[-.][\w.]+)?):\s*$", head)
    if version and not re.search(r"\s:\s*$", head):
        return version.group(1)
    head = re.split(
        r"(?i)[\s(](?:from|is|was|are|were|of|by|takes?|took|to|at|in|:|->|→)\s*$"
        r"|(?:从|为|是|在|达到|到了?|约|大约)\s*$",
        head.rstrip(),
    )[0]
    # (a line that ends with a value is a row of a list: the clause starts after it)
    nl = head.rfind("\n")
    value = P._ENDS_WITH_VALUE.search(head, max(0, nl - 31), nl) if nl >= 0 else None
    if value is not None and (not value.group(1) or to_si(1.0, value.group(1))[1] is not None):
        head = head[nl + 1 :]
    pieces = [
        p
        for p in re.split(r"[.;!?]\s|[;,]\s|\[|[，。；！？、]", head)
        if re.search(r"[A-Za-z\u4e00-\u9fff]", p)
    ]
    words = pieces[-1].split() if pieces else []
    text = " ".join(words[-10:]).strip(" `*:-(：")
    # (after a log line's time: `... 10:00:01,123 Completed 1000000 writes`)
    parts = re.split(r"\d\d:\d\d:\d\d(?:[.,]\d+)?[^A-Za-z]*", text)
    tail = parts[-1].strip(" `*:-(：]") if len(parts) > 1 else ""
    return (tail or text) or None


def test_prose_label_is_the_split_label():
    ends = [" from", " is", " TAKES", " take", " took", " :", " ->", " →", " in ", "x:", "\tto\n"]
    ends += ["从", "在 ", "达到", "：", "，平均延迟从"]
    for t in _prose_samples() + [f"build time{e} 5" for e in ends]:
        for pos in {0, len(t) // 2, len(t) - 1, len(t)} | set(
            range(0, len(t), max(53, len(t) // 8))
        ):
            assert P._label(t, pos) == _old_label(t, pos), (t[:200], pos)


def test_prose_pieces_are_in_every_match():
    rnd = random.Random(17)
    words = [*P._SETTING_PIECES, *P._EXPECTATION_PIECES, "Timeout", "SHOULD", "Set To", "x"]
    words += [" ", "  ", "--opt", "=", ":", "of", "is", "ing", "ed", "\t", "a", "5", "\n"]
    samples = [t[i : i + 150] for t in _prose_samples() for i in range(0, len(t), 150)]
    samples += ["".join(rnd.choice(words) for _ in range(rnd.randint(1, 8))) for _ in range(5000)]
    for t in samples:
        if P._SETTING_BEFORE.search(t):
            assert P._may_match(t, P._SETTING_PIECES), t
        if P._EXPECTATION.search(t):
            assert P._may_match(t, P._EXPECTATION_PIECES), t


def _old_quoted(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in re.finditer(r"(?m)^[ \t]*>[^\n]*", text):
        end = m.end()
        line = m.group()
        while len(line) >= 70 and end < len(text):
            nxt = re.match(r"\n([ \t]*[^\s>][^\n]*)", text[end:])
            if not nxt:
                break
            line = nxt.group(1)
            end += nxt.end()
        spans.append((m.start(), end))
    return spans


def test_prose_quoted_lines_are_the_multiline_regex_lines():
    rnd = random.Random(9)
    samples = _prose_samples()
    samples += [
        "".join(rnd.choice(["> ", "x" * 40, "\n", " ", ">"]) for _ in range(12)) for _ in range(500)
    ]
    for t in samples:
        assert P._quoted(t) == _old_quoted(t), t[:200]


def test_prose_sentence_ends_are_the_simple_regex_ends():
    rnd = random.Random(13)
    for t in _prose_samples():
        window = sorted((rnd.randint(0, len(t)), rnd.randint(0, len(t))))
        for lo, hi in ((0, len(t)), (len(t) // 3, len(t) - 2), window):
            old = [m.span() for m in _OLD_SENTENCE_END.finditer(t, lo, hi)]
            assert [m.span() for m in P._SENTENCE_END.finditer(t, lo, hi)] == old, t[:200]
            ends = [m.span() for m in _OLD_ENDS_WITH_CJK.finditer(t, lo, hi)]
            assert [m.span() for m in P._ends(t, lo, hi)] == ends, t[:200]


GENERIC = ("jira-table", "html-table", "markdown-table", "delimited", "ascii-table", "records")


@pytest.mark.parametrize("case", [c for fmt in GENERIC for c in cases(fmt)])
def test_prose_repeats_no_number_of_the_table_fixtures(case):
    assert not [r for r in rows_of(text_of(case)) if r["format"] == "prose"]


def test_cli_option_named_like_a_rate_is_no_measurement():
    assert rows("Options: --num-records 1000 --throughput 50000") == []


@pytest.mark.parametrize(
    "text, runs",
    [
        ("TPS went up", True),
        ("the TPS went up", True),
        ("(qps) rose", True),
        ("throughput\nrose", True),
        ("Throughput rose", True),
        ("see https://x.test/a", False),  # (the `tps` of `https`)
        ("STPS and xqps", False),
    ],
)
def test_a_rate_name_runs_prose_unless_a_letter_comes_before(text, runs):
    """The trigger for rates named before their number (`TPS went from 10 to 12`):
    a rate name not glued to a letter before it. Written with a class, not a
    lookbehind, it is decided by the prefilter's scan, not by Python's regex."""
    from extract.results import prefilter
    from extract.results.formats import _PARTS

    regex, _, name = next(p for p in _PARTS["prose"] if "hroughput" in p[0].pattern)
    assert (regex.search(text) is not None) is runs
    hits = prefilter.scan(text)
    assert hits.decides(name) and (name in hits) is runs


def test_a_side_named_with_a_colon_names_the_number_after_it():
    """`Before: A, After: B`: each key is the side of the number after it (not a
    schedule, `after 30 minutes`, nor the side of the number before it)."""
    from extract.results.formats import by_name, run

    def prose(text):
        return [(m.value, m.variant) for t in run(by_name("prose"), text) for m in t.measurements]

    text = "Before: 123 MB/s, After: 171 MB/s on the same box. Pauses are unchanged.\n"
    assert prose(text) == [(123.0, "before"), (171.0, "after")]
    # (a side written after its number still names that number)
    assert prose("Compaction ran 12 min before, 9 min after the change.\n") == [
        (12.0, "before"),
        (9.0, "after"),
    ]
    assert prose("After 30 minutes the compaction stalls.\n") == []
    # (a side just before the next number leads it: 12.3 s is not `after`, it is the
    # `before` right before it)
    assert prose("Performance: before 12.3 s, after 4.5 s for 1 GB.\n")[0] == (12.3, "before")
    # (and, but for a time, which `after` schedules, a side with no colon names it too)
    assert prose("Results: before 3412 ops/s, after 5120 ops/s.\n") == [
        (3412.0, "before"),
        (5120.0, "after"),
    ]


def test_a_percentile_named_before_its_value_is_no_value():
    """`avg: 2.1 - 50%: 1.9 - 99%: 5.3`: `50%` names the value after it; neither is a
    share, nor the end of a range `2.1 - 50%`."""
    from extract.results.formats import by_name, run

    text = "Publish latency (ms) avg: 2.135 - 50%: 1.912 - 99%: 5.301 - Max: 25.12\n"
    assert [m.unit for t in run(by_name("prose"), text) for m in t.measurements] == []
    text = "It improved throughput by 10-15% overall.\n"
    assert [m.written for t in run(by_name("prose"), text) for m in t.measurements] == ["10-15%"]


def test_before_and_after_the_change_in_chinese():
    from extract.results.formats import by_name, run

    def prose(text):
        return [(m.value, m.variant) for t in run(by_name("prose"), text) for m in t.measurements]

    assert prose("批量写入平均耗时 3.2s（优化前 5.8s）。\n") == [(3.2, "after"), (5.8, "before")]
    got = prose("优化前 TPS：8523.12\n优化后 TPS：10211.45\n")
    assert got == [(8523.12, "before"), (10211.45, "after")]
    # (`目前`, `当前`: now, not before)
    assert prose("目前 TPS：8523.12\n") == [(8523.12, None)]


def test_a_number_set_against_another_shares_its_label():
    from extract.results.formats import by_name, run

    text = (
        "I measured the broker startup: it now comes up in 4.2 seconds, compared with "
        "11.8 seconds on trunk.\n"
    )
    labels = [m.label for t in run(by_name("prose"), text) for m in t.measurements]
    assert len(labels) == 2 and labels[0] == labels[1] and "startup" in labels[0]


def test_things_counted_per_second_in_words():
    from extract.results.formats import by_name, run

    text = "On a 3-node cluster I see about 30k writes per second.\n"
    got = [(m.value, m.unit) for t in run(by_name("prose"), text) for m in t.measurements]
    assert got == [(30000.0, "writes per second")]
    for written, value in [
        ("1.2 million events", 1.2e6),
        ("3,400 docs", 3400.0),
        ("900 msgs", 900),
    ]:
        text = f"One node now handles {written} per second.\n"
        got = [(m.value, m.unit) for t in run(by_name("prose"), text) for m in t.measurements]
        assert got == [(value, written.split()[-1] + " per second")], text


def test_a_result_reached_up_to_and_storage_and_compute_rates():
    from extract.results.formats import by_name, run

    def prose(text):
        return [(m.value, m.unit) for t in run(by_name("prose"), text) for m in t.measurements]

    assert prose("We reached up to 410 MB/s per broker.\n") == [(410.0, "MB/s")]
    assert prose("The link supports up to 100 MB/s.\n") == []  # (a bound)
    text = "With the new scheduler fio reports about 45000 IOPS, it was 31000 IOPS before.\n"
    assert prose(text) == [(45000.0, "IOPS"), (31000.0, "IOPS")]
    assert prose("Benchmarks show up to 3800 gflops on the A100.\n") == [(3800.0, "gflops")]


def test_a_chinese_clause_names_its_numbers():
    from extract.results.formats import extract_results

    text = "开启批量发送以后 TPS 从 8000 提升到了 15000，平均延迟从 12ms 降到了 5ms。\n"
    got = {m.value: m.label for t in extract_results(text) for m in t.measurements}
    assert got[12.0] == got[5.0] == "平均延迟"
    assert got[8000.0] == "开启批量发送以后"


def test_a_chinese_full_stop_ends_the_sentence_before_a_question():
    from extract.results.formats import extract_results

    # (the question is the next sentence's: the result before it is stated)
    text = "升级到 5.1.0 以后，消费 TPS 从 3万 降到 1万 左右。请问是什么原因？\n"
    got = {(m.value, m.variant) for t in extract_results(text) for m in t.measurements}
    assert got == {(30000.0, "before"), (10000.0, "after")}
    assert not extract_results("消费 TPS 能到 3万 吗？\n")  # (a question states nothing)


def test_a_chinese_metric_word_names_the_number_next_to_it():
    from extract.results.formats import extract_results

    text = "开启压缩后，写入速度从 120MB/s 降到了 95MB/s，CPU 使用率从 40% 上升到 65%。\n"
    got = {m.value: m.metric for t in extract_results(text) for m in t.measurements}
    assert got[120.0] == got[95.0] == "速度" and got[40.0] == "cpu"
    # (a time is never named by a rate's word, nor a rate by a time's)
    got = {m.value: m.metric for t in extract_results("吞吐不变，平均耗时从 30ms 降到 12ms。\n")
           for m in t.measurements}  # fmt: skip
    assert got[30.0] == "耗时"


def test_a_percentile_never_names_a_rate():
    """`p99` names a latency's percentile: the rate next to it is a throughput."""
    text = "Writes went from 12k to 15k ops/sec, p99 from 8.2 ms to 6.9 ms.\n"
    got = {m.value: m.metric for t in extract_results(text) for m in t.measurements}
    assert got[12000.0] == got[15000.0] == "throughput"
    assert got[8.2] == got[6.9] == "p99"


def test_a_metric_word_in_the_next_clause_names_that_clause_s_numbers():
    text = (
        "This reduces GC time by about 35% in our tests, and the p99 of the put path "
        "went from 45 ms to 30 ms.\n"
    )
    got = {m.value: m.metric for t in extract_results(text) for m in t.measurements}
    assert got[35.0] != "p99" and got[45.0] == "p99"
    text = "The share in nextRaw drops to 11% of CPU samples, and the scan test finishes in 212s.\n"
    got = {m.value: m.metric for t in extract_results(text) for m in t.measurements}
    assert got[212.0] != "cpu"
    # (clauses of one shape parted by `;` share the first's words)
    text = "Buffered I got a p99 latency of 14.8 ms; with direct IO it was 6.1 ms.\n"
    got = {m.value: m.metric for t in extract_results(text) for m in t.measurements}
    assert got[6.1] == got[14.8] == "latency"


def test_chinese_units_factors_and_sides():
    # (seconds, milliseconds and minutes in Chinese; `从 A 左右降到了 B`: from about A
    # down to B; `性能提升了 4 倍`: improved four times; items per second)
    text = "加索引以后查询耗时从 4 秒左右降到了 300 毫秒，构建时间从 52 分钟降到 31 分钟。\n"
    got = [(m.value, m.unit, m.variant) for t in extract_results(text) for m in t.measurements]
    assert got == [
        (4.0, "秒", "before"),
        (300.0, "毫秒", "after"),
        (52.0, "分钟", "before"),
        (31.0, "分钟", "after"),
    ]
    text = "经过优化，性能提升了 4 倍，写入从 12000 条/秒 提升到 16200 条/秒。\n"
    got = [(m.value, m.unit, m.metric) for t in extract_results(text) for m in t.measurements]
    assert got[0] == (4.0, "倍", "speedup") and [g[:2] for g in got[1:]] == [
        (12000.0, "条/秒"),
        (16200.0, "条/秒"),
    ]
    # (a factor with no change before it states none: `3 倍的内存`, three times the memory)
    assert not extract_results("这个方案需要 3 倍的内存。\n")
    # (RT names a time, and a version after `升级到` is none)
    got = [(m.value, m.metric) for t in extract_results("升级到 5.1 以后 RT 从 3ms 涨到了 10ms。\n")
           for m in t.measurements]  # fmt: skip
    assert got == [(3.0, "rt"), (10.0, "rt")]


def test_a_cjk_magnitude_a_blank_apart_is_the_number_s_own():
    from extract.results.formats import extract_results

    text = "单机 TPS 约 1.5 万，之前 TPS 从 1.2万 提升到 3.5 万。\n"
    got = {m.value: text[m.span[0] : m.span[1]] for t in extract_results(text)
           for m in t.measurements}  # fmt: skip
    assert got[15000.0] == "约 1.5 万" and got[35000.0] == "3.5 万" and got[12000.0] == "1.2万"


def test_a_full_scan_may_get_slower_and_a_full_disk_is_no_result():
    def values(text):
        return [m.value for t in extract_results(text) for m in t.measurements]

    assert values("This makes the full scan about 20% slower.\n") == [20.0]
    assert values("After the load the disk is 90% full.\n") == []


def test_from_a_to_b_with_one_unit_is_two_measurements():
    from extract.results.formats import extract_results

    def rows(text):
        return [(m.value, m.unit, m.variant, m.label) for t in extract_results(text)
                for m in t.measurements]  # fmt: skip

    assert rows("Latency dropped from 120 to 45 ms.\n") == [
        (120.0, "ms", "before", "Latency dropped"),
        (45.0, "ms", "after", "Latency dropped"),
    ]
    # (its magnitude is its own: `from 20k to 17k msg/s`)
    assert [r[:3] for r in rows("Ingest went from 412k to 455k rows/s.\n")] == [
        (412000.0, "rows/s", "before"),
        (455000.0, "rows/s", "after"),
    ]
    # (a change by so much is between the sides, whatever follows it)
    got = rows("Throughput regressed by 15% after the upgrade.\n")
    assert [r[:3] for r in got] == [(15.0, "%", None)]
    # (a first number with a unit of its own, or none before `to`, is not one)
    assert [r[0] for r in rows("We moved from 2 to 4 nodes and got 30 ms.\n")] == [30.0]


def test_the_values_of_a_list_are_of_one_quantity():
    text = "On trunk the runs took 52.1s, 53.4s and 51.8s; with the patch 44.9s, 45.3s and 44.6s."
    got = [(m.label, m.value, m.variant) for t in P.parse(text) for m in t.measurements]
    assert got == [
        ("On trunk the runs", 52.1, None),
        ("On trunk the runs", 53.4, None),
        ("On trunk the runs", 51.8, None),
        ("with the patch", 44.9, "after"),
        ("with the patch", 45.3, "after"),
        ("with the patch", 44.6, "after"),
    ]


def test_a_list_of_values_after_as_many_slashed_names_is_one_value_each():
    text = "The p50/p99/p999 latencies are 1.2 ms, 4.8 ms and 12.1 ms."
    got = [(m.metric, m.value) for t in P.parse(text) for m in t.measurements]
    assert got == [("p50", 1.2), ("p99", 4.8), ("p999", 12.1)]
    # (as many names as values only: two names for three values name none of them)
    text = "The read/write latencies are 1.2 ms, 4.8 ms and 12.1 ms."
    assert {m.metric for t in P.parse(text) for m in t.measurements} == {"time"}


def test_a_duration_in_two_units_is_no_list():
    text = "The compaction took 6mins, 52sec to execute."
    labels = [m.label for t in P.parse(text) for m in t.measurements]
    assert len(labels) == 2 and labels[1] != labels[0]


def test_the_unit_after_a_list_s_last_value_is_each_one_s():
    def values(text):
        return [(m.value, m.unit) for t in P.parse(text) for m in t.measurements]

    assert values("The two runs took 41 and 29 seconds.") == [(41.0, "seconds"), (29.0, "seconds")]
    assert values("Startup takes 4, 5 and 9 seconds on the three nodes.") == [
        (4.0, "seconds"),
        (5.0, "seconds"),
        (9.0, "seconds"),
    ]
    assert values("Throughput fell (2,310 vs 2,170 qps at saturation).") == [
        (2310.0, "qps"),
        (2170.0, "qps"),
    ]
    # (no conjunction, no list: `RF 3, about 40 MB/s`; nor a count of something else)
    assert values("RF 3, about 40 MB/s in per broker.") == [(40.0, "MB/s")]


def test_a_signed_percentage_in_a_result_is_a_change():
    text = "The nightly run shows +7% on the scan suite and -3% on the join suite."
    got = [(m.value, m.unit) for t in P.parse(text) for m in t.measurements]
    assert got == [(7.0, "%"), (-3.0, "%")]
    # (a sign alone is no result: a diff's size, a share of a module)
    assert not P.parse("The diff is +120 -45 lines, +12% of the module.")


def test_values_named_after_them_share_the_list_s_head():
    text = "Our bench shows +12% on SortedScan, +9% on HashJoin and +4% on TopN; the rest is flat."
    labels = [m.label for t in P.parse(text) for m in t.measurements]
    assert labels == [
        "Our bench shows: SortedScan",
        "Our bench shows: HashJoin",
        "Our bench shows: TopN",
    ]
    # (`on average` names nothing)
    text = "Latency dropped by 12% on average."
    assert [m.label for t in P.parse(text) for m in t.measurements] == ["Latency dropped"]


def test_a_rate_named_before_its_number_is_labelled_by_what_its_link_names():
    text = "The QPS of app-a is 18500, and the QPS of app-b is 160."
    got = [(m.label, m.metric, m.value) for t in P.parse(text) for m in t.measurements]
    assert got == [("app-a", "qps", 18500.0), ("app-b", "qps", 160.0)]


def test_a_chinese_duration_in_minutes_and_seconds_is_one_time():
    text = "导入耗时 4分12秒，整体吞吐大约 406 MB/s。"
    got = [(m.value, m.unit) for t in P.parse(text) for m in t.measurements]
    assert (252.0, "s") in got and (12.0, "秒") not in got


def test_the_name_after_a_value_may_be_a_few_words():
    text = "The new kernel is about 2.1x faster on random indices (1M rows)."
    assert [m.label for t in P.parse(text) for m in t.measurements] == [
        "The new kernel: random indices"
    ]


def test_a_value_opening_its_line_after_a_finished_sentence_is_not_named_by_it():
    text = "Looks good to me.\n~12% faster index merge on the large shard, 41 s vs 47 s.\n"
    labels = [m.label for t in P.parse(text) for m in t.measurements if m.unit == "%"]
    assert labels == ["index merge"]


def test_a_respectively_list_names_its_values_in_order():
    def got(text):
        return [(m.label, m.metric, m.value) for t in P.parse(text) for m in t.measurements]

    text = "The median and p99 latencies were 3.1 ms and 17 ms respectively."
    assert [(metric, value) for _, metric, value in got(text)] == [("median", 3.1), ("p99", 17.0)]
    text = "Scans and merges ran at 610 MB/s and 240 MB/s, respectively."
    assert [label for label, _, _ in got(text)] == ["Scans", "merges"]
    # (without `respectively` the values are one quantity's, as any list's)
    text = "The runs took 52.1s, 53.4s and 51.8s."
    assert len({label for label, _, _ in got(text)}) == 1


def test_a_printf_width_is_no_duration():
    text = "The rows print with `%-40s %12s` but the header with `%14s`, so they shift."
    assert written(text) == []
    assert written("The header took 14s to print, the rows 12 s.") != []
