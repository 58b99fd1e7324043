"""Which side of a comparison each measurement is on: the columns the `comparisons`
view joins on, filled when the extractor writes a message's measurements.

`annotate(rows, sources, text)` sets, on each measurement row of one message:

- `side`: `before` or `after` (one side of a comparison the message makes), `change`
  (a stated relative change, e.g. criterion's `change:`, when the message gives no
  before value), or NULL: not compared;
- `side_name`: the name of its side (`Before patch`, `baseline`, `No changes`);
- `params`: what identifies the quantity besides the label: JMH @Param values and the
  other dimensions of the variant (the column group `GCS` in `GCS / No changes`);
- `quantity`: what is compared, the metric without the side's name (`QPS` for
  `QPS baseline`, `time/op` for `old time/op`);
- `quantity_key`: `<rule>|...`, equal for the numbers of one quantity in one
  comparison; the view pairs each `before` with each `after` of the same key;
- `noise`: the stated error of the number relative to it (0.05 = ±5 %): the Error,
  ±, StdDev or confidence-interval value of its row;
- `claim_factor`, `claim_words` (on `after` numbers): the speed-up over the baseline
  that the message's words state for this pair ("before: 4.81x slower" is 4.81), and
  the words (`extract.results.claims`).

A pair is made only between sides the message itself sets against each other; a
table of variants is a table, not a ranking against its first row. Sides come from,
in order:
1. `format`: the format says (luceneutil, archery, benchstat, critcmp, criterion,
   google-benchmark compare.py): `Measurement.side`;
2. `variants`: measurements whose variants differ in one dimension (`Before patch` /
   `After patch`, `GCS / No changes` / `GCS / LongAdder`, prose `before` / `after`,
   diff `[-]` / `[+]`): the baseline is the value named like one (before, old,
   baseline, master, trunk, no changes, ...), else the one value not named like a
   change when the others are (`unstable` beside `this PR`); each other value is
   compared with it. Without either, the values are not compared, unless the text
   sets two of them against each other (below). Labels must be equal, except when
   each run is a single row whose labels differ only in numbers (`Time spent by
   thread 2 ...`);
   `settings`: labels that list settings (`Tables=1000, Export Service used=Yes`) and
   differ in one: its values are the sides, the baseline the one named off (No, false,
   off, disabled) or like a baseline, else none;
3. `columns`: in one table row, columns named like a baseline and like a change
   (`| query | before | after |`, `master (ms)` / `PR (ms)`);
4. `rows`: in one table, rows labelled like a baseline and like a change;
5. `claims`: runs of rule 2 that no name makes sides, set against each other by a
   sentence that states a factor ("dense_hash_map is an easy 7% speedup relative to
   the STL map"): the runs it names (by the words of their names), and where it names
   one or none, the run whose numbers make the stated factor true, when exactly one
   does; labels (hyperfine's commands) only when the sentence names both;
   `reference`: runs of rule 2 of which a sentence names one as what it compares with
   ("Compare the results to `hdfs dfs -text`"): each other run against it.

Only results are compared: never a count, a run total, a setting, a warm-up, one
sample of a set the tool summarises (a client of an HBase PE run) or an
error (`Measurement.role`, and columns named so), nor a stated change or factor. Error,
±, stdev, CI and p-value columns are never sides: their values become the noise of the
numbers they qualify. The same pair written twice (benchmark-driver's `Comparison:`
block after its `Calculating` block, a longer form of the same run) is kept once, as
written most precisely.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from functools import partial

from extract.results.claims import HIGHER_WORDS, LOWER_WORDS, StatedClaim, references
from extract.results.claims import stated_claims as read_claims
from extract.results.formats.base import Measurement
from extract.results.units import is_count_unit

BASELINE_WORDS = (
    r"before|old|baseline|base|without|w/o|master|trunk|main|original|unpatched|vanilla|"
    r"current|reference|ref|stock|no\s+changes?|unchanged|control|upstream|"
    r"\[-\]"
)
CHANGE_WORDS = (
    r"after|new|patch|patched|with|w/|fix|fixed|optimi[sz]ed|proposed|pr|branch|"
    r"candidate|contender|modified|changed?|improved|\[\+\]"
)
# (`(?=[a-z\[])`: every word begins so; most positions fail at once)
_BASELINE = re.compile(rf"(?i)(?=[a-z\[])(?:^|(?<=[^a-z]))(?:{BASELINE_WORDS})(?=[^a-z]|$)")
_CHANGE = re.compile(rf"(?i)(?=[a-z\[])(?:^|(?<=[^a-z]))(?:{CHANGE_WORDS})(?=[^a-z]|$)")

# The stated error or spread of a number (its noise), never compared.
_NOISE = re.compile(
    r"(?i)(?:^|[^a-z])(?:error|err|std\s?dev|stdev|stddev|std|sd|ci|confidence|margin|"
    r"deviation|variance|mad|rsd|rme|moe|cv|spread)(?:[^a-z]|$)|±|\+/-|[_ ](?:lower|upper)$"
)
# Numbers that describe the run or the comparison, never compared: counts, iterations,
# failures, p-values, stated changes and factors.
_NOT_COMPARED = re.compile(
    r"(?i)^\s*(?:cnt|count|samples|iterations|iters|n|runs|rounds|trials|threads|forks|"
    r"relative|p|p-?value|pvalue|significance)\s*(?:\(.*\))?\s*$"
    r"|(?:^|[^a-z])(?:p-?value|pct\s*diff|diff|delta|change|speed-?up|ratio|gain|"
    r"improvement|vs|failed|failures?|errors)(?:[^a-z]|$)|_(?:change|pvalue)$|%\s*change"
)
_NOT_COMPARED_UNITS = {"count", "x", "×", "fraction", "x faster", "x slower"}
# A variant dimension that numbers repeated runs: their spread is noise, not a side.
_REPEAT = re.compile(
    r"(?i)^\s*(?:run|iteration|iter|trial|attempt|round|try|pass|line|#)\s*#?\d+\s*$"
)
# `summary, run 2`, `q1 (run 3)`: a label that numbers a repeated run of its row
_REPEAT_SUFFIX = re.compile(
    # (a run of separators from its start only, possessive: linear in the label)
    r"(?i)(?:^|(?<![\s,;:(/-])[\s,;:(/-]++)(?:run|iteration|iter|trial|attempt|round|try|pass)"
    r"\s*+#?\d++\)?\s*+$"
)


def _repeat_stem(label: str | None) -> str:
    """The label without its run number: repeats of one row share it."""
    return _REPEAT_SUFFIX.sub("", label or "")


_PARAM = re.compile(r"^\s*[\w.-]+\s*=\s*\S")
# @Param values without their names (JMH rows quoted without the header): `10, 90, 50000`
_VALUES = re.compile(r"^[-+\d.,\s]*\d[-+\d.,\s]*$")


# (a message's rows repeat their table's few metrics and units: each asked once. Bounded,
# and names only)
@functools.lru_cache(maxsize=4096)
def role(metric: str | None, unit: str | None, declared: str = "result") -> str:
    """`noise`, `other` (never compared) or `value`; `declared` is what the format says
    the number is (`Measurement.role`)."""
    metric = metric or ""
    if _NOISE.search(metric):
        return "noise"
    if declared != "result" or _NOT_COMPARED.search(metric):
        return "other"
    if unit and (unit.strip().lower() in _NOT_COMPARED_UNITS or is_count_unit(unit)):
        return "other"
    return "value"


# (a message's rows repeat their tables' few variants, and each is split two or three
# times: once a variant. Bounded, and names only; tuples, shared by the callers)
@functools.lru_cache(maxsize=4096)
def _split_variant(variant: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(params, dimensions) of a variant `Before patch / size=100` or `GCS / No changes`:
    `k=v` parts are parameters; run numbers (`Run 2`) are dropped (repeats)."""
    params, dims = [], []
    for part in (variant or "").split(" / "):
        part = part.strip()
        if not part:
            continue
        if _PARAM.match(part) or _VALUES.match(part):
            params.append(part)
        elif not _REPEAT.match(part):
            dims.append(part)
    return tuple(params), tuple(dims)


