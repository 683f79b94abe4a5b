# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-service test-surfaces test-engine test-fast lint typecheck messages bench validate clean assets e2e-deps screenshots lock \
	vscode-deps vscode-types vsix vscode-host test-tools

$(STAMP): pyproject.toml constraints.txt clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]' -e ./clients/python
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/numjudge serve --host $(HOST) --port $(PORT)

# The engine's tests run under coverage (statements and branches) and fail below
# GRADERS_BRANCH_FLOOR: 92 % measured as root, where the cgroup tests run too; raise it as the
# figure grows. The rest runs without the tracer, which slows in-process grading about 2.5 times.
GRADERS_BRANCH_FLOOR := 90
ENGINE_TESTS := tests/graders tests/exercises tests/security
# The service's tests that drive it from outside: browsers, the clients, an LMS, the CLI.
SURFACE_TESTS := tests/e2e tests/clients tests/app/lti tests/app/cli
# Each part's temporary folders in one of its own in the checkout, emptied as the part starts:
# under pytest's shared root in /tmp, the part that ended first removed all but the three
# newest runs' folders, while a fourth part or a second checkout of the same user used theirs.
TEST_TMP := $(CURDIR)/.pytest_tmp

# Three parts run side by side, each to its end, and each prints its output whole when it
# ends (make's --output-sync). Each waits on servers, browsers, sandboxes or the clock for
# much of its time: on a quiet 2-core host the service's tests alone kept 0.8 of a core busy
# and the engine's 0.5. Beside a second copy the host is busy throughout, and a fourth part
# (the service's tests in two) cost more CPU than it gave back (docs/performance.md). Each
# part keeps its own pytest cache, so none loses another's list of last failures.
test: $(STAMP) test-tools lint typecheck
	$(BIN)/numjudge validate exercises
	@echo "the tests run in three parts side by side; each part prints when it ends"
	$(MAKE) --no-print-directory -j3 --output-sync=target test-service test-surfaces test-engine

test-service: $(STAMP)
	mkdir -p $(TEST_TMP)
	$(BIN)/pytest tests $(addprefix --ignore=,$(ENGINE_TESTS) $(SURFACE_TESTS)) \
		--basetemp=$(TEST_TMP)/service

test-surfaces: $(STAMP)
	mkdir -p $(TEST_TMP)
	$(BIN)/pytest $(SURFACE_TESTS) -o cache_dir=.pytest_cache/surfaces \
		--basetemp=$(TEST_TMP)/surfaces

test-engine: $(STAMP)
	mkdir -p $(TEST_TMP)
	$(BIN)/pytest $(ENGINE_TESTS) -o cache_dir=.pytest_cache/engine --cov \
		--cov-report=term:skip-covered --cov-fail-under=$(GRADERS_BRANCH_FLOOR) \
		--basetemp=$(TEST_TMP)/engine

# The browser tests need Chromium, the VS Code tests node and npm (tests/needs.py). Root (CI)
# installs what is missing, and those tests fail if it still is; anyone else gets one line
# naming what to install, and pytest skips those tests with that line as the reason.
test-tools:
	@if [ "$$(id -u)" -eq 0 ]; then $(MAKE) --no-print-directory e2e-deps vscode-deps vscode-host; \
	else $(PYTHON) tests/needs.py; \
		if command -v npm >/dev/null; then $(MAKE) --no-print-directory vscode-deps; fi; fi

# The inner loop: every test that starts no sandbox, server, browser or outside program and does
# not wait on the clock (the `slow` marker, pyproject.toml).
test-fast: $(STAMP) lint typecheck
	$(BIN)/pytest -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

# The pages' texts: extract them (babel.cfg), bring the catalogs up to date, compile them.
# Translate the new entries in app/locale/<lang>/LC_MESSAGES/messages.po, then run it again.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k say -k t -k N_ --no-location --sort-output \
		--omit-header -o app/locale/messages.pot .
	$(BIN)/pybabel update -i app/locale/messages.pot -d app/locale -D messages --no-fuzzy-matching \
		--ignore-pot-creation-date --ignore-obsolete
	$(BIN)/pybabel compile -d app/locale -D messages --statistics

validate: $(STAMP)
	$(BIN)/numjudge validate exercises

bench: $(STAMP)
	$(BIN)/python bench/grading.py

# The web pages' end-to-end tests drive Debian's chromium (Playwright downloads no browser).
e2e-deps:
	@command -v chromium >/dev/null || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

