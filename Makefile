# Two commands for a newcomer: `make serve` and `make test`; `make check`
# is the quick loop while working (no browser, no Node, no site build).
# Every target sets up what it needs first; setup is skipped when nothing
# it depends on changed.

export NO_MKDOCS_2_WARNING := 1

VENV      := .venv
PY        := $(VENV)/bin/python
STAMP_PY  := $(VENV)/.installed
STAMP_NPM := node_modules/.installed
ICEPOOL   := .cache/wheels/.icepool
# pytest keeps the test modules it rewrote for its assertions as bytecode
# (__pycache__/, ignored by git), even where PYTHONDONTWRITEBYTECODE is set:
# without them each pytest process rewrites and compiles the 150 test
# modules again, 7.5 CPU-s of collecting against 3.6 (make test and make
# check each start two).
PYTEST    := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

.PHONY: setup serve build test check lint lint-py lint-ts bench clean chromium engines rule-ids
.DEFAULT_GOAL := test

setup: $(STAMP_PY) $(STAMP_NPM) $(ICEPOOL)

$(STAMP_PY): pyproject.toml
	@python=$$(scripts/find-python) || exit 1; \
	[ -x $(PY) ] || "$$python" -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	@touch $@

$(STAMP_NPM): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The icepool wheel is shipped to the browser with the site; fetch it once.
$(ICEPOOL): pyproject.toml $(STAMP_PY)
	$(PY) -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
	    -d .cache/wheels "$$($(PY) -c 'import importlib.metadata as m; print("icepool==" + m.version("icepool"))')"
	@touch $@

chromium: $(STAMP_PY)
	@scripts/ensure-chromium $(PY)

# WebKitGTK and Firefox ESR for tests/test_engines.py (Debian's, as root); a
# machine without them skips those engines with the reason.
engines:
	@scripts/ensure-engines

serve: setup
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

# GENERATOR=properdocs builds the same site with ProperDocs, the maintained
# fork of MkDocs 1.6, and GENERATOR=zensical with Zensical, which runs no
# hooks: the finishing step runs after it (README, Generators).
GENERATOR ?= mkdocs
GENERATORS := mkdocs properdocs zensical
build: setup
	@case " $(GENERATORS) " in *" $(GENERATOR) "*) ;; *) echo "GENERATOR=$(GENERATOR): this site builds with $(GENERATORS) (README, Generators)." >&2; exit 2;; esac
ifeq ($(GENERATOR),zensical)
	rm -rf site
	$(VENV)/bin/zensical build --strict -f mkdocs.yml
	$(PY) -m rulebook.site finish site
else
	$(VENV)/bin/$(GENERATOR) build --strict -f mkdocs.yml
endif

# The linters and type checks come first: a finding stops the run before
# the slow tests. ruff and mypy read pyproject.toml; tsc checks the page
# scripts (tsconfig.json) and the workers against Pyodide's types
# (tsconfig.worker.json). Two halves, run side by side where make has two
# jobs: the Python half (mypy, one core) and the TypeScript half (tsc, the
# other). Both keep what they learnt between runs (.mypy_cache/, and tsc's
# build info in .cache/tsc/): an unchanged file is not checked again
# (tsc on the page scripts: 10.4 CPU-s a run without it, 3.0 with it; a
# type error in an unchanged file is still reported, from the build info).
TSC := npx --no-install tsc --incremental
lint: lint-py lint-ts

lint-py: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

lint-ts: setup
	$(PY) -m calculators.typescript types/trackers.d.ts
	$(TSC) -p tsconfig.json --tsBuildInfoFile .cache/tsc/pages.tsbuildinfo
	$(TSC) -p tsconfig.worker.json --tsBuildInfoFile .cache/tsc/workers.tsbuildinfo

# The linters and the site's build side by side (two cores: mypy and the
# build's Node each keep one busy), then the tests: a linter's finding still
# stops the run before them. Two pytest processes (pytest-xdist) for two
# cores: the suite is bound by CPU, and each process starts its own server
# and Chromium. `--dist worksteal`: a process that runs out of tests takes
# half of the other's; handed out in batches (`--dist load`), one process
# sat idle for the last 296 s of a 12-minute run while the other worked
# through a queue of browser tests it had been given early.
test: setup chromium engines
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint-py lint-ts build
	$(PYTEST) -n 2 --dist worksteal

# The linters (their two halves side by side), then every test that needs
# no browser, no Node and no built site (pytest markers, tests/conftest.py),
# with few Hypothesis examples, on two processes.
check: setup
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint-py lint-ts
	$(PYTEST) -q -n 2 --dist worksteal -m "not browser and not node and not site" --hypothesis-profile=fast

bench: setup chromium build
	$(PY) -m benchmarks
	$(PY) -m benchmarks.tracker_steps
	$(PY) -m benchmarks.page_steps

clean:
	rm -rf site build .cache

# Publish new rule IDs (a test asks for this when a page gains a rule).
rule-ids: $(STAMP_PY)
	$(PY) scripts/publish-rule-ids