def _key(parts) -> str:
    """A quantity_key from its parts (None as empty)."""
    return "|".join("" if p is None else str(p) for p in parts)


def _unit_key(row: dict) -> str:
    return row.get("unit_si") or row.get("unit") or ""


# `... goes from this:` then `to this:`: headings that name the two sides
_FROM = re.compile(r"(?i)\bfrom(?:\s+(?:this|these|that|here))?\s*:?\s*$")
_TO = re.compile(r"(?i)^\s*(?:and\s+|then\s+)?(?:to|into)(?:\s+(?:this|these|that))?\s*:?\s*$")


# (asked of each row's metric, label and variant parts, which repeat: once a name.
# Bounded, and names only)
@functools.lru_cache(maxsize=4096)
def _side_of_name(name: str) -> str | None:
    if _FROM.search(name):
        return "before"
    if _TO.match(name):
        return "after"
    if _BASELINE.search(name):
        return "before"
    if _CHANGE.search(name):
        return "after"
    return None


def _baseline(values: list[str]) -> str | None:
    """The value the others are compared with: the one named like a baseline, else the
    one value not named like a change beside values that are; else None (a table of
    variants, not a comparison)."""
    named = [v for v in values if _side_of_name(v) == "before"]
    if named:
        return named[0]
    plain = [v for v in values if _side_of_name(v) is None]
    if len(plain) == 1 and len(values) > 1:
        return plain[0]
    return None


def _without_side_word(metric: str) -> str:
    """`old time/op` → `time/op`, `Before (ms)` → `(ms)`; `before` → ``."""
    out = _BASELINE.sub("", metric, count=1) if _BASELINE.search(metric) else metric
    if out == metric:
        out = _CHANGE.sub("", metric, count=1)
    return re.sub(r"\s+", " ", out).strip(" -_:,")


@dataclass
class _Runs:
    """Numbers of one quantity measured in several runs that no rule made sides of:
    `members[value]` are the rows of the run named `value`; `parts` make its key."""

    values: list[str]
    members: dict[str, list[int]]
    parts: list
    params: str | None
    metric: str | None
    by_label: bool = False  # the runs are labels (hyperfine's commands)
    sides: dict[str, str] = field(default_factory=dict)


