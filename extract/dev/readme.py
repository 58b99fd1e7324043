"""`python -m extract.dev.readme [--data-dir data/demo] [--write]` (`make readme`): the
README's outputs, made again from the demo database, so that the docs cannot drift.

Which blocks of README.md are outputs:

- in the `## SQL cookbook` section, every ```sql block followed by a ```text block:
  the text is what `make sql -c` prints for that SQL (`extract.outputs.sql.run`);
- a ```text block right after `<!-- demo-output: WHAT -->`, WHAT one of
  `make report`, `make export` (the command run on the demo, its output, the data
  directory shown as `data/demo`), `make sql` (a prompt session: the statements typed
  after `sql> ` are run again) and `make demo` (the counts of the demo's summary; its
  timings, port and paths are left as they are).

Without `--write` it compares and prints, for each block that differs, the README's
text and the demo's side by side, and exits 1; with `--write` it rewrites those
blocks. `tests/test_docs.py` runs the comparison on a fresh demo. Run `make demo`
first: the outputs are those of `data/demo`.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from extract.version import add_version_argument

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
SHOWN_DIR = "data/demo"  # how the README names the demo's data directory
COOKBOOK = "## SQL cookbook"

_FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.M | re.S)
# (bounded and possessive, and searched in the text just before a fence only)
_MARKER = re.compile(r"<!-- demo-output: ([^>]{0,200}?) -->\s*+\Z")


@dataclass(frozen=True)
class Block:
    """An output block of the README: `kind` (`sql` for a cookbook query, else the
    marker's command), its input (the SQL, or the README's own text for `make sql` and
    `make demo`), and where its text is in the README (`start`, `end`, `line`)."""

    kind: str
    source: str
    text: str
    start: int
    end: int
    line: int

    @property
    def name(self) -> str:
        """`make report`, or for a query `sql select-project-lists-…` (its first words)."""
        words = re.sub(r"[^a-z0-9]+", "-", self.source.lower()).strip("-")
        return self.kind + (f" {words[:48]}" if self.kind == "sql" else "")


def blocks(readme: str) -> list[Block]:
    """The output blocks of `readme`, in order."""
    fences = list(_FENCE.finditer(readme))
    cookbook = readme.find("\n" + COOKBOOK + "\n")
    cookbook_end = readme.find("\n## ", cookbook + 1) if cookbook >= 0 else -1
    if cookbook_end < 0:
        cookbook_end = len(readme)
    out = []
    for prev, fence in zip([None, *fences], fences, strict=False):
        if fence.group(1) != "text":
            continue
        line = readme.count("\n", 0, fence.start(2)) + 1
        between = readme[prev.end() : fence.start()] if prev is not None else ""
        if (
            prev is not None
            and prev.group(1) == "sql"
            and not between.strip()
            and cookbook <= fence.start() < cookbook_end
        ):
            kind, source = "sql", prev.group(2)
        elif marker := _MARKER.search(readme[max(0, fence.start() - 400) : fence.start()]):
            kind, source = marker.group(1).strip(), fence.group(2)
        else:
            continue
        out.append(Block(kind, source, fence.group(2), fence.start(2), fence.end(2), line))
    return out


# ---------------------------------------------------------------- making the outputs


def _env() -> dict[str, str]:
    """The environment for `make`: without a calling make's flags (no "Entering
    directory" lines when the tests run under `make test`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    env["TZ"] = "UTC"
    return env


def _shown(text: str, data_dir: Path) -> str:
    for form in {str(data_dir.resolve()), str(data_dir)}:
        text = text.replace(form, SHOWN_DIR)
    return text


def _make(target: str, data_dir: Path) -> str:
    """`$ make TARGET DATA_DIR=data/demo` and what it prints, run on `data_dir`."""
    done = subprocess.run(
        ["make", "--no-print-directory", target, f"DATA_DIR={data_dir}"],
        cwd=REPO, env=_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"make {target} failed:\n{done.stdout}\n{done.stderr}")
    return _shown(f"$ make {target} DATA_DIR={data_dir}\n" + done.stdout, data_dir)


def _sql(con, sql: str) -> str:
    from extract.outputs import sql as sql_tool

    return sql_tool.run(con, sql.strip())


