"The stored claims rows of notebooks 10, 11, 12 and 17 (figures/claims_*.json) follow the verdict rule of notebook 09b."

import json
import re
from pathlib import Path

import pytest

from deepforest_interp.experiments import CLAIM_COLUMNS, FEW_RUNS, VERDICTS

FIGURES = Path(__file__).resolve().parents[1] / 'figures'
SLUGS = ['10_deep_forest', '11_mdi_sim', '12_forest_floor', '17_attributions']


def rows(slug):
    return json.loads((FIGURES / f'claims_{slug}.json').read_text(encoding='utf-8'))


def _count_tests(statistic: str) -> tuple[int, int]:
    "How many directional t-tests (paired or against a threshold) and how many TOSTs a statistic reports."
    directional = statistic.count('one-sided paired t-test') + statistic.count(
        'one-sided t-test of the mean'
    )
    return directional, statistic.count('(TOST)')


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
    "Every test on at most FEW_RUNS runs states its power: the detectable difference, or TOST's power for a tie."
    for r in rows(slug):
        s = r['statistic']
        directional, tost = _count_tests(s)
        runs = [int(k) for k in re.findall(r'\((\d+) runs\)', s)]
        if runs and max(runs) <= FEW_RUNS:
            assert s.count('detects a difference of') == directional, s
            assert s.count('TOST shows a true tie') <= tost, s
            # the sign test's floor is computed per row, never the old blanket sentence
            assert 'the sign test cannot reach' not in s, s


@pytest.mark.parametrize('slug', SLUGS)
def test_tost_p_is_named(slug):
    for r in rows(slug):
        for text in (r['statistic'], r['verdict']):
            assert not re.search(r'\(TOST\) p = ', text), text


@pytest.mark.parametrize('slug', SLUGS)
def test_identities_are_checks_not_claims(slug):
    "Rows that cannot fail are checks (figures/checks_<slug>.json), not claims."
    for r in rows(slug):
        assert 'decompose' not in r['claim'] or 'exactly' not in r['claim'], r['claim']
        assert 'equals feature_importances_' not in r['claim'], r['claim']
    checks = json.loads((FIGURES / f'checks_{slug}.json').read_text(encoding='utf-8'))
    assert checks and all(c['statistic'] for c in checks)


def test_by_construction_rows_are_marked():
    prior = [r for r in rows('12_forest_floor') if 'moves the prior' in r['claim']]
    assert len(prior) == 1 and prior[0]['verdict'].startswith('by construction')
    ceiling = [r for r in rows('10_deep_forest') if r['claim'].endswith('on pendigits')]
    assert ceiling and ceiling[0]['verdict'].startswith('by construction')
    txt = (FIGURES / 'results.md').read_text(encoding='utf-8')
    assert 'not counted as reproduced' in txt and '## Checks' in txt


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
