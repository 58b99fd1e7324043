"""The prefilter and the classifier's early exit only save time: every fixture and
every labelled corpus message gives the same verdict, tables and measurements with
them as on the plain path, where every parser and every feature runs."""

from __future__ import annotations

import re
import sys

import pytest

from extract.dev.eval import corpus_kind, read_message
from extract.mail.clean import clean_body
from extract.results import classify as C
from extract.results import prefilter
from extract.results.classify import EARLY_EXIT_REASON, classify, features
from extract.results.formats import extract_results
from extract.results.message import extraction_text
from extract.results.prefilter import Needs, lowered
from extract.results.weights import THRESHOLD, WEIGHTS
from tests.conftest import REPO, SHARED

FIXTURES = REPO / "tests" / "fixtures"


def _fixture_texts() -> list[tuple[str, str]]:
    out = []
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        out.append((str(path.relative_to(FIXTURES)), text))
    return out


def _same_both_ways(body: str, subject: str | None = None, kind: str | None = None) -> bool:
    """Asserts that both paths agree on `body`; True when the fast one exited early."""
    fast_tables = extract_results(body, strict=True)
    plain_tables = extract_results(body, strict=True, plain=True)
    assert repr(fast_tables) == repr(plain_tables)
    fast = classify(body, fast_tables, subject=subject, kind=kind)
    plain = classify(body, plain_tables, subject=subject, kind=kind, plain=True)
    assert fast.is_benchmark == plain.is_benchmark, (fast.reasons, plain.reasons)
    early = any(EARLY_EXIT_REASON in r for r in fast.reasons)
    if not early:
        assert (fast.score, fast.reasons) == (plain.score, plain.reasons)
    assert not any(EARLY_EXIT_REASON in r for r in plain.reasons)
    # (the fitted verdict's path: screened by the scan, no early exit)
    screened = features(body, fast_tables, subject or "", kind, screened=True)
    assert screened == features(body, plain_tables, subject or "", kind)
    return early


def test_fixtures_give_the_same_results_with_and_without_the_prefilter():
    early = 0
    for name, text in _fixture_texts():
        for body in (text, extraction_text(clean_body(text))):
            try:
                early += _same_both_ways(body)
            except AssertionError as exc:
                raise AssertionError(f"{name}: {exc}") from exc
    assert early, "no fixture exits early: the early exit does not work"


@pytest.mark.shared
def test_corpus_gives_the_same_results_with_and_without_the_prefilter():
    paths = sorted((SHARED / "corpus").glob("*/*.txt"))
    assert paths
    early = 0
    for path in paths:
        msg = read_message(path)
        kind = corpus_kind(msg)
        body = extraction_text(clean_body(msg.body, kind))
        try:
            early += _same_both_ways(body, msg.headers.get("Subject"), kind)
        except AssertionError as exc:
            raise AssertionError(f"{path.name}: {exc}") from exc
    assert early


def test_an_ordinary_message_is_rejected_before_the_negatives():
    text = (
        "Thanks for the review. I pushed a new commit that fixes the typo in the\n"
        "docs and rebased on master (see HIVE-1234, merged on 2024-05-01).\n"
    )
    verdict = classify(text, extract_results(text))
    assert not verdict.is_benchmark
    assert any(EARLY_EXIT_REASON in r for r in verdict.reasons)
    plain = classify(text, extract_results(text, plain=True), plain=True)
    assert not plain.is_benchmark
    assert not any(EARLY_EXIT_REASON in r for r in plain.reasons)


def test_the_early_exit_bound_comes_from_the_weights():
    """It stops when the features found, plus every later feature's positive
    weight, stay under the threshold; a feature strong enough alone never stops it."""
    late = sum(max(0.0, w) for n, w in WEIGHTS.items() if n not in C.EARLY_FEATURES)
    for name, weight in WEIGHTS.items():
        if name not in C.EARLY_FEATURES or name == "note":
            continue
        stop = C._stops_early({name: (1.0, "x")})
        assert (stop is not None) == (weight + late < THRESHOLD), name
    assert C._stops_early({}) is not None if late < THRESHOLD else C._stops_early({}) is None


