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
from extract.results.formats import _PARTS, PARSERS, may_match
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
    lost = [t[:120] for t in texts() if not may_match(parser, t) and parser.parse(t)]
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
            and not any(n in t.lower() for n in lower_needles)
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
    """A lower needle is looked for in `text.lower()`: every character the trigger's
    case-insensitive match accepts for one of its letters must lower to that letter
    (not so for `i` and `s`: `İ`, `ı`, `ſ`), or a needle would miss a match."""
    lower = [n for mod in PARSERS for n in mod.INFO.lower_needles]
    lower += [n for mod in PARSERS for _, _, ns in mod.INFO.trigger_parts for n in ns]
    chars = sorted({c for n in lower for c in n})
    everything = _all_characters()
    for c in chars:
        assert c == c.lower()
        odd = [
            m.group() for m in re.finditer(re.escape(c), everything, re.I) if m.group().lower() != c
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
            there = any(n in t for n in needles) or any(n in t.lower() for n in lower)
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
