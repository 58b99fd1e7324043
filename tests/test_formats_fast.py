"""The fast paths of the generic parsers give what the simple per-line code gives:
on every real text of the trigger tests (also flattened) and on random texts made of
the characters those paths care about."""

from __future__ import annotations

import random
import re
import sys

from extract.results.formats import ascii_table as A
from extract.results.formats import delimited as D
from extract.results.formats import prose as P
from tests.test_formats_triggers import texts

_ALL = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]


def test_line_breaks_and_spaces_are_pythons():
    breaks = {c for c in _ALL if len(("a" + c + "b").splitlines()) == 2}
    spaces = {c for c in _ALL if re.match(r"\s", c)}
    assert breaks == set(A.LINE_BREAKS) | {"\n"}
    assert spaces == set(A.LINE_BREAKS + A.OTHER_SPACES) | {"\n", " "}


def test_prose_wide_digits_are_the_other_digits_of_re():
    assert set(P.WIDE_DIGITS) == {c for c in _ALL if not c.isascii() and re.match(r"\d", c)}


def test_needle_scan_finds_one_character_needles_outside_ascii():
    from extract.results.formats._needles import NeedleScan

    scan = NeedleScan(["±", "٣", "│", "ab", "a"])
    assert scan.found("ab ±٣") == {"±", "٣", "ab", "a"}
    assert scan.found("a│b") == {"│", "a"}
    assert scan.found("ab a") == {"ab", "a"}


def test_needle_scan_groups_needles_that_start_alike():
    from extract.results.formats._needles import NeedleScan

    scan = NeedleScan(["rate=", "rate<", "rate ", "sys", "sysbench", "abab", "abc"])
    assert len(scan._prefixed) == 2  # rate..., sys...; not abab/abc: "ab" recurs in "abab"
    assert scan.found("x rate< rate=sysbench") == {"rate<", "rate=", "sys", "sysbench"}
    assert scan.found("ababc rate") == {"abab", "abc"}


def _random_texts(n: int = 3000) -> list[str]:
    rnd = random.Random(7)
    plain = [" ", " ", " ", "\n", "\n", "a", "Ab", "1", "2.5 ms", "+", "-", "---", "|"]
    plain += ["│", "┌", "─", ":", "=", ".", "x", "é"]
    odd = ["\t", "\r\n", "\xa0", "\x0b", "\x85"]
    out = []
    for k in range(n):
        alphabet = plain if k % 2 else plain + odd
        out.append("".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60))))
    return out


def _ascii_samples() -> list[str]:
    return list(texts()) + _random_texts()


def test_ascii_table_plain_paths_match_the_per_line_checks():
    for t in _ascii_samples():
        lines = A._lines(t)
        plain = A.is_plain(t)
        assert plain == (not re.search(r"[^\S \n]", t))
        if not plain:
            continue
        assert A._lines(t, True) == lines
        gaps = [m.start() for m in A._PLAIN_GAP.finditer(t)]
        assert A._two_cell_lines(lines, gaps) == A._two_cell_lines(lines, None)
        assert A._has_plain_rule(t) == any(A._RULE.match(x) for _, x in lines)
        boxes = A._may_have_box(t, True)
        assert boxes or not A._box_tables(t, lines, True)
        assert A._box_lines(t, lines, True) == A._box_lines(t, lines, False)


def test_ascii_table_header_digit_shortcut():
    for t in _ascii_samples():
        for tok in A._TOKEN.findall(t):
            if not A._DIGIT.search(tok):
                assert A.read_cell(tok) is None


