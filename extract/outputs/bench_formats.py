"""The mined series in the input formats of two benchmark trackers, so they can be fed
to those tools: `write_all(con, out_dir)` writes both and returns the index files with
their counts (`bmf/index.csv` and its runs, `otava/otava.yaml` and its tests).

- Bencher Metric Format (BMF) JSON, `OUT/bmf/<run>.json`: one file per run, i.e. per
  message and variant (the before and the after of a message are two runs), shaped
  `{benchmark: {measure: {"value": v, "lower_value": lo, "upper_value": hi}}}`. The
  benchmark is the label with its parameters (`Bench.run [size=10]`), the measure a
  slug of the metric and SI unit (`score-1-s`); values are in SI units where known,
  and lower/upper come from the stated noise (value × (1 ∓ noise)) when there is one.
  `OUT/bmf/index.csv` says which message, date, project and variant each file is.
- Apache Otava's CSV input, `OUT/otava/<series_key>.csv` (columns `time`, `msg_key`,
  `variant`, `value`) for every series seen in more than one message, and
  `OUT/otava/otava.yaml`, the `tests:` section that declares each file as a `csv` test
  (`time_column: time`, `attributes: [msg_key, variant]`, metric `value` with
  `direction: -1` for times, 1 otherwise, and the `scale` 1).

Files are written under a temporary name and renamed, like every export. Text cells
that a spreadsheet would run as a formula get a leading `'` (as in `export`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
from pathlib import Path

import duckdb

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
SENT = """CASE WHEN isfinite(sent_at) AND year(sent_at AT TIME ZONE 'UTC') BETWEEN 1 AND 9998
               THEN sent_at END"""


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _csv(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return buf.getvalue()


def slug(text: str | None) -> str:
    """A BMF measure slug: lower-case ASCII letters, digits and single hyphens."""
    s = re.sub(r"[^a-z0-9]+", "-", (text or "").lower()).strip("-")
    return s or "value"


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def bmf_runs(con: duckdb.DuckDBPyConnection) -> list[tuple[dict, dict]]:
    """(run description, BMF document) per message and variant, in date order."""
    cur = con.execute(
        f"""SELECT msg_key, coalesce(variant, '') AS variant, {SENT} AS sent_at, project,
                   list, label, params, metric, coalesce(unit_si, unit) AS unit,
                   coalesce(value_si, value) AS value, noise
            FROM measurement_series
            ORDER BY sent_at NULLS LAST, msg_key, variant, ordinal"""
    )
    runs: dict[tuple[str, str], tuple[dict, dict]] = {}
    for (
        msg_key,
        variant,
        sent_at,
        project,
        list_,
        label,
        params,
        metric,
        unit,
        value,
        noise,
    ) in cur.fetchall():
        if not _finite(value):
            continue  # BMF values are JSON numbers: no NaN, no infinity
        meta, doc = runs.setdefault(
            (msg_key, variant),
            (
                {"msg_key": msg_key, "variant": variant, "sent_at": sent_at,
                 "project": project, "list": list_},
                {},
            ),
        )  # fmt: skip
        name = f"{label} [{params}]" if params else label
        measure = slug(f"{metric or 'value'} {unit or ''}")
        if measure in doc.setdefault(name, {}):
            continue  # the first number written for it
        metric_doc = {"value": value}
        if _finite(noise) and noise >= 0:
            metric_doc["lower_value"] = value - abs(value) * noise
            metric_doc["upper_value"] = value + abs(value) * noise
        doc[name][measure] = metric_doc
    return list(runs.values())


def write_bmf(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    folder = out_dir / "bmf"
    folder.mkdir(parents=True, exist_ok=True)
    index, written, names = [], [], set()
    for meta, doc in bmf_runs(con):
        run = "\0".join((meta["msg_key"], meta["variant"]))
        name = hashlib.sha256(run.encode("utf-8", "surrogatepass")).hexdigest()[:24] + ".json"
        path = folder / name
        _write(path, json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
        names.add(name)
        written.append((path, sum(len(m) for m in doc.values())))
        sent = meta["sent_at"].isoformat() if meta["sent_at"] else ""
        index.append([name, meta["msg_key"], sent, meta["project"], meta["list"], meta["variant"]])
    for old in folder.glob("*.json"):  # runs no longer in the database
        if old.name not in names:
            old.unlink()
    header = ["file", "msg_key", "sent_at", "project", "list", "variant"]
    _write(folder / "index.csv", _csv(header, index))
    return [(folder / "index.csv", len(index))]  # (one line per run file)


def _yaml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML string


def write_otava(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    folder = out_dir / "otava"
    folder.mkdir(parents=True, exist_ok=True)
    series = con.execute(
        """SELECT series_key, project, label, params, metric, unit FROM series
           WHERE messages > 1 ORDER BY project, series_key"""
    ).fetchall()
    points: dict[str, list[list]] = {}
    for key, at, msg_key, variant, value in con.execute(
        f"""SELECT series_key, {SENT}, msg_key, coalesce(variant, ''),
                   coalesce(value_si, value)
            FROM measurement_series
            WHERE series_key IN (SELECT series_key FROM series WHERE messages > 1)
            ORDER BY sent_at, msg_key, ordinal"""
    ).fetchall():
        if at is None or not _finite(value):
            continue  # Otava needs a time and a number on every row
        points.setdefault(key, []).append(
            [at.strftime("%Y-%m-%d %H:%M:%S %z"), msg_key, variant, f"{value:.15g}"]
        )
    written, names = [], set()
    config = [
        "# Apache Otava tests, one per series seen in more than one message "
        "(asf-bench-mail export).",
        "tests:",
    ]
    for key, project, label, params, metric, unit in series:
        rows = points.get(key, [])
        if not rows:
            continue
        name = f"{key}.csv"
        path = folder / name
        _write(path, _csv(["time", "msg_key", "variant", "value"], rows))
        names.add(name)
        written.append((path, len(rows)))
        direction = -1 if unit == "s" else 1
        title = " / ".join(str(x) for x in (label, params, metric, unit) if x)
        config += [
            f"  {_yaml_str(f'{project}.{key}')}:",
            f"    # {_yaml_str(title)}",
            "    type: csv",
            f"    file: {_yaml_str(str(path.resolve()))}",
            "    time_column: time",
            "    attributes: [msg_key, variant]",
            "    metrics:",
            "      value:",
            f"        direction: {direction}",
            "        scale: 1",
        ]
    for old in folder.glob("*.csv"):
        if old.name not in names:
            old.unlink()
    if len(config) == 2:
        config[-1] = "tests: {}"
    _write(folder / "otava.yaml", "\n".join(config) + "\n")
    return [(folder / "otava.yaml", len(written))]  # (one test per series file)


def write_all(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    """Both formats under `out_dir`; nothing when the database lacks the findings views."""
    have = {n for (n,) in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
    if not {"measurement_series", "series"} <= have:
        return []
    return write_bmf(con, out_dir) + write_otava(con, out_dir)
