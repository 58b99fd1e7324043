"""Numbers and units as written in mail, and their SI form."""

import math
from pathlib import Path

import pytest

from extract.pipeline import process_archive
from extract.results.units import measurement_si, parse_duration, parse_number, to_si
from tests.archives import write_mboxrd
from tests.conftest import shared_path

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


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


def test_a_magnitude_gives_the_number_the_author_wrote():
    # (8.11 * 1000 is 8109.999999999999 in binary floats)
    from extract.results.numbers import numbers

    assert parse_number("8.11k") == 8110.0 and parse_number("-4.35M") == -4350000.0
    assert [n.value for n in numbers("Req/Sec 8.11k, TPS 22.8w, QPS 1.15万")] == [
        8110.0,
        228000.0,
        11500.0,
    ]


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
        (30, "毫秒", (0.03, "s")),
        (25, "分钟", (1500.0, "s")),
        (20000, "条/秒", (20000.0, "1/s")),
        (50000, "/秒", (50000.0, "1/s")),
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
        # (a rate in words: `a`, `an`, `each`, `every` for `per`)
        ("inserts a second", (1.0, "1/s")),
        ("queries every minute", (1 / 60, "1/s")),
        ("GB an hour", (1e9 / 3600, "B/s")),
        # (the TPC benchmarks' rates, as their specifications and HammerDB name them)
        ("tpmC", (1 / 60, "1/s")),
        ("NOPM", (1 / 60, "1/s")),
        ("QphH", (1 / 3600, "1/s")),
        ("QphH@100GB", (1 / 3600, "1/s")),
        ("tpsE", (1.0, "1/s")),
    ],
)
def test_rates_and_factors_normalise(unit, si):
    got = to_si(1.0, unit)
    assert got[1] == si[1] and math.isclose(got[0], si[0])


@pytest.mark.parametrize("unit", [None, "", "count", "widgets"])
def test_to_si_unknown(unit):
    assert to_si(1.0, unit) == (None, None)


@pytest.mark.parametrize(
    ("unit", "si"),
    [
        ("Batches per second", (1.0, "1/s")),
        ("/ms", (1e3, "1/s")),
        ("q/s", (1.0, "1/s")),
        ("per sec", (1.0, "1/s")),
        ("#/sec", (1.0, "1/s")),
        ("IOPS", (1.0, "1/s")),
        ("pk/s", (1.0, "1/s")),
        ("Kelem/s", (1e3, "1/s")),
        ("M items/s", (1e6, "1/s")),
        ("MOPS", (1e6, "1/s")),
        ("B/op", (1.0, "B")),
        ("KB/op", (1e3, "B")),
        # (bytes per anything, as a time per anything is a time)
        ("B/message", (1.0, "B")),
        ("bytes/op", (1.0, "B")),
        ("KiB/record", (1024.0, "B")),
        ("ms/avg", (1e-3, "s")),
        ("G/s", (1e9, "1/s")),
    ],
)
def test_more_rates_normalise(unit, si):
    got = to_si(1.0, unit)
    assert got[1] == si[1] and math.isclose(got[0], si[0])


def test_a_magnitude_per_thing_is_no_size():
    assert to_si(1.0, "k/op") == (None, None) and to_si(1.0, "Mi/op") == (None, None)


@pytest.mark.parametrize(
    ("unit", "si"),
    [
        ("bytes/sec", (1.0, "B/s")),
        ("bytes per second", (1.0, "B/s")),
        ("KB/ms", (1e6, "B/s")),
        ("MB/ns", (1e15, "B/s")),
        ("GiB/day", (None, None)),  # (no span of days is converted)
        ("mb/m", (None, None)),  # (minutes or metres)
    ],
)
def test_bytes_per_unit_of_time_are_a_rate_not_a_size(unit, si):
    got = to_si(1.0, unit)
    assert got[1] == si[1] and (si[0] is None or math.isclose(got[0], si[0]))


@pytest.mark.parametrize("unit", ["count", "records", "allocs/op", "fraction", "msg", "x"])
def test_counts_and_factors_are_dimensionless_in_the_store(unit):
    assert measurement_si(3.0, unit) == (3.0, "1")


@pytest.mark.parametrize(
    ("metric", "si"),
    [
        ("Average RT(ms)", (1e-3, "s")),
        ("Send TPS", (1.0, "1/s")),
        ("iterations", (1.0, "1")),
        ("p-value", (1.0, "1")),
        ("Mean", (None, None)),  # no unit written and none named: unknown
    ],
)
def test_a_number_without_unit_takes_the_unit_its_metric_names(metric, si):
    assert measurement_si(1.0, None, metric) == si


def test_metres_per_second_are_not_a_rate_of_things():
    assert to_si(1.0, "m/s") == (None, None)


def _units_without_si(measurements) -> dict[str, int]:
    missing: dict[str, int] = {}
    for m in measurements:
        if m.unit and measurement_si(1.0, m.unit, m.metric)[1] is None:
            missing[m.unit] = missing.get(m.unit, 0) + 1
    return missing


def test_every_unit_of_the_demo_sample_normalises(tmp_path):
    """The demo's messages extracted as the pipeline does (their mbox archives): every
    unit written with a number has an SI form."""
    for eml in sorted(SAMPLE.glob("*/*/*.eml")):
        write_mboxrd(eml, tmp_path)
    units, missing = set(), {}
    for archive in sorted((tmp_path / "raw").rglob("*.mbox.gz")):
        rows = process_archive(archive, tmp_path)
        for m in rows.measurements:
            if m["unit"]:
                units.add(m["unit"])
                if m["unit_si"] is None:
                    missing[m["unit"]] = missing.get(m["unit"], 0) + 1
    assert len(units) > 40  # the sample's formats write many units
    assert missing == {}


@pytest.mark.shared
def test_every_unit_of_the_corpora_normalises():
    from extract.dev.eval import read_message, run_message

    missing: dict[str, int] = {}
    files = sorted(shared_path("corpus").glob("*/*.txt"))
    assert len(files) > 200
    for path in files:
        _, tables = run_message(read_message(path))
        for unit, n in _units_without_si(m for t in tables for m in t.measurements).items():
            missing[unit] = missing.get(unit, 0) + n
    assert missing == {}


def test_a_time_per_time_is_a_share_not_a_rate():
    assert to_si(1.5, "ms/s") == (1.5 * 0.001 / 1.0, "1")
    assert to_si(250.0, "us/ms") == (250.0 * 1e-06 / 0.001, "1")
    assert to_si(3.0, "ops/s") == (3.0, "1/s")  # (a count per time stays a rate)


def test_digits_in_no_number_s_order_are_no_number():
    # (what fuzzed mail gave the table readers: they failed on the whole message)
    assert parse_number("e-999") is None
    assert parse_number("1e5e5") is None
    assert parse_number("1.5e3") == 1500.0
