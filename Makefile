# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench validate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/numjudge serve

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/numjudge validate exercises
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .

validate: $(STAMP)
	$(BIN)/numjudge validate exercises

bench: $(STAMP)
	$(BIN)/python bench/grading.py

clean:
	rm -rf $(VENV) numjudge.db
