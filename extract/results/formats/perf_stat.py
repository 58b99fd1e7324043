"""Linux `perf stat`: the counter block it prints when the command it ran ends.

Recognises the block under `Performance counter stats for '<command>'[ (N runs)]:`
(also `for 'system wide':`, `for process id '42':`): one event a line, `<count>
<event>` or `<value> <unit> <event>` (`1,234.56 msec task-clock`; perf < 4.10 wrote
`task-clock (msec)`), counts grouped by the locale (`4,567,890,123`) or not, or
`<not counted>` / `<not supported>` where there is no count; after it `# <value>
<what>`, the ratio perf derives from the counters (`# 2.16 insn per cycle`, `#
0.998 CPUs utilized`, `# 1.23% of all branches`, also on a line of its own under the
event; perf 6's metric group `TopdownL1  # 33.3 %  tma_backend_bound` and the lines
under it), with `-r N` the spread of the runs `( +- 0.12% )`, and the share of the
time a multiplexed counter ran (`(83.33%)`, old `[83.33%]`); then `1.237012345
seconds time elapsed` (with `-r`: `0.1927 +- 0.0314 seconds time elapsed ( +- 16.30%
)`) and `seconds user` / `seconds sys`; also flattened onto one line. Not read: the
interval (`-I`), per-CPU (`-A`) and CSV (`-x`) layouts. The format is perf's own
output, run here (perf 6.1: `tests/fixtures/tools/perf-stat.sh`; this machine has no
hardware counters, whose lines print `<not supported>`); the hardware counters'
lines, perf 6's metric groups and older perf's layout are written in that layout
from what perf prints on machines that have them (perf's source was too large to
fetch here).

Measurements: label = the event (`task-clock`, `cycles`, `instructions`; `time
elapsed`, `user`, `sys`; `TopdownL1` for its group's metrics); metric `time` for a
time (`msec` → unit `ms`, `seconds` → `s`), `events` for a count (no unit: these are
events counted, not seconds or bytes; a unit perf gives, such as `Joules`, is kept);
`<not counted>` lines give none. A derived ratio is a measurement of its own on the
event's row, metric = the words perf prints (`insn per cycle`, `CPUs utilized`, `of
all branches` with unit `%`, `GHz`), because it is what readers quote (IPC,
utilisation, miss rates) and a number left unread there would be taken by the number
model with no name at all; the per-second rates (`# 116.951 K/sec`) are not: they
restate the count over the task clock. The `( +- 0.12% )` is the measurement's
`noise` (0.0012) and `error` (in its unit); the multiplexing share is no
measurement. Variant = the heading above the block; when not every block has a
heading of its own and the blocks ran different commands, the command (as perf
quotes it in the header) tells them apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.results.formats._layout import GROUPED, NUM, heading_above
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="perf-stat",
    description="Linux perf stat counter blocks",
    signature="`Performance counter stats for 'cmd':` + `4,567,890,123  cycles  # 3.70 GHz`, "
    "`1,234.56 msec task-clock`, `1.237012345 seconds time elapsed`",
    priority=10,
    kind="result",
    trigger=r"(?-i:Performance counter stats for )",
    needles=("Performance counter stats for ",),
)

# `Performance counter stats for 'make -j8' (5 runs):` - the target as perf quotes it
# (a command, `'system wide'`, `process id '42'`), and what an author added after it.
_HEADER = (
    r"Performance counter stats for[ \t]++"
    # (the target, and a note after it, end at a non-blank: each blank after them is
    # looked at once)
    r"(?P<target>'[^'\n]{0,300}'|[^\n]{0,299}?\S)(?:[ \t]*+\((?P<runs>\d+) runs\))?"
    r"(?P<note>[^\n:]{0,100}?[^\s:])?[ \t]*+:"
)

# The unit perf prints before an event that has one (`msec task-clock`, `Joules
# power/energy-pkg/`, `MiB`): the known ones only, else an event's name would be read
# as a unit.
_UNITS = {"msec": "ms", "usec": "us", "nsec": "ns", "Joules": "J", "MiB": "MiB", "W": "W"}
_UNIT = "|".join(_UNITS)

# The words of a derived ratio: words up to the end of its line, the spread or the
# multiplexing share (in a flattened block: up to the next row's number). Each word
# starts where no number does. (Possessive: a word once read is never read again.)
_WORDS = r"[%A-Za-z/][^\s#(\[]*+(?:[ \t]++[A-Za-z/][^\s#(\[]*+)*+"
# `# 2.16 insn per cycle`, `# 1.23% of all branches`, `# 24.3 %  tma_backend_bound`.
_RATIO = rf"\#[ \t]*+(?P<rv>{NUM})[ \t]*+(?P<rw>{_WORDS})?"
# `( +-  0.12% )` after the event with `-r N`; `(83.33%)` / `[83.33%]`: multiplexing.
_SPREAD = rf"\([ \t]*+\+-[ \t]*+(?P<pct>{NUM})[ \t]*+%[ \t]*+\)"
_MUX = rf"[(\[]{NUM}[ \t]*+%[)\]]"

_ROW = (
    r"(?<!\S)"
    # the summary lines: `1.237 seconds time elapsed`, `0.19 +- 0.03 seconds time elapsed`
    rf"(?:(?P<secs>{NUM})(?:[ \t]++\+-[ \t]++(?P<abs>{NUM}))?[ \t]++seconds[ \t]++"
    r"(?P<what>time elapsed|user|sys)"
    # an event: its count or value, perf's unit for it, its name, its ratio
    rf"|(?:(?P<v>{GROUPED})|<(?P<none>not counted|not supported)>)[ \t]++"
    rf"(?:(?P<unit>{_UNIT})[ \t]++)?"
    r"(?P<event>[A-Za-z_][^\s#(\[]*+)(?:[ \t]++\((?P<old>msec)\))?"
    rf"(?:[ \t]*+{_RATIO})?"
    # a group of metrics perf 6 prints by default (`TopdownL1  # 33.3 %
    # tma_backend_bound`), the rest of the group on lines of their own
    rf"|(?P<group>Topdown\w*+(?:[ \t]++\([\w ]{{1,40}}\))?)[ \t]++{_RATIO.replace('?P<r', '?P<g')}"
    # a ratio perf prints on a line of its own, under the event it belongs to
    rf"|{_RATIO.replace('?P<r', '?P<c')})"
    rf"(?:[ \t]*+{_SPREAD})?(?:[ \t]*+{_MUX})?"
    # and an event's row ends there: at the end of its line, or (flattened) where the
    # next row starts; `3 runs later` in a sentence below the block is no row
    r"(?(event)(?=[ \t]*+(?:\r?\n|$)|[ \t]++[\d<#]))"
)

# Rates per second of task clock restate a count; they are no measurement.
_RATE = re.compile(r"[KMG]?/sec")


def _ratio(value: str, words: str | None) -> Measurement | None:
    words = " ".join((words or "").split())
    unit = None
    if words.startswith("%"):
        unit, words = "%", words[1:].strip()
    if not words or _RATE.fullmatch(words):
        return None
    if words == "GHz":
        words, unit = "frequency", "GHz"
    elif words == "insns per cycle":  # (perf < 4.10's words for the same ratio)
        words = "insn per cycle"
    number = parse_number(value)
    if number is None:
        return None
    return Measurement(words, number, unit, None, None, value)


def _found(m: re.Match) -> Iterator[Measurement]:
    pct = parse_number(m["pct"]) if m["pct"] else None
    if m["secs"]:
        number = parse_number(m["secs"])
        meas = Measurement("time", number, "s", None, None, m["secs"], span=m.span("secs"))
        if m["abs"]:
            meas.error = parse_number(m["abs"])
        _spread(meas, pct)
        yield meas
        return
    if m["v"]:
        unit = _UNITS.get(m["unit"] or m["old"] or "")
        number = parse_number(m["v"])
        metric = "time" if unit in ("ms", "us", "ns") else "events"
        meas = Measurement(metric, number, unit, None, None, m["v"], span=m.span("v"))
        _spread(meas, pct)
        yield meas
    if m["rv"] and (ratio := _ratio(m["rv"], m["rw"])) is not None:
        ratio.span = m.span("rv")
        yield ratio
    for g in ("g", "c"):  # (a group's first line, or a line of its own)
        if m[g + "v"] and (ratio := _ratio(m[g + "v"], m[g + "w"])) is not None:
            ratio.span = m.span(g + "v")
            yield ratio


def _spread(meas: Measurement, pct: float | None) -> None:
    """`( +- 0.12% )`: the spread of the runs, relative, and in the number's unit."""
    if pct is None or meas.value is None:
        return
    # (to the digits perf printed: 0.45 % is 0.0045, not 0.0045000000000000005)
    meas.noise = float(f"{pct / 100:.12g}")
    if meas.error is None:
        meas.error = float(f"{meas.value * pct / 100:.12g}")


