"""Numbers and units as people write them in benchmark mail, and their SI form.

Pure functions, shared by every format parser: `parse_number` reads a number as
written (thousands separators, SI suffixes, clock times), `to_si` maps a unit as
written to a base unit so that values can be compared across messages.
"""

from __future__ import annotations

import functools
import math
import re

# value_si = value * factor, in unit_si. Keys are lower-cased, spaces removed.
_TIME = {
    "ns": 1e-9, "nanos": 1e-9, "nanoseconds": 1e-9, "nsec": 1e-9,
    "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "usec": 1e-6, "micros": 1e-6, "microseconds": 1e-6,
    "ms": 1e-3, "msec": 1e-3, "millis": 1e-3, "milliseconds": 1e-3, "millisecond": 1e-3,
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0, "m": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "纳秒": 1e-9, "微秒": 1e-6, "毫秒": 1e-3, "秒": 1.0, "分钟": 60.0, "小时": 3600.0,
}  # fmt: skip
_BYTES = {
    "b": 1.0, "byte": 1.0, "bytes": 1.0,
    "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
    "kib": 1024.0, "mib": 1024.0**2, "gib": 1024.0**3, "tib": 1024.0**4,
    "k": 1e3, "ki": 1024.0, "mi": 1024.0**2, "gi": 1024.0**3,
}  # fmt: skip
_RATE_WORDS = (
    "ops", "op", "rows", "row", "req", "reqs", "requests", "records", "msgs",
    "messages", "queries", "tx", "txn", "transactions", "events", "calls", "items",
    "msg", "i",  # pulsar-perf msg/s; Ruby benchmark-driver/ips i/s (iterations)
    "条", "次", "个", "行", "笔",  # (Chinese counters: `2W 条/秒`, messages a second)
)  # fmt: skip
_RATE_DIVISOR = {"/s": 1.0, "/sec": 1.0, "/second": 1.0, "persecond": 1.0, "/秒": 1.0, "每秒": 1.0,
                 "/ms": 1e-3, "/us": 1e-6, "/µs": 1e-6, "/min": 60.0}  # fmt: skip
_PERCENT = {"%", "percent", "pct"}
# (each TPC rate's span, in seconds: see `_plan`)
_TPC_RATES = {
    "tpmc": 60.0, "tpmtotal": 60.0, "nopm": 60.0, "tpm": 60.0, "tpse": 1.0, "qphh": 3600.0,
}  # fmt: skip
# Spans of time no unit here converts: a byte count per day or week is no size
_LONG_SPANS = frozenset(("d", "day", "days", "wk", "week", "weeks", "month", "year"))

_NUMBER = re.compile(
    r"""^\s*(?P<sign>[-+−]?)\s*
        (?:(?P<clock>\d+(?::\d{1,2}){1,2}(?:\.\d+)?)      # 1:02:03.5 or 0:02.10
         |(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?))
        \s*(?P<suffix>[kKMGT]?)\s*$""",
    re.X,
)
_SUFFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def scaled(value: float, factor: float) -> float:
    """`value * factor` for a magnitude written after a number (`8.11k`, `3.8万`), to 12
    significant digits: binary floats make 8.11 * 1000 8109.999999999999, which the
    author never wrote."""
    if factor == 1.0 or not math.isfinite(value):
        return value * factor
    return float(f"{value * factor:.12g}")


def parse_number(text: str, *, decimal_comma: bool = False) -> float | None:
    """Read a number as written: `1,430` → 1430, `22.99k` → 22990, `0:02.10` → 2.1
    (clock times become seconds), `3.49E8`, `NaN` → nan. None if it is not a number."""
    if text is None:
        return None
    s = text.strip().replace("\u2009", "").replace("\u202f", "").replace("_", "")
    if not s:
        return None
    low = s.lower()
    if low in ("nan", "n/a"):
        return math.nan if low == "nan" else None
    if low in ("inf", "infinity", "+inf", "∞"):
        return math.inf
    if decimal_comma:
        s = s.replace(".", "").replace(",", ".") if re.search(r",\d+$", s) else s
    m = _NUMBER.match(s)
    if not m:
        return None
    sign = -1.0 if m.group("sign") in ("-", "−") else 1.0
    if m.group("clock"):
        parts = [float(p) for p in m.group("clock").split(":")]
        seconds = 0.0
        for p in parts:
            seconds = seconds * 60 + p
        return sign * seconds
    num = m.group("num")
    if not num or not re.search(r"\d", num):
        return None
    try:
        value = float(num.replace(",", ""))
    except ValueError:  # (digits in no number's order: `e-999`, `1e5e5`)
        return None
    return sign * scaled(value, _SUFFIX[m.group("suffix")])


def parse_duration(text: str) -> float | None:
    """`1m2.5s`, `1h 2m`, `372m 23s`, `4.085s` → seconds; None if not a duration."""
    parts = re.findall(r"(?<!\d)(\d+(?:\.\d+)?)\s*(ms|h|m|s)(?![a-z])", text.strip())
    if not parts or re.sub(r"[\d.\s]|ms|h|m|s", "", text.strip()):
        return None
    factor = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3}
    return sum(float(v) * factor[u] for v, u in parts)


