"""Code style: ruff (ruff.toml) formats and lints the notebooks, tools/, tests/ and bench/; docstrings are one literal.

`make format` applies the style (ruff format, ruff check --fix, nbdev_export);
`make lint` checks it.
"""

import ast, io, json, shutil, subprocess, sys, tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_DEFS = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _docstring_exprs(tree) -> list:
    "The docstring expression of every module, class and function that has one."
    return [
        n.body[0]
        for n in ast.walk(tree)
        if isinstance(n, _DEFS)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
        and isinstance(n.body[0].value.value, str)
    ]


def _ruff() -> str:
    exe = Path(sys.executable).with_name('ruff')
    found = str(exe) if exe.exists() else shutil.which('ruff')
    assert found, (
        'ruff is not installed: it is in settings.ini dev_requirements (make install)'
    )
    return found


def _run(*args, cwd=ROOT):
    return subprocess.run([_ruff(), *args], cwd=cwd, capture_output=True, text=True)


def test_ruff_format_clean():
    r = _run('format', '--check', '.')
    assert r.returncode == 0, (
        'run `make format` (or `ruff format .`):\n'
        + r.stdout[-3000:]
        + r.stderr[-2000:]
    )


def test_ruff_check_clean():
    r = _run('check', '--output-format', 'concise', '.')
    assert r.returncode == 0, (
        'run `ruff check --fix .` and fix the rest by hand:\n' + r.stdout[-3000:]
    )


def test_every_notebook_is_formatted_as_python():
    "Ruff skips, silently, a notebook whose metadata names no Python kernel: every notebook must name one."
    nbs = sorted((ROOT / 'nbs').glob('*.ipynb'))
    assert len(nbs) >= 20
    bad = [
        p.name
        for p in nbs
        if json.loads(p.read_text(encoding='utf-8'))['metadata']
        .get('kernelspec', {})
        .get('language')
        != 'python'
    ]
    assert not bad, (
        f'notebooks without kernelspec language python (ruff would skip them): {bad}'
    )


def _nb(cells: list) -> dict:
    return {
        'cells': [
            {
                'cell_type': 'code',
                'execution_count': None,
                'id': f'c{i}',
                'metadata': {},
                'outputs': [],
                'source': s,
            }
            for i, s in enumerate(cells)
        ]
        + [
            {
                'cell_type': 'markdown',
                'id': 'md',
                'metadata': {},
                'source': '$$ a  =  b $$\n```python\nx=1\n```',
            }
        ],
        'metadata': {
            'kernelspec': {
                'display_name': 'python3',
                'language': 'python',
                'name': 'python3',
            }
        },
        'nbformat': 4,
        'nbformat_minor': 5,
    }


