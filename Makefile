# deepforest_interp — two entry points: `make reproduce` and `make test`.
SHELL := /bin/bash
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FULL ?= 0

.PHONY: reproduce test install export bench lab readme

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip

$(STAMP): $(BIN)/python setup.py settings.ini
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

## Quick reproduction of every figure and table into figures/ (FULL=1 for paper-sized runs). Repetitions are stored
## per repetition (_cache/, and figures/reps/ which is committed), so an interrupted run resumes; DASK_SCHEDULER=local or
## DASK_SCHEDULER=tcp://host:8786 sends them to a dask cluster. Run times go to _out/timings.md, never into figures/.
reproduce: $(STAMP)
	mkdir -p _out figures
	rm -f _out/timings_*.md
	for nb in nbs/1[0-9]_experiments_*.ipynb; do \
	  echo "== $$nb"; \
	  start=$$(date +%s); \
	  FULL=$(FULL) DFI_FIGURES=$(CURDIR)/figures DFI_CACHE=$(CURDIR)/_cache DFI_OUT=$(CURDIR)/_out MPLBACKEND=Agg \
	    $(BIN)/papermill --log-level WARNING --cwd nbs "$$nb" "_out/$$(basename $$nb)" || exit 1; \
	  echo "- $$(basename $$nb): $$(( $$(date +%s) - start )) s (FULL=$(FULL))" >> _out/timings_make.md; \
	done
	cat _out/timings_*.md > _out/timings.md
	$(BIN)/python -c "from deepforest_interp.experiments import assemble_results; print(assemble_results('figures'))"

## Library in sync with notebooks, notebook tests, then pytest.
test: $(STAMP)
	. $(BIN)/activate && nbdev_export && nbdev_clean
	@if [ -n "$$(git status --porcelain -- nbs deepforest_interp)" ]; then \
	  echo "ERROR: nbdev_export/nbdev_clean changed files: the library or notebooks are out of sync:"; \
	  git status --porcelain -- nbs deepforest_interp; exit 1; fi
	. $(BIN)/activate && MPLBACKEND=Agg nbdev_test --n_workers 2
	. $(BIN)/activate && MPLBACKEND=Agg python -m pytest -q tests

export: $(STAMP)
	. $(BIN)/activate && nbdev_export && nbdev_clean

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f; done

lab: $(STAMP)
	$(BIN)/jupyter lab --allow-root nbs

## README.md from nbs/index.ipynb without quarto (markdown cells verbatim, code cells fenced, `#| hide` cells dropped).
readme:
	python3 -c "import json; nb = json.load(open('nbs/index.ipynb')); cells = [''.join(c['source']) for c in nb['cells']]; \
	kinds = [c['cell_type'] for c in nb['cells']]; \
	out = [s if k == 'markdown' else '\`\`\`python\n' + s + '\n\`\`\`' for s, k in zip(cells, kinds) if not s.startswith('#| hide')]; \
	txt = '\n\n'.join(out).replace('> ', '', 1) + '\n'; \
	open('README.md', 'w').write('<!-- generated from nbs/index.ipynb by make readme: edit the notebook, not this file -->\n' + txt)"
