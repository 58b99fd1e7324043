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

Each folder is written anew beside the old one and swapped in when complete, so a
reader never sees half of one and runs gone from the database go with the old folder.
Rows are read a batch at a time and one run or series is in memory at a time: memory
stays flat however large the database. Times are ISO 8601 in UTC with their offset,
as in every export; `otava.yaml`'s `file:` paths are relative to its folder. Text
cells that a spreadsheet would run as a formula get a leading `'` (as in `export`).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import re
import shutil
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from extract.outputs.parquet import remove_leftovers, swap_in

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
SENT = """CASE WHEN isfinite(sent_at) AND year(sent_at AT TIME ZONE 'UTC') BETWEEN 1 AND 9998
               THEN sent_at END"""


_BATCH = 2000  # rows fetched at a time: memory stays flat however many rows there are


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


def iso_time(value: datetime | None) -> str:
    """A time as every export writes it: ISO 8601 in UTC with its offset,
    2018-09-04T10:00:00+00:00 (microseconds only when there are any)."""
    if value is None:
        return ""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def slug(text: str | None) -> str:
    """A BMF measure slug: lower-case ASCII letters, digits and single hyphens."""
    s = re.sub(r"[^a-z0-9]+", "-", (text or "").lower()).strip("-")
    return s or "value"


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _rows(cur: duckdb.DuckDBPyConnection) -> Iterator[tuple]:
    """The rows of an executed query, fetched a batch at a time."""
    while batch := cur.fetchmany(_BATCH):
        yield from batch


def bmf_runs(con: duckdb.DuckDBPyConnection) -> Iterator[tuple[dict, dict]]:
    """(run description, BMF document) per message and variant, in date order, one run
    at a time (the query orders a run's rows together)."""
    cur = con.cursor()
    cur.execute(
        f"""SELECT msg_key, coalesce(variant, '') AS variant, {SENT} AS sent_at, project,
                   list, label, params, metric, coalesce(unit_si, unit) AS unit,
                   coalesce(value_si, value) AS value, noise
            FROM measurement_series
            ORDER BY sent_at NULLS LAST, msg_key, variant, ordinal"""
    )
    meta: dict | None = None
    doc: dict = {}
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
    ) in _rows(cur):
        if not _finite(value):
            continue  # BMF values are JSON numbers: no NaN, no infinity
        if meta is None or (meta["msg_key"], meta["variant"]) != (msg_key, variant):
            if meta is not None:
                yield meta, doc
            meta = {"msg_key": msg_key, "variant": variant, "sent_at": sent_at,
                    "project": project, "list": list_}  # fmt: skip
            doc = {}
        name = f"{label} [{params}]" if params else label
        measure = slug(f"{metric or 'value'} {unit or ''}")
        if measure in doc.setdefault(name, {}):
            continue  # the first number written for it
        metric_doc = {"value": value}
        if _finite(noise) and noise >= 0:
            metric_doc["lower_value"] = value - abs(value) * noise
            metric_doc["upper_value"] = value + abs(value) * noise
        doc[name][measure] = metric_doc
    if meta is not None:
        yield meta, doc


def write_bmf(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    """OUT/bmf: one JSON file per run and index.csv, written into a new folder that
    replaces the old one when complete (runs no longer in the database go with it)."""
    folder = out_dir / "bmf"
    header = ["file", "msg_key", "sent_at", "project", "list", "variant"]
    n = 0
    with _new_folder(folder) as tmp, open(tmp / "index.csv", "w", newline="") as index:
        writer = csv.writer(index, lineterminator="\n")
        writer.writerow(header)
        for meta, doc in bmf_runs(con):
            run = "\0".join((meta["msg_key"], meta["variant"]))
            name = hashlib.sha256(run.encode("utf-8", "surrogatepass")).hexdigest()[:24]
            text = json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
            (tmp / f"{name}.json").write_text(text, encoding="utf-8")
            row = [f"{name}.json", meta["msg_key"], iso_time(meta["sent_at"]),
                   meta["project"], meta["list"], meta["variant"]]  # fmt: skip
            writer.writerow([_cell(v) for v in row])
            n += 1
    return [(folder / "index.csv", n)]  # (one line per run file)


def _yaml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML string


def write_otava(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    """OUT/otava: a CSV per series seen in more than one message and otava.yaml, whose
    `file:` paths are relative to the folder (run otava from there); one series in
    memory at a time, in a new folder that replaces the old one when complete."""
    folder = out_dir / "otava"
    cur = con.cursor()
    cur.execute(
        f"""SELECT s.series_key, s.project, s.label, s.params, s.metric, s.unit,
                   {SENT.replace("sent_at", "m.sent_at")} AS at, m.msg_key,
                   coalesce(m.variant, ''), coalesce(m.value_si, m.value)
            FROM series s JOIN measurement_series m USING (series_key)
            WHERE s.messages > 1
            ORDER BY s.project, s.series_key, m.sent_at, m.msg_key, m.ordinal"""
    )
    n = 0
    with _new_folder(folder) as tmp, open(tmp / "otava.yaml", "w") as config:
        config.write(
            "# Apache Otava tests, one per series seen in more than one message "
            "(asf-bench-mail export).\n# Paths are relative to this folder: run otava "
            "here (OTAVA_CONFIG=otava.yaml otava analyze <test>).\ntests:"
        )
        key, head, rows = None, None, []
        for series_key, project, label, params, metric, unit, at, msg_key, variant, value in _rows(
            cur
        ):
            if series_key != key:
                n += _otava_series(tmp, config, head, rows)
                key, head, rows = series_key, (series_key, project, label, params, metric,
                                               unit), []  # fmt: skip
            if at is None or not _finite(value):
                continue  # Otava needs a time and a number on every row
            rows.append([iso_time(at), msg_key, variant, f"{value:.15g}"])
        n += _otava_series(tmp, config, head, rows)
        config.write("\n" if n else " {}\n")
    return [(folder / "otava.yaml", n)]  # (one test per series file)


def _otava_series(folder: Path, config, head: tuple | None, rows: list[list]) -> int:
    """Write one series' CSV and its test in otava.yaml; 1 if written, 0 if empty."""
    if head is None or not rows:
        return 0
    key, project, label, params, metric, unit = head
    name = f"{key}.csv"
    (folder / name).write_text(_csv(["time", "msg_key", "variant", "value"], rows))
    direction = -1 if unit == "s" else 1
    title = " / ".join(str(x) for x in (label, params, metric, unit) if x)
    config.write(
        "\n".join(
            [
                "",
                f"  {_yaml_str(f'{project}.{key}')}:",
                f"    # {_yaml_str(title)}",
                "    type: csv",
                f"    file: {_yaml_str(name)}",
                "    time_column: time",
                "    attributes: [msg_key, variant]",
                "    metrics:",
                "      value:",
                f"        direction: {direction}",
                "        scale: 1",
            ]
        )
    )
    return 1


@contextlib.contextmanager
def _new_folder(final: Path) -> Iterator[Path]:
    """A temporary folder beside `final` that replaces it when the block completes
    (and is removed when it fails), so `final` is always whole."""
    final.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(final)
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    tmp.mkdir()
    try:
        yield tmp
        swap_in(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def write_all(con: duckdb.DuckDBPyConnection, out_dir: Path) -> list[tuple[Path, int]]:
    """Both formats under `out_dir`; nothing when the database lacks the findings views."""
    have = {n for (n,) in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
    if not {"measurement_series", "series"} <= have:
        return []
    return write_bmf(con, out_dir) + write_otava(con, out_dir)
