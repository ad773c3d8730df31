"""Exercises on every concept page, each with a checker a student calls, an empty answer cell and a folded solution.

Every concept notebook (`nbs/0?[a-z]_*.ipynb` except the 00 plumbing and the experiment scaffolding) ends its exercise
section with a hidden `verify_exercises()` cell: `make test` executes every notebook (tools/nbtest.py), so there every
solution runs through its checker (it must say right) and every checker meets answers that are wrong by construction
(it must refuse them). These tests check, without executing a notebook:

* the structure: at least three exercises per page, numbered 1..n, each with `check_k = Exercise(...)` in a
  `# Checkers` cell above it, an answer cell `answer_k = None` that calls `check_k(answer_k)`, a `# Solution` cell
  (folded on the site) that ends by calling the same checker, and the page's verify cell counting n exercises;
* the stored outputs (concept notebooks are committed executed): each solution printed "Exercise k: right" and each
  answer cell "not answered yet";
* the checkers themselves (`deepforest_interp.exercises`): right answers pass, wrong ones fail, for every kind.
"""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from deepforest_interp.exercises import Exercise, clear_exercises, verify_exercises

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r'(?m)^### Exercise (\d+)\b')


def concept_pages() -> list:
    "Concept notebooks: numbered 01-09 (with a letter), not the experiment scaffolding; new pages are found too."
    return sorted(
        p
        for p in (ROOT / 'nbs').glob('0*.ipynb')
        if re.match(r'0[1-9][a-z]?_', p.name) and 'experiments' not in p.name
    )


def _cells(p: Path) -> list:
    return json.loads(p.read_text(encoding='utf-8'))['cells']


def _src(c) -> str:
    return ''.join(c['source'])


def _text(c) -> str:
    "Everything a code cell showed: streams, plain text and markdown reprs."
    out = []
    for o in c.get('outputs', []):
        if 'text' in o:
            out.append(''.join(o['text']))
        for k in ('text/plain', 'text/markdown'):
            v = o.get('data', {}).get(k)
            if v:
                out.append(''.join(v))
    return '\n'.join(out)


def _exercises(cells: list) -> dict:
    "k -> index of the heading cell of Exercise k."
    found = {}
    for i, c in enumerate(cells):
        if c['cell_type'] == 'markdown':
            for m in HEADING.finditer(_src(c)):
                found[int(m.group(1))] = i
    return found


def test_the_concept_pages_are_found():
    names = [p.stem for p in concept_pages()]
    for stem in [
        '01_datasets',
        '01b_pipelines',
        '02_tree_contributions',
        '06b_df21',
        '09_ssfi',
    ]:
        assert stem in names
    assert not any(n.startswith('00') or 'experiments' in n for n in names)


@pytest.mark.parametrize('page', concept_pages(), ids=lambda p: p.stem)
def test_every_concept_page_has_checked_exercises(page):
    cells = _cells(page)
    ex = _exercises(cells)
    n = len(ex)
    assert n >= 3, f'{page.name}: {n} exercises (at least three)'
    assert sorted(ex) == list(range(1, n + 1)), (
        f'{page.name}: exercises numbered {sorted(ex)}'
    )
    for k, h in ex.items():
        defs = [
            i
            for i, c in enumerate(cells)
            if c['cell_type'] == 'code'
            and re.search(rf'(?m)^check_{k} = Exercise\(', _src(c))
        ]
        assert len(defs) == 1, f'{page.name}: check_{k} defined {len(defs)} times'
        assert _src(cells[defs[0]]).startswith('# Checkers'), (
            f'{page.name}: check_{k} outside a "# Checkers" cell (folded on the site)'
        )
        answer = [
            i
            for i, c in enumerate(cells)
            if c['cell_type'] == 'code'
            and re.search(rf'(?m)^answer_{k} = None\b', _src(c))
        ]
        assert len(answer) == 1, (
            f'{page.name}: exercise {k} has {len(answer)} answer cells'
        )
        a = answer[0]
        assert defs[0] < a and h < a, (
            f'{page.name}: exercise {k}: checker and text come before the answer cell'
        )
        assert f'check_{k}(answer_{k})' in _src(cells[a])
        sol = cells[a + 1]
        body = _src(sol)
        assert sol['cell_type'] == 'code' and body.startswith('# Solution'), (
            f'{page.name}: exercise {k}: the cell after the answer cell must be its folded # Solution'
        )
        assert body.rstrip().split('\n')[-1] == f'check_{k}(answer_{k})', (
            f'{page.name}: the solution of exercise {k} must end by calling check_{k}(answer_{k})'
        )
    verify = [
        c for c in cells if c['cell_type'] == 'code' and 'verify_exercises()' in _src(c)
    ]
    assert len(verify) == 1, f'{page.name}: one verify_exercises() cell'
    vs = _src(verify[0])
    assert f'test_eq(len(verify_exercises()), {n})' in vs
    assert not re.search(r'#\s*\|\s*(notest|slow|eval:\s*false)', vs), (
        f'{page.name}: the verify cell must run in make test'
    )
    assert cells.index(verify[0]) > max(
        i for i, c in enumerate(cells) if _src(c).startswith('# Solution')
    )


