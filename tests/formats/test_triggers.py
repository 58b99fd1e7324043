"""A format's `INFO.trigger` is a necessary condition: on every text we have (the
project's format fixtures, the seeds, the edge-case archives' bodies and, where
../shared is present, the labelled corpora's bodies; each also flattened onto one
line as GitBox mail delivers it), when the trigger does not match, the parser finds
nothing. So skipping a parser on its trigger never loses a result."""

from __future__ import annotations

import io
import random
import re
from functools import cache

import pytest

from extract.mail.clean import clean_body
from extract.mail.mbox import iter_messages
from extract.mail.message import parse_message
from extract.results import prefilter
from extract.results.formats import _PARTS, PARSERS, may_match, run
from tests.conftest import SEEDS, SHARED
from tests.formats.golden import FIXTURES
from tests.mail import mboxes


@cache
def texts() -> list[str]:
    out = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.txt"))]
    out += [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    for p in sorted((SHARED / "corpus").glob("*/*.txt")):  # where ../shared is present
        body = p.read_text(encoding="utf-8").split("\n\n", 1)[-1]
        out += [body, clean_body(body)]
    for archive in mboxes.EDGE_ARCHIVES.values():
        for raw in iter_messages(io.BytesIO(archive)):
            try:
                out.append(parse_message(raw.data, raw.envelope_line).text)
            except Exception:  # broken archives are the reader's tests' business
                continue
    return out + [re.sub(r"\s+", " ", t) for t in out]


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_trigger_is_a_necessary_condition(parser):
    if not parser.INFO.trigger:
        return
    re.compile(parser.INFO.trigger)
    lost = [t[:120] for t in texts() if not may_match(parser, t) and run(parser, t)]
    assert not lost, f"{parser.INFO.name} finds results its trigger misses: {lost[:3]}"


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_needles_are_necessary_for_the_trigger(parser):
    """When the trigger (or one of its parts) matches, one of its needles is in the
    text: checking the needles first only skips triggers that would not have matched."""
    info = parser.INFO
    parts = [(info.trigger, info.needles, info.lower_needles), *info.trigger_parts]
    for source, needles, lower_needles in parts:
        if not needles and not lower_needles:
            continue
        assert info.trigger, "needles narrow a trigger; a format without one has none"
        trigger = re.compile(source, re.I)
        missed = [
            t[:120]
            for t in texts()
            if trigger.search(t)
            and not any(n in t for n in needles)
            and not any(n in t.translate(prefilter._FOLD).lower() for n in lower_needles)
        ]
        assert not missed, f"{info.name}: {source} matches without a needle: {missed[:3]}"


@pytest.mark.parametrize(
    "parser", [p for p in PARSERS if p.INFO.trigger_parts], ids=lambda mod: mod.INFO.name
)
def test_trigger_parts_match_where_the_trigger_does(parser):
    """A trigger split into parts matches where the whole trigger does: on the real
    texts, on each part's own needles and on texts made up around them."""
    info = parser.INFO
    assert not info.needles and not info.lower_needles, "the parts carry the needles"
    trigger = re.compile(info.trigger, re.I)
    parts = [re.compile(source, re.I) for source, _, _ in info.trigger_parts]
    samples = list(texts())
    words = ["s", "S", "%", "T", "q", ")", ":", "-" * 10, "12", "3.5", "1e3", "ms", "µs", "Q"]
    words += [" ", " ", "\n", "\t", "\xa0", "ſ", "K", "a", "Time Old", "user", "system", "uery"]
    words += ["q1", "query12", "Performance test result", "a: 12 ms\nb: 3 s", "x: 1 s", "12 us"]
    words += ['"', "=", "<", "/", "t", "b", "enchmark", "old", "speed", "mples", "m p l e s", "n t"]
    for _, needles, lower_needles in info.trigger_parts:
        words += [*needles, *lower_needles]
        for n in needles + lower_needles:
            for around in ("", " ", "\n", " 12 ", "12.5 ms\n", "\t1\n"):
                samples += [n + around, around + n + around + "0.5 s", n.upper() + around + "3"]
    rnd = random.Random(3)
    samples += ["".join(rnd.choice(words) for _ in range(rnd.randint(1, 25))) for _ in range(3000)]
    for t in samples:
        assert bool(trigger.search(t)) == any(p.search(t) for p in parts), t[:120]


def _all_characters() -> str:
    return "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)


def test_lower_needles_find_every_case_insensitive_match():
    """A lower needle is looked for case-insensitively by the prefilter, which reads
    `İ`, `ı`, `ſ` and `K` as `i`, `s` and `k`: every character the trigger's
    case-insensitive match accepts for one of its letters must come to that letter
    so, or a needle would miss a match."""
    lower = [n for mod in PARSERS for n in mod.INFO.lower_needles]
    lower += [n for mod in PARSERS for _, _, ns in mod.INFO.trigger_parts for n in ns]
    chars = sorted({c for n in lower for c in n})
    everything = _all_characters()
    for c in chars:
        assert c == c.lower()
        odd = [
            m.group()
            for m in re.finditer(re.escape(c), everything, re.I)
            if m.group().translate(prefilter._FOLD).lower() != c
        ]
        assert not odd, f"{c!r} also matches {odd} case-insensitively"


def _samples() -> list[str]:
    needles = sorted(
        {n for mod in PARSERS for n in mod.INFO.needles}
        | {n for mod in PARSERS for _, ns, _ in mod.INFO.trigger_parts for n in ns}
    )
    return list(texts()) + [
        "",
        " ".join(needles),
        "".join(needles),
        "x".join(reversed(needles)),
        "Test in Test in  Query OKQuery OK ±│ Time(ms)Time: 1",
        "TIME: 12 MS\nMB/S 3\n",
        "\u0130te\u0280ations: 5 \u212aB/s ſec",  # letters re.I takes for ASCII ones
    ]


def _sources(info) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    return list(info.trigger_parts) or [(info.trigger, info.needles, info.lower_needles)]


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_prefilter_finds_every_needle_of_a_format(parser):
    """The one scan says a part's needles are there whenever one of them is in the
    text (or, for a lower needle, in `text.lower()`); exactly then, in ASCII text."""
    for (_, name, _), (_, needles, lower) in zip(
        _PARTS[parser.INFO.name], _sources(parser.INFO), strict=True
    ):
        if name is None:
            assert not needles and not lower
            continue
        for t in _samples():
            there = any(n in t for n in needles) or any(
                n in t.translate(prefilter._FOLD).lower() for n in lower
            )
            hit = name in prefilter.scan(t)
            assert hit >= there, (name, t[:120])
            if t.isascii():
                assert hit == there, (name, t[:120])


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_prefilter_runs_a_trigger_where_python_finds_it(parser):
    """A trigger part that Hyperscan compiles is judged by the scan alone in ASCII
    text: wherever Python's regex matches it, the scan must say so."""
    for (regex, _, name), _ in zip(_PARTS[parser.INFO.name], _sources(parser.INFO), strict=True):
        if name is None:
            continue
        for t in _samples():
            hits = prefilter.scan(t)
            if regex.search(t):
                assert name in hits, (name, t[:120])
            elif hits.decides(name):
                assert name not in hits, (name, t[:120])


def test_most_triggers_run_in_the_scan():
    """Lookarounds keep a few triggers in Python; the others cost nothing extra."""
    hits = prefilter.scan("an ASCII text")
    names = [name for parts in _PARTS.values() for _, _, name in parts if name is not None]
    assert sum(map(hits.decides, names)) > len(names) / 2
    assert not any(map(prefilter.scan("ein Text, nicht ASCII: ä").decides, names))


# ---------------------------------------------------------------- cheaper necessary conditions


def test_a_time_of_day_alone_does_not_run_prose():
    """Prose reads a clock (`3:20`) as a duration only after a verb that times
    something (`took 3:20`): mail full of times of day and `https` links (the `tps`
    of a rate name) does not run it; a timed clock and a named rate do."""
    prose = next(mod for mod in PARSERS if mod.INFO.name == "prose")
    ordinary = [
        "On Tue, at 10:30, Alice wrote: see https://example.org/x for the notes.",
        "Meeting moved to 14:00 UTC; the https://lists.example.org thread has it.",
        "Logs from 2024-05-01 09:15:22 onwards, see http://example.org/https.",
    ]
    timed = [
        "The import took 3:20 before the patch.",
        "A full rebuild now TAKES ~1:05 here.",
        "the run went from 4:10 down to 2:40",
        "TPS reached 38k on one broker.",
        "tps stabilised at about 10w",
    ]
    for text in ordinary:
        for t in (text, text + " naïve"):  # the scan, and Python's regex (not ASCII)
            assert not may_match(prose, t), t
            assert run(prose, t) == []
    for text in timed:
        for t in (text, text + " naïve"):
            assert may_match(prose, t), t
            assert run(prose, t), t


def test_record_pairs_are_found_without_trying_every_position():
    """`records._pair_matches` finds exactly the pairs `_PAIR.finditer` does: on long
    lines of prose (where trying every position costs milliseconds), on records,
    and on random lines of the characters pairs are made of."""
    from extract.results.formats import records

    lines = [
        "Send TPS:  240 Max RT:  292 AVG RT:2.8 Send Failed: 0",
        "/logs/run0:Indexer: 46.44 GB/hour plain text",
        "throughput=1520.4 ops/s p99=12.5ms, servers=b1:9092 at 10:30",
        "one two three four five six seven: 5 and eight nine: 6, a.b(c)%#/-d = ~-3e5k",
        "I'd like to propose reading the manifests in parallel while planning a scan, "
        "which with 8 threads should be ~30% faster for tables with many manifests: "
        "see https://example.org/issues/?jql=project=5 and the x=1 y = 2 notes " * 4,
        "吞吐量: 5000 延迟：12ms, 单次执行: 70",
        "",
    ]
    rnd = random.Random(7)
    alphabet = "ab Z1 9:=：.\t-()%#/_~+,;x中é5 0"
    lines += [
        "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 60))) for _ in range(20000)
    ]
    for line in lines:
        want = [(m.span(), m.groupdict()) for m in records._PAIR.finditer(line)]
        got = [(m.span(), m.groupdict()) for m in records._pair_matches(line)]
        assert got == want, line
        # and within a part of the line (where a flattened list's next pair may start)
        start, end = sorted(rnd.randint(0, len(line)) for _ in range(2))
        want = [(m.span(), m.groupdict()) for m in records._PAIR.finditer(line, start, end)]
        got = [(m.span(), m.groupdict()) for m in records._pair_matches(line, start, end)]
        assert got == want, (line, start, end)
