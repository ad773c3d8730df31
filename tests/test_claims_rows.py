"The stored claims rows of notebooks 11, 12 and 17 (figures/claims_*.json) follow the verdict rule of notebook 09b."

import json
import re
from pathlib import Path

import pytest

from deepforest_interp.experiments import CLAIM_COLUMNS, FEW_RUNS, VERDICTS

FIGURES = Path(__file__).resolve().parents[1] / 'figures'
SLUGS = ['11_mdi_sim', '12_forest_floor', '17_attributions']


def rows(slug):
    return json.loads((FIGURES / f'claims_{slug}.json').read_text(encoding='utf-8'))


def _count_tests(statistic: str) -> int:
    "How many t-tests a statistic reports (paired, one-sided against a threshold, TOST)."
    return sum(
        statistic.count(k) for k in ('paired t-test p', 'one-sided t-test', '(TOST)')
    )


@pytest.mark.parametrize('slug', SLUGS)
def test_rows_are_complete(slug):
    assert rows(slug), f'claims_{slug}.json has no rows'
    for r in rows(slug):
        assert tuple(r) == CLAIM_COLUMNS
        assert r['verdict'].startswith(VERDICTS), r
        if r['verdict'].startswith('not run'):
            assert len(r['verdict']) > len('not run: '), f'no reason given: {r}'


@pytest.mark.parametrize('slug', SLUGS)
def test_ties_state_their_margin(slug):
    for r in rows(slug):
        if '(TOST)' in r['statistic']:
            assert re.search(r'equivalence within ±\d', r['statistic']), r['statistic']


@pytest.mark.parametrize('slug', SLUGS)
def test_few_runs_state_the_detectable_difference(slug):
    for r in rows(slug):
        s, n = r['statistic'], _count_tests(r['statistic'])
        runs = [int(k) for k in re.findall(r'\((\d+) runs\)', s)]
        if n and runs and max(runs) <= FEW_RUNS:
            assert s.count('detects a difference of') == n, s


def test_seed_002_has_its_rows():
    r002 = [r for r in rows('11_mdi_sim') if r['seed'] == '002']
    claims = ' '.join(r['claim'] for r in r002)
    for words in ('impurity reductions', 'FI(1)', 'feature_importances_', 'out-of-bag'):
        assert words in claims, words
    hostel = [r for r in r002 if 'hostel' in r['claim']]
    assert len(hostel) == 1 and hostel[0]['verdict'].startswith(
        'not run: hostel_factors.csv'
    )


def test_views_are_not_counted_as_runs():
    "Notebook 12 averages the views of one forest within the run before a paired test."
    for r in rows('12_forest_floor'):
        if 'in-bag' in r['claim'] or 'n-fold' in r['claim']:
            assert 'averaged within each run' in r['ours'], r['ours']