@pytest.mark.parametrize('page', concept_pages(), ids=lambda p: p.stem)
def test_stored_outputs_show_every_solution_right(page):
    "The committed run: each solution's checker said right, each empty answer cell 'not answered yet'."
    cells = _cells(page)
    for k in _exercises(cells):
        a = next(
            i
            for i, c in enumerate(cells)
            if c['cell_type'] == 'code'
            and re.search(rf'(?m)^answer_{k} = None\b', _src(c))
        )
        assert f'Exercise {k}: not answered yet' in _text(cells[a]), (
            f'{page.name}: exercise {k}: stored answer cell output (re-store outputs: tools/outputs.py)'
        )
        assert f'Exercise {k}: right' in _text(cells[a + 1]), (
            f'{page.name}: exercise {k}: the stored solution output does not say right'
        )


@pytest.fixture
def fresh():
    clear_exercises()
    yield
    clear_exercises()


def test_checkers_say_right_and_not_yet(fresh):
    cases = [
        (1 / 3, [0.333333333], [0.34, '1/3', None, [1 / 3, 1 / 3]]),
        (
            np.arange(4.0),
            [[0, 1, 2, 3], pd.Series([0, 1, 2, 3.0])],
            [[0, 1, 2], np.arange(1, 5.0)],
        ),
        ({'a', 'b'}, [['b', 'a'], ('a', 'b')], [{'a'}, {'a', 'b', 'c'}, 'ab']),
        (['b', 'a'], [('b', 'a')], [['a', 'b'], ['b']]),
        ('log-odds', [' Log-Odds '], ['probability', 1]),
        (True, [True, np.True_], [False, 1, 'True']),
    ]
    for j, (expected, right, wrong) in enumerate(cases):
        ex = Exercise(f'case {j}', expected, 'a hint')
        for r in right:
            v = ex(r)
            assert v and repr(v) == f'case {j}: right', (expected, r)
        for w in wrong:
            v = ex(w)
            assert not v, (expected, w)
            if w is not None:
                assert repr(v) == f'case {j}: not yet: a hint'
        assert repr(ex(None)).startswith(f'case {j}: not answered yet')
        for w in ex.wrong_answers():  # the generated wrong answers are wrong
            assert not ex(w), (expected, w)
    table = verify_exercises()
    assert len(table) == len(cases) and table['ok'].all()


def test_function_checker_runs_the_answer_on_its_cases(fresh):
    ex = Exercise(
        'f', np.cumsum, 'running total', cases=[(np.arange(5.0),), (np.ones(3),)]
    )
    assert ex(lambda a: np.cumsum(a))
    assert not ex(np.sort)
    # a failing answer is a wrong answer, not an error
    assert not ex(lambda a: a.no_such_attribute)
    assert not ex('np.cumsum')


def test_verify_fails_when_a_solution_is_wrong_or_a_checker_is_lax(fresh):
    Exercise('never solved', 2.0)
    with pytest.raises(AssertionError, match='never solved'):
        verify_exercises()
    clear_exercises()
    lax = Exercise('lax', 1.0, atol=1, wrong=[1.5])
    lax(1.0)
    with pytest.raises(AssertionError, match='lax'):
        verify_exercises()


def test_bad_checker_arguments(fresh):
    with pytest.raises(ValueError, match='expected'):
        Exercise('x', None)
    with pytest.raises(ValueError, match='kind'):
        Exercise('x', 1.0, kind='guess')
    with pytest.raises(ValueError, match='cases'):
        Exercise('x', np.abs)
    with pytest.raises(ValueError, match='finite'):
        Exercise('x', [1.0, np.inf])
    with pytest.raises(TypeError, match='name'):
        Exercise('', 1.0)


@pytest.mark.parametrize(
    'page',
    sorted((ROOT / 'nbs').glob('1[0-9]_experiments_*.ipynb')),
    ids=lambda p: p.stem,
)
def test_every_experiment_page_says_what_to_notice(page):
    "A short 'What to notice' section near the top (right after the title cell): three to five bullets."
    cells = _cells(page)
    at = [
        i
        for i, c in enumerate(cells)
        if c['cell_type'] == 'markdown' and _src(c).startswith('## What to notice')
    ]
    assert at and at[0] <= 2, (
        f'{page.name}: no "## What to notice" section near the top'
    )
    bullets = re.findall(r'(?m)^\* ', _src(cells[at[0]]))
    assert 3 <= len(bullets) <= 5, f'{page.name}: {len(bullets)} bullets'
