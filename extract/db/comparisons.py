"""Which side of a comparison each measurement is on: the columns the `comparisons`
view joins on, filled when the extractor writes a message's measurements.

`annotate(rows, sources)` sets, on each measurement row of one message:

- `side`: `before` or `after` (one side of a comparison the message makes), `change`
  (a stated relative change, e.g. criterion's `change:`, when the message gives no
  before value), or NULL: not compared;
- `side_name`: the name of its side (`Before patch`, `baseline`, `No changes`);
- `params`: what identifies the quantity besides the label: JMH @Param values and the
  other dimensions of the variant (the column group `GCS` in `GCS / No changes`);
- `quantity`: what is compared, the metric without the side's name (`QPS` for
  `QPS baseline`, `time/op` for `old time/op`);
- `quantity_key`: `<rule>:...`, equal for the numbers of one quantity in one
  comparison; the view pairs each `before` with each `after` of the same key;
- `noise`: the stated error of the number relative to it (0.05 = ±5 %): the Error,
  ±, StdDev or confidence-interval value of its row.

Sides come from, in order:
1. `format`: the format says (luceneutil, archery, benchstat, critcmp, criterion,
   google-benchmark compare.py): `Measurement.side`;
2. `variants`: measurements whose variants differ in one dimension (`Before patch` /
   `After patch`, `GCS / No changes` / `GCS / LongAdder`, prose `before` / `after`,
   diff `[-]` / `[+]`): the baseline is the first value named like one (before, old,
   baseline, master, trunk, no changes, ...), else the first in the text; each other
   value is compared with it. Labels must be equal, except when each run is a single
   row whose labels differ only in numbers (`Time spent by thread 2 ...`);
   `settings`: labels that list settings (`Tables=1000, Export Service used=Yes`) and
   differ in one: its values are the sides (No, false, off, disabled: the baseline);
3. `columns`: in one table row, columns named like a baseline and like a change
   (`| query | before | after |`, `master (ms)` / `PR (ms)`);
4. `rows`: in one table, rows labelled like a baseline and like a change.

Error, ±, stdev, CI, p-value, count and iteration columns, stated changes and factors
are never sides: their values become the noise of the numbers they qualify.
"""

from __future__ import annotations

import math
import re

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
_BASELINE = re.compile(rf"(?i)(?:^|(?<=[^a-z]))(?:{BASELINE_WORDS})(?=[^a-z]|$)")
_CHANGE = re.compile(rf"(?i)(?:^|(?<=[^a-z]))(?:{CHANGE_WORDS})(?=[^a-z]|$)")

# The stated error or spread of a number (its noise), never compared.
_NOISE = re.compile(
    r"(?i)(?:^|[^a-z])(?:error|err|std\s?dev|stdev|stddev|std|sd|ci|confidence|margin|"
    r"deviation|variance|mad|rsd|rme|moe|cv|spread)(?:[^a-z]|$)|±|\+/-|[_ ](?:lower|upper)$"
)
# Numbers that describe the run or the comparison, never compared: counts, iterations,
# p-values, stated changes and factors.
_NOT_COMPARED = re.compile(
    r"(?i)^\s*(?:cnt|count|samples|iterations|iters|n|runs|rounds|trials|threads|forks|"
    r"relative|p|p-?value|pvalue|significance)\s*(?:\(.*\))?\s*$"
    r"|(?:^|[^a-z])(?:p-?value|pct\s*diff|diff|delta|change|speed-?up|ratio|gain|"
    r"improvement|vs)(?:[^a-z]|$)|_(?:change|pvalue)$|%\s*change"
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


def role(metric: str | None, unit: str | None) -> str:
    """`noise`, `other` (never compared) or `value`."""
    metric = metric or ""
    if _NOISE.search(metric):
        return "noise"
    if _NOT_COMPARED.search(metric):
        return "other"
    if unit and (unit.strip().lower() in _NOT_COMPARED_UNITS or is_count_unit(unit)):
        return "other"
    return "value"


def _split_variant(variant: str | None) -> tuple[list[str], list[str]]:
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
    return params, dims


def _key(parts) -> str:
    """A quantity_key from its parts (None as empty)."""
    return "|".join("" if p is None else str(p) for p in parts)


def _unit_key(row: dict) -> str:
    return row.get("unit_si") or row.get("unit") or ""


def _side_of_name(name: str) -> str | None:
    if _BASELINE.search(name):
        return "before"
    if _CHANGE.search(name):
        return "after"
    return None


def _without_side_word(metric: str) -> str:
    """`old time/op` → `time/op`, `Before (ms)` → `(ms)`; `before` → ``."""
    out = _BASELINE.sub("", metric, count=1) if _BASELINE.search(metric) else metric
    if out == metric:
        out = _CHANGE.sub("", metric, count=1)
    return re.sub(r"\s+", " ", out).strip(" -_:,")


def annotate(rows: list[dict], sources: list[tuple[int, Measurement]]) -> None:
    """Fill the comparison columns of one message's measurement rows, in place;
    `sources[i]` is (table ordinal, Measurement) of `rows[i]`."""
    for row in rows:
        row.update(side=None, side_name=None, params=None, quantity=None)
        row.update(quantity_key=None, noise=None)
    roles = [role(r["metric"], r["unit"]) for r in rows]
    for r in rows:
        params, _ = _split_variant(r["variant"])
        r["params"] = " / ".join(params) or None
    _declared(rows, sources, roles)
    _by_variants(rows, sources, roles)
    _by_settings(rows, sources, roles)
    _by_columns(rows, sources, roles)
    _by_rows(rows, sources, roles)
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


def _by_variants(rows, sources, roles) -> None:
    """Rule 2: runs that differ in one dimension of their variant, anywhere in the
    message (each run may be a table of its own)."""
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
    for (params, metric, unit_key, n, scope), members in groups.items():
        dims_of = {i: tuple(_split_variant(rows[i]["variant"])[1]) for i in members}
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
            base = next((v for v in values if _side_of_name(v) == "before"), values[0])
            all_params = " / ".join(p for p in (params, *group) if p) or None
            key = _key(["variants", label, all_params or "", metric, unit_key, scope])
            for i in idx:
                value = dims_of[i][axis]
                rows[i].update(
                    side="before" if value == base else "after",
                    side_name=value,
                    params=all_params,
                    quantity=metric,
                    quantity_key=key,
                )


_OFF = re.compile(r"(?i)^(?:no|false|off|disabled?|none|0)$")


def _settings(label: str | None) -> dict[str, str] | None:
    """`No. of Tables=1000, Export Service used=Yes` as {key: value}; None unless the
    label is such a list."""
    parts = [p.strip() for p in (label or "").split(",")]
    if len(parts) < 1 or not all(re.fullmatch(r"[^=]{1,60}=[^=]{1,60}", p) for p in parts):
        return None
    return dict(p.split("=", 1) for p in parts)


def _by_settings(rows, sources, roles) -> None:
    """Rule 2b: labels that are settings (`k=v, k=v`) differing in one setting: its
    values are the sides, the baseline the one named like off or a baseline (No,
    false, disabled, without), else the first."""
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
        base = off[0] if off else sides[0]
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