def annotate(rows: list[dict], sources: list[tuple[int, Measurement]], text: str = "") -> None:
    """Fill the comparison columns of one message's measurement rows, in place;
    `sources[i]` is (table ordinal, Measurement) of `rows[i]`; `text` is the text they
    were read from (its sentences set runs against each other and state claims)."""
    for row in rows:
        row.update(side=None, side_name=None, params=None, quantity=None)
        row.update(quantity_key=None, noise=None, claim_factor=None, claim_words=None)
    roles = [role(r["metric"], r["unit"], m.role) for r, (_, m) in zip(rows, sources, strict=True)]
    for r in rows:
        params, _ = _split_variant(r["variant"])
        r["params"] = " / ".join(params) or None
    _declared(rows, sources, roles)
    runs = _by_variants(rows, sources, roles)
    _by_settings(rows, sources, roles)
    _by_columns(rows, sources, roles)
    _by_rows(rows, sources, roles)
    claims = read_claims(text) if text else []
    runs = [r for r in runs if all(rows[i]["side"] is None for m in r.members.values() for i in m)]
    found = _stated(rows, runs + _label_runs(rows, roles), claims)
    _referenced(rows, runs, text)
    _restated(rows)
    _attach_claims(rows, claims, found, text, [m.span for _, m in sources])
    _noise(rows, sources, roles)


def _declared(rows, sources, roles) -> None:
    for i, (r, (t, m)) in enumerate(zip(rows, sources, strict=True)):
        if m.side is None or (roles[i] != "value" and m.side != "change"):
            continue
        name = m.side_name or r["variant"]
        # the format's sides are within one table; a variant that is not the side's
        # name (a section, a heading) is part of what is measured
        scope = "" if r["variant"] == name else (r["variant"] or "")
        r.update(side=m.side, side_name=name, quantity=m.quantity or r["metric"])
        r["noise"] = m.noise
        r["quantity_key"] = _key(
            ["format", str(t), r["label"] or "", scope, r["quantity"], _unit_key(r)]
        )
    # a stated change (in %) belongs to its quantity's `after`, whose key has that unit
    afters = {
        (sources[i][0], r["label"], r["variant"], r["quantity"]): r["quantity_key"]
        for i, r in enumerate(rows)
        if r["side"] == "after" and r["quantity_key"] and r["quantity_key"].startswith("format|")
    }
    for i, r in enumerate(rows):
        if r["side"] == "change":
            key = afters.get((sources[i][0], r["label"], r["variant"], r["quantity"]))
            r["quantity_key"] = key
            if key is None:
                r.update(side=None, side_name=None, quantity=None, noise=None)


def _loose_label(label: str | None) -> str:
    return re.sub(r"\d+", "#", label or "")


def _by_variants(rows, sources, roles) -> list[_Runs]:
    """Rule 2: runs that differ in one dimension of their variant, anywhere in the
    message (each run may be a table of its own). Returns the groups of runs that no
    name makes sides of (for rule 5)."""
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        if roles[i] != "value" or r["side"] is not None or not r["variant"]:
            continue
        params, dims = _split_variant(r["variant"])
        if not dims:
            continue
        # numbers in prose (no table_id) are compared within their sentence: `from 640 s
        # to 331 s` in a diff's old line is not the before of its new line
        # (a diff's `[-]` / `[+]` lines are sentences of their own: compared across)
        own_sides = sources[i][1].variant in ("before", "after")
        scope = sources[i][0] if r.get("table_id") is None and own_sides else None
        key = (" / ".join(params), r["metric"], _unit_key(r), len(dims), scope)
        groups.setdefault(key, []).append(i)
    unpaired = []
    for (params, metric, unit_key, n, scope), members in groups.items():
        dims_of = {i: _split_variant(rows[i]["variant"])[1] for i in members}
        distinct = list(dict.fromkeys(dims_of[i] for i in members))
        if len(distinct) < 2:
            continue
        varying = [p for p in range(n) if len({d[p] for d in distinct}) > 1]
        named = [p for p in varying if any(_side_of_name(d[p]) for d in distinct)]
        axis = named[0] if named else varying[-1]
        # each run a single row, labels the same but for numbers: the label names the run
        labels_of = {}
        for i in members:
            labels_of.setdefault(dims_of[i], set()).add(rows[i]["label"])
        loose = all(len(v) == 1 for v in labels_of.values()) and (
            len({_loose_label(rows[i]["label"]) for i in members}) == 1
        )
        sub: dict[tuple, list[int]] = {}
        for i in members:
            d = dims_of[i]
            group = tuple(d[p] for p in range(n) if p != axis)
            # `run 2`: a repeated run of its variant, averaged by the view
            label = "" if loose else _repeat_stem(rows[i]["label"])
            sub.setdefault((group, label), []).append(i)
        for (group, label), idx in sub.items():
            values = list(dict.fromkeys(dims_of[i][axis] for i in idx))
            if len(values) < 2:
                continue
            all_params = " / ".join(p for p in (params, *group) if p) or None
            parts = [label, all_params or "", metric, unit_key, scope]
            runs = _Runs(values, {}, parts, all_params, metric)
            for i in idx:
                runs.members.setdefault(dims_of[i][axis], []).append(i)
            base = _baseline(values)
            if base is None:
                unpaired.append(runs)
                continue
            runs.sides = {v: "before" if v == base else "after" for v in values}
            _set_sides(rows, runs, "variants")
    return unpaired


def _set_sides(rows: list[dict], runs: _Runs, rule: str) -> None:
    """Make the runs' numbers the sides `runs.sides` gives them (a run without a side
    stays out), when both sides have numbers."""
    if {runs.sides.get(v) for v in runs.values} < {"before", "after"}:
        return
    key = _key([rule, *runs.parts])
    for value, idx in runs.members.items():
        side = runs.sides.get(value)
        if side is None:
            continue
        for i in idx:
            rows[i].update(
                side=side,
                side_name=value,
                params=runs.params,
                quantity=runs.metric,
                quantity_key=key,
            )


