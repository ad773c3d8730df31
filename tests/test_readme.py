"""README.md is what nbs/index.ipynb renders to, and the landing page's computed tables (reading paths, notebooks and
reading times) are what their cells compute from the notebooks now: a notebook edited without re-running the index
(`python tools/outputs.py nbs/index.ipynb`, then `make readme`) fails here."""

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))


def test_readme_is_rendered_from_the_index():
    r = subprocess.run(
        [sys.executable, str(ROOT / 'tools' / 'readme.py'), '--check'],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr


@contextlib.contextmanager
def _cwd(p):
    old = os.getcwd()
    os.chdir(p)
    try:
        yield
    finally:
        os.chdir(old)


def _text(v) -> str:
    return ''.join(v) if isinstance(v, list) else v


@pytest.mark.parametrize('cell_id', ['lpaths', 'lmap'])
def test_computed_tables_are_current(cell_id):
    cells = {
        c['id']: c
        for c in json.loads((ROOT / 'nbs' / 'index.ipynb').read_text())['cells']
    }
    ns = {}
    with _cwd(ROOT / 'nbs'):  # the cells read the notebooks next to them
        for cid in dict.fromkeys(['lpaths', cell_id]):  # lmap uses lpaths' row function
            body, call = ''.join(cells[cid]['source']).rstrip().rsplit('\nMarkdown(', 1)
            exec(body, ns)
        fresh = eval('Markdown(' + call, ns).data
    stored = ''.join(
        _text(o['data']['text/markdown'])
        for o in cells[cell_id]['outputs']
        if 'text/markdown' in o.get('data', {})
    )
    assert fresh == stored, (
        f'the index cell {cell_id} is stale: re-run nbs/index.ipynb (tools/outputs.py) and make readme'
    )