def test_a_benchmark_message_is_not_cut_short():
    text = "Before the patch the load took 27 sec, after it 9 sec (3x faster).\n"
    verdict = classify(text, extract_results(text))
    assert verdict.is_benchmark
    assert not any(EARLY_EXIT_REASON in r for r in verdict.reasons)


# ---------------------------------------------------------------- the scan itself


def test_declared_needs_decide_what_may_run():
    prefilter.declare("test:literal", Needs(literals=("Score",)))
    prefilter.declare("test:lower", Needs(lower=("ops/s", "iterations")))
    prefilter.declare("test:pattern", Needs(patterns=(r"\d+\s*ms\b",), caseless=True))
    prefilter.declare("test:nothing", Needs())
    try:
        hits = prefilter.scan("a Score of 12 MS")
        assert "test:literal" in hits and "test:pattern" in hits
        assert "test:lower" not in hits
        assert "test:nothing" in hits and "test:never-declared" in hits
        assert "test:literal" not in prefilter.scan("a score of 12")
        assert "test:lower" in prefilter.scan("5 OPS/S")
        # letters re.I takes for ASCII ones: İ for i, K (Kelvin) for k
        assert "test:lower" in prefilter.scan("\u0130TERAT\u0130ONS")
        assert "test:pattern" not in prefilter.scan("12 msg")
        # a digit outside ASCII is one to Python's \d: a pattern passes it untried
        assert "test:pattern" in prefilter.scan("\u0663 ms")
        # a letter outside ASCII is scanned as `_`: it may rule a pattern out, never in
        assert "test:pattern" not in prefilter.scan("naïve")
        assert not prefilter.scan("na\u00efve 12 ms").decides("test:pattern")
        assert "test:pattern" in prefilter.scan("x\x1cy")  # Python's \s takes \x1c
        assert "test:pattern" in prefilter.EVERYTHING
        assert prefilter.scan("12 ms").decides("test:pattern")
    finally:
        for name in ("test:literal", "test:lower", "test:pattern", "test:nothing"):
            prefilter.declare(name, Needs())


def test_a_pattern_hyperscan_can_only_approximate_screens_the_text():
    """A lookaround or an atomic group: Hyperscan's prefilter mode matches wherever
    the pattern does (and maybe elsewhere), so a miss rules the user out, and a hit
    leaves the question to the user's own regex."""
    prefilter.declare("test:lookbehind", Needs(patterns=(r"(?<![a-z])tps",), caseless=True))
    prefilter.declare("test:atomic", Needs(patterns=(r"\A(?>[\s\S]*?took)[\s\S]*?\d:\d\d",)))
    try:
        for name, sure, maybe, neither in (
            ("test:lookbehind", "a TPS of 5", "https://x", "no rate here"),
            ("test:atomic", "it took 3:20", "took it\n1:05", "at 10:30 it took long"),
        ):
            assert name in prefilter.scan(sure) and not prefilter.scan(sure).decides(name)
            assert name in prefilter.scan(maybe)  # (`https`: only the regex says no)
            assert name not in prefilter.scan(neither)
            assert name in prefilter.scan(neither + " \u0663")  # (not scanned)
    finally:
        prefilter.declare("test:lookbehind", Needs())
        prefilter.declare("test:atomic", Needs())
    assert not prefilter.compiles(r"a++")
    assert prefilter.compiles(r"a++", screen=True)
    assert not prefilter.compiles(r"a*", screen=True)  # (it matches an empty text)
    assert prefilter.compiles(r"\d[ \t]*ms")


def test_a_pattern_hyperscan_cannot_compile_at_all_always_passes():
    prefilter.declare("test:empty", Needs(patterns=(r"(?=x)",)))
    try:
        hits = prefilter.scan("nothing here")
        assert "test:empty" in hits and not hits.decides("test:empty")
    finally:
        prefilter.declare("test:empty", Needs())