_OLD_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z`*(\[\"'])|\n[ \t]*\n|\n(?=[ \t]*(?:[-*•>#]|\d+[.)])\s)"
    r"|\s\|\s|\n(?=[A-Z#])"
)


def _prose_samples() -> list[str]:
    rnd = random.Random(11)
    words = list(P._QUALIFIERS) + ["approx", "approxi", "than", "more", "x", "X", "%", "ms"]
    words += ["12", "1,234", "3.5", "4:40", "2-5", "320k", "7 ", "0", "٣", "s", "sec", "min"]
    words += ["rows/sec", "times faster", "QPS", ".", "!", "?", "-", "/", "=", ":", "#", "|"]
    words += [" ", " ", "  ", "\n", "\n\n", "\t", "\xa0", "A", "The", "* ", "1) ", ">", "v"]
    out = list(texts())
    for _ in range(4000):
        out.append("".join(rnd.choice(words) for _ in range(rnd.randint(0, 30))))
    return out


def test_prose_candidates_are_the_regex_matches():
    def spans(ms):
        return [(m.span(), m.groupdict()) for m in ms]

    for t in _prose_samples():
        assert spans(P._candidates(t)) == spans(P._CANDIDATE.finditer(t)), t[:200]
        if any(P._CANDIDATE.finditer(t)):  # the gate on each sentence
            assert P._NUMBER_UNIT_RE.search(t), t[:200]


def test_prose_quote_marks_and_fences():
    old_quote_mark = re.compile(r"(?<=\s)>(?=\s)")
    for t in [*_prose_samples(), "a > b", ">\n>", " >", "x >> y", "\n> a"]:
        assert P._QUOTE_MARK.sub(" ", t) == old_quote_mark.sub(" ", t)
        if P._FENCE.search(t):
            assert any(f in t for f in P._FENCE_STARTS)


def test_prose_clause_before_is_the_split():
    for t in _prose_samples() + ["a;b(c" * 100, "(" + "x" * 300, "x" * 160 + ")" + "y" * 10]:
        for start in {0, 1, len(t) // 2, len(t) - 1, len(t)} | set(range(0, len(t), 97)):
            if 0 <= start <= len(t):
                expected = re.split(r"[;()\[\]]", t[:start])[-1][-150:]
                assert P._clause_before(t, start) == expected


def _old_label(sentence: str, pos: int) -> str | None:
    head = sentence[:pos]
    head = re.split(
        r"(?i)\s(?:from|is|was|are|were|of|by|takes?|took|to|at|in|:|->|→)\s*$", head.rstrip()
    )[0]
    pieces = [p for p in re.split(r"[.;!?]\s|[;,]\s|\[", head) if re.search(r"[A-Za-z]", p)]
    words = pieces[-1].split() if pieces else []
    return " ".join(words[-10:]).strip(" `*:-(") or None


def test_prose_label_is_the_split_label():
    ends = [" from", " is", " TAKES", " take", " took", " :", " ->", " →", " in ", "x:", "\tto\n"]
    for t in _prose_samples() + [f"build time{e} 5" for e in ends]:
        for pos in {0, len(t) // 2, len(t) - 1, len(t)} | set(
            range(0, len(t), max(53, len(t) // 8))
        ):
            assert P._label(t, pos) == _old_label(t, pos), (t[:200], pos)


def test_prose_pieces_are_in_every_match():
    rnd = random.Random(17)
    words = [*P._SETTING_PIECES, *P._EXPECTATION_PIECES, "Timeout", "SHOULD", "Set To", "x"]
    words += [" ", "  ", "--opt", "=", ":", "of", "is", "ing", "ed", "\t", "a", "5", "\n"]
    samples = [t[i : i + 150] for t in _prose_samples() for i in range(0, len(t), 150)]
    samples += ["".join(rnd.choice(words) for _ in range(rnd.randint(1, 8))) for _ in range(5000)]
    for t in samples:
        if P._SETTING_BEFORE.search(t):
            assert P._may_match(t, P._SETTING_PIECES), t
        if P._EXPECTATION.search(t):
            assert P._may_match(t, P._EXPECTATION_PIECES), t


def _old_quoted(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in re.finditer(r"(?m)^[ \t]*>[^\n]*", text):
        end = m.end()
        line = m.group()
        while len(line) >= 70 and end < len(text):
            nxt = re.match(r"\n([ \t]*[^\s>][^\n]*)", text[end:])
            if not nxt:
                break
            line = nxt.group(1)
            end += nxt.end()
        spans.append((m.start(), end))
    return spans


def test_prose_quoted_lines_are_the_multiline_regex_lines():
    rnd = random.Random(9)
    samples = _prose_samples()
    samples += [
        "".join(rnd.choice(["> ", "x" * 40, "\n", " ", ">"]) for _ in range(12)) for _ in range(500)
    ]
    for t in samples:
        assert P._quoted(t) == _old_quoted(t), t[:200]


def test_prose_sentence_ends_are_the_simple_regex_ends():
    rnd = random.Random(13)
    for t in _prose_samples():
        window = sorted((rnd.randint(0, len(t)), rnd.randint(0, len(t))))
        for lo, hi in ((0, len(t)), (len(t) // 3, len(t) - 2), window):
            old = [m.span() for m in _OLD_SENTENCE_END.finditer(t, lo, hi)]
            assert [m.span() for m in P._SENTENCE_END.finditer(t, lo, hi)] == old, t[:200]
            assert [m.span() for m in P._ends(t, lo, hi)] == old, t[:200]


def _delimited_line_by_line(text: str):
    """delimited's parse as it was: every line with a delimiter tried as a header."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    tables, floor, i = [], 0, 0
    while i < len(lines) - 1:
        line = lines[i]
        if "," not in line and "\t" not in line and ";" not in line:
            i += 1
            continue
        table = D._table_at(text, lines, offsets, i, floor)
        if table is None:
            i += 1
            continue
        tables.append(table)
        floor = table.span[1]
        i = 1 + next(k for k in range(i, len(lines)) if offsets[k + 1] - 1 >= floor)
    return tables


def _delimited_samples() -> list[str]:
    rnd = random.Random(5)
    names = ["Name", "Time (ms)", "a b", "threads", "x", '"q,1"', "", "1"]
    values = ["1", "2.5", "12", "x", "topology-0", "2024-01-02", "", '"3,5"', "1.2.3"]
    out = list(texts())
    for _ in range(1500):
        width, d = rnd.randint(2, 5), rnd.choice([",", ";", "\t", ", "])
        rows = [d.join(rnd.choice(names[:4]) for _ in range(width))]
        for _ in range(rnd.randint(0, 5)):
            n = width if rnd.random() < 0.8 else rnd.randint(1, 6)
            pool = values[:3] if rnd.random() < 0.6 else values
            rows.append(d.join(rnd.choice(pool) for _ in range(n)))
            if rnd.random() < 0.2:
                rows.append(rnd.choice(["", "text, more text", d.join(names)]))
        out.append(rnd.choice(["\n", "\n", "\r\n"]).join(rows))
    return out


def test_delimited_reads_the_tables_line_by_line_reading_does():
    def dump(tables):
        return [
            (t.span, t.columns, t.rows, t.variant, [repr(m) for m in t.measurements])
            for t in tables
        ]

    def line_by_line(t):
        try:
            return _delimited_line_by_line(t)
        except Exception:
            return []

    found = 0
    for t in _delimited_samples():
        expected = dump(line_by_line(t))
        found += bool(expected)
        assert dump(D.parse(t)) == expected, t[:200]
    assert found > 100
