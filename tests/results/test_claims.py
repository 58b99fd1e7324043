"""What a message says in words about a change (`extract.results.claims`): the factor
read as the change's speed-up over its baseline, whichever side the words describe."""

from __future__ import annotations

import re

import duckdb
import pytest

from extract.results.claims import CLAIM_PATTERN, references, stated_claims


def _one(text: str):
    [claim] = stated_claims(text)
    return claim


@pytest.mark.parametrize(
    ("text", "words", "speedup"),
    [
        # said of the change, or of nothing named: as written
        ("The patch makes it 3x faster.", "3x faster", 3.0),
        ("It is now 2.5 times quicker.", "2.5 times quicker", 2.5),
        ("With this PR the scan is 20% slower.", "20% slower", 1 / 1.2),
        ("an easy 7%\nspeedup relative to the old map", "7%\nspeedup", 1.07),
        # said of the baseline: the other way round
        ("Before the patch it was 3x slower.", "3x slower", 3.0),
        ("master is 2x faster than this PR.", "2x faster", 0.5),
        ("old code: 4.81x  slower", "4.81x  slower", 4.81),
        # compared with the change: the other way round too
        ("It is 2x slower than with the patch.", "2x slower", 2.0),
        # the quantity decides what less and more mean
        ("The job takes 30% less time.", "30% less", 1 / 0.7),
        ("We get 30% more throughput.", "30% more", 1.3),
        ("The merge uses 50% fewer allocations.", "50% fewer", 2.0),
        ("It needs 3x less memory.", "3x less", 3.0),
        ("Latency went down by 40% after the change.", "down by 40%", 1 / 0.6),
        ("That is about 22% more than the 28,950 tps of the last release.", "22% more", 1.22),
        ("Throughput improved by 15%.", "improved by 15%", 1.15),
        # hyperfine's summary, with its ±
        ("'./a' ran\n    1.23 ± 0.02 times faster than './b'", "1.23 ± 0.02 times faster", 1.23),
        # CJK
        ("这个改动让性能提升了30%。", "提升了30%", 1.3),
        ("查询延迟下降了20%。", "下降了20%", 1.25),
        ("吞吐下降了20%。", "下降了20%", 0.8),
        ("新版本快 2 倍。", "快 2 倍", 2.0),
        ("rocksdb几乎比mysql快一倍。", "快一倍", 2.0),
        ("带来了3倍的提升。", "3倍的提升", 3.0),
        # a multiple written in words
        ("With SSDs the job ran about three times faster.", "three times faster", 3.0),
        ("The new codec is twice as fast as the old one.", "twice as fast", 2.0),
        ("Before the patch it was ten times slower.", "ten times slower", 10.0),
        ("This gives a fourfold speedup on wide rows.", "fourfold speedup", 4.0),
        ("a two-fold reduction in latency", "two-fold reduction", 2.0),
        ("Reads are an order of magnitude faster now.", "an order of magnitude faster", 10.0),
        # a factor
        ("The new index is faster by a factor of 3.", "faster by a factor of 3", 3.0),
        ("Memory use was reduced by a factor of ten.", "reduced by a factor of ten", 10.0),
        ("Before the patch it was slower by a factor of 2.", "slower by a factor of 2", 2.0),
    ],
)
def test_each_form_reads_as_the_changes_speedup(text, words, speedup):
    claim = _one(text)
    assert claim.words == words
    assert claim.speedup == pytest.approx(speedup)


@pytest.mark.parametrize(
    "text",
    [
        "We retried it five times, more or less by hand.",  # a count, then a clause
        "It sometimes fails, and is slower to start.",  # `times` inside a word
        "I pinged them twice about it.",  # `twice` with no comparison
        "Two people more joined the call.",  # a numeral with no multiple
        # a count of runs: the quantity is not named right after the words
        "I ran it five times more to be sure the latency numbers were stable.",
        "Ten times more runs did not change the median latency.",
        # a compound numeral, which its last word would misread
        "It is twenty-five times faster.",
        "It is two hundred times faster.",
    ],
)
def test_numerals_that_state_no_multiple_are_no_claims(text):
    assert stated_claims(text) == []


