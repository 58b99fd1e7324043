"""Setting names given on the command line (`-s NAME=VALUE`) that nothing reads.

Scrapy accepts any name and ignores the ones nobody reads, so `-s ARCHIVE_ULR=http://…`
would crawl lists.apache.org and `-s DATA_DRI=/big/disk` would fill `data/`. A name that
is neither Scrapy's nor this project's is refused when it starts like one of the
project's own (`ARCHIVE_…`, `MONTH_…`) or is close to any known name; any other unknown
name (an add-on's, say) only gets a warning.
"""

from __future__ import annotations

import difflib
from types import ModuleType

from scrapy.settings import SETTINGS_PRIORITIES, default_settings

import crawler.settings as project_settings

SIMILARITY = 0.8  # difflib ratio from which a name counts as a misspelling of another


def _names(module: ModuleType) -> set[str]:
    return {name for name in vars(module) if name.isupper() and not name.startswith("_")}


SCRAPY_NAMES = _names(default_settings)
PROJECT_NAMES = _names(project_settings) - SCRAPY_NAMES  # the project's own settings
KNOWN_NAMES = SCRAPY_NAMES | PROJECT_NAMES
# ARCHIVE_, DATA_, MONTH_, PLAN_, ...: the first word of each of the project's names.
PROJECT_PREFIXES = sorted({name.split("_", 1)[0] + "_" for name in PROJECT_NAMES})


def command_line_settings(settings) -> dict[str, object]:
    """The settings given with `-s` (or another command-line option) in this run."""
    cmdline = SETTINGS_PRIORITIES["cmdline"]
    return {name: settings[name] for name in settings if settings.getpriority(name) == cmdline}


def check_names(given: dict[str, object]) -> tuple[list[str], list[str]]:
    """(errors, warnings) about unknown names: each error says what was probably meant."""
    errors, warnings = [], []
    for name in sorted(given):
        if name in KNOWN_NAMES:
            continue
        shown = f"-s {name}={str(given[name])[:80]}"
        close = difflib.get_close_matches(name, sorted(KNOWN_NAMES), n=1, cutoff=SIMILARITY)
        prefix = next((p for p in PROJECT_PREFIXES if name.startswith(p)), None)
        if close:
            errors.append(f"unknown setting {shown} (did you mean {close[0]}?)")
        elif prefix:
            family = sorted(n for n in PROJECT_NAMES if n.startswith(prefix))
            errors.append(
                f"unknown setting {shown}: this project has no such setting "
                f"(its {prefix}… settings: {', '.join(family)})"
            )
        else:
            warnings.append(
                f"setting {shown} is neither Scrapy's nor this project's: nothing here reads it"
            )
    return errors, warnings
