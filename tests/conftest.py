"""Shared helpers and fixtures for the whole suite.

Shared data: tests marked `shared` read third-party material where it lives, in
`../shared` beside the repository (or `$SHARED_DIR`): the labelled corpus, the format
samples, peer archives. Where it is missing (a user's clone) they are skipped, and
the skip says why; with `REQUIRE_SHARED=1` (CI) a missing directory fails them
instead, so a green CI run has run them all.

Markers: `e2e` (real crawls, servers, the browser), `slow` (seconds each: whole
extractions in subprocesses, sweeps of every format over damaged text; the tests named
in `SLOW_TESTS` get it here), `shared` (needs ../shared). `make test-fast` leaves out
`e2e` and `slow`; `make test` runs everything.
"""

from __future__ import annotations

import os
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "tests" / "fixtures" / "seeds"
SHARED = Path(os.environ.get("SHARED_DIR") or REPO.parent / "shared")


def shared_path(*parts: str) -> Path:
    """A path under ../shared; skips the calling test (fails it under REQUIRE_SHARED=1)
    when that is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        reason = f"shared data not found: {path} (clone beside ../shared or set SHARED_DIR)"
        if os.environ.get("REQUIRE_SHARED"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def shared_available(*parts: str) -> bool:
    return SHARED.joinpath(*parts).exists()


class _TooSlow(BaseException):  # not Exception: parsers catch those to stay alive
    pass


def _alarm(*_):
    raise _TooSlow


@contextmanager
def time_limit(seconds: int, what: str):
    """Fail the test when the block runs longer than `seconds` (SIGALRM)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    except _TooSlow:
        pytest.fail(f"{what} takes over {seconds} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def seed(prefix: str) -> str:
    """The text of seed `prefix` (`000` … `004`), the user's own messages."""
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


# What takes seconds, measured with `pytest --durations=0` (CPU seconds on an idle
# core, every parameter together): whole modules that run extractions in subprocesses
# or build databases per test, and single tests that sweep every format over damaged
# text. They are marked `slow` here, in one place, so that `make test-fast` (which
# leaves them out) stays under a minute on 2 cores; `make test` runs them. A name that
# matches no test any more stops the collection of the whole suite (below), so the
# list cannot go stale.
SLOW_MODULES = (
    "tests/db/test_text_once.py",  # 4: upgrades and kills of real runs
    "tests/dev/test_eval.py",  # 6: the eval CLI on the sample
    "tests/dev/test_fit.py",  # 2: fits on the corpora
    "tests/mail/test_hostile_mail.py",  # 11
    "tests/mail/test_mbox_properties.py",  # 5: hypothesis
    "tests/outputs/test_parquet.py",  # 14
    "tests/outputs/test_report_sql.py",  # 9: the CLIs in subprocesses
    "tests/results/test_comparisons.py",  # 15: the pipeline on each message
    "tests/test_disk_full.py",  # 4
    "tests/test_extract_cli.py",  # 32: `python -m extract` runs
    "tests/test_fuzz.py",  # 22
    "tests/test_isolation.py",  # 12
    "tests/test_linear_patterns.py",  # 3: every regex on adversarial text
    "tests/test_readonly.py",  # 6
    "tests/test_seeds.py",  # 3
    "tests/test_unreadable.py",  # 2
)
SLOW_TESTS = (
    "tests/results/test_units.py::test_every_unit_of_the_corpora_normalises",  # 1
    "tests/db/test_findings.py::test_the_demo_sample_carries_a_full_chain",  # 2
    "tests/formats/test_ascii_table.py::test_line_breaks_and_spaces_are_pythons",  # 1
    "tests/formats/test_ascii_table.py::test_stays_linear_on_pathological_input",  # 1
    "tests/formats/test_registry.py::test_degenerate_text",  # 16
    "tests/formats/test_registry.py::test_fixtures_cut_anywhere_parse_with_spans_inside_the_piece",
    "tests/formats/test_registry.py::test_the_cleaner_and_the_classifier_are_linear_too",  # 1
    "tests/formats/test_triggers.py::test_prefilter_finds_every_needle_of_a_format",  # 5
    "tests/formats/test_triggers.py::test_prefilter_runs_a_trigger_where_python_finds_it",  # 10
    "tests/formats/test_triggers.py::test_trigger_is_a_necessary_condition",  # 5
    "tests/formats/test_triggers.py::test_trigger_parts_match_where_the_trigger_does",  # 1
    "tests/outputs/test_any_value.py::test_report_and_export_of_an_empty_database",  # 2
    "tests/outputs/test_findings_report.py::test_bmf_json_one_file_per_run",  # 1
    "tests/outputs/test_findings_report.py::test_the_index_links_the_findings_pages",  # 2
    "tests/outputs/test_export.py::test_export_memory_is_flat_in_the_database_size",  # 15
    "tests/results/test_prefilter.py::test_corpus_gives_the_same_results_with_and_without_the_prefilter",  # noqa: E501
    "tests/results/test_prefilter.py::test_fixtures_give_the_same_results_with_and_without_the_prefilter",  # noqa: E501
    "tests/test_cluster.py::test_a_worker_that_sees_the_staging_directory_writes_the_rows_there",
)


def _mark_slow(config, items) -> None:
    """Mark the tests of SLOW_MODULES and SLOW_TESTS `slow`; with the whole suite
    collected, a name that matched nothing is an error."""
    names = set(SLOW_MODULES) | set(SLOW_TESTS)
    matched = set()
    for item in items:
        test = item.nodeid.split("[", 1)[0]
        module = test.split("::", 1)[0]
        for name in (test, module):
            if name in names:
                item.add_marker(pytest.mark.slow)
                matched.add(name)
    here = config.invocation_params.dir
    whole_suite = all((here / a).resolve() in (REPO, REPO / "tests") for a in config.args if a)
    if whole_suite and not config.option.keyword and (stale := sorted(names - matched)):
        raise pytest.UsageError(
            "tests/conftest.py SLOW_MODULES/SLOW_TESTS name tests that do not exist "
            "(renamed or removed?): " + ", ".join(stale) + ". Update the list."
        )


def pytest_collection_modifyitems(config, items):
    for item in items:  # the browser tests are end-to-end tests
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.e2e)
    _mark_slow(config, items)
    # A test that reads ../shared says so by its marker; skip it up front when the
    # data is missing, so it is reported as not run with the reason.
    if SHARED.is_dir():
        return
    reason = f"shared data not found: {SHARED} (clone beside ../shared or set SHARED_DIR)"
    needing = [item for item in items if item.get_closest_marker("shared")]
    if needing and os.environ.get("REQUIRE_SHARED"):
        raise pytest.UsageError(f"REQUIRE_SHARED=1 but {reason}: {len(needing)} tests need it")
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    def reason(report) -> str:
        longrepr = report.longrepr
        return longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)

    skipped = [
        r for r in terminalreporter.stats.get("skipped", []) if "shared data not found" in reason(r)
    ]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} test(s) that need ../shared did not run: {SHARED} is missing",
            yellow=True,
        )
