"""One scan of a message says which format parsers and classifier features can find
anything in it.

Each user of the prefilter (a format's trigger part, a classifier feature, ...)
DECLARES, next to its own definition, what it cannot do without:

    prefilter.declare("classify:ci", Needs(lower=("hadoop qa", "codecov", ...)))

- `literals`: plain substrings, looked for as written;
- `lower`: substrings written in lower case, looked for case-insensitively (where
  `text.lower()` would hold them: `İ`, `ı`, `ſ`, `K` count as `i`, `s`, `k`, as
  they do for an re.I pattern);
- `patterns`: regexes in Hyperscan's syntax (PCRE without lookarounds, possessive
  quantifiers or backreferences), searched case-insensitively when
  `caseless` is set. They see ASCII text only: a text with other characters
  passes them (Python's `\\d`, `\\s`, `\\w` and re.I are Unicode-wide, Hyperscan's
  here are not), as it does one holding the control characters \\x1c-\\x1f, which
  Python's `\\s` takes for blanks; unless its other characters are only dashes,
  quotes, emoji and the like that no declaration names: those are read as ASCII
  stand-ins that every pattern treats alike (`_StandIns`). Letters no declaration
  names (`á`, `ő` in a sign-off) are read as `_`, which may let a pattern through
  but never rules one out wrongly: such a scan decides nothing, Python's regex does.

A user may run when one of its literals, lower literals or patterns is found (or
always, when it declared nothing: a missing declaration only costs speed).
A pattern Hyperscan cannot compile as written (a lookaround, a backreference) is
compiled in its prefilter mode instead, which matches wherever the pattern does
and maybe elsewhere too: where it finds nothing, the user still need not run;
where it finds something, the user's own regex has to say (`Hits.decides` is
False for such a user).
`scan(text)` compiles all the declarations into one Hyperscan database (once, and
again when a new declaration comes) and runs it over the text in one pass.

Why Hyperscan and not google-re2's `re2.Set`: both scan a message for the ~100
declarations in 8-10 µs (measured on the labelled corpora's bodies), but RE2
builds its DFA lazily: its first pass over the corpora cost 70 µs a message, and a
DFA that outgrows its memory budget falls back to a slower NFA. Hyperscan compiles
once, ahead, to a fixed size. Both have wheels for Linux x86-64 and ARM64, macOS
x86-64 and ARM64 and Windows; Hyperscan's also for musl Linux.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
import threading
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import hyperscan

__all__ = [
    "Needs",
    "Hits",
    "EVERYTHING",
    "declare",
    "needs_of",
    "expressions",
    "scan",
    "compiles",
    "warm",
]


@dataclass(frozen=True)
class Needs:
    literals: tuple[str, ...] = ()
    lower: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    caseless: bool = False  # for `patterns`

    def __bool__(self) -> bool:
        return bool(self.literals or self.lower or self.patterns)


class Hits:
    """Which declared users may run on one text: `name in hits`. A name that
    declared nothing (or was never declared) is always in."""

    __slots__ = ("_found", "_gated", "_decided")

    def __init__(
        self,
        found: frozenset[str] | set[str],
        gated: frozenset[str],
        decided: frozenset[str] = frozenset(),
    ) -> None:
        self._found = found
        self._gated = gated
        self._decided = decided

    def decides(self, name: str) -> bool:
        """Whether `name in hits` says exactly if its patterns match (the text was
        ASCII and Hyperscan compiled them), not only that they may."""
        return name in self._decided

    def among(self, names: frozenset[str]) -> frozenset[str]:
        """The `names` that are in: `{n for n in names if n in hits}`, in two set
        operations (for a caller that asks about many names)."""
        ungated = _UNGATED.get((names, self._gated))
        if ungated is None:
            ungated = _UNGATED[names, self._gated] = names - self._gated
        return (names & self._found) | ungated

    @property
    def decided(self) -> frozenset[str]:
        """The names `decides` is true for."""
        return self._decided

    def __contains__(self, name: str) -> bool:
        return name in self._found or name not in self._gated

    def __repr__(self) -> str:
        return f"Hits({sorted(self._found)})"


# (the names a caller of `Hits.among` asks about that declared nothing, per compiled
# set of declarations: the same every time)
_UNGATED: dict[tuple[frozenset[str], frozenset[str]], frozenset[str]] = {}


class _Everything(Hits):
    def __contains__(self, name: str) -> bool:
        return True

    def among(self, names: frozenset[str]) -> frozenset[str]:
        return names


# The plain path: every user runs (what the prefilter must never change).
EVERYTHING: Hits = _Everything(frozenset(), frozenset())

_DECLARED: dict[str, Needs] = {}
_LOCK = threading.Lock()

# Python's re.IGNORECASE lets these match an ASCII letter; Hyperscan's caseless
# matching is ASCII only, so a non-ASCII text is also scanned folded.
_FOLD = str.maketrans({"İ": "i", "ı": "i", "ſ": "s", "K": "k"})


def fold(text: str) -> str:
    """`text.translate(_FOLD)`, in the time of four finds when none of them is there
    (str.translate looks every character up)."""
    for char, letter in (("İ", "i"), ("ı", "i"), ("ſ", "s"), ("K", "k")):
        if char in text:
            text = text.replace(char, letter)
    return text


def lowered(text: str) -> str:
    """`text` as re.I reads it, for a regex written in lower case and compiled without
    re.I (which tries a letter's cases at every step): its ASCII letters in lower
    case, and `İ`, `ı`, `ſ`, `K` as the ASCII letters re.I matches them with. Every
    character stays one character (`İ` is the only one whose `lower()` is two), and a
    word character, a digit or a blank stays one: the regex matches where and as its
    re.I form matches the text."""
    return fold(text).lower()


# Characters Python's `\s` takes for blanks and Hyperscan's does not.
# (four finds are much faster than a regex scanning for the class)
_ODD_BLANKS = "\x1c\x1d\x1e\x1f"

# How a name's patterns compiled: all as written (the scan decides), some only in
# Hyperscan's prefilter mode (a miss decides, a hit may be one), or not at all.
EXACT, SCREEN, NONE = "1", "2", "0"


def declare(name: str, needs: Needs) -> None:
    """What `name` needs in a text to find anything (replaces an earlier declaration).
    A pattern Hyperscan cannot compile is left out: `name` then always passes it."""
    with _LOCK:
        _DECLARED[name] = needs
        _Compiled.current = None
        _forget()


def needs_of(name: str) -> Needs:
    return _DECLARED.get(name, Needs())


def compiles(pattern: str, *, caseless: bool = False, screen: bool = False) -> bool:
    """Can Hyperscan compile `pattern` (it has no lookaround, possessive quantifier,
    backreference, and cannot match an empty string)? `screen=True`: in its
    prefilter mode, which takes those too (a superset of the pattern's matches)."""
    flags = _flags(caseless) | (hyperscan.HS_FLAG_PREFILTER if screen else 0)
    try:
        _database([(pattern.encode(), 0, flags)])
    except hyperscan.error:
        return False
    return True


def _flags(caseless: bool) -> int:
    # Bytes, not UTF-8 mode: patterns only ever see ASCII text, where both read the
    # same, and a UTF-8 automaton for classes like `[^\S\n]` takes seconds to build.
    # Every match is reported, though one per name would do: with
    # HS_FLAG_SINGLEMATCH a database of all the declarations missed a prefilter-mode
    # pattern that matched the text (and that it found alone, or with the flag off):
    # a false "cannot run". The flag is the cause, not the prefilter mode: the same
    # pattern made plain enough to compile exactly is missed too, in a database of
    # just it and two other patterns. Without it a scan costs ~7 µs more (25 vs 18).
    return hyperscan.HS_FLAG_CASELESS if caseless else 0


def expressions(name: str) -> list[tuple[bytes, int]] | None:
    """What the scan looks for `name` with, as (expression, flags) rows for a database
    of another user's own (the gate's): its literals, its lower literals and its
    patterns, each pattern in prefilter mode where it must be. None when one of its
    patterns does not compile even so (the scan never rules such a name out); [] when
    it declared nothing. (It compiles each pattern to see how: call it to build a
    database, not on every message.)"""
    needs = needs_of(name)
    rows = []
    if needs.literals:
        rows.append((_alternation(needs.literals).encode(), _flags(False)))
    if needs.lower:
        rows.append((_alternation(needs.lower).encode(), _flags(True)))
    for p in needs.patterns:
        flags = _flags(needs.caseless)
        if not compiles(p, caseless=needs.caseless):
            if not compiles(p, caseless=needs.caseless, screen=True):
                return None
            flags |= hyperscan.HS_FLAG_PREFILTER
        rows.append((p.encode(), flags))
    return rows


def _alternation(literals: Iterable[str]) -> str:
    # longest first, escaped byte for byte: the database sees UTF-8 bytes
    return "|".join(re.escape(n) for n in sorted(set(literals), key=len, reverse=True))


# Compiling takes seconds (the triggers' automata); the result is kept in a file
# named after a hash of the declarations, read back in milliseconds by the next
# process (each worker, each run).
CACHE_DIR = Path(
    os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "asf-bench-mail", "prefilter"
)
_FORMAT = 3  # bump when the file layout or the flags change


class _Compiled:
    """The declarations compiled: `ascii` (literals and patterns, for an ASCII text)
    and `wide` (literals only, for any other text, scanned as UTF-8 bytes)."""

    current: _Compiled | None = None

    def __init__(self, declared: dict[str, Needs]) -> None:
        items = sorted((name, needs) for name, needs in declared.items() if needs)
        self.names = [name for name, _ in items]
        self.gated = frozenset(self.names)
        key = hashlib.sha256(
            repr((_FORMAT, hyperscan.__version__, items)).encode("utf-8", "surrogatepass")
        ).hexdigest()[:32]
        path = CACHE_DIR / f"{key}.bin"
        loaded = _load(path)
        if loaded is None:
            loaded = _build(items)
            _save(path, *loaded)
        compiled_ok, self.ascii, self.wide = loaded
        # names whose patterns all compiled: in ASCII text the scan decides them
        self.decided = frozenset(
            name for (name, _), ok in zip(items, compiled_ok, strict=True) if ok == EXACT
        )
        self.with_patterns = frozenset(name for name, needs in items if needs.patterns)
        # in ASCII text, names whose patterns the scan cannot rule out (nor in)
        self.unscanned = self.with_patterns - {
            name for (name, _), ok in zip(items, compiled_ok, strict=True) if ok != NONE
        }
        self._items = items
        self._stand_ins: tuple[_StandIns, _StandIns] | None = None

    def as_ascii(self, text: str, *, superset: bool = False) -> str | None:
        """`text` with its non-ASCII characters replaced by ASCII stand-ins that
        every declared pattern and literal treats the same way (see `_StandIns`), or
        None when one of them has none. `superset=True`: stand-ins that may let a
        pattern match where the character would not, never the other way round."""
        if self._stand_ins is None:
            named, negated = _named_ranges(self._items)
            self._stand_ins = (
                _StandIns(named, negated),
                _StandIns(named, negated, superset=True),
            )
        return self._stand_ins[superset].apply(text)

    def scan(self, text: str) -> Hits:
        found: set[str] = set()
        names = self.names

        def on_match(i: int, start: int, end: int, flags: int, context: object) -> None:
            found.add(names[i])

        decided = self.decided
        if not text.isascii():
            ascii_text = self.as_ascii(text)
            if ascii_text is None:  # (scanned for what it may match, decided by `re`)
                ascii_text, decided = self.as_ascii(text, superset=True), frozenset()
            text = ascii_text or text
        if text.isascii() and not any(map(text.__contains__, _ODD_BLANKS)):
            if self.ascii is not None:
                self.ascii.scan(text.encode("ascii"), match_event_handler=on_match)
            # (a name whose pattern did not compile passes)
            return Hits(found | self.unscanned, self.gated, decided)
        # the text as written, then folded and lower-cased for the lower literals
        data = (text + "\0" + fold(text).lower()).encode("utf-8", "surrogatepass")
        if self.wide is not None:
            self.wide.scan(data, match_event_handler=on_match)
        return Hits(found | self.with_patterns, self.gated)


class _StandIns:
    r"""ASCII stand-ins for the non-ASCII characters most mail has a few of (dashes,
    quotes, arrows, emoji, no-break spaces), so that such a text is scanned as an
    ASCII one, its patterns decided. A stand-in must be read as the character is by
    every declared pattern (in Python's `re` and so in Hyperscan on ASCII text):

    - a character that is neither a word character (`str.isalnum`, `_`) nor a
      blank (`str.isspace`): `\d`, `\w`, `\s`, `\b`, `.` read it as any ASCII
      control character that is no blank (`\x01`);
    - a letter, or a number that is no decimal digit (`²`, `½`): as `_`, a word
      character and no digit;
    - a blank (no-break space, `\u2028`...): as a vertical tab, a form feed or a
      carriage return, all `\s` and none a line break to `re`;
    - each only where no pattern or literal names it, nor one of its other cases
      (`×`, `│`, `：`, `µ`, `ß` as `SS` are named: a text with one is scanned the
      wide way), nor the stand-in.

    Decimal digits outside ASCII have no such stand-in.

    `superset=True` (for a text where some character has none of those: a letter
    when a pattern names `_`, as most letters are named): the stand-in need only not
    be named in a negated class (`[^_]`) or a negative lookaround (`(?!_)`). A
    pattern that names it (`[A-Za-z_]`) may then match the stand-in where it would
    not match the character; nothing matches the character that does not match the
    stand-in. Such a scan rules patterns out, and Python's `re` decides the rest."""

    def __init__(
        self,
        named: list[tuple[int, int]],
        negated: list[tuple[int, int]],
        *,
        superset: bool = False,
    ) -> None:
        # (`named`, `negated`: the declarations' code points, from `_named_ranges`)
        self._named = _Ranges(named + negated)
        blocked = _Ranges(negated) if superset else self._named
        # (re.I matches a stand-in with its other cases)
        letters = _LETTER_STAND_INS if superset else "_"
        self.letter = next(
            (c for c in letters if not any(map(blocked.has, c + c.swapcase()))), None
        )
        self.symbol = next((c for c in _SYMBOL_STAND_INS if not blocked.has(c)), None)
        self.blank = next((c for c in _BLANK_STAND_INS if not blocked.has(c)), None)

    def apply(self, text: str) -> str | None:
        # (the non-ASCII characters: the UTF-8 bytes of `text` less its ASCII ones)
        data = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
        for char in set(data.decode("utf-8", "surrogatepass")):
            if char.isdecimal():
                return None
            if char.isalnum():
                stand_in = self.letter
            elif char.isspace():
                stand_in = self.blank
            else:
                stand_in = self.symbol
            # (re.I matches a letter with its other cases, and those of its cases)
            cases = char + char.lower() + char.upper() + char.casefold()
            cases += char.upper().lower() + char.lower().upper()
            if stand_in is None or any(map(self._named.has, cases)):
                return None
            text = text.replace(char, stand_in)
        return text


def _named_ranges(items: list[tuple[str, Needs]]) -> tuple[list, list]:
    """The code point ranges the declarations name, and those they name in a negated
    class or literal or a negative lookaround (see `_named_in`)."""
    named: list[tuple[int, int]] = []
    negated: list[tuple[int, int]] = []
    for _, needs in items:
        for literal in (*needs.literals, *needs.lower):
            named += [(ord(c), ord(c)) for c in literal]
        for pattern in needs.patterns:
            try:
                _named_in(re._parser.parse(pattern), named, negated)
            except Exception:  # (not Python's syntax: no stand-ins at all)
                named.append((0, sys.maxunicode))
                negated.append((0, sys.maxunicode))
    return named, negated


class _Ranges:
    """A set of code points, as sorted disjoint ranges."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for lo, hi in sorted(ranges):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        self._starts = [lo for lo, _ in merged]
        self._ends = [hi for _, hi in merged]

    def has(self, char: str) -> bool:
        code = ord(char)
        i = bisect_right(self._starts, code) - 1
        return i >= 0 and code <= self._ends[i]


_ASCII_BYTES = bytes(range(128))
# (control characters that Python's `\s` and Hyperscan's take for no blank, and
# blanks both take for one that `re` takes for no line break)
_SYMBOL_STAND_INS = "".join(map(chr, [*range(0x01, 0x09), *range(0x0E, 0x1C)]))
_BLANK_STAND_INS = "\v\f\r"
# (`_` first: the exact stand-ins take only it, as every pattern names the letters)
_LETTER_STAND_INS = "_" + "".join(map(chr, range(ord("a"), ord("z") + 1)))


def _named_in(parsed, named: list[tuple[int, int]], negated: list[tuple[int, int]]) -> None:
    r"""Add to `named` the code points a parsed pattern names: its literals and the
    ranges of its classes (\d, \w, \s are classes of their own, not named); to
    `negated` instead those of negated classes (`[^_]`), negated literals and
    negative lookarounds (`(?!_)`, `(?<!_)`)."""
    for op, av in parsed:
        if op == re._constants.LITERAL:
            named.append((av, av))
        elif op == re._constants.NOT_LITERAL:
            negated.append((av, av))
        elif op == re._constants.RANGE:
            named.append(av)
        elif op == re._constants.IN:
            if av and av[0][0] == re._constants.NEGATE:
                _named_in(av, negated, negated)
            else:
                _named_in(av, named, negated)
        elif op == re._constants.ASSERT_NOT:  # (what `(?!x)` names, it rules out)
            _named_in(av[1], negated, negated)
        else:
            for x in av if isinstance(av, (tuple, list)) else (av,):
                if isinstance(x, re._parser.SubPattern):
                    _named_in(x, named, negated)
                elif isinstance(x, list) and x and isinstance(x[0], re._parser.SubPattern):
                    for sub in x:
                        _named_in(sub, named, negated)


def _build(items: list[tuple[str, Needs]]):
    compiled_ok = []
    ascii_rows: list[tuple[bytes, int, int]] = []
    wide_rows: list[tuple[bytes, int, int]] = []
    for i, (_, needs) in enumerate(items):
        rows = []
        if needs.literals:
            rows.append((_alternation(needs.literals).encode(), i, _flags(False)))
        if needs.lower:
            rows.append((_alternation(needs.lower).encode(), i, _flags(True)))
        wide_rows += rows
        patterns = []
        ok = EXACT if needs.patterns else NONE
        for p in needs.patterns:
            flags = _flags(needs.caseless)
            if not compiles(p, caseless=needs.caseless):
                flags |= hyperscan.HS_FLAG_PREFILTER
                ok = SCREEN if ok == EXACT else ok
                if not compiles(p, caseless=needs.caseless, screen=True):
                    ok = NONE
            patterns.append((p.encode(), i, flags))
        compiled_ok.append(ok)
        ascii_rows += rows + (patterns if ok != NONE else [])
    return compiled_ok, _database(ascii_rows), _database(wide_rows)


def _load(path: Path):
    """(compiled_ok, ascii, wide) from a cache file; None when there is none or it
    cannot be read (then the declarations are compiled again)."""
    try:
        data = path.read_bytes()
        head, a, w = data.split(b"\n", 1)[0], *_blobs(data.split(b"\n", 1)[1])
        compiled_ok = list(head.decode("ascii"))
        if not set(compiled_ok) <= {EXACT, SCREEN, NONE}:
            return None
        return compiled_ok, _loadb(a), _loadb(w)
    except Exception:  # (OSError, a damaged file: any error means "compile again")
        return None


def _loadb(blob: bytes) -> hyperscan.Database | None:
    if not blob:
        return None
    db = hyperscan.loadb(blob, hyperscan.HS_MODE_BLOCK)
    db.scratch = hyperscan.Scratch(db)  # (a compiled one gets its own; a loaded one not)
    return db


def _blobs(rest: bytes) -> tuple[bytes, bytes]:
    n = int.from_bytes(rest[:8], "little")
    if len(rest) < 8 + n:
        raise ValueError("truncated")
    return rest[8 : 8 + n], rest[8 + n :]


def _save(path: Path, compiled_ok, ascii_db, wide_db) -> None:
    a = hyperscan.dumpb(ascii_db) if ascii_db is not None else b""
    w = hyperscan.dumpb(wide_db) if wide_db is not None else b""
    head = "".join(compiled_ok).encode("ascii")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as f:
            f.write(head + b"\n" + len(a).to_bytes(8, "little") + a + w)
        os.replace(f.name, path)  # whole or not at all, also with workers racing
    except OSError:
        return  # no cache: the next process compiles again


def cached_database(
    kind: str,
    rows: list[tuple[bytes, int, int]] | Callable[[], list[tuple[bytes, int, int]]],
    key: str | None = None,
) -> hyperscan.Database:
    """The database of `rows` (expression, id, flags), read from the cache when an
    earlier process compiled the same rows (`CACHE_DIR`'s sibling `kind`), else
    compiled and kept there. Each call gives a database with its own scratch: one
    per thread. `rows` may be a function that makes them, called only when there is
    nothing to read back; `key` then says what they are made from (the cache file's
    name is a hash of it)."""
    what = rows if key is None else key
    digest = hashlib.sha256(repr((_FORMAT, hyperscan.__version__, what)).encode()).hexdigest()
    path = CACHE_DIR.parent / kind / f"{digest[:32]}.bin"
    try:
        return _loadb(path.read_bytes())
    except Exception:  # (no file, or a damaged one: compile again)
        pass
    db = _database(rows() if callable(rows) else rows)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as f:
            f.write(hyperscan.dumpb(db))
        os.replace(f.name, path)  # whole or not at all, also with workers racing
    except OSError:
        pass  # no cache: the next process compiles again
    return db


def _database(rows: list[tuple[bytes, int, int]]) -> hyperscan.Database | None:
    if not rows:
        return None
    db = hyperscan.Database()
    expressions, ids, flags = zip(*rows, strict=True)
    db.compile(expressions=list(expressions), ids=list(ids), elements=len(rows), flags=list(flags))
    return db


def _compiled() -> _Compiled:
    compiled = _Compiled.current
    if compiled is None:
        with _LOCK:
            compiled = _Compiled.current = _Compiled(dict(_DECLARED))
    return compiled


def warm() -> None:
    """Compile the declarations now (or read them from the cache file): it takes
    seconds the first time, which no message's time budget should pay."""
    _compiled()


# The last RECENT texts scanned and their answers: the gate scans a message's sample,
# the registry the same text again (then, in most commit mail, whose diffstat it
# removes, the text less a noise span), and the classifier asks about it once more.
# The pipeline gates a batch of messages (pipeline.BATCH_MESSAGES) before it reads
# the first of them: their answers must all still be here. (At most RECENT_CHARS
# characters of text are kept: memory stays bounded whatever the texts.)
RECENT = 160
RECENT_CHARS = 4_000_000
_recent: dict[str, Hits] = {}
_recent_chars = 0
_RECENT_LOCK = threading.Lock()


def _forget() -> None:
    global _recent_chars
    with _RECENT_LOCK:
        _recent.clear()
        _recent_chars = 0


def scan(text: str) -> Hits:
    """Which declared users may run on `text`, in one pass. (The last RECENT texts'
    answers are kept: the gate, the registry and the classifier ask for the same text
    in turn.)"""
    global _recent_chars
    hits = _recent.get(text)  # (a str's hash is computed once and kept in it)
    if hits is None:
        hits = _compiled().scan(text)
        with _RECENT_LOCK:
            if text not in _recent:
                _recent[text] = hits
                _recent_chars += len(text)
            while len(_recent) > RECENT or _recent_chars > RECENT_CHARS and len(_recent) > 1:
                oldest = next(iter(_recent))
                del _recent[oldest]
                _recent_chars -= len(oldest)
    return hits