_OFF = re.compile(r"(?i)^(?:no|false|off|disabled?|none|0)$")


_SETTING = re.compile(r"[^=]{1,60}=[^=]{1,60}")


def _settings(label: str | None) -> dict[str, str] | None:
    """`No. of Tables=1000, Export Service used=Yes` as {key: value}; None unless the
    label is such a list."""
    pairs = _setting_pairs(label)
    return None if pairs is None else dict(pairs)


# (each row's label is read two times, and a table's rows share few labels: once a
# label. Bounded, and names only; pairs, made a new dict for each caller)
@functools.lru_cache(maxsize=4096)
def _setting_pairs(label: str | None) -> tuple[tuple[str, str], ...] | None:
    parts = [p.strip() for p in (label or "").split(",")]
    if len(parts) < 1 or not all(_SETTING.fullmatch(p) for p in parts):
        return None
    return tuple(tuple(p.split("=", 1)) for p in parts)


def _by_settings(rows, sources, roles) -> None:
    """Rule 2b: labels that are settings (`k=v, k=v`) differing in one setting: its
    values are the sides, the baseline the one named like off or a baseline (No,
    false, disabled, without); without one, no sides (`threads=1` / `threads=4` is a
    table of settings)."""
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        if roles[i] != "value" or r["side"] is not None:
            continue
        settings = _settings(r["label"])
        if settings:
            groups.setdefault((r["metric"], _unit_key(r), tuple(settings)), []).append(i)
    for (metric, unit_key, keys), idx in groups.items():
        values = {i: _settings(rows[i]["label"]) for i in idx}
        varying = [k for k in keys if len({values[i][k] for i in idx}) > 1]
        if len(varying) != 1:
            continue
        axis = varying[0]
        sides = list(dict.fromkeys(values[i][axis] for i in idx))
        off = [v for v in sides if _OFF.match(v.strip()) or _side_of_name(v) == "before"]
        if not off:
            continue
        base = off[0]
        for i in idx:
            others = ", ".join(f"{k}={v}" for k, v in values[i].items() if k != axis)
            value = values[i][axis]
            rows[i].update(
                side="before" if value == base else "after",
                side_name=f"{axis}={value}",
                params=" / ".join(p for p in (rows[i]["params"], others) if p) or None,
                quantity=metric,
                quantity_key=_key(["settings", others, rows[i]["params"], metric, unit_key]),
            )


def _by_columns(rows, sources, roles) -> None:
    """Rule 3: columns named like a baseline and a change, in one row."""
    cells: dict[tuple, list[int]] = {}
    for i, (r, (t, m)) in enumerate(zip(rows, sources, strict=True)):
        if roles[i] != "value" or r["side"] is not None or m.row is None:
            continue
        cells.setdefault((t, m.row, r["label"], r["variant"]), []).append(i)
    for (t, row, label, _), idx in cells.items():
        found: dict[tuple, dict[str, list[int]]] = {}
        for i in idx:
            side = _side_of_name(rows[i]["metric"] or "")
            if side is None:
                continue
            q = _without_side_word(rows[i]["metric"])
            found.setdefault((q, _unit_key(rows[i])), {}).setdefault(side, []).append(i)
        for (q, unit_key), sides in found.items():
            if "before" not in sides or "after" not in sides:
                continue
            key = _key(["columns", str(t), str(row), label or "", q, unit_key])
            for side, members in sides.items():
                for i in members:
                    rows[i].update(
                        side=side,
                        side_name=rows[i]["metric"],
                        quantity=q or "value",
                        quantity_key=key,
                    )


def _by_rows(rows, sources, roles) -> None:
    """Rule 4: rows labelled like a baseline and like a change, in one table; tables
    (or log lines) of one side each are compared across the message."""
    tables: dict[int, list[int]] = {}
    for i, (r, (t, _m)) in enumerate(zip(rows, sources, strict=True)):
        if roles[i] == "value" and r["side"] is None and r["label"] and len(r["label"]) <= 40:
            tables.setdefault(t, []).append(i)
    pooled: list[int] = []
    for t, idx in tables.items():
        sides = {_side_of_name(rows[i]["label"]) for i in idx} - {None}
        if sides == {"before", "after"}:
            _row_sides(rows, idx, str(t))
        elif sides:
            pooled += idx
    _row_sides(rows, pooled, "message")


def _row_sides(rows: list[dict], idx: list[int], scope: str) -> None:
    sides = {i: _side_of_name(rows[i]["label"]) for i in idx}
    if not {"before", "after"} <= set(sides.values()):
        return
    for i in idx:
        if sides[i] is None:
            continue
        r = rows[i]
        r.update(
            side=sides[i],
            side_name=r["label"],
            quantity=r["metric"],
            quantity_key=_key(["rows", scope, r["params"], r["metric"], _unit_key(r)]),
        )


# ---------------------------------------------------------------- rule 5: the text


_STOP = frozenset(
    re.findall(
        r"\w+",
        "the a an of for to in on and or with without by is are was were be it its this "
        "that run runs ran using used vs than as at from",
    )
)
MARGIN = 0.03  # ln: how much better than any other the runs a number picks must fit


def _tokens(text: str) -> list[str]:
    """Words, lower case; Latin apart from CJK (`rocksdb几乎比mysql`: rocksdb, mysql)."""
    words = re.findall(r"[a-z0-9_]+|[^\W\d_a-z]+", text.lower())
    return [t for t in words if len(t) > 1 and t not in _STOP]


