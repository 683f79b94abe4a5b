# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench validate clean assets e2e-deps screenshots lock

$(STAMP): pyproject.toml constraints.txt clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]' -e ./clients/python
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/numjudge serve

test: $(STAMP) e2e-deps
	$(BIN)/ruff check .
	$(BIN)/numjudge validate exercises
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .

validate: $(STAMP)
	$(BIN)/numjudge validate exercises

bench: $(STAMP)
	$(BIN)/python bench/grading.py

# The web pages' end-to-end tests drive Debian's chromium (Playwright downloads no browser).
e2e-deps:
	@test -x /usr/bin/chromium || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

# Rebuild the vendored CodeMirror 6 + KaTeX bundles in app/static/vendor/ (committed).
assets:
	cd frontend && npm ci --no-audit --no-fund && npm run build

# Refresh docs/screenshots/ from the end-to-end and clients runs (CJK fonts for the Japanese page).
screenshots: $(STAMP) e2e-deps
	@dpkg -s fonts-noto-cjk >/dev/null 2>&1 || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-noto-cjk; }
	NUMJUDGE_SCREENSHOTS=docs/screenshots $(BIN)/pytest tests/e2e tests/clients

# Upgrade every dependency within pyproject.toml's ranges and record the result.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet -e '.[test]' -e ./clients/python
	{ head -2 constraints.txt; .lock-venv/bin/pip freeze --exclude-editable | grep -v '^numjudge'; } \
		> constraints.txt.new && mv constraints.txt.new constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) numjudge.db
