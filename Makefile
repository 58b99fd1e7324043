# Every user-facing command of the project. Run from the repo root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DATA_DIR ?= data
WORKERS ?=
SCHEDULER ?=
BENCH_MB ?= 200
STAMP := $(VENV)/.installed

.PHONY: help install test test-fast lint format demo crawl extract import report sql export eval fit fuzz bench browser clean plan readme
.DEFAULT_GOAL := help

# `make help` prints the lines that start with "## ", in this order.
## Usage: make TARGET [DATA_DIR=data] [ARGS='...']   (every target installs .venv/ first)
##
help:
	@sed -n 's/^## \{0,1\}//p' $(MAKEFILE_LIST)

## install        .venv/ with the pinned dependencies (again only when pyproject.toml changes)
install: $(STAMP)

# Re-install only when the pinned dependencies change (idempotent).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Dask extra, for `make extract SCHEDULER=local:N|ADDRESS` (not in the default install).
## install-cluster adds Dask (the `cluster` extra) for `make extract SCHEDULER=...`
.PHONY: install-cluster
install-cluster: $(VENV)/.installed-cluster

$(VENV)/.installed-cluster: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $@

# Debian's Chromium and ChromeDriver for the report's browser test.
## browser        Debian's chromium and chromium-driver, for the browser tests (needs root)
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { [ "$$(id -u)" = 0 ] || { echo "make browser: install Debian's chromium and chromium-driver (needs root)"; exit 1; }; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

## test           the whole test suite (minutes; installs the browser when missing)
test: install browser
	$(BIN)/python -m pytest -q

# The quick feedback loop: leaves out the end-to-end tests (real crawls, servers, the
# browser) and the ones marked slow (whole extractions in subprocesses, sweeps of every
# format over damaged text; tests/conftest.py SLOW_MODULES, SLOW_TESTS). About 55 CPU
# seconds: under a minute on 2 idle cores. `make test` runs everything.
## test-fast      the tests without the end-to-end and slow ones (under a minute)
test-fast: install
	@echo "test-fast: leaves out end-to-end tests (crawls, servers, browser) and slow ones (tests/conftest.py); make test runs all"
	$(BIN)/python -m pytest -q -m "not e2e and not slow"

## lint           ruff check and ruff format --check
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## format         ruff format and ruff check --fix
format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

##
## demo           the whole job, offline: serves data/sample, crawls it, extracts, reports
demo: install
	$(BIN)/python -m extract.dev.demo --data-dir $(DATA_DIR)/demo

## crawl          scrapy crawl asf-lists into DATA_DIR/raw (ARGS='-a lists=... -a since=...')
crawl: install
	$(BIN)/scrapy crawl asf-lists -s DATA_DIR=$(DATA_DIR) $(ARGS)

# The crawl's dry run: reads the list of lists and each list's months, fetches no archive;
# prints per list the months and messages to fetch, the estimated bytes and time.
## plan           the crawl's dry run: months, messages, bytes and time per list; fetches nothing
plan: install
	$(BIN)/scrapy crawl asf-lists -a plan=1 -s DATA_DIR=$(DATA_DIR) $(ARGS)

## extract        DATA_DIR/raw -> DATA_DIR/asf.duckdb (WORKERS=N, SCHEDULER=..., ARGS=--full)
extract: install
	$(BIN)/python -m extract --data-dir $(DATA_DIR) $(if $(WORKERS),--workers $(WORKERS)) $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(ARGS)

## import         archives you have (SRC=PATH): laid out under DATA_DIR/raw/, then extracted
# Archives you already have (plain, gzip or bzip2 mbox files, .eml files, folders of
# them, any names) laid out as DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz, list and
# month from the messages' headers, then extracted (ARGS=--no-extract: laid out only).
import: install
	@test -n "$(SRC)" || { echo "make import: give SRC=PATH (mbox files, .eml files or folders of them)" >&2; exit 2; }
	$(BIN)/python -m extract.importer --data-dir $(DATA_DIR) $(if $(WORKERS),--workers $(WORKERS)) $(ARGS) $(SRC)

## report         the static HTML report: DATA_DIR/report/index.html
report: install
	$(BIN)/python -m extract.outputs.report --data-dir $(DATA_DIR) $(ARGS)

## sql            an SQL prompt on the database, read-only (ARGS='-c "SELECT ..."')
sql: install
	$(BIN)/python -m extract.outputs.sql --data-dir $(DATA_DIR) $(ARGS)

## export         every table and view as Parquet and CSV, and the dataset, under DATA_DIR/export
export: install
	$(BIN)/python -m extract.outputs.export --data-dir $(DATA_DIR) $(ARGS)

##
## eval           messages, numbers (by span too), the judge cross-validated, the gate, the sealed set
eval: install
	$(BIN)/python -m extract.dev.eval $(ARGS)

# Rewrite the README's output blocks (cookbook results, report and export lines, the
# demo's counts) from the demo's database: after `make demo`, when outputs change.
## readme         rewrite the README's outputs from DATA_DIR/demo (run make demo first)
readme: install
	$(BIN)/python -m extract.dev.readme --data-dir $(DATA_DIR)/demo --write $(ARGS)

# Refit on the labelled corpora (../shared/corpus), the annotations and the labelled PR
# descriptions (extract/dev/annotations): the verdict and the gate (extract.dev.fit_judge;
# ARGS=--numbers: the number model too), and the readers-only classifier used before a
# first fit (extract.dev.fit).
## fit            refit the verdict, the gate and the classifier on the labelled mail
fit: install
	$(BIN)/python -m extract.dev.fit --write
	$(BIN)/python -m extract.dev.fit_judge --write $(ARGS)

# Mutated archives through the real pipeline: crashes, hangs over 10 s, lost messages.
## fuzz           mutated archives through the real pipeline (FUZZ_ARCHIVES=2000 FUZZ_SEED=0)
fuzz: install
	$(BIN)/python -m extract.dev.fuzz --archives $(or $(FUZZ_ARCHIVES),2000) --seed $(or $(FUZZ_SEED),0) --out .fuzz/summary.json $(ARGS)

## bench          extraction throughput and memory against baselines (BENCH_MB=200)
bench: install
	$(BIN)/python -m extract.dev.bench --size-mb $(BENCH_MB)

## clean          remove caches, benchmark and fuzz output, test artifacts
clean:
	rm -rf .pytest_cache .ruff_cache .bench .fuzz .hypothesis tests/artifacts
