"""The fast paths of the generic parsers give what the simple per-line code gives:
on every real text of the trigger tests (also flattened) and on random texts made of
the characters those paths care about."""

from __future__ import annotations

import random
import re
import sys

from extract.formats import ascii_table as A
from tests.test_formats_triggers import texts

_ALL = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]


def test_line_breaks_and_spaces_are_pythons():
    breaks = {c for c in _ALL if len(("a" + c + "b").splitlines()) == 2}
    spaces = {c for c in _ALL if re.match(r"\s", c)}
    assert breaks == set(A.LINE_BREAKS) | {"\n"}
    assert spaces == set(A.LINE_BREAKS + A.OTHER_SPACES) | {"\n", " "}


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


def test_ascii_table_header_digit_shortcut():
    for t in _ascii_samples():
        for tok in A._TOKEN.findall(t):
            if not A._DIGIT.search(tok):
                assert A.read_cell(tok) is None
