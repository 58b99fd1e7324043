"""`python -m extract.outputs.sql --data-dir DIR [--db FILE] [-c SQL] [--write]
[--format table|csv|json|markdown] [--width N] [--max-rows N]`: an SQL prompt.

Read-only unless `--write`, so it never blocks another command and cannot change the
database by mistake. Interactive (readline history and editing) or one-shot with `-c`,
which prints the result of every statement it is given. Statements end with `;` and
may span lines; Ctrl-C stops a running statement and returns to the prompt. Dot
commands: `.tables`, `.schema [NAME]`, `.help`, `.quit`. `format_table(names, rows)`
returns the text table, `format_result` any of the formats.

Exit status of `-c`: 0 done, 1 an SQL error or no database, 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import sys
import threading
from datetime import date, datetime, time
from pathlib import Path

import duckdb

from extract.outputs.connect import DatabaseUnavailable, open_database
from extract.outputs.numbers import number_text
from extract.version import add_version_argument

MAX_CELL = 60  # wider cells are cut, so a row stays on a line
MAX_ROWS = 200  # the prompt prints this many rows and says how many more there were
FORMATS = ("table", "csv", "json", "markdown")

HELP = """Statements end with ';'. Dot commands:
  .tables          tables and views
  .schema [NAME]   columns of every table/view, or of NAME
  .help            this text
  .quit            leave (or Ctrl-D)"""


def _plain(value: object) -> object:
    """A value as the csv and json formats write it: times in ISO 8601 with their
    offset (2015-03-02T11:25:00+00:00), as the exports write them."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return value


def _cell(value: object, width: int = MAX_CELL) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return number_text(value)  # as written: no exponent the number did not have
    text = str(_plain(value)).replace("\n", "\\n")
    return text if not width or len(text) <= width else text[: width - 1] + "…"


def format_table(
    names: list[str], rows: list[tuple], *, more: int = 0, width: int = MAX_CELL
) -> str:
    """Rows as an aligned text table, numbers right-aligned; cells cut at `width`
    characters (0: never)."""
    cells = [[_cell(v, width) for v in row] for row in rows]
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


def format_result(
    names: list[str], rows: list[tuple], fmt: str = "table", *, more: int = 0, width: int = 0
) -> str:
    """One result in `fmt`: table (aligned text), csv, json (an array of objects) or
    markdown. Only the table says how many rows were not shown."""
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(names)
        writer.writerows([_plain(v) for v in row] for row in rows)
        return buf.getvalue().rstrip("\n")
    if fmt == "json":
        objects = [dict(zip(names, row, strict=True)) for row in rows]
        return json.dumps(objects, ensure_ascii=False, default=lambda v: str(_plain(v)), indent=1)
    if fmt == "markdown":

        def md(value: object) -> str:
            return _cell(value, width).replace("|", "\\|")

        out = ["| " + " | ".join(md(n) for n in names) + " |", "|" + "---|" * len(names)]
        out += ["| " + " | ".join(md(v) for v in row) + " |" for row in rows]
        return "\n".join(out)
    return format_table(names, rows, more=more, width=width)


def _dot_command(con: duckdb.DuckDBPyConnection, cmd: str) -> duckdb.DuckDBPyConnection | str:
    word, _, arg = cmd.partition(" ")
    arg = arg.strip().rstrip(";")
    if word == ".tables":
        return con.execute(
            "SELECT table_name, table_type FROM information_schema.tables "
            "WHERE table_schema = 'main' ORDER BY table_type, table_name"
        )
    if word == ".schema":
        return con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'main' AND (? = '' OR table_name = ?) "
            "ORDER BY table_name, ordinal_position",
            [arg, arg],
        )
    if word == ".help":
        return HELP
    return f"unknown command {word}; .help lists them"


def run(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    *,
    max_rows: int | None = MAX_ROWS,
    fmt: str = "table",
    width: int = MAX_CELL,
) -> str:
    """Run a dot command, or every statement of `sql`, and return what to print: each
    statement's result, one after the other."""
    cmd = sql.strip()
    if cmd.startswith("."):
        cur = _dot_command(con, cmd)
        results = [cur]
    else:
        results = (con.execute(stmt) for stmt in con.extract_statements(cmd))
    out = []
    for cur in results:
        if isinstance(cur, str):
            out.append(cur)
        elif cur.description is None:
            out.append("ok")
        else:
            names = [d[0] for d in cur.description]
            if max_rows is None:
                rows, more = cur.fetchall(), 0
            else:
                rows = cur.fetchmany(max_rows)
                more = len(cur.fetchall())
            out.append(format_result(names, rows, fmt, more=more, width=width))
    return "\n\n".join(out)


