"""MDI+ (notebook 03c) against imodels' stored results, the leave-one-out identity on random ridge problems, the
stump identity (MDI = in-sample R² of a feature's stumps) on random trees, and bad input."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sklearn
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeRegressor
from deepforest_interp import mdi_plus
from deepforest_interp.stumps import RIDGE_ALPHAS, fit_ridge_ppm, stump_features

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / 'tests' / 'data' / 'mdi_plus').glob('*.npz'))
FORESTS = {
    'RandomForestRegressor': RandomForestRegressor,
    'RandomForestClassifier': RandomForestClassifier,
    'ExtraTreesRegressor': ExtraTreesRegressor,
}
HSET = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.parametrize('path', FIXTURES, ids=lambda p: p.stem)
def test_equals_imodels(path):
    z = np.load(path)
    info = json.loads(str(z['info']))
    if info['versions']['scikit-learn'] != sklearn.__version__:
        pytest.skip(
            f'fixture made with scikit-learn {info["versions"]["scikit-learn"]}: another version may grow other'
            ' trees (re-run tools/make_mdi_plus_fixtures.py)'
        )
    forest = FORESTS[info['forest']](**info['params']).fit(z['X'], z['y'])
    got = mdi_plus(forest, z['X'], z['y']).to_numpy()
    # fully grown extra-trees without bootstrap: ill-conditioned ridge, determined to ~1e-7 (notebook 03c)
    tol = 1e-6 if info['forest'].startswith('ExtraTrees') else 1e-9
    np.testing.assert_allclose(got, z['importance'], rtol=0, atol=tol)


def test_fixtures_present():
    assert len(FIXTURES) == 5


@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(15, 60), p=st.integers(1, 8))
def test_loo_coefficients_are_refits(seed, n, p):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, p))
    y = Z @ rng.normal(size=p) + rng.normal(size=n)
    beta, loo = fit_ridge_ppm(Z, y, alphas=RIDGE_ALPHAS[::11])
    i = int(rng.integers(n))
    keep = np.arange(n) != i
    from deepforest_interp.stumps import _ridge_gcv_alpha

    a = _ridge_gcv_alpha(Z, y, RIDGE_ALPHAS[::11])
    r = Ridge(alpha=a).fit(Z[keep], y[keep])
    np.testing.assert_allclose(
        loo[i],
        np.r_[r.coef_, r.intercept_],
        rtol=0,
        atol=1e-8 * (1 + np.abs(loo[i]).max()),
    )


@HSET
@given(seed=st.integers(0, 10_000), depth=st.integers(1, 6), K=st.integers(1, 5))
def test_stumps_r2_is_mdi(seed, depth, K):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, K)).round(2)
    y = X[:, 0] ** 2 + rng.normal(size=120)
    t = DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(X, y)
    if t.tree_.node_count == 1:
        return
    psi, on = stump_features(t, X)
    yc = y - y.mean()
    r2 = [
        ((P @ np.linalg.lstsq(P, yc, rcond=None)[0]) ** 2).sum() / (yc**2).sum()
        if P.shape[1]
        else 0.0
        for P in (psi[:, on == k] for k in range(K))
    ]
    want = t.tree_.compute_feature_importances(normalize=False) / t.tree_.impurity[0]
    np.testing.assert_allclose(r2, want, rtol=0, atol=1e-9)


def test_names_std_and_bad_input():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 3)), columns=['a', 'b', 'c'])
    y = X.a + 0.1 * rng.normal(size=80)
    f = RandomForestRegressor(6, random_state=0).fit(X, y)
    s = mdi_plus(f, X, y, return_std=True)
    assert list(s.index) == ['a', 'b', 'c'] and s.idxmax() == 'a'
    assert s.importances.shape == (3, 6) and np.isfinite(s.importances_std).all()
    with pytest.raises(TypeError, match='unsupported model'):
        mdi_plus(GradientBoostingRegressor().fit(X, y), X, y)
    with pytest.raises(ValueError, match='sample_split'):
        mdi_plus(f, X, y, sample_split='oof')
    with pytest.raises(ValueError, match='rescale_mode'):
        mdi_plus(f, X, y, rescale_mode='median')
    with pytest.raises(TypeError, match='return_std must be a bool'):
        mdi_plus(f, X, y, return_std=1)
    with pytest.raises(ValueError, match='missing values'):
        mdi_plus(f, X.assign(a=np.where(X.a > 1, np.nan, X.a)), y)
    with pytest.raises(ValueError, match='bootstrap=True'):
        mdi_plus(ExtraTreesRegressor(3).fit(X, y), X, y, sample_split='oob')
    with pytest.raises(ValueError, match="missing \\['c'\\]"):
        mdi_plus(f, X.iloc[:, :2], y)


def test_threads_progress_and_ridge_classification(capsys):
    "n_jobs over the trees changes nothing; verbose draws a bar; classification='ridge' ranks a plain additive design (issue 45)."
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    rf = RandomForestClassifier(4, max_depth=4, random_state=0).fit(X, y)
    one = mdi_plus(rf, X, y, classification='ridge')
    two = mdi_plus(rf, X, y, classification='ridge', n_jobs=2, verbose=1)
    np.testing.assert_allclose(two, one, rtol=0, atol=1e-12)
    assert 'mdi_plus' in capsys.readouterr().err
    assert set(one.sort_values().index[-2:]) == {'x0', 'x1'}
    with pytest.raises(
        ValueError, match="classification must be 'logistic' or 'ridge'"
    ):
        mdi_plus(rf, X, y, classification='lasso')
