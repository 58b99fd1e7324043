"""Python's `timeit` (`python -m timeit`) and IPython's `%timeit`: the time of one
loop of a statement.

Recognises what they print (CPython's Lib/timeit.py `main`, IPython's TimeitResult),
as run here: `20000 loops, best of 5: 13.1 usec per loop` (Python 2 and IPython < 5:
`best of 3`, IPython's units `µs`/`ns`), IPython 5+'s `1.1 µs ± 240 ns per loop (mean ±
std. dev. of 7 runs, 1,000,000 loops each)`; with `-v` the calibration lines `1000
loops -> 0.000811 secs` and `raw times: 539 msec, 390 msec, ...`; the warnings `The
worst time (41.2 usec) was more than four times slower than the best time (13.1
usec).` and `The slowest run took 5.81 times longer than the fastest.`; and the
command that ran it, on the line above (`python3 -m timeit -s 'import json'
'json.dumps(d)'`, `In [3]: %timeit sorted(x)`); also behind IPython's `In [1]:`
prompt and flattened onto one line.

Measurements: label = the statement timed (from the command above, else none),
metric `best` (timeit: the fastest repeat's time per loop, `samples` = the repeats)
or `mean` (IPython: `stdev` and `error` the std. dev. after its `±`, in the mean's
unit; `samples` the runs),
unit `ns`, `us`, `ms` or `s`. The `-v` calibration lines are warm-ups (role
`warmup`: they only choose the number of loops), the raw times one repeat's total
for all its loops (role `sample`), the warnings' worst time and slowest/fastest
ratio samples too. Variant = the heading above the block.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from extract.results.formats._layout import NUM, UNSIGNED, line_start
from extract.results.formats._rows import Rows, read
from extract.results.formats.base import FormatInfo, Measurement, ResultTable
from extract.results.units import parse_number

INFO = FormatInfo(
    name="timeit",
    description="Python timeit / IPython %timeit results",
    signature="`20000 loops, best of 5: 13.1 usec per loop`; `1.1 µs ± 240 ns per loop "
    "(mean ± std. dev. of 7 runs, 1,000,000 loops each)`",
    priority=10,
    kind="result",
    heading="block",
    not_heading=re.compile(r"^(?:In|Out)[ \t]*\[\d+\]"),  # (IPython's prompt)
    trigger=r"(?-i:loops?, best of \d|loop \(mean )",
    needles=(", best of ", "loop (mean "),
)

_UNITS = {"nsec": "ns", "usec": "us", "msec": "ms", "sec": "s", "µs": "us", "μs": "us"}
# (µ mangled by mail: `Âµs`, `Î¼s`, `?s`)
_UNIT = r"(?:nsec|usec|msec|sec|ns|us|µs|μs|Âµs|Î¼s|\?s|ms|s)"
_T = rf"{NUM}[ \t]*+{_UNIT}"
_PM = r"(?:±|Â±|\+-|\+/-|\?)"

# The rest of a command's line (in a flattened mail: up to the result that follows).
_REST = rf"(?:(?!\d++[ \t]++loops?,|{NUM}[ \t]*+{_UNIT}[ \t]++{_PM}[ \t])[^\n])*+"

_ROW = "|".join(
    (
        # the command: `python3 -m timeit [options] statement`, IPython's `%timeit`
        rf"(?P<cli>python[\d.]*+[ \t]++-m[ \t]++timeit\b{_REST})",
        rf"(?P<magic>%%?timeit\b{_REST})",
        # the results
        rf"(?P<loops>\d++)[ \t]++loops?,[ \t]++best[ \t]++of[ \t]++(?P<rep>\d++):[ \t]++"
        rf"(?P<best>{NUM})[ \t]*+(?P<bu>{_UNIT})[ \t]++per[ \t]++loop",
        # (a mail wrapped at 72 columns breaks this line between any two words)
        rf"(?P<mean>{NUM})[ \t]*+(?P<mu>{_UNIT})\s++{_PM}\s++(?P<sd>{NUM})[ \t]*+"
        rf"(?P<su>{_UNIT})\s++per\s++loop\s++\(mean\s++{_PM}\s++std\.\s++dev\.\s++of"
        r"\s++(?P<runs>\d++)\s++runs?,\s++(?P<each>[\d,]++)\s++loops?\s++each\)",
        # `-v`: calibration, then the repeats' raw times
        rf"(?P<cal>\d++)[ \t]++loops?[ \t]++->[ \t]++(?P<cs>{UNSIGNED})[ \t]++secs",
        rf"raw[ \t]++times:[ \t]++(?P<raw>{_T}(?:,[ \t]*+{_T})*+)",
        # the warnings
        r"(?::0:[ \t]*+UserWarning:[ \t]*+)?(?:The[ \t]++test[ \t]++results[ \t]++are[ \t]++"
        r"likely[ \t]++unreliable\.[ \t]++)?"
        rf"The[ \t]++worst[ \t]++time[ \t]++\((?P<worst>{NUM})[ \t]*+(?P<wu>{_UNIT})\)"
        r"[ \t]++was[^\n(]{0,60}?slower[ \t]++than[ \t]++the[ \t]++best[ \t]++time[ \t]++"
        rf"\({_T}\)\.?",
        rf"The[ \t]++slowest[ \t]++run[ \t]++took[ \t]++(?P<ratio>{NUM})[ \t]++times[ \t]++"
        r"longer[ \t]++than[ \t]++the[ \t]++fastest\.?"
        r"(?:[ \t]++This[ \t]++could[ \t]++mean[ \t]++that[ \t]++an[ \t]++intermediate"
        r"[ \t]++result[ \t]++is[ \t]++being[ \t]++cached\.)?",
    )
)
_TIME = re.compile(rf"(?<![\d.])(?P<v>{NUM})[ \t]*+(?P<u>{_UNIT})")
_SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def _unit(written: str) -> str:
    if written in ("Âµs", "Î¼s", "?s"):
        return "us"
    return _UNITS.get(written, written)


def _measure(m: re.Match, group: str, metric: str, unit: str | None, role: str = "result"):
    meas = Measurement(metric, parse_number(m[group]), unit, None, None, m[group], role=role)
    meas.span = m.span(group)
    return meas


def _found(m: re.Match) -> Iterator[Measurement]:
    if m["best"]:
        meas = _measure(m, "best", "best", _unit(m["bu"]))
        meas.samples = float(m["rep"])
        yield meas
    elif m["mean"]:
        meas = _measure(m, "mean", "mean", _unit(m["mu"]))
        sd = parse_number(m["sd"])
        if sd is not None:  # (in the mean's unit: `1.1 µs ± 240 ns`; the ± written with it)
            sd = float(f"{sd * _SCALE[_unit(m['su'])] / _SCALE[meas.unit]:.12g}")
            meas.stdev = meas.error = sd
        meas.samples = float(m["runs"])
        yield meas
    elif m["cal"]:
        yield _measure(m, "cs", "calibration", "s", "warmup")
    elif m["raw"]:
        base = m.start("raw")
        for t in _TIME.finditer(m["raw"]):
            meas = Measurement("raw time", float(t["v"]), _unit(t["u"]), None, None, t["v"])
            meas.role, meas.span = "sample", (base + t.start("v"), base + t.end("v"))
            yield meas
    elif m["worst"]:
        yield _measure(m, "worst", "worst", _unit(m["wu"]), "sample")
    elif m["ratio"]:
        yield _measure(m, "ratio", "slowest / fastest", "x", "sample")


# IPython's options before the statement: `-n1000`, `-r 5`, `-q`, `-o`, `-p 4`.
_MAGIC_OPTIONS = re.compile(r"%%?timeit(?:[ \t]++-(?:[nrp][ \t]*+\d++|[tcqo]))*+[ \t]*+")
# `python -m timeit`'s options that take a value, and those that do not.
_CLI_VALUE = {"-n", "-r", "-s", "-u", "--number", "--repeat", "--setup", "--unit"}
_CLI_FLAG = {"-p", "-v", "-h", "--process", "--verbose", "--help"}


def _statement(m: re.Match) -> str | None:
    """The statement a command times (None for IPython's cell magic: the cell is
    below it)."""
    if m["magic"]:
        if m["magic"].startswith("%%"):
            return None
        return m["magic"][_MAGIC_OPTIONS.match(m["magic"]).end() :].strip() or None
    try:
        words = shlex.split(m["cli"].split("timeit", 1)[1])
    except ValueError:  # (a quote the mail cut)
        return None
    rest, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif rest or w not in _CLI_VALUE | _CLI_FLAG and not re.fullmatch(r"-[nrsu]\S+", w):
            if w in ("|", ">", "2>&1"):
                break
            rest.append(w)
        elif w in _CLI_VALUE:
            skip = True
    return " ".join(rest) or None


def _labels(rows: list[re.Match]) -> list[str | None]:
    """Each row's statement: the command's above it (a command starts a new one)."""
    out, last = [], None
    for m in rows:
        if m["cli"] or m["magic"]:
            last = _statement(m)
        out.append(last)
    return out


ROWS = Rows(
    row=rf"(?<![\w.%-])(?:{_ROW})",
    fields=_found,
    labels=_labels,
    # a shell's prompt, IPython's and its empty `In [4]:` lines stand between the rows
    gap=r"(?:\s*+(?:(?:In|Out)[ \t]*+\[\d++\]:|[$#>])[ \t]*+)*+\s*+",
    columns=("statement", "line"),
    cells=lambda m, label: [label or "", " ".join(m[0].split())],
    # a block is the tool's when it holds a result, not a command alone
    keep=lambda rows: any(m["best"] or m["mean"] for m in rows),
)


# What stands before a command on its line: a shell's or IPython's prompt.
_PROMPT = re.compile(r"[ \t]*+(?:[$#>%][ \t]*+|(?:In|Out)[ \t]*+\[\d++\]:[ \t]*+)")


def parse(text: str) -> list[ResultTable]:
    tables = read(ROWS, text)
    # A block that starts with a command starts at its line, prompt and all: the
    # heading above it (which the registry finds from the block's start) names it.
    for t in tables:
        start = line_start(text, t.span[0])
        if _PROMPT.fullmatch(text, start, t.span[0]):
            t.span = (start, t.span[1])
    return tables