def run_interruptibly(con: duckdb.DuckDBPyConnection, sql: str, **kw) -> str:
    """`run`, which Ctrl-C cancels: the statement runs in a thread while this one
    waits, so that SIGINT reaches Python and `con.interrupt()` stops DuckDB (a
    statement blocked in DuckDB never sees Python's KeyboardInterrupt). Raises
    KeyboardInterrupt once the statement has stopped."""
    box: dict = {}
    # An Event, not Thread.join: a join that Ctrl-C interrupts can return early on the
    # next call (Python before 3.13), while DuckDB is still stopping the statement.
    done = threading.Event()

    def work() -> None:
        try:
            box["out"] = run(con, sql, **kw)
        except duckdb.InterruptException:
            box["interrupted"] = True
        except BaseException as exc:  # handed to the waiting thread
            box["exc"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=work, name="sql", daemon=True)
    thread.start()
    try:
        done.wait()
    except KeyboardInterrupt:
        con.interrupt()
        done.wait()
        raise
    if "interrupted" in box:
        raise KeyboardInterrupt
    if "exc" in box:
        raise box.pop("exc")
    return box["out"]


def complete_statement(buffer: str) -> bool:
    """A dot command, or SQL that ends with ';'."""
    text = buffer.strip()
    return text.startswith(".") or text.endswith(";")


def repl(con: duckdb.DuckDBPyConnection, db: Path, **kw) -> None:
    readline = None
    history = Path.home() / ".asf_sql_history"
    if sys.stdin.isatty():  # history only for people typing, not for piped scripts
        try:
            import readline  # line editing and history for input()

            with contextlib.suppress(OSError):
                readline.read_history_file(history)
        except ImportError:
            readline = None
    mode = "read-write" if kw.pop("write", False) else "read-only"
    print(
        f"connected to {db} ({mode}). Statements end with ';'. "
        ".tables, .schema, .help, .quit; Ctrl-C stops a query"
    )
    buffer = ""
    while True:
        try:
            line = input("sql> " if not buffer else "...> ")
        except EOFError:
            print()
            break
        except KeyboardInterrupt:  # drops what was typed, as a shell does
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
            print(run_interruptibly(con, stmt, **kw))
        except duckdb.Error as exc:
            print(f"error: {exc}")
        except KeyboardInterrupt:
            print("interrupted")
    if readline is not None:
        with contextlib.suppress(OSError):
            readline.write_history_file(history)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m extract.outputs.sql",
        description="SQL prompt on the database (read-only unless --write).",
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data"), help="default: data")
    parser.add_argument("--db", type=Path, help="database file (default: DATA_DIR/asf.duckdb)")
    parser.add_argument(
        "-c", "--command", help="run these statements (or a dot command), print each, exit"
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="table", help="how results print (default: table)"
    )
    parser.add_argument(
        "--width",
        type=int,
        default=MAX_CELL,
        help=f"cut cells wider than this many characters, 0: never (default: {MAX_CELL})",
    )
    parser.add_argument(
        "--max-rows",
        type=int,
        help=f"rows printed per result (default: {MAX_ROWS} for table and markdown, "
        "all for csv and json)",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="open read-write (takes the lock: no other command can open the database)",
    )
    add_version_argument(parser)
    args = parser.parse_args(argv)
    if args.width < 0:
        parser.error("--width must be 0 or more")
    max_rows = args.max_rows
    if max_rows is None and args.format in ("table", "markdown"):
        max_rows = MAX_ROWS
    db = args.db or args.data_dir / "asf.duckdb"
    try:
        con = open_database(db, write=args.write)
    except DatabaseUnavailable as exc:
        print(f"sql: {exc}", file=sys.stderr)
        return 1
    kw = {"max_rows": max_rows, "fmt": args.format, "width": args.width}
    try:
        if args.command is not None:
            try:
                print(run_interruptibly(con, args.command, **kw))
            except duckdb.Error as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                print("sql: interrupted", file=sys.stderr)
                return 130
        else:
            repl(con, db, write=args.write, **kw)
    finally:
        con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
