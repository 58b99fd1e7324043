"""`python -m extract.dev.docs [--write]`: the parts of the docs made from the format
registry, so that they cannot drift from the code: the README's list of formats and
the table of formats in docs/internals.md, each between two marker comments.

Without `--write` it says which part is out of date and exits 1 (a test runs it);
with `--write` it rewrites them. Adding a format changes both: run it and commit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from extract.results.formats import PARSERS

REPO = Path(__file__).resolve().parents[2]


def _name(info) -> str:
    return f"`{info.name}`" + (" (noise)" if info.kind == "noise" else "")


def formats_table() -> str:
    """One row per format, in run order: name, priority, what recognises it."""
    rows = ["| format | priority | recognised by |", "|---|---|---|"]
    for mod in PARSERS:
        info = mod.INFO
        said = f"{info.description[:1].upper()}{info.description[1:]}. {info.signature}"
        rows.append(f"| {_name(info)} | {info.priority} | {said.replace('|', chr(92) + '|')} |")
    return "\n".join(rows)


def formats_list() -> str:
    """The README's sentence that names every format, in run order."""
    names = ", ".join(f"`{mod.INFO.name}`" for mod in PARSERS)
    return (
        f"{len(PARSERS)} formats, one module each under `extract/results/formats/`, tried in "
        "this order\n(noise recognisers first, then tool formats, generic tables, prose "
        f"last): {names}."
    )


# (file, the name in its marker comments, what goes between them)
PARTS: list[tuple[str, str, Callable[[], str]]] = [
    ("README.md", "formats list", formats_list),
    ("docs/internals.md", "formats table", formats_table),
]


def _markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- {name}: made by `python -m extract.dev.docs --write`, do not edit -->",
        f"<!-- end of {name} -->",
    )


def stale(write: bool = False, repo: Path = REPO) -> list[str]:
    """The parts whose text is not what the registry makes (rewritten if `write`)."""
    out = []
    for file, name, make in PARTS:
        path = repo / file
        text = path.read_text(encoding="utf-8")
        begin, end = _markers(name)
        start = text.find(begin + "\n")
        stop = text.find("\n" + end, start)
        if start < 0 or stop < 0:
            raise SystemExit(f"{file}: the markers of the {name} are missing:\n{begin}\n{end}")
        if text[start + len(begin) + 1 : stop] != make():
            out.append(f"{file}: {name}")
            if write:
                new = f"{begin}\n{make()}"
                path.write_text(text[:start] + new + text[stop:], "utf-8")
    return out


def main(argv: list[str]) -> int:
    write = "--write" in argv
    parts = stale(write=write)
    for part in parts:
        print(f"{'rewrote' if write else 'out of date'}: {part}")
    return 1 if parts and not write else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
