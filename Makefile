# Every target creates the virtual environment itself, so `make run` and
# `make test` work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SHARED ?= ../shared/sources
CORPUS ?= corpus

.PHONY: install bytecode system-deps run test test-fast check bench clean serve faults fuzz docs docs-serve screenshots

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The package's bytecode, as a pip install (not editable) compiles it. Where
# PYTHONDONTWRITEBYTECODE is set (it is on this machine) Python would otherwise compile
# every module of the package again at each start: 0.08 s of `rulescorpus parse`, and
# of each process the tests start. Only files changed since are compiled again.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q pipeline

# The HTML report test renders in headless Chromium; the cross-engine check and the
# bench use poppler's pdftotext. Both come from Debian's packages.
system-deps:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v pdftotext >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				chromium poppler-utils >/dev/null; \
		else \
			echo "missing chromium or pdftotext: apt-get install chromium poppler-utils"; exit 1; \
		fi; \
	fi

# The scheduled job. Offline (this machine), the real documents in
# ../shared/sources stand in for the publishers' servers.
run: $(STAMP) bytecode
	@if [ -f $(SHARED)/manifest.json ]; then \
		$(BIN)/rulescorpus --corpus $(CORPUS) import $(SHARED) && \
		$(BIN)/rulescorpus --corpus $(CORPUS) update --mirror $(SHARED); \
	else \
		$(BIN)/rulescorpus --corpus $(CORPUS) update; \
	fi; rc=$$?; if [ $$rc -eq 0 ] || [ $$rc -eq 10 ]; then exit 0; else exit $$rc; fi

# One pytest-xdist worker per core; a test file stays whole in one worker (its module
# fixtures are built once), and the real documents' session fixtures are built once for
# both (tests/support/built_once.py).
XDIST := -n 2 --dist loadfile --durations=15
test: $(STAMP) bytecode system-deps
	$(BIN)/python -m pytest $(XDIST)

# The inner loop: no browser, no kill campaign, no second PDF engine, no real documents
# of ../shared/sources (the markers are in pyproject.toml; tests/conftest.py sets them).
test-fast: $(STAMP) bytecode
	$(BIN)/python -m pytest $(XDIST) -m "not slow and not browser and not campaign and not second_engine"

check: $(STAMP) bytecode system-deps
	$(BIN)/ruff check pipeline tests
	$(BIN)/ruff format --check pipeline tests
	$(BIN)/mypy
	$(BIN)/python -m pytest $(XDIST)

# The corpus's web UI and JSON API: export ./corpus to SQLite and serve it with Datasette
# (the `serve` extra) on 127.0.0.1. `make run` first fills ./corpus.
SQLITE ?= .cache/rulescorpus.sqlite
PORT ?= 8001
serve: $(STAMP)
	$(BIN)/pip install --quiet -e '.[serve]'
	$(BIN)/rulescorpus --corpus $(CORPUS) export sqlite $(SQLITE)
	$(BIN)/python -m pipeline.export.datasette $(SQLITE) --host 127.0.0.1 --port $(PORT)

# Writes its tables to docs/measured/bench.md too (BENCH_ARGS="--quick --runs 1" for a
# short run).
bench: $(STAMP) bytecode system-deps
	$(BIN)/python -m tests.bench --shared $(SHARED) --page docs/measured/bench.md $(BENCH_ARGS)

# The fault campaign: a misbehaving server, hostile mirrors, a damaged corpus, a full
# disk, kills at every durable step and at random instants, concurrent runs, and what is
# the user's (files cite-check --fix rewrites, registries, exports; kills during --fix and
# export, counting files touched outside what each command may write) (~17 min;
# FAULTS_ARGS=--quick for a minute). Needs openssl (a test certificate for https).
# Its tables go to docs/measured/faults.md.
faults: $(STAMP) bytecode
	$(BIN)/python -m tests.faults --markdown docs/measured/faults.md $(FAULTS_ARGS)

# Coverage-guided fuzzing of every parser entry point, FUZZ_SECONDS per harness
# (`make fuzz FUZZ_SECONDS=30` for a short run); the table goes to docs/measured/fuzz.md.
# atheris is the `fuzz` extra.
FUZZ_SECONDS ?= 600
fuzz: $(STAMP) bytecode
	@$(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/pip install --quiet -e '.[fuzz]'
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_PAGE=docs/measured/fuzz.md $(BIN)/python -m tests.faults.fuzz $(FUZZ_HARNESSES)

# The documentation site (MkDocs, Material theme) in .cache/site. --strict turns every
# broken link or page missing from the nav into an error; the build needs no network.
DOCS_PORT ?= 8000
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The site's screenshots the docs show (docs/img/), taken in headless Chromium of the site
# built from ../shared/sources.
screenshots: $(STAMP) bytecode system-deps
	RULESCORPUS_ARTIFACTS=$(CURDIR)/docs/img $(BIN)/python -m pytest -q \
		tests/site/test_site_chromium.py -k screenshots

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:$(DOCS_PORT)

clean:
	rm -rf $(VENV)