def _labels(rows: list[re.Match]) -> list[str]:
    """Each row's event; a ratio on a line of its own is the event's above it."""
    out, last = [], ""
    for m in rows:
        if m["what"] or m["event"] or m["group"]:
            last = " ".join((m["what"] or m["event"] or m["group"]).split())
        out.append(last)
    return out


ROWS = Rows(
    header=_HEADER,
    row=_ROW,
    fields=_found,
    labels=_labels,
    columns=("event", "value", "unit"),
    cells=lambda m, label: [
        label,
        m["secs"] or m["v"] or (f"<{m['none']}>" if m["none"] else m["gv"] or m["cv"] or ""),
        "s" if m["secs"] else (m["unit"] or m["old"] or ""),
    ],
    caption=lambda h: _target(h["target"] + (h["note"] or "")),
)


def _target(target: str) -> str:
    """The target without perf's quotes (`'make -j8'` → `make -j8`; `'httpd -X'
    (trunk)`, a note an author added, → `httpd -X (trunk)`)."""
    target = target.strip()
    if target[:1] == "'" and (close := target.find("'", 1)) > 0:
        return (target[1:close] + target[close + 1 :]).strip()
    return target


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    # Each block's name: the heading above it (`Before:`) when every block has one of
    # its own; else, when the blocks ran different commands, the command; else the
    # heading, or the command where there is none.
    headings, floor = [], 0
    for t in tables:
        headings.append(heading_above(text, t.span[0], floor, style="block"))
        floor = t.span[1]
    commands = [t.caption for t in tables]
    own_headings = all(headings) and len(set(headings)) == len(headings)
    own_commands = len(tables) > 1 and len(set(commands)) == len(commands)
    for t, heading in zip(tables, headings, strict=True):
        if own_headings or not own_commands:
            t.variant = heading or t.caption
        else:
            t.variant = t.caption
    return tables
