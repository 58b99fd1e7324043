"""Extraction: mail archives in, benchmark results out, in one DuckDB file.

The stages, one subpackage each: `mail` (mbox reading, MIME parsing, message
kinds, body cleaning), `results` (format parsers, classifier, units), `db`
(schema, views, the store), `outputs` (report, SQL prompt, export) and `dev`
(eval, bench, demo). `pipeline` joins the stages for one archive; `runner` runs
them over a data dir. The library entry point is `extract.run(data_dir, ...)`.
"""

from __future__ import annotations


def run(data_dir, **options):
    """`extract.runner.run` (imported on first use, so that importing a stage stays
    cheap): extract every archive under `data_dir`/raw; see `extract.runner.run`."""
    from extract.runner import run as _run

    return _run(data_dir, **options)
