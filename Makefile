# deepforest_interp — two entry points: `make reproduce` and `make test`.
SHELL := /bin/bash
# Any installed Python >= 3.11 (first of python3.11, 3.12, 3.13, 3.14, python3); override with `make PY=/path/python3`.
PY ?= $(shell for p in python3.11 python3.12 python3.13 python3.14 python3; do \
        if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then \
          echo $$p; break; fi; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FULL ?= 0

.PHONY: browser reproduce-check reproduce test install export bench lab readme sync-check outputs site site-check lint format

$(BIN)/python:
	@if [ -z "$(PY)" ]; then echo "make: no Python >= 3.11 found on the PATH (tried python3.11 ... python3.14, python3);" \
	  "install one, or name it: make PY=/path/to/python3.12 test"; exit 1; fi
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip

$(STAMP): $(BIN)/python setup.py settings.ini
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

## Quick reproduction of every figure and table into figures/ (FULL=1 for paper-sized runs); the executed experiment
## notebooks are stored back into nbs/ with their outputs (tools/store_outputs.py: no stderr, no machine paths). Repetitions are stored
## per repetition (_cache/, and figures/reps/ which is committed), so an interrupted run resumes; DASK_SCHEDULER=local or
## DASK_SCHEDULER=tcp://host:8786 sends them to a dask cluster. Run times go to _out/timings.md, never into figures/.
reproduce: $(STAMP)
	mkdir -p _out figures
	rm -f _out/timings_*.md
	for nb in nbs/1[0-9]_experiments_*.ipynb; do \
	  echo "== $$nb"; \
	  start=$$(date +%s); \
	  FULL=$(FULL) DFI_FIGURES=$(CURDIR)/figures DFI_CACHE=$(CURDIR)/_cache DFI_OUT=$(CURDIR)/_out MPLBACKEND=module://matplotlib_inline.backend_inline \
	    $(BIN)/papermill --log-level WARNING --cwd nbs "$$nb" "_out/$$(basename $$nb)" || exit 1; \
	  echo "- $$(basename $$nb): $$(( $$(date +%s) - start )) s (FULL=$(FULL))" >> _out/timings_make.md; \
	done
	cat _out/timings_*.md > _out/timings.md
	$(BIN)/python -c "from deepforest_interp.experiments import assemble_results; print(assemble_results('figures'))"
	$(BIN)/python tools/store_outputs.py
	. $(BIN)/activate && nbdev_clean
	$(BIN)/python tools/sync_check.py

## `make reproduce` in a fresh clone of HEAD (its own .venv) must leave that clone's git status clean: quick runs read the
## stored repetitions and timing runs and write back exactly what is committed. About 15 minutes; not part of `make test`.
reproduce-check:
	rm -rf _cache/reproduce_check && git clone -q . _cache/reproduce_check
	$(MAKE) -C _cache/reproduce_check --no-print-directory reproduce
	@cd _cache/reproduce_check && if [ -n "$$(git status --porcelain)" ]; then \
	  echo "make reproduce left the clone dirty:"; git status --short; git diff --stat; exit 1; \
	else echo "reproduce-check OK: make reproduce on a fresh clone leaves git clean"; fi

## Code style (ruff), library in sync with notebooks (and within the output budget), notebook tests, pytest (2 workers), then the
## course site in Chromium.
test: $(STAMP)
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory sync-check
	. $(BIN)/activate && MPLBACKEND=Agg python tools/nbtest.py --n_workers 2
	. $(BIN)/activate && MPLBACKEND=Agg python -m pytest -q -n 2 tests
	$(MAKE) --no-print-directory site-check

## The notebooks (code cells), tools/, tests/, bench/ and site/ formatted and lint-clean by ruff (ruff.toml); a few seconds.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

## Apply the code style: ruff format, ruff's safe fixes, then regenerate the library. Check the result with `git diff` and `python tools/same_program.py HEAD`.
format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	. $(BIN)/activate && nbdev_export && ruff format -q deepforest_interp && nbdev_clean

## Fails only if nbdev_export + nbdev_clean would CHANGE a file (checked on a scratch copy: nothing here is modified),
## naming the file and the fix; also enforces <= 2 MB per notebook and <= 12 MB for nbs/.
sync-check: $(STAMP)
	$(BIN)/python tools/sync_check.py

## Re-execute notebooks 00-09b, derivations and index in place (seeded; figures as PNG via nbs/matplotlibrc), then clean.
outputs: $(STAMP)
	$(BIN)/python tools/outputs.py
	. $(BIN)/activate && nbdev_clean
	$(BIN)/python tools/sync_check.py

## The static course in _site/ (Sphinx + MyST-NB, MathJax served from the site): stored outputs, never re-executed.
site: $(STAMP)
	$(BIN)/python tools/build_site.py

## Every page of _site/ in headless Chromium: math rendered, images load, internal links resolve; screenshots.
## It never installs anything: without a browser it says so (and fails when SITE_CHECK_REQUIRED=1, as in CI).
site-check: site
	@chromium="$${CHROMIUM:-/usr/bin/chromium}"; \
	if [ -x "$$chromium" ]; then $(BIN)/python tools/site_check.py; \
	elif [ "$(SITE_CHECK_REQUIRED)" = 1 ]; then echo "site-check: no Chromium at $$chromium: run 'make browser' (as root) or set CHROMIUM=..."; exit 1; \
	else echo ""; echo "*** NOTICE: site-check SKIPPED: no Chromium at $$chromium. Every other test ran.               ***"; \
	  echo "*** To check the site too: make browser (installs Debian's chromium, needs root), or point          ***"; \
	  echo "*** CHROMIUM=... at a Chrome/Chromium binary; then run: make site-check                             ***"; echo ""; fi

## The one command that changes the system: installs Debian's chromium for site-check (root, apt-get) if it is missing.
browser:
	@chromium="$${CHROMIUM:-/usr/bin/chromium}"; \
	if [ -x "$$chromium" ]; then echo "browser: $$chromium is installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "browser: installing chromium needs root and apt-get; or set CHROMIUM=/path/to/chrome"; exit 1; fi

export: $(STAMP)
	. $(BIN)/activate && nbdev_export && ruff format -q deepforest_interp && nbdev_clean

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f; done

lab: $(STAMP)
	$(BIN)/jupyter lab --allow-root nbs

## README.md from nbs/index.ipynb without quarto (markdown cells verbatim, code cells fenced, `#| hide` cells dropped).
readme:
	python3 tools/readme.py