def test_a_multiple_in_words_is_read_as_loosely_as_it_is_meant():
    import math

    assert _one("Reads are an order of magnitude faster.").tolerance >= math.log(3)
    assert _one("It is a hundred times faster.").tolerance >= math.log(1.25)
    assert _one("It uses ten times less memory.").speedup == pytest.approx(10.0)


def test_words_without_a_direction_give_no_factor():
    claim = _one("The run took 30% more.")  # more of what?
    assert claim.words == "30% more" and claim.factor is None and claim.speedup is None


def test_subject_and_object_name_the_sides():
    claim = _one("It seems dense_hash_map is an easy 7% speedup relative to the STL map.")
    assert "dense_hash_map" in claim.subject and claim.object.startswith("the STL map")
    row = _one("   Foo (after):  15.4 i/s\n   Foo (before):   3.2 i/s - 4.81x  slower\n")
    # a table row names its side on its own line, the nearest mention
    assert row.line.strip().startswith("Foo (before)") and row.subject_side == "before"
    cjk = _one("rocksdb几乎比mysql快一倍。")
    assert cjk.subject == "rocksdb几乎" and cjk.object == "mysql"


def test_the_tolerance_follows_the_digits_written():
    # "2x" may be 1.5 to 2.5; "2.00x" is 1.995 to 2.005 (plus the rounding slack)
    assert _one("2x faster").tolerance > _one("2.00x faster").tolerance > 0.05


def test_references_name_what_the_message_compares_with():
    [(_, phrase)] = references('Compare the results to "hdfs dfs -text" since it is raw.')
    assert phrase.startswith('"hdfs dfs -text"')
    [(_, phrase)] = references("The old allocator is the baseline here.")
    assert phrase == "The old allocator"


def test_the_sql_pattern_finds_the_same_words():
    """The `claims` view lists `claimed_words` with the same pattern, in DuckDB's RE2."""
    text = (
        "Before the patch it was 3x slower; latency went down by 40%.\n"
        "性能提升了30%，快 2 倍。 Foo (before):  3.2 i/s - 4.81x  slower\n"
        "It is twice as fast, three times faster and an order of magnitude better.\n"
        "Reads got faster by a factor of 3, writes MORE BY A FACTOR OF TWO."
    )
    with duckdb.connect() as con:
        [(found,)] = con.execute(
            "SELECT regexp_extract_all(?, ?)", [text, CLAIM_PATTERN]
        ).fetchall()
    assert found == [m.group(0) for m in re.finditer(CLAIM_PATTERN, text)]
    assert found == [c.words for c in stated_claims(text)]


def test_time_is_linear_in_the_text():
    import time

    text = "The patch is 2x faster than before. " * 2000
    start = time.perf_counter()
    assert len(stated_claims(text)) == 2000
    small = time.perf_counter() - start
    start = time.perf_counter()
    assert len(stated_claims(text * 4)) == 8000
    assert time.perf_counter() - start < 12 * small + 0.5


def test_a_long_run_of_blanks_after_a_unit_is_read_once():
    """`3x`, `three times` or `提升` then 20,000 blanks and no word: each run of blanks
    between a unit and its words is read one way only (it took 16 s, quadratic)."""
    import time

    for head in ("3x", "three times", "提升 约", "2 x a"):
        text = head + " " * 20_000 + "z %"
        start = time.perf_counter()
        assert stated_claims(text) == []
        assert time.perf_counter() - start < 0.5, head


def _texts_with_claims():
    from tests.conftest import REPO, SHARED

    paths = sorted((REPO / "tests" / "fixtures").rglob("*.txt"))
    paths += sorted((SHARED / "corpus").glob("*/*.txt")) if SHARED.is_dir() else []
    return [p.read_text("utf-8", errors="replace") for p in paths]