def _match(names: list[str], text: str, *, last: bool, other_than: str | None = None):
    """The name that `text` names by a word of its own (not in all the names): the one
    named last (or first); None when none is, or two are by the same word. A name
    `other_than` is not looked for (the subject, when looking for what it is compared
    with)."""
    if len(names) < 2 or not text:
        return None
    own = {n: set(_tokens(n)) for n in names}
    common = set.intersection(*own.values())
    own = {n: words - common for n, words in own.items() if n != other_than}
    words = _tokens(text)
    order = range(len(words) - 1, -1, -1) if last else range(len(words))
    for i in order:
        hit = [n for n in own if words[i] in own[n]]
        if len(hit) == 1:
            return hit[0]
        if hit:  # a word several names share: the one the text names most
            score = {n: len(set(words) & own[n]) for n in hit}
            top = max(score.values())
            best = [n for n in hit if score[n] == top]
            return best[0] if len(best) == 1 else None
    return None


_SIDE_WORDS = frozenset(("before", "after"))


def _claim_names(names: list[str], claim: StatedClaim) -> tuple[str | None, str | None]:
    """(the run a claim is said of, the one it is set against), of `names`. Sides named
    only `before` / `after` are left to the claim's own reading of its sides, which
    knows more of their words (`31 minutes before and 12 with the patch, so 2.6x
    faster`: the patch is faster, not the `before` last named)."""
    subject = _subject(names, claim)
    obj = _match(names, claim.object, last=False, other_than=subject)
    if claim.subject_side or claim.object_side:
        subject = None if subject in _SIDE_WORDS else subject
        obj = None if obj in _SIDE_WORDS else obj
    return subject, obj


def _subject(names: list[str], claim: StatedClaim) -> str | None:
    """The name a claim is said of: on its own line (a table row), else in its sentence."""
    return _match(names, claim.line, last=True) or _match(names, claim.subject, last=True)


_LOWER_RE = re.compile(LOWER_WORDS)
_HIGHER_RE = re.compile(HIGHER_WORDS)


def direction(unit_si: str | None, metric: str | None, label: str | None) -> str | None:
    """`lower` or `higher` is better: from the unit (times lower, rates higher), then
    the metric's words, then the label's (as the `comparisons` view decides it)."""
    if unit_si == "s":
        return "lower"
    if unit_si in ("1/s", "B/s"):
        return "higher"
    for words in (metric, label):
        words = (words or "").lower()
        if _LOWER_RE.search(words):
            return "lower"
        if _HIGHER_RE.search(words):
            return "higher"
    return None


def _mean(rows: list[dict], idx: list[int]) -> float | None:
    vals = [
        rows[i]["value_si"] if rows[i].get("value_si") is not None else rows[i]["value"]
        for i in idx
    ]
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals) if vals else None


def _speedup(before: float | None, after: float | None, way: str | None) -> float | None:
    """How many times better `after` is than `before`."""
    if way is None or not before or not after or before <= 0 or after <= 0:
        return None
    return after / before if way == "higher" else before / after


def _label_runs(rows, roles) -> list[_Runs]:
    """Rows of one quantity whose labels are the runs (hyperfine's commands): only a
    sentence that names two of them makes them sides."""
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        if roles[i] == "value" and r["side"] is None and r["label"]:
            key = (r["variant"], r["params"], r["metric"], _unit_key(r))
            groups.setdefault(key, []).append(i)
    runs = []
    for (variant, params, metric, unit_key), idx in groups.items():
        values = list(dict.fromkeys(rows[i]["label"] for i in idx))
        if len(values) < 2:
            continue
        parts = ["", params or "", metric, unit_key, variant or ""]
        found = _Runs(values, {}, parts, params, metric, by_label=True)
        for i in idx:
            found.members.setdefault(rows[i]["label"], []).append(i)
        runs.append(found)
    return runs


def _by_numbers(rows, runs: list[_Runs], claim: StatedClaim, subject, obj):
    """(baseline, run): the two runs whose numbers make the claim's factor true (the
    subject's or the object's when the claim names it), when exactly they do: on the
    quantity that fits best, no other two runs come within MARGIN of it."""
    fit: dict[int, dict[tuple[str, str], float]] = {}  # runs (quantity) -> pair -> distance
    for q, r in enumerate(runs):
        first = rows[next(iter(r.members.values()))[0]]
        way = direction(first.get("unit_si"), r.metric, first["label"])
        means = {v: _mean(rows, idx) for v, idx in r.members.items()}
        for x in r.values:
            for y in r.values:
                if x == y or (subject and x != subject) or (obj and y != obj):
                    continue
                up = _speedup(means[y], means[x], way)
                if up:
                    fit.setdefault(q, {})[(y, x)] = abs(math.log(up) - math.log(claim.factor))
    best = min(
        ((d, q, pair) for q, pairs in fit.items() for pair, d in pairs.items()),
        default=None,
        key=lambda t: t[0],
    )
    if best is None or best[0] > claim.tolerance:
        return None
    d, q, pair = best
    if any(other < d + MARGIN for p, other in fit[q].items() if p != pair):
        return None
    return pair


