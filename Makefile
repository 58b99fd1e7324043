# Every user-facing command of the project. Run from the repo root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DATA_DIR ?= data
WORKERS ?=
SCHEDULER ?=
BENCH_MB ?= 200
STAMP := $(VENV)/.installed

.PHONY: install test test-fast lint format demo crawl extract import report sql export eval fit fuzz bench browser clean plan

install: $(STAMP)

# Re-install only when the pinned dependencies change (idempotent).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Dask extra, for `make extract SCHEDULER=local:N|ADDRESS` (not in the default install).
.PHONY: install-cluster
install-cluster: $(VENV)/.installed-cluster

$(VENV)/.installed-cluster: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $@

# Debian's Chromium and ChromeDriver for the report's browser test.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { [ "$$(id -u)" = 0 ] || { echo "make browser: install Debian's chromium and chromium-driver (needs root)"; exit 1; }; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

test: install browser
	$(BIN)/python -m pytest -q

# The fast tests only: no real crawls, servers or browser (seconds, not minutes).
test-fast: install
	$(BIN)/python -m pytest -q -m "not e2e"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

demo: install
	$(BIN)/python -m extract.dev.demo --data-dir $(DATA_DIR)/demo

crawl: install
	$(BIN)/scrapy crawl asf-lists -s DATA_DIR=$(DATA_DIR) $(ARGS)

# The crawl's dry run: reads the list of lists and each list's months, fetches no archive;
# prints per list the months and messages to fetch, the estimated bytes and time.
plan: install
	$(BIN)/scrapy crawl asf-lists -a plan=1 -s DATA_DIR=$(DATA_DIR) $(ARGS)

extract: install
	$(BIN)/python -m extract --data-dir $(DATA_DIR) $(if $(WORKERS),--workers $(WORKERS)) $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(ARGS)

# Archives you already have (plain, gzip or bzip2 mbox files, .eml files, folders of
# them, any names) laid out as DATA_DIR/raw/<domain>/<list>/<YYYY-MM>.mbox.gz, list and
# month from the messages' headers, then extracted (ARGS=--no-extract: laid out only).
import: install
	@test -n "$(SRC)" || { echo "make import: give SRC=PATH (mbox files, .eml files or folders of them)" >&2; exit 2; }
	$(BIN)/python -m extract.importer --data-dir $(DATA_DIR) $(if $(WORKERS),--workers $(WORKERS)) $(ARGS) $(SRC)

report: install
	$(BIN)/python -m extract.outputs.report --data-dir $(DATA_DIR) $(ARGS)

sql: install
	$(BIN)/python -m extract.outputs.sql --data-dir $(DATA_DIR) $(ARGS)

export: install
	$(BIN)/python -m extract.outputs.export --data-dir $(DATA_DIR) $(ARGS)

eval: install
	$(BIN)/python -m extract.dev.eval $(ARGS)

# Refit on the labelled corpora (../shared/corpus) and the annotations
# (extract/dev/annotations): the number model and the verdict (extract.dev.fit_judge),
# and the readers-only classifier used before a first fit (extract.dev.fit).
fit: install
	$(BIN)/python -m extract.dev.fit --write $(ARGS)
	$(BIN)/python -m extract.dev.fit_judge --write $(ARGS)

# Mutated archives through the real pipeline: crashes, hangs over 10 s, lost messages.
fuzz: install
	$(BIN)/python -m extract.dev.fuzz --archives $(or $(FUZZ_ARCHIVES),2000) --seed $(or $(FUZZ_SEED),0) --out .fuzz/summary.json $(ARGS)

bench: install
	$(BIN)/python -m extract.dev.bench --size-mb $(BENCH_MB)

clean:
	rm -rf .pytest_cache .ruff_cache .bench .fuzz .hypothesis tests/artifacts
