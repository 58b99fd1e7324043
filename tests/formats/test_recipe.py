"""The recipe for a format (extract/results/formats/_template.py), checked for every
registered one: a module from the template, fixture pairs, one line in `MODULES`,
the docs made from the registry (tests/test_docs.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from extract.results.formats import MODULES, PARSERS, FormatInfo, run
from extract.results.formats import _template as template
from tests.formats.golden import cases, expected

FORMATS = Path(template.__file__).resolve().parent
SHARED = {"__init__", "base"}  # the registry and the interface, not formats


def test_every_module_is_registered_by_one_line_and_every_line_is_a_module():
    modules = {p.stem for p in FORMATS.glob("*.py") if not p.stem.startswith("_")} - SHARED
    assert sorted(modules) == sorted(MODULES)
    assert len(set(MODULES)) == len(MODULES)


@pytest.mark.parametrize("mod", PARSERS, ids=lambda mod: mod.INFO.name)
def test_a_format_is_a_module_from_the_template(mod):
    assert mod.__doc__ and len(mod.__doc__.split()) > 20, "a docstring that says what it reads"
    assert isinstance(mod.INFO, FormatInfo) and callable(mod.parse)
    assert [p.INFO.name for p in PARSERS].count(mod.INFO.name) == 1


@pytest.mark.parametrize("mod", PARSERS, ids=lambda mod: mod.INFO.name)
def test_a_format_has_fixture_pairs_and_one_gives_rows(mod):
    found = cases(mod.INFO.name)
    assert found, f"no tests/fixtures/formats/{mod.INFO.name}--<case>.txt"
    if mod.INFO.kind == "result":  # (a noise recogniser's fixtures give none: it claims text)
        assert any(expected(c)["rows"] for c in found), "no fixture of it gives rows"


def _reads_rows(mod) -> bool:
    tree = ast.parse(Path(mod.__file__).read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "extract.results.formats._rows"
        and any(alias.name in ("read", "read_records", "report") for alias in node.names)
        for node in tree.body
    )


@pytest.mark.parametrize(
    "mod", [m for m in PARSERS if not m.INFO.generic], ids=lambda mod: mod.INFO.name
)
def test_a_tool_format_reads_through_the_row_reader_or_says_why_not(mod):
    assert _reads_rows(mod) or "Not declared as rows:" in mod.__doc__


def test_the_template_follows_its_own_recipe():
    assert template.INFO.name not in MODULES and _reads_rows(template)
    text = "Before the patch:\n\nresnet-50  6.74 ms  (0.42 ms)\nvgg-19  20.9 ms  (0.7 ms)\n"
    (table,) = run(template, text)
    assert table.variant == "Before the patch"
    assert [(m.label, m.metric, m.value, m.unit) for m in table.measurements] == [
        ("resnet-50", "mean", 6.74, "ms"),
        ("resnet-50", "stddev", 0.42, "ms"),
        ("vgg-19", "mean", 20.9, "ms"),
        ("vgg-19", "stddev", 0.7, "ms"),
    ]
