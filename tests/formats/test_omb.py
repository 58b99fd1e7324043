"""OpenMessaging Benchmark's log records: the log prefixes its releases wrote."""

import pytest

from extract.results.formats import omb

_RECORD = (
    "Pub rate 100213.4 msg/s /  97.9 MB/s | Cons rate 100210.0 msg/s /  97.9 MB/s | "
    "Backlog:  0.0 K | Pub Latency (ms) avg:  2.9 - 50%:  2.7 - 99%:  6.8 - 99.9%: "
    "14.0 - Max:  40.2"
)


@pytest.mark.parametrize(
    ("prefixes", "labels"),
    [
        # log4j2's pattern since September 2022, and before it (no logger name)
        (["09:12:40.552 [main] INFO WorkloadGenerator - "] * 2, ["09:12:40"]),
        (["09:12:40.552 [main] INFO - "] * 2, ["09:12:40"]),
        # slf4j-simple's, no time
        (["[main] INFO io.openmessaging.benchmark.WorkloadGenerator - "] * 2, ["1", "2"]),
    ],
)
def test_the_records_of_a_run_make_one_table(prefixes, labels):
    text = "".join(p + _RECORD + "\n" for p in prefixes)
    [table] = omb.parse(text)
    got = sorted({m.label.removeprefix("interval ") for m in table.measurements})
    assert got == labels
    assert len(table.measurements) == 2 * 10


def test_a_comma_is_the_decimal_mark_of_a_jvm_locale_that_writes_one():
    """`DecimalFormat("0.0")` writes `4,1` in a German locale, never a grouping comma."""
    text = (
        "10:41:12.115 [main] INFO WorkloadGenerator - Pub rate 49981,2 msg/s /  48,8 MB/s"
        " | Cons rate 49979,8 msg/s /  48,8 MB/s | Backlog:  0,0 K | Pub Latency (ms) avg:"
        "  4,1 - 50%:  3,8 - 99%: 11,2 - 99.9%: 24,5 - Max: 61,0\n"
    )
    [table] = omb.parse(text)
    got = {m.metric: m.value for m in table.measurements}
    assert got["Pub rate"] == 49981.2 and got["Pub throughput"] == 48.8
    assert got["Pub latency avg"] == 4.1 and got["Pub latency 99.9%"] == 24.5
    assert got["Pub latency Max"] == 61.0
