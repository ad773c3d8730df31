"""Bad and edge inputs against the public API (issue 11 §3), table-driven.

Each area of the package keeps its table in `tests/_bad_input_<area>.py`:
* `BAD`: a list of `Bad(id, call, exc, fragment)`: calling `call()` must raise `exc` with `fragment` in the message
  (never an IndexError, AssertionError or a numba error from deep inside);
* `EDGE`: a list of `Edge(id, call, check)`: `call()` must succeed, its result must hold no NaN/inf, and `check(result)`
  (the identity the function promises, e.g. `bias + values.sum(1) == output`) must return True.
"""

import importlib, pathlib, warnings
import numpy as np
import pandas as pd
import pytest
from _bad_input_common import all_finite

AREAS = sorted(
    p.stem
    for p in pathlib.Path(__file__).parent.glob('_bad_input_*.py')
    if p.stem != '_bad_input_common'
)
BAD, EDGE = [], []
for area in AREAS:
    mod = importlib.import_module(area)
    BAD += [pytest.param(c, id=f'{area[11:]}:{c.id}') for c in getattr(mod, 'BAD', [])]
    EDGE += [
        pytest.param(c, id=f'{area[11:]}:{c.id}') for c in getattr(mod, 'EDGE', [])
    ]


@pytest.mark.parametrize('case', BAD)
def test_bad_input_is_answered(case):
    with pytest.raises(case.exc) as info:
        case.call()
    assert case.fragment.lower() in str(info.value).lower(), (
        f'message {str(info.value)!r} lacks {case.fragment!r}'
    )
    assert case.argument is None or case.argument in str(info.value), (
        f'message {str(info.value)!r} does not name the argument {case.argument!r}'
    )
    assert not isinstance(info.value, (IndexError, AssertionError, KeyError)), type(
        info.value
    )


@pytest.mark.parametrize('case', EDGE)
def test_edge_input_is_finite_and_exact(case):
    out = case.call()
    assert all_finite(out), f'non-finite output for {case.id}'
    assert case.check(out), f'identity fails for {case.id}'


# ---- issue 16 §1: no result aliases the caller's input, no returned array feeds a cache -------------------------------
import copy
from hypothesis import assume, given, settings, strategies as st
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from deepforest_interp.tree_contributions import contributions
from deepforest_interp.importance import mdi, mdi_covariance, mdi_oob
from deepforest_interp.forest_floor import oob_contributions, heldout_contributions
from deepforest_interp.single_sample import ssfi
from deepforest_interp.intersection_trees import leaf_rules, grit


def _arrays(out) -> list:
    "Every numpy array reachable in a result (Explanation / RuleSet fields, Series, DataFrames, lists)."
    if isinstance(out, np.ndarray):
        return [out]
    if isinstance(out, (pd.Series, pd.DataFrame)):
        return [out.to_numpy()]
    if isinstance(out, (list, tuple)):
        return [a for o in out for a in _arrays(o)]
    if hasattr(out, '__dataclass_fields__'):
        return [a for f in out.__dataclass_fields__ for a in _arrays(getattr(out, f))]
    return []


def _same(a, b) -> bool:
    A, B = _arrays(a), _arrays(b)
    return (
        len(A) == len(B)
        and all(
            x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
            for x, y in zip(A, B)
        )
        and (not isinstance(a, list) or a == b)
    )


def _quiet(f, *args, **kw):
    "Call f without its warnings (a few never-out-of-bag rows are expected with 6 trees)."
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return f(*args, **kw)


CALLS = {  # name -> (classifier?, call(model, X, y))
    'contributions': (False, lambda m, X, y: contributions(m, X, n_jobs=1)),
    'contributions-clf': (True, lambda m, X, y: contributions(m, X, n_jobs=1)),
    'mdi': (False, lambda m, X, y: mdi(m)),
    'mdi_covariance': (True, lambda m, X, y: mdi_covariance(m, X, y)),
    'mdi_oob': (False, lambda m, X, y: mdi_oob(m, X, y)),
    'oob_contributions': (
        False,
        lambda m, X, y: _quiet(
            oob_contributions, m, X, y, never_oob='all_trees', n_jobs=1
        ),
    ),
    'heldout_contributions': (
        True,
        lambda m, X, y: heldout_contributions(m, X[:7], n_jobs=1),
    ),
    'ssfi': (False, lambda m, X, y: ssfi(m, X, n_jobs=1)),
    'leaf_rules': (True, lambda m, X, y: leaf_rules(m.estimators_[0])),
    'grit': (
        True,
        lambda m, X, y: grit(
            leaf_rules(m.estimators_[0]), n_trees=3, depth=2, random_state=0
        ),
    ),
}


@settings(max_examples=10, deadline=None)
@given(
    name=st.sampled_from(sorted(CALLS)),
    seed=st.integers(0, 2**16),
    n=st.integers(20, 60),
)
def test_mutation_cannot_change_a_later_result(name, seed, n):
    "Mutating the caller's X / y after a call, or the arrays a call returned, changes neither that result nor the next call's."
    clf, call = CALLS[name]
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] > 0).astype(int) if clf else X[:, 0] + 0.3 * rng.normal(size=n)
    model = (RandomForestClassifier if clf else RandomForestRegressor)(
        n_estimators=6, max_depth=4, random_state=seed
    ).fit(X, y)
    X0, y0 = X.copy(), y.copy()
    try:
        first = call(model, X, y)
    except ValueError:
        assume(False)  # e.g. a tree with no out-of-bag row: refused, not our case
    kept = copy.deepcopy(first)
    X[:] = 1e6
    y[:] = y[::-1]  # the caller reuses its buffers
    assert _same(first, kept), f"{name}: the result aliases the caller's X or y"
    for a in _arrays(first):  # the caller scribbles on the result
        if a.flags.writeable and a.dtype.kind in 'biuf':
            a[...] = 7
    assert _same(call(model, X0, y0), kept), (
        f'{name}: a later call saw the mutated result (poisoned cache)'
    )
