"""Every regular expression of the extractor and the crawler runs in time linear in
its input (issue 27, point 1): one forged mail must not stall a worker.

The test finds the patterns itself, so that a new module or pattern is covered
without being listed:
- every `re.Pattern` reachable from the modules of `extract/` and `crawler/` (module
  globals, class attributes, tuples/lists/dicts/sets of them, objects of the project's
  own classes such as a format's `INFO`, functions' defaults and closures, a pattern's
  bound method such as `re.compile(...).search`); every module file is imported;
- every call `re.compile/search/match/fullmatch/finditer/findall/sub/subn/split(...)`
  in their source, the pattern and flags evaluated in the module's namespace (a
  pattern built at run time from a function's locals is listed in `DYNAMIC`, with why
  it stays linear; a new one fails the test until it is).

How a pattern is used decides how it is timed: a pattern that the code only ever
`match`es or `fullmatch`es at a position (every use of its name is `.match(` or
`.fullmatch(`) is timed that way, once at the start of the text; so is a pattern kept
in a `Rows` declaration (declared as text, it is compiled when the declaration is made;
or built per header by its `for_header`) where the row reader
only matches it, and one built at run time as `re.compile(...).match` (all the code gets
is the bound `match`); any other pattern (searched, substituted, passed on, kept in a
container) is timed scanning the whole text (`findall`), which tries every start
position as a search does. No pattern is exempt.

Each is run against 100 kB of: spaces, newlines, whitespace lines, tabs, `|`, `-`,
digits, dots, digits and dots, CJK, letters, words, and the pattern's own literal
pieces repeated (alone, joined and spaced), and must take under `BOUND` seconds
(250 ms per 100 kB). On an idle 2-core machine the slowest linear patterns take 65-85
ms (the best of three), and CI's loaded machine has been seen to add 40 %; a quadratic
pattern takes minutes, and one scanning 1,000 characters from every start 0.8 s. A run
is timed once, and again (the best of three counts) only when it is over the bound, in a forked
worker that is killed after `DEADLINE`: a quadratic pattern takes minutes there.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import multiprocessing
import re
import sys
import time
import types
from pathlib import Path
from re import _parser as sre_parse

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("extract", "crawler")
SIZE = 100_000
BOUND = 0.25  # seconds per SIZE characters
DEADLINE = 1.5  # a run still going after this is killed (and fails)


# Patterns compiled from a function's own values at run time (a table's column count,
# a format's trigger): where, and what they are. Their patterns are caught as they are
# compiled while every format fixture is parsed (`compiled_at_run_time`), and timed like
# the others; those compiled "at import" are kept in module globals, where the search
# finds them. The test fails on any other such call until it is listed here.
DYNAMIC = {
    "extract.dev.eval.norm_unit": "the unit synonyms of the module, one by one",
    "extract.results.formats._declare_parts": "at import: each format's trigger parts, in _CHECKS",
    # (a module's `Rows` are walked after import, compiled; one a `for_header` builds is
    # caught compiling here while the fixtures are parsed: each timed as `read` uses it)
    "extract.results.formats._rows.__post_init__": "a Rows declaration's text, compiled as is",
    "extract.results.formats.benchstat._v2_flat_tables": "a units row of k files",
    "extract.results.formats.jira_table._inline_blocks": "a flattened row of k cells",
    "extract.results.formats.jmh._row_match": "a row with k @Param columns",
    "extract.results.formats.prose.<module>": "at import: one pattern per sentence stop, a global",
    "extract.results.formats.spark_benchmark._cases": "at import: Spark 3's and Spark 2's tables",
}

_BASE_TEXTS = {
    "spaces": " ",
    "newlines": "\n",
    "whitespace lines": " \n",
    "tabs": " \t \n",
    "pipes": "|",
    "pipe-space": "| ",
    "dashes": "-",
    "digits": "1234567890",
    "dots": ".",
    "digit-dot": "1.",
    "cjk": "测试基准性能",
    "letters": "a",
    "words": "ab ",
}


# ------------------------------------------------------------------ finding the patterns


def module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _ours(obj) -> bool:
    module = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", None)
    return isinstance(module, str) and module.split(".")[0] in PACKAGES


def _walk(obj, where: str, found: dict, seen: set, depth: int = 0) -> None:
    """Every pattern reachable from `obj`, into `found[(pattern, flags)] = (pattern, where)`."""
    if depth > 8 or id(obj) in seen or isinstance(obj, str | bytes | int | float | bool):
        return
    seen.add(id(obj))
    if isinstance(obj, re.Pattern):
        found.setdefault((obj.pattern, obj.flags), (obj, where))
        return
    if isinstance(getattr(obj, "__self__", None), re.Pattern):  # re.compile(...).search
        _walk(obj.__self__, where, found, seen, depth + 1)
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            _walk(key, where, found, seen, depth + 1)
            _walk(value, where, found, seen, depth + 1)
        return
    if isinstance(obj, list | tuple | set | frozenset):
        for value in obj:
            _walk(value, where, found, seen, depth + 1)
        return
    if isinstance(obj, types.ModuleType) or not _ours(obj):
        return
    if isinstance(obj, type):
        for key, value in vars(obj).items():
            _walk(value, f"{where}.{key}", found, seen, depth + 1)
        return
    if isinstance(obj, types.FunctionType):
        _walk(obj.__defaults__ or (), where, found, seen, depth + 1)
        _walk(obj.__kwdefaults__ or {}, where, found, seen, depth + 1)
        for cell in obj.__closure__ or ():
            with contextlib.suppress(ValueError):  # an empty cell
                _walk(cell.cell_contents, where, found, seen, depth + 1)
    if hasattr(obj, "__wrapped__"):  # functools.lru_cache, wraps
        _walk(obj.__wrapped__, where, found, seen, depth + 1)
    if isinstance(getattr(obj, "__dict__", None), dict):
        _walk(vars(obj), where, found, seen, depth + 1)
    for slot in getattr(type(obj), "__slots__", ()):
        if hasattr(obj, slot):
            _walk(getattr(obj, slot), f"{where}.{slot}", found, seen, depth + 1)


_RE_FUNCTIONS = {
    # name: (index of the flags argument, how the call uses the pattern)
    "compile": (1, None),
    "search": (2, "search"),
    "match": (2, "match"),
    "fullmatch": (2, "fullmatch"),
    "finditer": (2, "search"),
    "findall": (2, "search"),
    "split": (3, "search"),
    "sub": (4, "search"),
    "subn": (4, "search"),
}
_MATCHING = {"match": "match", "fullmatch": "fullmatch"}
_SEARCHING = {"search", "finditer", "findall", "sub", "subn", "split", "scanner"}
# attributes that read a pattern without running it
_INERT = {"pattern", "flags", "groups", "groupindex"}


def _is_re_call(node: ast.AST) -> str | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
        and node.func.attr in _RE_FUNCTIONS
    ):
        return node.func.attr
    return None


def _uses_and_calls(module: types.ModuleType, uses: dict, calls: list) -> None:
    """How the module uses names (module-level ones, or imported): into
    `uses[(module, name)]`, a set of "match", "fullmatch", "search" or "other"; and
    every `re.<function>(...)` call, into `calls`."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported: dict[str, tuple[str, str]] = {}  # local name -> (module, name)
    package = module.__name__.split(".")
    if not module.__file__.endswith("__init__.py"):
        package = package[:-1]
    functions: dict[ast.AST, str] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                functions.setdefault(inner, node.name)
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + [base] * bool(base))
            for alias in node.names:
                imported[alias.asname or alias.name] = (base, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                imported[alias.asname or alias.name] = (alias.name, "")

    def method_of(node: ast.AST) -> str | None:
        parent = getattr(node, "parent", None)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return parent.attr
        return None

    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            key = imported.get(node.id, (module.__name__, node.id))
            if key[1] == "":
                continue  # a module
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            source = imported.get(node.value.id)
            if source is not None:  # module.NAME
                key = (".".join(p for p in source if p), node.attr)
        if key is not None:
            attr = method_of(node)
            if attr not in _INERT:
                kind = _MATCHING.get(attr) or ("search" if attr in _SEARCHING else "other")
                uses.setdefault(key, set()).add(kind)
        function = _is_re_call(node)
        if function is not None and node.args:
            flag_at, use = _RE_FUNCTIONS[function]
            flags = node.args[flag_at] if len(node.args) > flag_at else None
            flags = next((k.value for k in node.keywords if k.arg == "flags"), flags)
            if function == "compile":  # re.compile(...).match(...), or kept: searched
                use = _MATCHING.get(method_of(node)) or "search"
            where = f"{module.__name__}.{functions.get(node, '<module>')}"
            calls.append((module, node.args[0], flags, use, where, node.lineno, function))


def compiled_at_run_time() -> dict[str, list[re.Pattern]]:
    """The patterns that functions of the project compile while every format fixture
    (tests/fixtures/formats) is parsed and every unit of eval's synonyms read: by
    "module.function" of the code that compiled them."""
    from extract.dev import eval as evaluation
    from extract.results.formats import extract_results

    caught: dict[str, dict] = {}
    original = re._compile

    def recording(pattern, flags):
        compiled = original(pattern, flags)
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__") == "re":
            frame = frame.f_back
        if frame is not None:
            module = frame.f_globals.get("__name__", "")
            if module.split(".")[0] in PACKAGES:
                where = f"{module}.{frame.f_code.co_name}"
                caught.setdefault(where, {})[(compiled.pattern, compiled.flags)] = compiled
        return compiled

    re._compile = recording
    try:
        for path in sorted((REPO / "tests" / "fixtures" / "formats").glob("*.txt")):
            extract_results(path.read_text(encoding="utf-8"), plain=True)
        for unit in ("seconds", "ms/op", "ops/s", "MB/s", "µs", "us/op", "1/s"):
            evaluation.norm_unit(unit)
    finally:
        re._compile = original
    return {where: list(found.values()) for where, found in caught.items()}


def _evaluate(module: types.ModuleType, node: ast.AST | None):
    if node is None:
        return 0
    return eval(compile(ast.Expression(node), module.__file__, "eval"), vars(module))  # noqa: S307


IMPORT_ERRORS: dict[str, str] = {}  # module -> why it could not be imported


def _row_reader_uses(modules: list[types.ModuleType]) -> dict[int, set[str]]:
    """How the row reader (`extract.results.formats._rows.read`) uses the patterns of
    the `Rows` declarations modules hold: a header is searched, its rows and what stands
    between them are matched one after the other; without a header the rows are
    searched and the text between two is fullmatched by the gap; lines above and text
    after a block are matched."""
    from extract.results.formats._rows import Rows

    out: dict[int, set[str]] = {}
    for module in modules:
        for value in vars(module).values():
            for spec in value if isinstance(value, list | tuple) else (value,):
                if not isinstance(spec, Rows):
                    continue
                after_header = spec.header is not None and spec.end is None
                for pattern, how in (
                    (spec.header, "search"),
                    (spec.row, "match" if after_header else "search"),
                    (spec.gap, "match" if spec.header is not None else "fullmatch"),
                    (spec.end, "search"),
                    (spec.lead, "match"),
                    (spec.tail, "match"),
                ):
                    if isinstance(pattern, re.Pattern):
                        out.setdefault(id(pattern), set()).add(how)
    return out


def _rows_built_per_header(modules: list[types.ModuleType]) -> dict[tuple, set[str]]:
    """How the row reader uses the patterns of the `Rows` a declaration's `for_header`
    builds for each header it finds in the format fixtures: `read` reads such a block
    right after its header (`_after`), matching its rows and gaps one after the other
    (or, with an `end`, searching the rows up to it). By (pattern, flags)."""
    from extract.results.formats._rows import Rows

    texts = [
        path.read_text(encoding="utf-8")
        for path in sorted((REPO / "tests" / "fixtures" / "formats").glob("*.txt"))
    ]
    out: dict[tuple, set[str]] = {}
    for module in modules:
        for value in vars(module).values():
            for spec in value if isinstance(value, list | tuple) else (value,):
                if not isinstance(spec, Rows) or spec.for_header is None or spec.header is None:
                    continue
                for text in texts:
                    for head in spec.header.finditer(text):
                        own = spec.for_header(head)
                        if own is None:
                            continue
                        for pattern, how in (
                            (own.row, "search" if own.end is not None else "match"),
                            (own.gap, "match"),
                            (own.end, "search"),
                            (own.lead, "match"),
                            (own.tail, "match"),
                        ):
                            if isinstance(pattern, re.Pattern):
                                out.setdefault((pattern.pattern, pattern.flags), set()).add(how)
    return out


def find_patterns() -> tuple[list[tuple[re.Pattern, str, str]], list[str], int]:
    """([(pattern, where, how it is timed)], dynamic call sites not listed, modules)."""
    modules = []
    for name in module_names():
        try:
            modules.append(importlib.import_module(name))
        except ImportError as exc:  # (test_every_module_and_pattern_is_found says so)
            IMPORT_ERRORS[name] = f"{type(exc).__name__}: {exc}"
    found: dict = {}
    globals_of: dict[int, list[tuple[str, str]]] = {}  # pattern -> the globals bound to it
    for module in modules:
        for name, value in vars(module).items():
            _walk(value, f"{module.__name__}.{name}", found, set())
            target = (
                value.__self__
                if isinstance(getattr(value, "__self__", None), re.Pattern)
                else value
            )
            if isinstance(target, re.Pattern):
                globals_of.setdefault(id(target), []).append((module.__name__, name))
    uses: dict = {}
    calls: list = []
    for module in modules:
        _uses_and_calls(module, uses, calls)
    read_as = _row_reader_uses(modules)
    patterns: dict = {}
    for pattern, where in found.values():
        kinds = set(read_as.get(id(pattern), ()))
        for key in globals_of.get(id(pattern), ()):
            kinds |= uses.get(key, set())
        bound_method = any(
            getattr(importlib.import_module(m), n) is not pattern
            for m, n in globals_of.get(id(pattern), ())
        )
        # kept in a container or an object, passed on, searched: timed as a search
        only_matched = kinds and not kinds - {"match", "fullmatch"} and not bound_method
        how = ",".join(sorted(kinds)) if only_matched else "search"
        patterns[(pattern.pattern, pattern.flags, how)] = (pattern, where, how)
    unlisted = []
    at_run_time = compiled_at_run_time()
    per_header = _rows_built_per_header(modules)
    walked = {(pattern.pattern, pattern.flags) for pattern, _ in found.values()}
    # how each function's patterns built at run time are used: matched only if every
    # such call of it binds `re.compile(...).match` (or `.fullmatch`), and nothing else
    built_uses: dict[str, set[str]] = {}
    for module, node, flags_node, use, where, _, _ in calls:
        with contextlib.suppress(Exception):
            _evaluate(module, node)
            _evaluate(module, flags_node)
            continue
        built_uses.setdefault(where, set()).add(use)
    for module, node, flags_node, use, where, line, function in calls:
        try:
            source = _evaluate(module, node)
            flags = _evaluate(module, flags_node)
        except Exception:  # built from the function's own values
            if where not in DYNAMIC:
                unlisted.append(f"{where} (line {line})")
            elif not DYNAMIC[where].startswith("at import"):
                if not at_run_time.get(where):
                    unlisted.append(f"{where} (line {line}: no fixture made it compile)")
                for pattern in at_run_time.get(where, ()):
                    # (kept in a `Rows` built per header: as the row reader uses it)
                    kinds = per_header.get((pattern.pattern, pattern.flags)) or built_uses[where]
                    how = ",".join(sorted(kinds)) if kinds <= {"match", "fullmatch"} else "search"
                    key = (pattern.pattern, pattern.flags, how)
                    patterns.setdefault(key, (pattern, f"{where} (built, line {line})", how))
            continue
        pattern = re.compile(source, flags)
        if function == "compile" and (pattern.pattern, pattern.flags) in walked:
            continue  # (kept somewhere the search found it, and timed as it is used there)
        key = (pattern.pattern, pattern.flags, use)
        patterns.setdefault(key, (pattern, f"{where}:{line}", use))
    return list(patterns.values()), unlisted, len(modules)


# ------------------------------------------------------------------ the texts and the timing


def _literal_pieces(pattern: re.Pattern) -> list[str]:
    """The literal runs of a pattern (`Fastest is`, `|===`, `](`), in order."""
    source = pattern.pattern
    if isinstance(source, bytes):
        source = source.decode("latin-1")
    out: list[str] = []

    def walk(items) -> None:
        run: list[str] = []
        for op, av in items:
            if op is sre_parse.LITERAL:
                run.append(chr(av))
                continue
            if run:
                out.append("".join(run))
                run = []
            if op is sre_parse.SUBPATTERN:
                walk(av[-1])
            elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT):
                walk(av[2])
            elif op is sre_parse.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
                walk(av[1])
            elif op is sre_parse.ATOMIC_GROUP:
                walk(av)
            elif op is sre_parse.IN:
                literal = next((a for o, a in av if o is sre_parse.LITERAL), None)
                if literal is not None:
                    out.append(chr(literal))
        if run:
            out.append("".join(run))

    walk(sre_parse.parse(source, pattern.flags & ~re.UNICODE))
    return list(dict.fromkeys(p for p in out if p))