def _stated(rows, runs: list[_Runs], claims: list[StatedClaim]) -> dict[int, tuple[str, str]]:
    """Rule 5 (claims): runs that a sentence stating a factor sets against each other.
    Returns {claim index: (baseline, run)}."""
    variant_runs = [r for r in runs if not r.by_label]
    names = list(dict.fromkeys(v for r in variant_runs for v in r.values))
    side_of: dict[str, str] = {}
    found: dict[int, tuple[str, str]] = {}
    for ci, claim in enumerate(claims):
        pair = None
        subject, obj = _claim_names(names, claim)
        if subject and obj:
            pair = (obj, subject)
        elif claim.factor is not None and len(names) >= 2:
            pair = _by_numbers(rows, variant_runs, claim, subject, obj)
        if pair is None:  # labels: only when the sentence names both
            for r in runs:
                if r.by_label:
                    subject = _subject(r.values, claim)
                    obj = _match(r.values, claim.object, last=False, other_than=subject)
                    if subject and obj:
                        pair = (obj, subject)
                        break
        if pair is None:
            continue
        base, run = pair
        if side_of.get(base, "before") != "before" or side_of.get(run, "after") != "after":
            continue  # a run cannot be a baseline and a change at once
        side_of[base], side_of[run] = "before", "after"
        found[ci] = pair
    # the pairs a sentence makes, and only those: each baseline with the runs claimed
    # against it (runs joined by claims share a key)
    group = {name: name for name in side_of}

    def root(name: str) -> str:
        while group[name] != name:
            name = group[name]
        return name

    for base, run in found.values():
        group[root(run)] = root(base)
    for r in runs:
        for component in {root(v) for v in r.values if v in side_of}:
            part = _Runs(r.values, r.members, [*r.parts, component], r.params, r.metric)
            part.sides = {v: side_of[v] for v in r.values if v in side_of and root(v) == component}
            _set_sides(rows, part, "claims")
    return found


def _referenced(rows, runs: list[_Runs], text: str) -> None:
    """Rule 5 (reference): runs of which a sentence names one as what the message
    compares with: each other run against it."""
    open_runs = [
        r
        for r in runs
        if not r.by_label and all(rows[i]["side"] is None for m in r.members.values() for i in m)
    ]
    if not open_runs:
        return
    names = list(dict.fromkeys(v for r in open_runs for v in r.values))
    for _span, phrase in references(text):
        base = _match(names, phrase, last=False)
        if base is None:
            continue
        for r in open_runs:
            if base in r.values and not r.sides:
                r.sides = {v: "before" if v == base else "after" for v in r.values}
                _set_sides(rows, r, "reference")


@dataclass
class _Pair:
    key: str
    before: str
    after: str
    label: str | None
    params: str | None
    quantity: str | None
    unit: str
    before_idx: list[int]
    after_idx: list[int]
    speedup: float | None


def _pairs(rows: list[dict]) -> list[_Pair]:
    """The pairs the view will make: each before with each after of one key."""
    keys: dict[str, dict[str, dict[str, list[int]]]] = {}
    for i, r in enumerate(rows):
        if r["quantity_key"] and r["side"] in ("before", "after") and r["value"] is not None:
            sides = keys.setdefault(r["quantity_key"], {"before": {}, "after": {}})
            sides[r["side"]].setdefault(r["side_name"] or "", []).append(i)
    out = []
    for key, sides in keys.items():
        for b_name, b_idx in sides["before"].items():
            for a_name, a_idx in sides["after"].items():
                first = rows[a_idx[0]]
                label = first["label"] or rows[b_idx[0]]["label"]
                way = direction(first.get("unit_si"), first["quantity"], label)
                if key.startswith(("rows|", "settings|")):
                    label = None  # (the label holds the side, as in the view)
                up = _speedup(_mean(rows, b_idx), _mean(rows, a_idx), way)
                out.append(
                    _Pair(
                        key,
                        b_name,
                        a_name,
                        label,
                        first["params"],
                        first["quantity"],
                        _unit_key(first),
                        b_idx,
                        a_idx,
                        up,
                    )  # fmt: skip
                )
    return out


def _half_unit(row: dict) -> float:
    """Half the last written digit of a number, in its value's terms (`3.2` ± 0.05)."""
    written = re.search(r"\d+(?:\.(\d+))?", row.get("written") or "")
    value = row["value"]
    if not written or value is None:
        return 0.0
    n = float(written.group(0).replace(",", ""))
    if n == 0:
        return 0.0
    return abs(value) * 0.5 * 10 ** -len(written.group(1) or "") / n


def _same_numbers(rows, a: list[int], b: list[int]) -> bool:
    va, vb = _mean(rows, a), _mean(rows, b)
    if va is None or vb is None:
        return False
    scale = abs(va) / abs(rows[a[0]]["value"]) if rows[a[0]]["value"] else 1.0
    half = max(_half_unit(rows[i]) for i in (*a, *b)) * scale
    return abs(va - vb) <= half + 1e-9 * max(abs(va), abs(vb))


