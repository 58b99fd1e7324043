"""The staging format (extract/db/staging.py): rows written as JSON or row files read
back the same, across `pack`/`unpack` too; a failed write leaves no file; and it has one
writer: no other module of the run encodes staged rows, and neither the store nor the
pipeline reaches across to the other for it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from extract.db import staging
from extract.db.staging import StageWriter, pack, read_rows, unpack

REPO = Path(__file__).resolve().parents[2]

ROWS = {
    "messages": [
        {"msg_key": "a@x/2020-01/1", "body": "ünïcode \u2028 line", "refs": ["r1", "r2"]},
        {"msg_key": "a@x/2020-01/2", "body": None, "refs": []},
    ],
    "errors": [{"archive": "raw/x/a/2020-01.mbox.gz", "position": 3, "reason": "bad\nthing"}],
}


def read_back(staged) -> dict[str, list[dict]]:
    out = {}
    for table, file in staged.files.items():
        if file.endswith(".rows"):
            out[table] = [r for chunk in read_rows(file) for r in chunk]
        else:
            text = Path(file).read_text("utf-8")
            out[table] = [json.loads(line) for line in text.split("\n") if line]
    return out


@pytest.mark.parametrize("encode", [True, False], ids=["ndjson", "rows"])
def test_rows_come_back_as_written_in_both_encodings(tmp_path, encode):
    with StageWriter(tmp_path, encode=encode) as writer:
        for table, rows in ROWS.items():  # in two chunks, as a worker writes them
            writer.write(table, rows[:1])
            writer.write(table, rows[1:])
        writer.write("measurements", [])  # no rows, no file
        staged = writer.finish({"path": "raw/x/a/2020-01.mbox.gz"})
    assert set(staged.files) == {"messages", "errors"}
    suffix = ".ndjson" if encode else ".rows"
    assert all(f.endswith(suffix) and Path(f).parent == tmp_path for f in staged.files.values())
    assert read_back(staged) == ROWS
    # packed for a process that does not see this directory, and staged again there
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = unpack(elsewhere, *pack(staged))
    assert list(tmp_path.glob("*.*")) == []  # pack took the files away
    assert again.archive == staged.archive and read_back(again) == ROWS
    assert all(f.endswith(".ndjson") for f in again.files.values())


def test_a_failed_write_leaves_no_file(tmp_path):
    with pytest.raises(ValueError), StageWriter(tmp_path) as writer:
        writer.write("messages", ROWS["messages"])
        writer.write("errors", [{"value": float("nan")}])  # not JSON
    assert list(tmp_path.iterdir()) == []


def test_writers_never_share_a_file(tmp_path):
    one = staging.stage(tmp_path, {}, ROWS)
    two = staging.stage(tmp_path, {}, ROWS)
    assert set(one.files.values()).isdisjoint(two.files.values())
    staging.discard([one, two])
    assert list(tmp_path.iterdir()) == []


def imports(module: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(module.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_one_writer_and_no_reaching_across():
    extract = REPO / "extract"
    assert not {n for n in imports(extract / "db" / "store.py") if n.startswith("extract.pipeline")}
    assert not {n for n in imports(extract / "db" / "staging.py") if n.startswith("extract.")}
    assert not {n for n in imports(extract / "pipeline.py") if "staging" in n}
    # Only the staging module encodes staged rows or names their files (the cluster's
    # pickles are its pipe to its extraction processes, not rows).
    for module in ("pipeline.py", "worker.py", "runner.py", "cluster.py", "db/store.py"):
        source = (extract / module).read_text("utf-8")
        for needle in ("JSONEncoder(", '.ndjson"', '.rows"', "write_ndjson", "write_rows"):
            assert needle not in source, (module, needle)