def test_ruff_keeps_nbdev_directives(tmp_path):
    "With the project's config, ruff formats the code of a cell but leaves `#|` directives, magics and markdown alone."
    cells = [
        '#| default_exp core',
        '#| export\nimport numpy as np\ndef f(x): return x',
        '#|export\nx=1',
        '#| exporti\ny  =  2',
        '#| eval: false\nz=3',
        '#| hide\n#| notest\nfrom fastcore.test import *',
        '%timeit f(1)',
        '!ls -la',
    ]
    p = tmp_path / 'nbs' / '00_x.ipynb'
    p.parent.mkdir()
    p.write_text(json.dumps(_nb(cells), indent=1))
    shutil.copy(ROOT / 'ruff.toml', tmp_path / 'ruff.toml')
    assert (
        _run('format', '--check', str(p), cwd=tmp_path).returncode == 1
    )  # it does see the notebook
    r = _run('format', str(p), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    nb = json.loads(p.read_text())
    got = [''.join(c['source']) for c in nb['cells']]
    assert got[1] == '#| export\nimport numpy as np\n\n\ndef f(x):\n    return x'
    assert (
        got[2] == '#|export\nx = 1'
        and got[3] == '#| exporti\ny = 2'
        and got[4] == '#| eval: false\nz = 3'
    )
    assert got[0] == cells[0] and got[5] == cells[5] and got[6:8] == cells[6:8]
    assert got[-1] == nb['cells'][-1]['source'] == '$$ a  =  b $$\n```python\nx=1\n```'


def split_docstrings(src: str) -> list:
    "Line numbers of docstrings written as an implicit concatenation of literals (parenthesised or not)."
    out = []
    for d in _docstring_exprs(ast.parse(src)):
        seg = ast.get_source_segment(src, d)
        toks = [
            t
            for t in tokenize.generate_tokens(io.StringIO(seg).readline)
            if t.type == tokenize.STRING
        ]
        if len(toks) > 1 or seg.startswith('('):
            out.append(d.lineno)
    return out


def test_no_split_docstrings_in_the_package():
    mods = sorted((ROOT / 'deepforest_interp').glob('*.py'))
    assert len(mods) >= 15
    bad = [
        f'{p.name}:{n}'
        for p in mods
        for n in split_docstrings(p.read_text(encoding='utf-8'))
    ]
    assert not bad, (
        'docstrings split into several literals (run `make format`): ' + ', '.join(bad)
    )


def test_split_docstring_check_can_fail():
    src = 'def f(x):\n    ("Return `X` unchanged, "\n     "after a check.")\n    return x\n\nclass A:\n    "One."\n'
    assert split_docstrings(src) == [2]
    assert split_docstrings('def g():\n    ("One literal.")\n') == [2]
    assert (
        split_docstrings('def h():\n    "One literal."\n    x = ("a "\n         "b")\n')
        == []
    )


def _without_nbdev_scaffolding(src: str) -> list:
    "Non-blank lines of a generated module without its `__all__` (written by nbdev, not a cell)."
    tree = ast.parse(src)
    drop = set()
    for n in tree.body:
        if isinstance(n, ast.Assign) and any(
            getattr(t, 'id', '') == '__all__' for t in n.targets
        ):
            drop |= set(range(n.lineno, n.end_lineno + 1))
    return [l for i, l in enumerate(src.split('\n'), 1) if i not in drop and l.strip()]


MODULES = sorted(
    p.name
    for p in (ROOT / 'deepforest_interp').glob('*.py')
    if not p.name.startswith('_')
)


@pytest.mark.parametrize('mod', MODULES)
def test_generated_modules_are_formatted(mod):
    """The package is excluded from ruff (nbdev writes it), but its code is the formatted cells: ruff changes
    nothing in it except nbdev's own layout (`__all__`, one blank line between cells)."""
    src = (ROOT / 'deepforest_interp' / mod).read_text(encoding='utf-8')
    r = subprocess.run(
        [
            _ruff(),
            'format',
            '--config',
            str(ROOT / 'ruff.toml'),
            '--stdin-filename',
            f'x_{mod}',
            '-',
        ],
        input=src,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert _without_nbdev_scaffolding(r.stdout) == _without_nbdev_scaffolding(src), (
        f'deepforest_interp/{mod} is not what ruff makes of it: run `make format`'
    )


def test_stored_outputs_hold_no_machine_paths():
    "Stored outputs never show a machine path (a kernel's temp file, a checkout or a virtualenv): they are not reproducible."
    import json
    import re

    bad = re.compile(r'/tmp/ipykernel_|/work/|/home/|/root/|site-packages/')
    found = []
    for p in sorted((Path(__file__).resolve().parents[1] / 'nbs').glob('*.ipynb')):
        for c in json.loads(p.read_text())['cells']:
            for o in c.get('outputs', []):
                text = ''.join(o.get('text', '')) + ''.join(
                    ''.join(v) if isinstance(v, list) else str(v)
                    for k, v in o.get('data', {}).items()
                    if k.startswith('text/')
                )
                if bad.search(text):
                    found.append(f'{p.name} cell {c.get("id")}')
    assert not found, found
