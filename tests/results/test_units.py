"""Numbers and units as written in mail, and their SI form."""

import math

import pytest

from extract.results.units import parse_duration, parse_number, to_si


@pytest.mark.parametrize(
    "written, value",
    [
        ("1,430", 1430.0),
        ("11,420", 11420.0),
        ("0:02.10", 2.10),
        ("1:02:03", 3723.0),
        ("22.99k", 22990.0),
        ("3.489955785875464E8", 3.489955785875464e8),
        ("-1.5", -1.5),
        ("+0.3", 0.3),
        ("640.862", 640.862),
        (".5", 0.5),
    ],
)
def test_parse_number(written, value):
    assert math.isclose(parse_number(written), value)


@pytest.mark.parametrize("written", ["", "abc", "1.2.3", "v2", "12:34:56:78", None])
def test_parse_number_rejects(written):
    assert parse_number(written) is None


def test_parse_number_nan_and_decimal_comma():
    assert math.isnan(parse_number("NaN"))
    assert parse_number("528,857", decimal_comma=True) == 528.857


def test_parse_duration():
    assert parse_duration("1m2.5s") == 62.5
    assert parse_duration("372m 23s") == 372 * 60 + 23
    assert parse_duration("4.085s") == 4.085
    assert parse_duration("fast") is None


@pytest.mark.parametrize(
    "value, unit, si",
    [
        (640.862, "ms/op", (0.640862, "s")),
        (1403, "us", (0.001403, "s")),
        (9, "sec", (9.0, "s")),
        (2, "min", (120.0, "s")),
        (7117, "rows/s", (7117.0, "1/s")),
        (528.857, "ops/ms", (528857.0, "1/s")),
        (100, "MB/s", (1e8, "B/s")),
        (1, "GiB/sec", (1024.0**3, "B/s")),
        (23.4, "%", (0.234, "1")),
        (5, "KB", (5000.0, "B")),
        (10, "QPS", (10.0, "1/s")),
    ],
)
def test_to_si(value, unit, si):
    got = to_si(value, unit)
    assert got[1] == si[1]
    assert math.isclose(got[0], si[0])


@pytest.mark.parametrize(
    ("unit", "si"),
    [
        ("GB/hour", (1e9 / 3600, "B/s")),
        ("MB/min", (1e6 / 60, "B/s")),
        ("Mbit/s", (1e6 / 8, "B/s")),
        ("Gbps", (1e9 / 8, "B/s")),
        ("MBps", (1e6, "B/s")),
        ("M/s", (1e6, "1/s")),
        ("k/s", (1e3, "1/s")),
        ("GFLOPS", (1e9, "1/s")),
        ("x", (1.0, "1")),
        ("x faster", (1.0, "1")),
        ("requests per second", (1.0, "1/s")),
    ],
)
def test_rates_and_factors_normalise(unit, si):
    got = to_si(1.0, unit)
    assert got[1] == si[1] and math.isclose(got[0], si[0])


@pytest.mark.parametrize("unit", [None, "", "count", "widgets"])
def test_to_si_unknown(unit):
    assert to_si(1.0, unit) == (None, None)