def test_the_quick_search_never_hides_a_claim():
    """`stated_claims` returns nothing at once where `_MAY_CLAIM` finds no unit after
    digits and no `倍` (in the lowered text): no phrase may match there."""
    from extract.results import claims
    from extract.results.prefilter import lowered

    written = [
        "It went 7% faster.",
        "a 3-fold speedup",
        "快一倍",
        "improvement of 2 TIMES",
        "latency down by 30 %",
        "性能提升 30％",
        "1.23 ± 0.02 times faster",
        "three times faster",
        "twice as slow",
        "a tenfold gain",
        "an order of magnitude faster",
        "faster by a factor of 3",
    ]
    for text in written + _texts_with_claims():
        if not claims._MAY_CLAIM.search(lowered(text)):
            assert not list(claims._CLAIM.finditer(text)), text[:200]
    assert all(stated_claims(t) for t in written)


def test_the_stretches_searched_find_what_the_whole_text_finds():
    """`_phrases_lowered` searches only the lines with a unit and the lines a phrase
    may run on to: it finds the phrases a search of the whole lowered text finds."""
    from extract.results import claims
    from extract.results.prefilter import lowered

    written = [
        "It went 7% faster.\nNothing here.\nThen 3 x\n\n  a\n\n  slower, and 2x\nfaster.",
        "a 3 -fold speedup, 3- fold none, 0x1f, 2 times\n\n\nthe\tbetter",
        "提升三%\n快一倍，性能提升 30％\n3倍的性能提升",
        "latency down by about 30 %\nimprovement of\n2x\nsped up by 2x",
        "1.23 ± 0.02 times faster\r\n5x\u2028faster 12 % 4 ×",
        "sometimes three\ntimes\n\nfaster; ten -fold gain, x2 times, _two times faster",
        "twice\nas fast, an order of\nmagnitude slower, an order of magnitude\n\n better",
        "faster\nby a factor of 3; reduced by a\nfactor of ten, a factor of 2",
    ]
    for text in written + _texts_with_claims():
        low = lowered(text)
        whole = list(claims._CLAIM_LOWERED.finditer(low)) if claims._MAY_CLAIM.search(low) else []
        assert [m.span() for m in claims._phrases_lowered(low)] == [m.span() for m in whole]
        assert bool(claims._unit_lines(low)) == bool(claims._MAY_CLAIM.search(low))


def test_the_lowered_text_holds_the_same_phrases():
    """The phrases are found in the lowered text without re.I (`_CLAIM_LOWERED`), where
    and as `_CLAIM` finds them in the text: letters in any case, and the characters
    re.I reads as ASCII letters (`ſ`, `ı`, `İ`, the Kelvin sign)."""
    from extract.results import claims
    from extract.results.prefilter import lowered

    written = [
        "It went 7% FASTER, then 2X SLOWER.",
        "a 3-FOLD ſpeedup; latency DOWN BY 30 %",
        "ımproved by 2x, İMPROVED BY 3x, a 4 \u212a gain of 5 times",
        "性能提升 30％ 快一倍",
        "THREE TIMES FASTER, TWICE AS SLOW, AN ORDER OF MAGNITUDE BETTER, a TenFold gain",
        "ſix times faster, fıve times slower, twİce as fast",
    ]
    for text in written + _texts_with_claims():
        spans = [m.span() for m in claims._CLAIM.finditer(text)]
        assert [m.span() for m in claims._CLAIM_LOWERED.finditer(lowered(text))] == spans
    assert all(stated_claims(t) for t in written)


def test_the_lead_turns_away_no_phrase():
    """`_CLAIM` is led by the characters a phrase starts with: it finds what the plain
    phrases (`CLAIM_PATTERN`) find, each verb and CJK word written in any case."""
    verbs = [
        "improved", "sped up", "speeds up", "boosted", "gained", "regressed", "degraded",
        "slowed down", "reduced", "decreased", "dropped", "cut", "down", "fell", "lowered",
        "increased", "up", "grew", "rose", "raised",
    ]  # fmt: skip
    text = " ".join(f"It {v.upper()} BY 30%, {v.title()} of 2x." for v in verbs)
    text += " 提升了30% 慢 2 倍 加速 3 倍 下降了20% 降低 5% 减少 9% 缩短 4%"
    text += " 增加 7% 增长 8% 3倍的提升"
    plain = [m.group(0) for m in re.finditer(CLAIM_PATTERN, text)]
    assert len(plain) > 20
    assert [c.words for c in stated_claims(text)] == plain