def _sql_session(con, text: str) -> str:
    """The README's prompt session with each statement's output made again."""
    from extract.outputs import sql as sql_tool

    lines = text.splitlines()
    head = [line for line in lines[:3] if not line.startswith("sql> ")]
    out = list(head)
    statement: list[str] = []
    for line in lines[len(head) :]:
        if line.startswith("sql> ") or (statement and line.startswith("...> ")):
            statement.append(line)
            typed = "\n".join(s[5:] for s in statement)
            if not sql_tool.complete_statement(typed):
                continue
            out += statement
            statement = []
            if typed.strip() in (".quit", ".exit", ".q"):
                break
            out.append(sql_tool.run(con, typed.strip()))
    return "\n".join(out) + "\n"


def _demo_counts(con, text: str) -> str:
    """The README's demo summary with its count lines made again from the database."""
    from extract.dev import demo

    fresh = demo.format_summary(
        demo.summary(con), data_dir=Path("."), db=Path("."), index=Path("."), timings={}
    ).splitlines()
    counts = {line.split("  ")[1].strip(): line for line in fresh if _COUNT.match(line)}
    out = []
    for line in text.splitlines():
        if (m := _COUNT.match(line)) and m.group(1).strip() in counts:
            line = counts[m.group(1).strip()]
        out.append(line)
    return "\n".join(out) + "\n"


# (words one blank apart, then two or more: possessive, so a line of blanks is read once)
_COUNT = re.compile(r"^  ([a-z/]++(?: [a-z/]++)*+)[ ]{2,}+\d")


def render(block: Block, data_dir: Path, con) -> str:
    """What `block` should say, from the demo in `data_dir` (its database open as `con`)."""
    makers: dict[str, Callable[[], str]] = {
        "sql": lambda: _sql(con, block.source) + "\n",
        "make report": lambda: _make("report", data_dir),
        "make export": lambda: _make("export", data_dir),
        "make sql": lambda: _sql_session(con, block.text),
        "make demo": lambda: _demo_counts(con, block.text),
    }
    if block.kind not in makers:
        raise ValueError(f"README line {block.line}: unknown demo-output {block.kind!r}")
    return makers[block.kind]()


def side_by_side(readme: str, actual: str, width: int = 72) -> str:
    """The two texts in two columns, `!` before the lines that differ."""
    left, right = readme.splitlines(), actual.splitlines()
    width = min(width, max((len(s) for s in left), default=6))
    rows = [f"  {'README.md':<{width}} | the demo", f"  {'-' * width} | {'-' * 8}"]
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        cut = a if len(a) <= width else a[: width - 1] + "…"
        rows.append(f"{'!' if a != b else ' '} {cut:<{width}} | {b}")
    return "\n".join(rows)


def check(readme_path: Path, data_dir: Path, *, write: bool = False, out=print) -> int:
    """Compare (or with `write`, rewrite) every output block; the number that differ."""
    from extract.outputs.connect import open_database

    text = readme_path.read_text(encoding="utf-8")
    found = blocks(text)
    con = open_database(data_dir / "asf.duckdb")
    try:
        fresh = [(b, render(b, data_dir, con)) for b in found]
    finally:
        con.close()
    stale = [(b, new) for b, new in fresh if new != b.text]
    for b, new in stale:
        what = f"```sql\n{b.source}```\n" if b.kind == "sql" else ""
        out(
            f"README.md line {b.line} ({b.name}) differs from the demo:\n"
            f"{what}{side_by_side(b.text, new)}\n"
        )
    if write and stale:
        for b, new in sorted(stale, key=lambda s: -s[0].start):
            text = text[: b.start] + new + text[b.end :]
        readme_path.write_text(text, encoding="utf-8")
    return len(stale)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extract.dev.readme",
        description="Compare the README's output blocks with the demo, or rewrite them.",
    )
    ap.add_argument("--data-dir", type=Path, default=REPO / SHOWN_DIR, help="the demo's")
    ap.add_argument("--readme", type=Path, default=README)
    ap.add_argument("--write", action="store_true", help="rewrite the blocks that differ")
    add_version_argument(ap)
    args = ap.parse_args(argv)
    if not (args.data_dir / "asf.duckdb").is_file():
        print(f"readme: no demo database in {args.data_dir}: run `make demo` first",
              file=sys.stderr)  # fmt: skip
        return 2
    n = check(args.readme, args.data_dir, write=args.write)
    total = len(blocks(args.readme.read_text(encoding="utf-8")))
    if args.write:
        print(f"readme: {n} of {total} output blocks rewritten from {args.data_dir}")
        return 0
    print(f"readme: {n} of {total} output blocks differ from {args.data_dir}"
          + (" (make readme rewrites them)" if n else ""))  # fmt: skip
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main())
