"""The repository carries only the project's own text (and the user's seeds): no file
in it is a copy of the third-party material in ../shared (labelled corpus, format
samples, peer archives), which is read where it lives."""

from __future__ import annotations

import hashlib
import subprocess

import pytest

from tests.conftest import REPO, SHARED

pytestmark = pytest.mark.shared


def _digest(data: bytes) -> str | None:
    """Line ends and surrounding blank space do not make a copy original."""
    data = data.replace(b"\r\n", b"\n").strip()
    return hashlib.sha256(data).hexdigest() if len(data) >= 64 else None


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def _third_party() -> dict[str, str]:
    found = {}
    for path in SHARED.rglob("*"):
        rel = path.relative_to(SHARED).parts
        if not path.is_file() or rel[0] in ("seeds", "hooks"):
            continue
        d = _digest(path.read_bytes())
        if d:
            found[d] = str(path.relative_to(SHARED))
    return found


def test_no_tracked_file_is_a_copy_of_shared_material():
    shared = _third_party()
    assert len(shared) > 100, "../shared looks empty"
    copies = []
    for rel in _tracked():
        path = REPO / rel
        if path.is_file() and not path.is_symlink():
            d = _digest(path.read_bytes())
            if d in shared:
                copies.append(f"{rel} = shared/{shared[d]}")
    assert not copies, copies


def test_no_labelled_message_body_is_carried_inside_a_tracked_file():
    """A corpus message's body pasted into a fixture or the demo sample counts as a
    copy too (checked on bodies of some length, where a match is no coincidence)."""
    bodies = {}
    for path in (SHARED / "corpus").glob("*/*.txt"):
        body = path.read_text("utf-8", "replace").partition("\n\n")[2].strip()
        lines = [ln.strip() for ln in body.splitlines() if len(ln.strip()) >= 60]
        if len(lines) >= 3:
            bodies[path.stem] = lines[:3]
    assert bodies
    hits = []
    for rel in _tracked():
        if rel.startswith("tests/fixtures/seeds/"):
            continue
        path = REPO / rel
        if not path.is_file() or path.stat().st_size > 5_000_000:
            continue
        text = path.read_text("utf-8", "replace")
        for ident, lines in bodies.items():
            if all(line in text for line in lines):
                hits.append(f"{rel} carries {ident}")
    assert not hits, hits[:10]
