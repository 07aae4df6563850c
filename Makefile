# Every target creates the virtual environment itself, so `make run` and
# `make test` work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SHARED ?= ../shared/sources
CORPUS ?= corpus

.PHONY: install run test check bench schema clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The scheduled job. Offline (this machine), the real documents in
# ../shared/sources stand in for the publishers' servers.
run: $(STAMP)
	@if [ -f $(SHARED)/manifest.json ]; then \
		$(BIN)/rulescorpus --corpus $(CORPUS) import $(SHARED) && \
		$(BIN)/rulescorpus --corpus $(CORPUS) update --mirror $(SHARED); \
	else \
		$(BIN)/rulescorpus --corpus $(CORPUS) update; \
	fi; rc=$$?; if [ $$rc -eq 0 ] || [ $$rc -eq 10 ]; then exit 0; else exit $$rc; fi

test: $(STAMP)
	$(BIN)/pytest -q

check: $(STAMP)
	$(BIN)/ruff check pipeline tests
	$(BIN)/mypy
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python -m pipeline.bench

clean:
	rm -rf $(VENV)