# (a rate in words: `inserts a second`, `GB an hour`, `queries every second`)
_PER_WORDS = re.compile(r"(?<=\S)\s++(?:per|an?|each|every)\s++(?=\S)")


def _key(unit: str) -> str:
    unit = _PER_WORDS.sub("/", unit.strip().lower())
    return unit.replace(" ", "").replace("per", "/").replace("//", "/")


def to_si(value: float | None, unit: str | None) -> tuple[float | None, str | None]:
    """(value_si, unit_si) for a known unit: time → `s`, bytes → `B`, byte rates →
    `B/s`, event rates → `1/s`, percentages → `1` (as a fraction). (None, None) otherwise."""
    if value is None or unit is None or (isinstance(value, float) and math.isnan(value)):
        return None, None
    plan = _plan(unit)
    if plan is None:
        return None, None
    times, over, unit_si = plan
    return value * times / over, unit_si


@functools.lru_cache(maxsize=4096)  # (a message writes a few units many times)
def _plan(unit: str) -> tuple[float, float, str] | None:
    """How `unit` converts: (times, over, unit_si), the SI value being
    `value * times / over`; None for a unit with no SI form."""
    raw = unit.strip()
    key = _key(raw)
    if not key:
        return None
    if key in _PERCENT:
        return 1.0, 100.0, "1"
    if key in _TIME:
        if key == "m" and raw != "m":
            return None
        return _TIME[key], 1.0, "s"
    # time per operation (ms/op, us/op, ns/iter): the time of one operation
    m = re.fullmatch(r"([a-zµμ]+)/(op|ops|iter|i|call|row|query|msg|invocation)", key)
    if m and m.group(1) in _TIME:
        return _TIME[m.group(1)], 1.0, "s"
    if key in _BYTES and raw not in ("k", "K", "m", "M"):
        return _BYTES[key], 1.0, "B"
    # scaled counts per second: M/s, G/s, K/s (Spark's Rate(M/s), Google Benchmark's k/s)
    m = re.fullmatch(r"([kKMGT]?)(?:/(?:s|sec|second|秒)|每秒)", raw.replace(" ", ""))
    if m:
        return _SUFFIX[m.group(1)], 1.0, "1/s"
    # bit rates: Mbit/s, Gbit/sec, Mbps (a lower-case b is a bit, as in the SI)
    m = re.fullmatch(r"([kKMGT]?)(?:bits?/(?:s|sec|second)|bps)", raw.replace(" ", ""))
    if m:
        return _SUFFIX[m.group(1)], 8.0, "B/s"
    # byte rates: MB/s, MiB/sec, GB/s, MBps, Mi/s, GB/hour, MB/min
    m = re.fullmatch(r"([kmgt]?i?b?)(?:/(s|sec|second|min|minute|h|hr|hour)|ps)", key)
    if m and m.group(1) and (m.group(1) in _BYTES):
        return _BYTES[m.group(1)], _TIME.get(m.group(2) or "s", 1.0), "B/s"
    # floating-point rates
    m = re.fullmatch(r"([kmgt]?)flop/?s", key)
    if m:
        return _SUFFIX[m.group(1).upper() if m.group(1) != "k" else "k"], 1.0, "1/s"
    # factors: 2.5x, 1.3x faster
    if re.fullmatch(r"[x×](?:faster|slower|speedup|speed-up|better|worse)?", key):
        return 1.0, 1.0, "1"
    # event rates: ops/s, rows/sec, req/s, ops/ms, QPS, TPS, IOPS
    if key in ("qps", "tps", "rps", "ops", "hz", "1/s", "iops"):
        return 1.0, 1.0, "1/s"
    # the TPC benchmarks' own rates, as their specifications name them: TPC-C's
    # transactions a minute (`tpmC`, `tpmTOTAL`; HammerDB's `NOPM`, new orders, and
    # `TPM`), TPC-E's a second (`tpsE`), TPC-H's queries an hour (`QphH`, `QphH@100GB`)
    if key in _TPC_RATES:
        return 1.0, _TPC_RATES[key], "1/s"
    if key.startswith("qphh@"):
        return 1.0, 3600.0, "1/s"
    # scaled operation rates: MOPS, Kops (without a time: ops are per second)
    m = re.fullmatch(r"([kKMG])(?:ops|OPS|Ops|iops|IOPS)", raw.replace(" ", ""))
    if m:
        return _SUFFIX[m.group(1)], 1.0, "1/s"
    for suffix, divisor in _RATE_DIVISOR.items():
        if key.endswith(suffix):
            head = key[: -len(suffix)]
            if head in _RATE_WORDS or head.rstrip("s") in _RATE_WORDS or head.startswith("k"):
                scale = 1e3 if head.startswith("k") and head[1:] in _RATE_WORDS else 1.0
                if head.startswith("k") and head[1:] not in _RATE_WORDS:
                    continue
                return scale, divisor, "1/s"
    # time per time (`ms/s`: CPU milliseconds a second): a share, no rate
    m = re.fullmatch(r"([a-zµμ]+)/([a-z]+)", key)
    if m and m.group(1) in _TIME and m.group(2) in _TIME and "m" not in (m.group(1), m.group(2)):
        return _TIME[m.group(1)], _TIME[m.group(2)], "1"
    # any things per time: `Batches per second`, `pk/s`, `q/s`, `#/sec`, `Kelem/s`,
    # `M items/s`, `Mops/s`, `/ms` (a count of something per unit of time)
    m = _THINGS_PER_TIME.fullmatch(raw)
    if m and not _BYTE_WORD.fullmatch(m.group("what")) and m.group("what") != "m":  # m/s: metres
        return _SUFFIX[m.group("scale") or ""], _TIME[m.group("per").lower()], "1/s"
    # bytes per anything: Go's B/op, KB/op, JMH's B/op, `B/message`, `bytes/row` (the
    # memory one operation, message or row takes), as a time per anything is a time;
    # `k`, `K`, `Mi` alone are magnitudes, not bytes (`k/op` is a count)
    m = re.fullmatch(r"([a-z]+)/([a-z]+)", key)
    if m and m.group(1) in _BYTES and m.group(1) not in ("k", "ki", "mi", "gi"):
        per = m.group(2)
        if per in _TIME and per != "m":  # (bytes per unit of time: a byte rate)
            return _BYTES[m.group(1)], _TIME[per], "B/s"
        if per in _TIME or per in _LONG_SPANS:  # (`mb/m`: minutes or metres; per day)
            return None
        return _BYTES[m.group(1)], 1.0, "B"
    # time per anything (`ms/avg`, `ns/elem`, `us/row`): a time; `m` is not a minute here
    m = re.fullmatch(r"([a-zµμ]+)/([a-z]+)", key)
    if m and m.group(1) in _TIME and m.group(1) != "m":
        return _TIME[m.group(1)], 1.0, "s"
    return None