def texts_for(pattern: re.Pattern) -> dict[str, str | bytes]:
    pieces = dict(_BASE_TEXTS)
    literal = _literal_pieces(pattern)
    for piece in literal[:5]:
        pieces[f"its piece {piece[:20]!r}"] = piece
    if literal:
        pieces["its pieces joined"] = "".join(literal[:8])
        pieces["its pieces spaced"] = " ".join(literal[:8]) + " "
    out = {}
    for name, piece in pieces.items():
        text = (piece * (SIZE // len(piece) + 1))[:SIZE]
        out[name] = text.encode("utf-8")[:SIZE] if isinstance(pattern.pattern, bytes) else text
    return out


def _run(pattern: re.Pattern, how: str, text) -> float:
    started = time.perf_counter()
    for use in how.split(","):
        if use == "match":
            pattern.match(text)
        elif use == "fullmatch":
            pattern.fullmatch(text)
        else:
            pattern.findall(text)
    return time.perf_counter() - started


def _worker(conn, patterns) -> None:
    while (index := conn.recv()) is not None:
        pattern, _, how = patterns[index]
        for name, text in texts_for(pattern).items():
            conn.send(name)  # (the text it is on, should it be killed)
            seconds = _run(pattern, how, text)
            for _ in range(2):  # over the bound: the best of three counts (a busy machine)
                if seconds > BOUND:
                    seconds = min(seconds, _run(pattern, how, text))
            conn.send(seconds)
            if seconds > BOUND:
                break  # (one text over the bound is enough)
        conn.send(None)


def time_patterns(patterns) -> list[tuple]:
    """[(where, how, text name, seconds or None when killed)]: the first run over the
    bound of each pattern."""
    ctx = multiprocessing.get_context("fork")
    slow = []

    def start():
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_worker, args=(child, patterns), daemon=True)
        process.start()
        child.close()
        return parent, process

    conn, process = start()
    try:
        for index, (_, where, how) in enumerate(patterns):
            conn.send(index)
            while (name := conn.recv()) is not None:
                if not conn.poll(DEADLINE):
                    process.kill()
                    process.join()
                    conn.close()
                    slow.append((where, how, name, None))
                    conn, process = start()
                    break
                seconds = conn.recv()
                if seconds > BOUND:
                    slow.append((where, how, name, seconds))
    finally:
        conn.send(None)
        process.join(5)
        if process.is_alive():
            process.kill()
    return slow


# ------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def discovered():
    return find_patterns()


def test_every_module_and_pattern_is_found(discovered):
    patterns, unlisted, n_modules = discovered
    # (a module importing one that is not in the tree yet is that module's problem:
    # what it defines is not checked until it imports)
    missing = {n: e for n, e in IMPORT_ERRORS.items() if "No module named 'extract." not in e}
    assert not missing, f"modules that cannot be imported: {missing}"
    assert n_modules + len(IMPORT_ERRORS) == len(module_names()) > 100
    # (a floor, so that a broken search for patterns cannot pass as "all linear")
    assert len(patterns) > 800, len(patterns)
    assert not unlisted, (
        "patterns built from a function's values at run time: compile them from module "
        f"constants, or list them in DYNAMIC with why they stay linear: {unlisted}"
    )


def test_the_literal_pieces_of_a_pattern():
    assert _literal_pieces(re.compile(r"\s*Fastest is[ \t]+")) == ["Fastest is", " "]
    assert "|===" in _literal_pieces(re.compile(r"\s*\|==="))


@pytest.mark.slow
def test_every_pattern_is_linear_on_adversarial_text(discovered):
    patterns, _, _ = discovered
    new = time_patterns(patterns)
    lines = [
        f"{where} ({how}) on {name}: "
        + (f"over {DEADLINE:g} s (killed)" if seconds is None else f"{seconds:.3f} s")
        for where, how, name, seconds in new
    ]
    assert not new, f"{len(lines)} runs over {BOUND:g} s per {SIZE:,} characters:\n" + "\n".join(
        lines
    )
