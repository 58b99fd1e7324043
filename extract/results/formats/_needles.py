"""Which of many plain substrings ("needles") occur in a text, in about one pass.

The registry checks every format's needles on every message (`FormatInfo.needles`).
`needle in text` scans the whole text each time, about a microsecond per needle on an
average mail; a hundred needles cost more than the parsers. `NeedleScan` looks for all
of them with one regex instead, whose branches each start at a character that is rare
in mail (an uppercase letter, `(`, `±`, `_` ...): the regex engine skips over the text
to the next such character, and only there checks the rest of a needle (the part
before it with a lookbehind). At every position it stops, all needles anchored on that
character are checked with `startswith`, so the result is exact: `found(text)` is the
set of the needles `n` with `n in text`.

Needles of one character (`in` is a `memchr`) and needles made only of common
characters (a regex anchored on `e` would stop everywhere) are checked with `in`;
needles of one non-ASCII character (there may be hundreds: the digits of all
scripts) are not in an ASCII text (`str.isascii` is free), and in another text they
are looked up in a set for each non-ASCII character (one regex finds those; a class
of hundreds of characters would be slow to scan with).
"""

from __future__ import annotations

import os
import re
from collections import defaultdict

# ASCII characters from most to least frequent in mail text (measured on the bench
# mix). A needle is anchored on its character listed last here; characters not listed
# (the rest of ASCII, all non-ASCII) are the rarest. Only speed depends on this order.
_BY_FREQUENCY = (
    " -etaoinsrlc/hdp\nm.ufgb\":0><1y=+2w4v,)5(36;'x7k@98A_SFPIjM|TC#DEBHqRL[z]%NOU{JG`!W*"
    "\t}&?VYKQXZ$\\~^"
)
# Too common to anchor on: a needle made only of these is checked with `in`.
_COMMON = frozenset(_BY_FREQUENCY[: _BY_FREQUENCY.index("+")])
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_RANK = {c: i for i, c in enumerate(_BY_FREQUENCY)}


def _rarity(c: str) -> int:
    return _RANK.get(c, len(_BY_FREQUENCY))


class NeedleScan:
    def __init__(self, needles) -> None:
        self.plain: list[str] = []  # checked with `in`
        wide = []  # one non-ASCII character
        groups: dict[str, list[tuple[str, int]]] = defaultdict(list)  # anchor -> (needle, index)
        common: dict[str, list[str]] = defaultdict(list)  # first two characters -> needles
        for n in sorted(set(needles)):
            if len(n) == 1 and not n.isascii():
                wide.append(n)
                continue
            if len(n) == 1:
                self.plain.append(n)
                continue
            if all(c in _COMMON for c in n):
                common[n[:2]].append(n)
                continue
            i = max(range(len(n)), key=lambda k: _rarity(n[k]))
            groups[n[i]].append((n, i))
        # Needles of common characters that start alike ("rate=", "rate<") are found
        # with one regex that starts with what they share (the engine skips to it),
        # unless that could start again inside one of them (an occurrence could hide
        # in a match): "in set" and "initial connection time", one pass for two.
        self._prefixed: list[tuple[re.Pattern, list[str]]] = []
        for members in common.values():
            shared = os.path.commonprefix(members)
            if len(members) == 1 or any(shared in n[1:] for n in members):
                self.plain += members
                continue
            rests = sorted((n[len(shared) :] for n in members), key=len, reverse=True)
            regex = re.compile(re.escape(shared) + "(?:" + "|".join(map(re.escape, rests)) + ")")
            self._prefixed.append((regex, members))
        self._groups = dict(groups)
        branches = []
        for anchor, members in sorted(self._groups.items()):
            rests = sorted(
                {
                    (f"(?<={re.escape(n[: i + 1])})" if i else "") + re.escape(n[i + 1 :])
                    for n, i in members
                }
            )
            branches.append(re.escape(anchor) + "(?:" + "|".join(rests) + ")")
        self._regex = re.compile("|".join(branches)) if branches else None
        self._wide = frozenset(wide)

    def found(self, text: str) -> set[str]:
        """The needles that occur in `text`."""
        out = {n for n in self.plain if n in text}
        for regex, members in self._prefixed:
            for m in regex.finditer(text):
                at = m.start()
                out.update(n for n in members if text.startswith(n, at))
        if self._wide and not text.isascii():
            for run in _NON_ASCII.findall(text):
                out.update(self._wide.intersection(run))
        if self._regex is None:
            return out
        search = self._regex.search
        groups = self._groups
        pos = 0
        while (m := search(text, pos)) is not None:
            at = m.start()
            for n, i in groups[text[at]]:
                if at >= i and text.startswith(n, at - i):
                    out.add(n)
            pos = at + 1
        return out