def _restated(rows: list[dict]) -> None:
    """The same pair written twice (a tool's summary block after its table, a longer
    form of the same run): kept once, where it is written most precisely."""
    pairs = _pairs(rows)
    drop: set[int] = set()
    # one quantity, the same sides, twice in the message (benchmark-driver's Comparison
    # block after its Calculating block)
    seen: dict[tuple, list[_Pair]] = {}
    for p in pairs:
        seen.setdefault((p.label, p.params, p.quantity, p.unit, p.before, p.after), []).append(p)
    for group in seen.values():
        kept: list[_Pair] = []
        for p in sorted(group, key=lambda p: _digits(rows, [p])):
            if any(_twins(rows, p, k) for k in kept):
                drop.update(p.after_idx)
                if p.key not in {k.key for k in kept}:
                    drop.update(p.before_idx)
            else:
                kept.append(p)
    # one run named twice beside one baseline (`this PR`, then `the longer form for SET
    # with this PR`): the same numbers in every quantity both have, two at least
    runs: dict[str, dict[str, dict[str, _Pair]]] = {}
    for p in pairs:
        runs.setdefault(p.before, {}).setdefault(p.after, {})[p.key] = p
    for afters in runs.values():
        names = list(afters)
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                shared = afters[first].keys() & afters[second].keys()
                one = [afters[first][k] for k in shared]
                two = [afters[second][k] for k in shared]
                if len(shared) < 2 or not all(map(partial(_twins, rows), one, two)):
                    continue
                worse = two if _digits(rows, two) >= _digits(rows, one) else one
                for p in worse:
                    drop.update(p.after_idx)
    for i in drop:
        rows[i].update(side=None, side_name=None, quantity=None, quantity_key=None)


def _twins(rows, p: _Pair, q: _Pair) -> bool:
    return _same_numbers(rows, p.before_idx, q.before_idx) and _same_numbers(
        rows, p.after_idx, q.after_idx
    )


def _digits(rows, pairs: list[_Pair]) -> float:
    """How roughly pairs are written (lower is more precise): their numbers' largest
    relative half unit, then their place in the text."""
    idx = [i for p in pairs for i in (*p.before_idx, *p.after_idx)]
    halves = [_half_unit(rows[i]) / abs(rows[i]["value"]) for i in idx if rows[i]["value"]]
    return max(halves, default=0.0) + 1e-12 * min(idx, default=0)


def _attach_claims(rows, claims: list[StatedClaim], found: dict[int, tuple[str, str]],
                   text: str, spans: list[tuple[int, int] | None]) -> None:  # fmt: skip
    """`claim_factor` and `claim_words` on the after numbers of the pairs each claim is
    about: the pair its sentence made, else the sides it names (by name or as baseline
    or change), the label on its line, or the only sides the message compares; of
    those, the quantities whose numbers come closest to what it says. A claim that fits
    none of several comparisons is left to the message (the `claims` view)."""
    pairs = [p for p in _pairs(rows) if p.speedup]
    attached: set[int] = set()
    befores = {p.before for p in pairs}
    names = sorted(befores | {p.after for p in pairs})
    for ci, claim in enumerate(claims):
        named = False
        if ci in found:
            base, run = found[ci]
            cands = [p for p in pairs if (p.before, p.after) == (base, run)]
            target, named = claim.factor, True
        else:
            subject, obj = _claim_names(names, claim)
            target, cands = claim.speedup, pairs
            if subject and claim.factor:
                is_base = subject in befores
                target = 1 / claim.factor if is_base else claim.factor
                cands = [p for p in pairs if (p.before if is_base else p.after) == subject]
                named = True
            elif obj and claim.factor:
                is_base = obj in befores
                target = claim.factor if is_base else 1 / claim.factor
                cands = [p for p in pairs if (p.before if is_base else p.after) == obj]
                named = True
        if not target or not cands or not pairs:
            continue
        line = _line(text, claim.span[0])
        on_line = [p for p in cands if p.label and len(p.label) >= 3 and p.label in line]
        if on_line:
            cands, named = on_line, True
        fit = sorted(
            ((abs(math.log(p.speedup) - math.log(target)), n) for n, p in enumerate(cands)),
        )
        best = cands[fit[0][1]]
        alone = len({(p.before, p.after) for p in cands}) == 1
        if not (named or alone or fit[0][0] <= claim.tolerance):
            continue
        for d, n in fit:
            p = cands[n]
            if d > fit[0][0] + 0.02 or (p.before, p.after) != (best.before, best.after):
                continue
            for i in p.after_idx:
                if rows[i]["claim_factor"] is None:
                    rows[i]["claim_factor"] = target
                    rows[i]["claim_words"] = claim.words
            attached.add(ci)
    # a claim of no pair: on the number that states it (prose's `speedup 7 %`), read
    # right, for the message (the `claims` view)
    for ci, claim in enumerate(claims):
        if ci in attached or claim.speedup is None:
            continue
        # the number inside the claim's words (its span), else one of its sentence
        # written the same way
        sentence = text[claim.sentence[0] : claim.sentence[1]]
        number = re.search(r"\d+(?:\.\d+)?", claim.words)
        inside = [
            i
            for i, span in enumerate(spans)
            if span
            and span[0] < claim.span[1]
            and claim.span[0] < span[1]
            and rows[i]["side"] is None
        ]
        if not inside and number:
            inside = [
                i
                for i, r in enumerate(rows)
                if r["side"] is None
                and r["value"] == claim.number
                and (not r["label"] or r["label"] in sentence)
                and number.group(0) in str(r["written"] or "")
            ]
        for i in inside:
            if rows[i]["claim_factor"] is None:
                rows[i]["claim_factor"], rows[i]["claim_words"] = claim.speedup, claim.words
                break


def _line(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start : end if end >= 0 else len(text)]