def test_the_compiled_scan_is_kept_for_the_next_process(tmp_path, monkeypatch):
    """Compiling takes seconds: a second process reads the database from the cache
    file, and a damaged file is compiled again."""
    monkeypatch.setattr(prefilter, "CACHE_DIR", tmp_path)
    declared = {"test:a": Needs(literals=("Score",)), "test:b": Needs(patterns=(r"\d\s*ms\b",))}
    first = prefilter._Compiled(declared)
    (path,) = tmp_path.iterdir()
    second = prefilter._Compiled(declared)
    for compiled in (first, second):
        hits = compiled.scan("Score 12 ms")
        assert "test:a" in hits and "test:b" in hits and hits.decides("test:b")
        assert "test:b" not in compiled.scan("Score 12 msg")
    path.write_bytes(b"damaged")
    assert "test:a" not in prefilter._Compiled(declared).scan("score")


def test_letters_outside_ascii_rule_patterns_out_and_never_in():
    """A text with letters no declaration names (`á`, `ő`, `ñ`: names in sign-offs)
    is scanned with `_` for them, which some patterns name (`[A-Za-z_]`): the scan
    may let a trigger through where Python's regex finds nothing (its regex then
    says), but never rules one out that the regex finds, and decides none."""
    import random

    from extract.results.formats import _PARTS

    parts = [(regex, name) for ps in _PARTS.values() for regex, _, name in ps if name]
    words = ["took", "12", "ms", "3.5", "x", "%", "TPS", "Time:", "a=5", " ", "  ", "\n", "|"]
    words += ["10:30", "-", "+--+", "ops/s", "before", "after", "vs", "2x", "Mean", "\t", "_"]
    letters = [
        "\u00e1",
        "\u0151",
        "\u00f1",
        "\u00e9",
        "\u0160",
        "K\u00f6ln",
        "Szab\u00f3",
        "\u2014",
    ]
    rnd = random.Random(7)
    texts = ["Signed-off-by: Krisztián Szűcs", "Ő took 12 ms, 3x faster than before"]
    for _ in range(400):
        texts.append("".join(rnd.choice(words + letters) for _ in range(rnd.randint(1, 30))))
    ruled_out = 0
    for t in texts:
        hits = prefilter.scan(t)
        if any(c.isalpha() and not c.isascii() for c in t):
            assert not any(hits.decides(name) for _, name in parts), t
        for regex, name in parts:
            if regex.search(t):
                assert name in hits, (name, t)
            else:
                ruled_out += name not in hits
    assert ruled_out > len(texts) * len(parts) / 2  # (the wide way rules none out)
    assert "format:records:0:trigger" not in prefilter.scan(texts[0])


def test_a_few_dashes_quotes_or_emoji_leave_a_text_decided_as_ascii():
    """A text whose only non-ASCII characters are symbols no declaration names
    (dashes, curly quotes, emoji) is scanned with ASCII stand-ins for them, and the
    scan decides its patterns exactly as Python's regexes read the text itself."""
    import random

    from extract.results.formats import _PARTS

    parts = [(regex, name) for ps in _PARTS.values() for regex, _, name in ps if name]
    words = ["took", "12", "ms", "3.5", "x", "%", "TPS", "Time:", "a=5", " ", "  ", "\n", "|"]
    words += ["10:30", "-", "+--+", "ops/s", "before", "after", "vs", "2x", "Mean", "\t", "_"]
    symbols = ["\u2014", "\u201c", "\u2019", "\U0001f914", "\uf050", "\u00ab", "\u00b7"]
    rnd = random.Random(11)
    texts = ["said \u2014 it took 12 ms \u2019", "\u201cTPS\u201d: 5 \U0001f914"]
    for _ in range(400):
        texts.append("".join(rnd.choice(words + symbols) for _ in range(rnd.randint(1, 30))))
    for t in texts:
        hits = prefilter.scan(t)
        for regex, name in parts:
            if regex.search(t):
                assert name in hits, (name, t)
            elif hits.decides(name):
                assert name not in hits, (name, t)
    assert prefilter.scan(texts[0]).decides("format:records:0:trigger")
    # a letter or a digit outside ASCII has no stand-in: Python's regexes say
    assert not prefilter.scan("caf\u00e9 took 12 ms").decides("format:records:0:trigger")


def test_a_screened_pattern_is_found_among_all_the_declarations():
    """A pattern compiled in Hyperscan's prefilter mode (an atomic group) that
    matches must be reported by the scan of the whole database too: with
    HS_FLAG_SINGLEMATCH this text's prose trigger was missed."""
    from extract.results.formats import _PARTS

    regex, _, name = _PARTS["prose"][14]
    text = ":ovs% TPSMeanops/sSzabo  1210:30"
    assert regex.search(text) and name in prefilter.scan(text)