# The VS Code extension (clients/vscode) builds and tests with node and npm (Debian's if missing).
VSCODE := clients/vscode
vscode-deps: $(VSCODE)/node_modules/.package-lock.json

$(VSCODE)/node_modules/.package-lock.json: $(VSCODE)/package-lock.json
	@command -v npm >/dev/null || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm; }
	cd $(VSCODE) && npm ci --no-audit --no-fund

# A real VS Code for the extension's host test (tests/clients/test_vscode_host.py): code-server
# from npm, pinned in clients/vscode/host to 4.100.3, the newest release that runs on node 20
# (about 4 min, 300 MB). Its native modules are built here (a compiler, Kerberos' headers).
# @vscode/ripgrep's install script downloads rg from GitHub unless its download cache (in
# TMPDIR) has it: it gets Debian's rg there. code-server's script wants npm_config_unsafe_perm as
# root, and node-pty's runs `npx node-gyp` (npm_config_yes). Only what is missing is installed:
# a machine's own node (NodeSource's bundles npm) conflicts with Debian's npm package.
# It is installed once per lock file, node and machine into the user's cache and linked here: a
# clean clone would otherwise spend 40 s of CPU unpacking the same 300 MB again. The install
# happens in a folder of its own, renamed into place when complete, so two checkouts installing
# at once each end with a whole copy.
VSCODE_HOST := $(VSCODE)/host
VSCODE_HOST_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/numjudge/vscode-host
RIPGREP_CACHE = vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-$$(uname -m)-unknown-linux-musl.tar.gz
vscode-host: $(VSCODE_HOST)/node_modules/.package-lock.json

$(VSCODE_HOST)/node_modules/.package-lock.json: $(VSCODE_HOST)/package-lock.json
	@missing=""; command -v npm >/dev/null || missing="nodejs npm"; \
		command -v rg >/dev/null || missing="$$missing ripgrep"; \
		command -v g++ >/dev/null || missing="$$missing g++ make"; \
		[ -f /usr/include/gssapi/gssapi.h ] || missing="$$missing libkrb5-dev"; \
		[ -z "$$missing" ] || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; }
	key=$$(cat $(VSCODE_HOST)/package.json $(VSCODE_HOST)/package-lock.json | sha256sum | \
		cut -c1-16)-node$$(node --version)-$$(uname -m) && \
	installed="$(VSCODE_HOST_CACHE)/$$key" && \
	if [ ! -f "$$installed/node_modules/.package-lock.json" ]; then \
		mkdir -p "$(VSCODE_HOST_CACHE)" && work=$$(mktemp -d "$(VSCODE_HOST_CACHE)/.installing.XXXXXX") && \
		cp $(VSCODE_HOST)/package.json $(VSCODE_HOST)/package-lock.json "$$work" && \
		cache=$$(mktemp -d) && mkdir -p "$$(dirname "$$cache/$(RIPGREP_CACHE)")" && \
		tar czf "$$cache/$(RIPGREP_CACHE)" -C "$$(dirname "$$(command -v rg)")" rg && \
		(cd "$$work" && TMPDIR="$$cache" npm_config_unsafe_perm=true npm_config_yes=true \
			npm ci --no-audit --no-fund); status=$$?; rm -rf "$$cache"; \
		[ $$status -eq 0 ] && { mv -T "$$work" "$$installed" 2>/dev/null || rm -rf "$$work"; } || \
			{ rm -rf "$$work"; exit $$status; }; \
	fi && \
	rm -rf $(VSCODE_HOST)/node_modules && ln -s "$$installed/node_modules" $(VSCODE_HOST)/node_modules

# Regenerate the extension's API types from the service's OpenAPI schema (a test checks them).
vscode-types: $(STAMP) vscode-deps
	$(BIN)/python -m tests.clients.openapi_schema > $(VSCODE)/openapi.json
	cd $(VSCODE) && npx openapi-typescript openapi.json -o src/api-types.ts && rm openapi.json

# Package the extension: clients/vscode/numjudge.vsix (code --install-extension numjudge.vsix).
vsix: vscode-deps
	cd $(VSCODE) && npm run package

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
	rm -rf $(VENV) numjudge.db $(TEST_TMP) $(VSCODE)/out $(VSCODE)/numjudge.vsix $(VSCODE_HOST)/node_modules