def _noise(rows, sources, roles) -> None:
    """The stated error of each compared number: the noise cells of its row, the one
    named after it (`Score error` for `Score`, `StdDev baseline` for `QPS baseline`),
    else the one next to it."""
    cells: dict[tuple, list[int]] = {}
    for i, (r, (t, m)) in enumerate(zip(rows, sources, strict=True)):
        if m.row is not None:
            cells.setdefault((t, m.row, r["label"]), []).append(i)
    for idx in cells.values():
        errors = [i for i in idx if roles[i] == "noise"]
        if not errors:
            continue
        # a row with a max or a percentile describes a distribution (wrk's latency):
        # its stdev is the spread of single requests, not the error of the number
        spread_only = any(_DISTRIBUTION.search(rows[i]["metric"] or "") for i in idx)
        for i in idx:
            r = rows[i]
            if r["side"] == "change":
                r["noise"] = _change_noise(
                    r, [e for e in errors if _names(rows[e]["metric"], r)], rows
                )
                continue
            if r["side"] not in ("before", "after") or not r["value"]:
                continue
            same_variant = [
                e
                for e in errors
                if rows[e]["variant"] == r["variant"]
                and _compatible(rows[e], r)
                and not (spread_only and not _STATED_ERROR.search(rows[e]["metric"] or ""))
            ]
            named = [e for e in same_variant if _names(rows[e]["metric"], r)]
            # else the one written right after it (`120 ± 6`), or right before it
            chosen = (
                named
                or [e for e in same_variant if rows[e]["ordinal"] == r["ordinal"] + 1]
                or [e for e in same_variant if rows[e]["ordinal"] == r["ordinal"] - 1]
            )
            if not chosen and len(same_variant) == 1 and _alone(idx, roles, rows, r):
                chosen = same_variant
            noise = _relative(chosen, rows, r)
            if noise is not None:
                r["noise"] = noise


_DISTRIBUTION = re.compile(r"(?i)(?:^|[^a-z])(?:max|maximum|p9\d(?:\.\d+)?|percentile)(?:[^a-z]|$)")
_STATED_ERROR = re.compile(r"(?i)error|err\b|ci\b|confidence|±|\+/-|rme|moe|_lower$|_upper$")


def _compatible(e: dict, r: dict) -> bool:
    """An error in `%`, without a unit, or in the number's own kind of unit."""
    return (
        e["unit"] in (None, "%") or e.get("unit_si") == r.get("unit_si") or e["unit"] == r["unit"]
    )


def _names(error_metric: str, r: dict) -> bool:
    """`Score error` names `Score`; `StdDev baseline` names `QPS baseline`;
    `time_lower` names `time`."""
    stem = _NOISE.sub(" ", error_metric or "").strip(" _-()").lower()
    metric = (r["metric"] or "").lower()
    return bool(stem) and (stem == metric or stem in metric.split())


def _alone(idx, roles, rows, r) -> bool:
    """Only one compared number of its variant in the row: the row's error is its."""
    return sum(1 for i in idx if roles[i] == "value" and rows[i]["variant"] == r["variant"]) == 1


def _relative(chosen: list[int], rows: list[dict], r: dict) -> float | None:
    value = r["value"]
    if not chosen or not value:
        return None
    bounds = [rows[e] for e in chosen if re.search(r"[_ ](lower|upper)$", rows[e]["metric"] or "")]
    if len(bounds) == 2 and all(b["value"] is not None for b in bounds):
        lo, hi = sorted(b["value"] for b in bounds)  # a confidence interval: its half-width
        return _finite(abs(hi - lo) / 2 / abs(value))
    e = rows[chosen[0]]
    if e["value"] is None:
        return None
    if e["unit"] == "%" and r["unit"] != "%":
        return _finite(abs(e["value"]) / 100)
    if e.get("value_si") is not None and r.get("value_si") and e["unit_si"] == r["unit_si"]:
        return _finite(abs(e["value_si"] / r["value_si"]))
    return _finite(abs(e["value"] / value))


def _change_noise(r: dict, chosen: list[int], rows: list[dict]) -> float | None:
    """The half-width of a stated change's interval (`change_lower`, `change_upper`, in
    %), as a fraction."""
    bounds = [rows[e]["value"] for e in chosen if rows[e]["unit"] == "%" == r["unit"]]
    if len(bounds) != 2 or None in bounds:
        return None
    return _finite(abs(bounds[1] - bounds[0]) / 2 / 100)


def _finite(x: float) -> float | None:
    """Rows are stored as JSON: no NaN or infinity."""
    return x if math.isfinite(x) else None


def annotate_stored(rows: list[dict]) -> None:
    """`annotate` for measurement rows built by hand (tests, imports): rows grouped by
    message, their table from `table_id`, no format-declared sides; a table's row is
    its label."""
    by_message: dict[str, list[dict]] = {}
    for r in rows:
        by_message.setdefault(r["msg_key"], []).append(r)
    for group in by_message.values():
        tables = {t: i for i, t in enumerate(dict.fromkeys(r.get("table_id") for r in group))}
        for r in group:
            for col in ("metric", "value", "label", "variant", "unit", "value_si", "unit_si"):
                r.setdefault(col, None)
        # without row links, a label names a row of its table
        row_of = {
            k: i
            for i, k in enumerate(dict.fromkeys((r.get("table_id"), r["label"]) for r in group))
        }
        sources = [
            (
                tables[r.get("table_id")],
                Measurement(
                    r["metric"],
                    r["value"],
                    r["unit"],
                    r["label"],
                    r["variant"],
                    row=row_of[(r.get("table_id"), r["label"])],
                ),
            )
            for r in group
        ]
        annotate(group, sources)