def test_a_commit_with_a_diffstat_is_scanned_twice_not_three_times(monkeypatch):
    """The registry scans the body, then the body less the diffstat it removed; the
    classifier's scan of the body is then the one kept from before."""
    text = (
        "Speed up the reader\n\n"
        "Reads each line once.\n\n"
        " extract/reader.py | 12 +++++++-----\n"
        " tests/test_reader.py | 30 ++++++++++++++++++++++++++++++\n"
        " 2 files changed, 37 insertions(+), 5 deletions(-)\n"
    )
    compiled = prefilter._compiled()
    scanned: list[str] = []
    real = type(compiled).scan
    monkeypatch.setattr(type(compiled), "scan", lambda self, t: scanned.append(t) or real(self, t))
    prefilter._forget()
    tables = extract_results(text)
    classify(text, tables, subject="Speed up the reader", kind="commit")
    assert len(scanned) == 2 and scanned[0] == text and scanned[1] != text
    assert "files changed" not in scanned[1]  # (the diffstat was masked)


def test_a_thread_dump_that_names_no_exception_is_a_stack_both_ways():
    """A thread dump's frames name no exception or error: the stack check may run
    on the frames alone, as the plain path runs it."""
    dump = "The job hangs; jstack shows:\n" + "".join(
        f"    at org.example.flink.Task{k}.run(Task{k}.java:{100 + k})\n" for k in range(6)
    )
    _same_both_ways(dump)
    plain = classify(dump, extract_results(dump, plain=True), plain=True)
    assert any("stack trace" in r for r in plain.reasons)


def test_the_lowered_sample_reads_as_re_ignorecase_does():
    """Lower-case regexes without re.I read `lowered(text)` as re.I reads the text:
    every character stays one, a word character, a digit or a blank stays one, and a
    character becomes an ASCII letter exactly when re.I matches it with that letter."""
    any_letter = re.compile(r"[a-z]", re.I)
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        low = lowered(char)
        assert len(low) == 1
        if low == char and not any_letter.fullmatch(char):
            continue
        for cls in (r"\w", r"\d", r"\s"):
            assert bool(re.fullmatch(cls, char)) == bool(re.fullmatch(cls, low)), hex(code)
        if any_letter.fullmatch(char):
            assert "a" <= low <= "z" and re.fullmatch(low, char, re.I), hex(code)


def test_a_declaration_gives_its_rows_for_another_database():
    """`expressions(name)`: what the scan looks for a name with, for the gate's own
    database: literals, lower literals caselessly, a pattern that needs it in
    Hyperscan's prefilter mode; None for one that does not compile at all."""
    import hyperscan

    prefilter.declare("test:both", Needs(literals=("Score",), lower=("ops/s",)))
    prefilter.declare("test:screened", Needs(patterns=(r"(?<![a-z])tps",), caseless=True))
    prefilter.declare("test:never", Needs(patterns=(r"(?=x)",)))
    try:
        rows = prefilter.expressions("test:both")
        assert [flags & hyperscan.HS_FLAG_CASELESS for _, flags in rows] == [
            0,
            hyperscan.HS_FLAG_CASELESS,
        ]
        ((_, flags),) = prefilter.expressions("test:screened")
        assert flags & hyperscan.HS_FLAG_PREFILTER
        assert prefilter.expressions("test:never") is None
        assert prefilter.expressions("test:never-declared") == []
    finally:
        for name in ("test:both", "test:screened", "test:never"):
            prefilter.declare(name, Needs())


def test_a_cached_database_may_be_built_only_when_none_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(prefilter, "CACHE_DIR", tmp_path / "prefilter")
    built = []

    def rows():
        built.append(1)
        return [(rb"\d+ ms", 0, 0)]

    found = []
    for _ in range(2):
        db = prefilter.cached_database("test", rows, key="one row")
        db.scan(b"took 12 ms", match_event_handler=lambda i, s, e, f, c: found.append(i))
    assert found == [0, 0]
    assert built == [1]  # (the second read it back)
