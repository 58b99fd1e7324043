"""`python -m extract.outputs.sql --data-dir DIR [--db FILE] [-c SQL]`: an SQL prompt.

Interactive (readline history and editing) or one-shot with `-c`. Statements end with
`;` and may span lines; results print as a text table. Dot commands: `.tables`,
`.schema [NAME]`, `.help`, `.quit`. `format_table(names, rows)` returns the text table.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

import duckdb

from extract.db.views import create_views

MAX_CELL = 60  # wider cells are cut, so a row stays on a line
MAX_ROWS = 200  # the prompt prints this many rows and says how many more there were

HELP = """Statements end with ';'. Dot commands:
  .tables          tables and views
  .schema [NAME]   columns of every table/view, or of NAME
  .help            this text
  .quit            leave (or Ctrl-D)"""


def _cell(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.6g}"
    text = str(value).replace("\n", "\\n")
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def format_table(names: list[str], rows: list[tuple], *, more: int = 0) -> str:
    """Rows as an aligned text table, numbers right-aligned."""
    cells = [[_cell(v) for v in row] for row in rows]
    numeric = [
        all(isinstance(row[i], int | float) or row[i] is None for row in rows) and bool(rows)
        for i in range(len(names))
    ]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]

    def line(values: list[str]) -> str:
        return " | ".join(
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ).rstrip()

    out = [line(names), "-+-".join("-" * w for w in widths)]
    out += [line(r) for r in cells]
    n = len(rows) + more
    out.append(f"({n} row{'s' if n != 1 else ''}{f', {more} not shown' if more else ''})")
    return "\n".join(out)


def run(con: duckdb.DuckDBPyConnection, sql: str, *, max_rows: int = MAX_ROWS) -> str:
    """Run one statement or dot command and return what to print."""
    cmd = sql.strip()
    if cmd.startswith("."):
        word, _, arg = cmd.partition(" ")
        arg = arg.strip().rstrip(";")
        if word == ".tables":
            cur = con.execute(
                "SELECT table_name, table_type FROM information_schema.tables "
                "WHERE table_schema = 'main' ORDER BY table_type, table_name"
            )
        elif word == ".schema":
            cur = con.execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'main' AND (? = '' OR table_name = ?) "
                "ORDER BY table_name, ordinal_position",
                [arg, arg],
            )
        elif word == ".help":
            return HELP
        else:
            return f"unknown command {word}; .help lists them"
    else:
        cur = con.execute(cmd)
    if cur.description is None:
        return "ok"
    names = [d[0] for d in cur.description]
    rows = cur.fetchmany(max_rows)
    more = len(cur.fetchall())
    return format_table(names, rows, more=more)


def complete_statement(buffer: str) -> bool:
    """A dot command, or SQL that ends with ';'."""
    text = buffer.strip()
    return text.startswith(".") or text.endswith(";")


def repl(con: duckdb.DuckDBPyConnection, db: Path) -> None:
    readline = None
    history = Path.home() / ".asf_sql_history"
    if sys.stdin.isatty():  # history only for people typing, not for piped scripts
        try:
            import readline  # line editing and history for input()

            with contextlib.suppress(OSError):
                readline.read_history_file(history)
        except ImportError:
            readline = None
    print(f"connected to {db}. Statements end with ';'. .tables, .schema, .help, .quit")
    buffer = ""
    while True:
        try:
            line = input("sql> " if not buffer else "...> ")
        except EOFError:
            print()
            break
        except KeyboardInterrupt:
            print()
            buffer = ""
            continue
        buffer += line + "\n"
        if not complete_statement(buffer):
            continue
        stmt, buffer = buffer.strip(), ""
        if stmt in (".quit", ".exit", ".q"):
            break
        try:
            print(run(con, stmt))
        except duckdb.Error as exc:
            print(f"error: {exc}")
        except KeyboardInterrupt:  # Ctrl-C stops a long query, not the prompt
            con.interrupt()
            print("interrupted")
    if readline is not None:
        with contextlib.suppress(OSError):
            readline.write_history_file(history)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m extract.outputs.sql", description="SQL prompt on the database."
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="default: data")
    parser.add_argument("--db", type=Path, help="database file (default: DATA_DIR/asf.duckdb)")
    parser.add_argument("-c", "--command", help="run this SQL (or dot command), print, exit")
    parser.add_argument("--max-rows", type=int, default=MAX_ROWS, help="rows printed per result")
    args = parser.parse_args(argv)
    db = args.db or args.data_dir / "asf.duckdb"
    if not db.exists():
        print(
            f"sql: no database at {db}: run `make extract` (or `make demo`) first", file=sys.stderr
        )
        return 1
    try:
        con = duckdb.connect(str(db))
        create_views(con)
    except duckdb.Error as exc:
        print(f"sql: cannot open {db}: {exc}", file=sys.stderr)
        return 1
    try:
        if args.command is not None:
            try:
                print(run(con, args.command, max_rows=args.max_rows))
            except duckdb.Error as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
        else:
            repl(con, db)
    finally:
        con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
