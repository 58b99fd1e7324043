"""What the run asks of the workers that extract its archives, as one protocol that
the local process pool (`extract.runner`) and the Dask cluster (`extract.cluster`)
both implement; neither module imports the other's (the runner picks one).

A pool stages archives: `staged(todo, data_dir, stage_dir, results)` yields one
`StagedArchive` per archive of `todo`, in any order, as its extraction is done;
`shutdown()` ends it; `kill()`, where a pool has it, stops its workers at once
(Ctrl-C, disk full). `RunError` is what either raises when a run cannot start. What a
worker process does with an archive is `extract.worker`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from extract.db.staging import StagedArchive


class RunError(Exception):
    """The run could not start: no data dir, no archives, another extraction runs, a
    process has the database open for writing."""


class Pool(Protocol):
    def staged(
        self, todo: list[Path], data_dir: Path, stage_dir: Path, results: bool
    ) -> Iterator[StagedArchive]: ...

    def shutdown(self) -> None: ...
