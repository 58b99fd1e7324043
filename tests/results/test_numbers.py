"""Every number a candidate: what `extract.results.numbers` reads as one number."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extract.results.numbers import _UNIT, _UNIT_MARKS, numbers


def read(text):
    return [(n.written, n.value, n.unit) for n in numbers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("took 1,234.5 ms", [("1,234.5", 1234.5, "ms")]),
        ("12,5 s", [("12,5", 12.5, "s")]),  # a decimal comma
        ("1'234'567 rows", [("1'234'567", 1234567.0, "rows")]),
        ("3.49E8 ops", [("3.49E8", 3.49e8, "ops")]),
        ("real 0m4.085s", [("0m4.085s", 4.085, "s")]),
        ("2h15m", [("2h15m", 8100.0, "s")]),
        ("0:02.10elapsed", [("0:02.10", 2.1, "elapsed")]),
        ("about 3.8万 ops", [("3.8万", 38000.0, "ops")]),
        ("22.8w", [("22.8w", 228000.0, "")]),
        ("5M rows", [("5M", 5e6, "rows")]),
        ("5MB", [("5", 5.0, "MB")]),
        ("-12.1% and +3.5%", [("-12.1", -12.1, "%"), ("+3.5", 3.5, "%")]),
        ("30k writes per second", [("30k", 30000.0, "writes per second")]),
        ("1450 inserts a second", [("1450", 1450.0, "inserts a second")]),
        ("3 GB an hour", [("3", 3.0, "GB an hour")]),
        ("1,234 QphH@100GB", [("1,234", 1234.0, "QphH@100GB")]),
        # (an ordinal's `a second`, a verb's `needs a minute`: no rate)
        ("ran the 22 queries a second time", [("22", 22.0, "queries")]),
        ("Python 3 needs a minute.", [("3", 3.0, "needs")]),
        ("耗时20ms左右", [("20", 20.0, "ms")]),
        # (a count per second as Chinese writes it)
        ("消费 2W 条/秒", [("2W", 20000.0, "条/秒")]),
        ("写入 5万/秒", [("5万", 50000.0, "/秒")]),
        ("3000 次每秒", [("3000", 3000.0, "次每秒")]),
        # (a CJK magnitude a blank apart, as Chinese writers space numbers)
        ("TPS 约 1.5 万", [("1.5 万", 15000.0, "")]),
        ("10 个", [("10", 10.0, "个")]),
    ],
)
def test_a_number_as_written(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize(
    "text", ["x86", "p99", "v1.2.3", "3f2a9c", "0x1F", "10.0.0.1", "Q15", "sha-abc123"]
)
def test_digits_inside_words_versions_and_addresses_are_not_numbers(text):
    assert numbers(text) == []


@pytest.mark.parametrize(
    "text", ["%-50s", "%14s", "%10.2f", "%.3f", "%5d", "%08x", "`%-40s %12s`", "%8lu", "%5zu"]
)
def test_a_printf_conversions_width_is_no_number(text):
    assert numbers(text) == []


@pytest.mark.parametrize(
    ("text", "second"), [("50% 10s", 10.0), ("30%-40s", 40.0), ("25%+10s", 10.0)]
)
def test_a_percentage_then_a_time_is_two_numbers(text, second):
    assert [n.value for n in numbers(text)][-1] == second


@pytest.mark.parametrize(
    "text", ["a 6 × 4 table", "a 4 x 4 matrix", "1×3 array", "16 x 2.5 GHz cores"]
)
def test_a_times_sign_between_two_numbers_multiplies(text):
    # (a size or a count: neither number is a speed-up factor)
    assert [n.unit for n in numbers(text)][0] == ""


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("3x faster", ["x"]),
        ("1.5x 2.0x 3.1x", ["x", "x", "x"]),
        ("2× then 4 runs", ["×", "runs"]),
        ("1.6x 198 ms", ["x", "ms"]),  # (a factor, then a time: not one number by another)
        ("2x 4 threads", ["x", "threads"]),
    ],
)
def test_a_factor_keeps_its_sign(text, units):
    assert [n.unit for n in numbers(text)] == units


def test_a_csv_line_is_several_numbers():
    assert [n.value for n in numbers("1,30,1675.3,13.6")] == [1.0, 30.0, 1675.3, 13.6]


def test_ranges_know_their_other_end_and_from_to_is_not_a_range():
    a, b = numbers("2-5x faster")
    assert (a.range_with, b.range_with) == (1, 0) and b.unit == "x"
    c, d = numbers("from 10 to 2 min")
    assert c.range_with is None and d.range_with is None


def test_approximations_and_signs():
    (n,) = numbers("roughly ~6k/ms")
    assert n.approx == "~" and n.value == 6000
    (m,) = numbers("(−3)")
    assert m.value == -3
    (k,) = numbers("HBASE-1234")  # a dash after a letter is not a sign
    assert k.value == 1234


def test_huge_exponents_do_not_raise_and_limits_hold():
    assert math.isinf(numbers("1e999")[0].value)
    assert len(numbers("1 2 " * 1000, limit=10)) == 10


def test_a_range_keeps_both_ends():
    from extract.results.numbers import range_end

    assert [range_end(w) for w in ("2-5x", "~19 to ~26", "2 – 2.5", "10~20ms")] == [
        5.0,
        26.0,
        2.5,
        20.0,
    ]
    assert [range_end(w) for w in ("12", "-3", "", None)] == [None] * 4


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the build took 12m 5s", [("12m 5s", 725.0, "s")]),
        ("total 1h 2m 3s", [("1h 2m 3s", 3723.0, "s")]),
        # (a duration's part alone, or a unit that is not its next part, stays apart)
        ("2h 30 minutes", [("2h", 7200.0, "s"), ("30", 30.0, "minutes")]),
        ("3m 10sec", [("3", 3.0, "m"), ("10", 10.0, "sec")]),
        # (in words, a larger unit then a smaller: as people and Ant's summary write it)
        ("Total time: 6 minutes 41 seconds", [("6 minutes 41 seconds", 401.0, "s")]),
        ("took 1 hr 18 min", [("1 hr 18 min", 4680.0, "s")]),
        ("in 32 mins and 12 secs", [("32 mins and 12 secs", 1932.0, "s")]),
        ("1 hour, 12 minutes", [("1 hour, 12 minutes", 4320.0, "s")]),
        # (a unit alone, or parts a word apart, stay apart)
        ("5 minutes", [("5", 5.0, "minutes")]),
        ("at 10 minutes 3 tasks ran", [("10", 10.0, "minutes"), ("3", 3.0, "tasks")]),
        # (nor where a list or a range holds them, or a smaller part is 60 or more)
        (
            "1 minute, 30 seconds and 10 seconds",
            [("1", 1.0, "minute"), ("30", 30.0, "seconds"), ("10", 10.0, "seconds")],
        ),
        ("between 2 minutes and 50 seconds", [("2", 2.0, "minutes"), ("50", 50.0, "seconds")]),
        ("2 hours 61 minutes", [("2", 2.0, "hours"), ("61", 61.0, "minutes")]),
    ],
)
def test_a_duration_in_parts_one_blank_apart_is_one_number(text, expected):
    assert read(text) == expected


def test_chinese_writes_about_after_the_number():
    (n,) = numbers("速度在1W左右")
    assert n.approx == "左右" and n.value == 10000
    (m,) = numbers("延迟 30 毫秒 左右")
    assert m.approx == "左右" and m.unit == "毫秒"
    (k,) = numbers("左右 30 个")  # (before the number it is another word)
    assert k.approx == ""


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="a5 \t%‰×°/,.)|毫秒条μµ-C\n", max_size=12))
def test_a_unit_is_looked_for_only_where_one_can_start(text):
    # (`_finish` tries `_UNIT` only after a letter or one of `_UNIT_MARKS`)
    for pos in range(len(text) + 1):
        if _UNIT.match(text, pos) is not None:
            nxt = text[pos : pos + 1]
            assert nxt.isalpha() or nxt in _UNIT_MARKS, (text, pos)


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        # a magnitude a blank apart, before what is counted
        ("Probe throughput: 38.2 M rows/s", 38.2e6, "rows/s"),
        ("about 3.1 k ops/s per core", 3.1e3, "ops/s"),
        ("peaks at 12 M QPS", 12e6, "QPS"),
        ("2.5 million rows per second", 2.5e6, "rows per second"),
        ("it holds 1.2 million", 1.2e6, ""),
        # a glued `B` after a fraction, before what is counted, or after a currency:
        # billions
        ("1.5B rows scanned", 1.5e9, "rows"),
        ("2.5 Million rows", 2.5e6, "rows"),
        # else bytes, the unit: a whole number's `B`, a record's or a key's size
        ("a 64B buffer", 64, "B"),
        ("16B keys and 100B values", 16, "B"),
        ("a 2 G file", 2, "G"),
        ("min: 1.000B", 1.0, "B"),
        ("128B/op", 128, "B/op"),
        # a letter alone, or before a unit of its own, is no magnitude
        ("5 M", 5, "M"),
        ("used 64 MB", 64, "MB"),
    ],
)
def test_magnitudes_spaced_and_billions_or_bytes(text, value, unit):
    n = numbers(text)[0]
    assert (n.value, n.unit) == (value, unit)


def test_a_url_s_digits_are_no_numbers():
    text = (
        "Dashboard: https://grafana.example.com/d/4x9?from=1700000000&panes=%7B%22q%22 "
        "(see [the run](https://ci.example.org/job/12/)); p99 fell to 38 ms.\n"
        "<http://bench-host:8080/results/2024/3> 12 runs; hdfs://nn1:8020/warehouse/2024/05 "
        "and jdbc:mysql://db:3306/bench took 4 s"
    )
    assert [(n.written, n.unit) for n in numbers(text)] == [
        ("38", "ms"),
        ("12", "runs"),
        ("4", "s"),
    ]