_THINGS_PER_TIME = re.compile(
    # (the blanks possessive: four `\s*` in a row once shared a run of spaces, O(n^4))
    r"\s*+(?P<scale>(?-i:[kKMG])(?=\s*[A-Za-z#]))?\s*+(?P<what>[A-Za-z#][A-Za-z#_.-]*|)\s*+"
    r"(?:/|\b(?:per|an?|each|every)(?=\s))\s*+"
    r"(?P<per>s|sec|secs|second|ms|msec|us|µs|min|minute|h|hr|hour)\s*+",
    re.I,
)
_BYTE_WORD = re.compile(r"[kmgt]?i?b(?:ytes?)?|bits?", re.I)
# Counts and dimensionless numbers: not performance units (the classifier must not
# count them as such), but their SI form is the plain number, unit `1`.
_COUNTS = re.compile(
    r"count|counts|#|n|x|times|records?|rows?|msgs?|messages?|ops|operations?|requests?|"
    r"reqs?|queries|transactions?|txns?|events?|items?|files?|errors?|iterations?|iters?|"
    r"runs?|samples?|rounds?|trials?|allocs?|allocations?|threads?|partitions?|pk|keys?|"
    r"fraction|ratio|allocs?/op|allocations?/op",
    re.I,
)
# A metric that names its unit or is a count, for numbers written without a unit:
# `Average RT(ms)`, `Send TPS`, `iterations`, `p-value`.
_METRIC_UNIT = re.compile(r"[(\[]\s*(?P<u>[^()\[\]]{1,12}?)\s*[)\]]\s*$")
_METRIC_RATE = re.compile(r"\b(?:TPS|QPS|RPS|IOPS|ops/s|ops/sec)\b", re.I)
_METRIC_COUNT = re.compile(
    r"(?:^|[\s_.])(?:count|cnt|n|iterations?|iters?|runs?|samples?|rounds?|trials?|"
    r"operations?|ops|errors?|failed|failures?|acks?|records?|requests?|messages?|"
    r"p-?values?|pvalues?)$",
    re.I,
)


def is_count_unit(unit: str | None) -> bool:
    """`count`, `records`, `allocs/op`: a number of things, not a time, rate or size."""
    if not unit or to_si(1.0, unit)[1] is not None:  # `ops`, `x`: a rate, a factor
        return False
    return _COUNTS.fullmatch(unit.strip()) is not None


def measurement_si(value: float | None, unit: str | None, metric: str | None = None):
    """(value_si, unit_si) of a stored measurement: `to_si`, and also counts and
    dimensionless numbers (`count`, `allocs/op`, `fraction` → unit `1`), and for a
    number written without a unit, the unit its metric names (`Average RT(ms)` → s,
    `Send TPS` → 1/s, `iterations` or `p-value` → 1)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None, None
    si = to_si(value, unit)
    if si[1] is not None:
        return si
    if unit is not None and unit.strip():
        return (value, "1") if is_count_unit(unit) else (None, None)
    metric = (metric or "").strip()
    m = _METRIC_UNIT.search(metric)
    if m:
        si = to_si(value, m.group("u"))
        if si[1] is not None:
            return si
    if _METRIC_RATE.search(metric):
        return value, "1/s"
    if _METRIC_COUNT.search(metric):
        return value, "1"
    return None, None
