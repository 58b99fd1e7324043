"""Which `-s NAME=VALUE` names the crawl refuses (crawler/setting_names.py); the refusal
itself, in a real crawl: tests/crawler/test_crawl_habits.py."""

from __future__ import annotations

from crawler.setting_names import PROJECT_NAMES, PROJECT_PREFIXES, SCRAPY_NAMES, check_names


def test_which_setting_names_are_refused():
    errors, warnings = check_names(
        {
            "DATA_DRI": "/big/disk",
            "DOWNLAOD_DELAY": "0",
            "MONTH_LIMIT": "5",
            "SENTRY_DSN": "x",
            "ARCHIVE_URL": "http://127.0.0.1:1",
            "DOWNLOAD_DELAY": "0",
            "SLICED_MONTH_MAXSIZE": "1",
            "JOBDIR": "job",
            "FEEDS": "{}",
        }
    )
    assert errors == [
        "unknown setting -s DATA_DRI=/big/disk (did you mean DATA_DIR?)",
        "unknown setting -s DOWNLAOD_DELAY=0 (did you mean DOWNLOAD_DELAY?)",
        "unknown setting -s MONTH_LIMIT=5: this project has no such setting "
        "(its MONTH_… settings: MONTH_GRACE_HOURS, MONTH_MAXSIZE)",
    ]
    assert warnings == [
        "setting -s SENTRY_DSN=x is neither Scrapy's nor this project's: nothing here reads it"
    ]


def test_the_project_names_are_its_own():
    assert {"ARCHIVE_URL", "DATA_DIR", "MONTH_MAXSIZE", "SLICED_MONTH_MAXSIZE"} <= PROJECT_NAMES
    assert "DOWNLOAD_DELAY" in SCRAPY_NAMES and not PROJECT_NAMES & SCRAPY_NAMES
    assert {"ARCHIVE_", "DATA_", "MONTH_", "PLAN_", "ROBOTSTXT_"} <= set(PROJECT_PREFIXES)
