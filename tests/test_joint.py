"Joint contributions (notebook 03b): treeinterpreter's own cases, additivity on generated models, every family, bad input."

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.datasets import load_diabetes, load_iris
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from deepforest_interp import contributions
from deepforest_interp.joint import (
    interaction_strength,
    joint_contributions,
    plot_interaction_strength,
)


def _as_positions(jc):
    pos = {n: k for k, n in enumerate(jc.feature_names)}
    return [tuple(pos[n] for n in s) for s in jc.sets]


def _against_treeinterpreter(model, X):
    ti = pytest.importorskip('treeinterpreter.treeinterpreter')
    pred, bias, joint = ti.predict(model, X, joint_contribution=True)
    jc = joint_contributions(model, X, max_order=None)
    keys = _as_positions(jc)
    vals = np.asarray(jc.values)
    scale = max(1.0, float(np.abs(pred).max()))
    for i, row in enumerate(joint):
        ours = {k: vals[i, j] for j, k in enumerate(keys)}
        for key in set(row) | set(ours):
            theirs = np.ravel(row.get(key, 0.0))
            mine = np.ravel(ours.get(tuple(sorted(key)), 0.0))
            assert np.abs(theirs - mine).max() <= 1e-12 * scale, (i, key)
    np.testing.assert_allclose(
        jc.bias, np.asarray(bias).reshape(jc.bias.shape), atol=1e-12 * scale
    )
    np.testing.assert_array_equal(jc.remainder, 0.0)


# treeinterpreter's test suite: trees and forests, regressors (diabetes stands in for the removed boston) and iris
@pytest.mark.parametrize(
    'make',
    [
        lambda: DecisionTreeRegressor(random_state=0),
        lambda: RandomForestRegressor(n_estimators=10, random_state=0),
        lambda: ExtraTreesRegressor(n_estimators=10, random_state=0),
    ],
)
def test_treeinterpreter_regression_cases(make):
    X, y = load_diabetes(return_X_y=True)
    model = make().fit(X[:300], y[:300])
    _against_treeinterpreter(model, X[300:])


@pytest.mark.parametrize(
    'make',
    [
        lambda: DecisionTreeClassifier(random_state=0),
        lambda: RandomForestClassifier(n_estimators=10, random_state=0),
    ],
)
def test_treeinterpreter_classification_cases(make):
    X, y = load_iris(return_X_y=True)
    idx = np.random.default_rng(0).permutation(len(y))
    model = make().fit(X[idx[:100]], y[idx[:100]])
    _against_treeinterpreter(model, X[idx[100:]])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 150),
    K=st.integers(1, 6),
    depth=st.sampled_from([1, 2, 4, None]),
    trees=st.integers(1, 8),
    order=st.sampled_from([1, 2, 3, None]),
    classify=st.booleans(),
    missing=st.booleans(),
)
def test_additive_on_generated_forests(
    seed, n, K, depth, trees, order, classify, missing
):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K))
    y = X[:, 0] * X[:, -1] + rng.normal(size=n)
    if missing:
        X[rng.uniform(size=X.shape) < 0.1] = np.nan
    if classify:
        y = np.where(y > 0, 'a', np.where(y > -1, 'b', 'c'))
        model = RandomForestClassifier(trees, max_depth=depth, random_state=seed)
    else:
        model = RandomForestRegressor(trees, max_depth=depth, random_state=seed)
    model.fit(X, y)
    jc = joint_contributions(model, X, max_order=order)
    out = model.predict_proba(X) if classify else model.predict(X)
    scale = max(1.0, float(np.abs(out).max()))
    assert np.abs(jc.output - out).max() <= 1e-9 * scale
    plain = contributions(model, X)
    assert (
        np.abs(jc.values.sum(1) + jc.remainder - plain.values.sum(1)).max()
        <= 1e-9 * scale
    )
    assert all(len(s) <= (order or K) for s in jc.sets)
    assert np.isfinite(jc.values).all() and np.isfinite(jc.remainder).all()
    if order is None:
        np.testing.assert_array_equal(jc.remainder, 0.0)


def test_boosters_and_names():
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(300, 4)), columns=['a', 'b', 'c', 'd'])
    y = X.a * X.b + X.c
    hgb = HistGradientBoostingRegressor(max_iter=30).fit(X, y)
    jc = joint_contributions(hgb, X)
    np.testing.assert_allclose(jc.output, hgb.predict(X), atol=1e-9)
    assert all(isinstance(n, str) for s in jc.sets for n in s)
    gb = GradientBoostingClassifier(n_estimators=20).fit(X, y > 0)
    jg = joint_contributions(gb, X)
    assert jg.values.shape[-1] == 1 and jg.output_names == [True]
    np.testing.assert_allclose(jg.output[:, 0], gb.decision_function(X), atol=1e-9)
    s = interaction_strength(gb, X)
    assert 'std_trees' not in s and 'boosting' in s.attrs['spread']


def test_strength_plot_and_bad_input():
    import matplotlib

    matplotlib.use('Agg')
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, size=(400, 3))
    rf = RandomForestRegressor(30, min_samples_leaf=5, random_state=0).fit(
        X, X[:, 0] * X[:, 1]
    )
    s = interaction_strength(rf, X)
    assert s.index[0] == ('x0', 'x1') and (s.std_trees >= 0).all()
    ax = plot_interaction_strength(s, top=2)
    assert len(ax.patches) == 2
    with pytest.raises(ValueError, match='max_order'):
        joint_contributions(rf, X, max_order=0)
    with pytest.raises(TypeError, match='max_order'):
        joint_contributions(rf, X, max_order=1.5)
    with pytest.raises(ValueError, match='order'):
        interaction_strength(rf, X, order=0)
    with pytest.raises(ValueError, match='features'):
        joint_contributions(rf, X[:, :2])
    with pytest.raises(TypeError, match='strength'):
        plot_interaction_strength(X)


def test_sparse_blocks_match_dense(monkeypatch):
    import deepforest_interp.joint as joint

    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 6))
    rf = RandomForestClassifier(20, random_state=0).fit(
        X, (X[:, 0] * X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    )
    dense = joint_contributions(rf, X, max_order=None)
    monkeypatch.setattr(joint, 'JOINT_DENSE_BYTES', 8 * 3 * 40)
    sparse = joint_contributions(rf, X, max_order=None)
    assert dense.dense and not sparse.dense
    np.testing.assert_allclose(sparse.output, rf.predict_proba(X), atol=1e-12)
    for j in (0, len(dense.sets) // 2, len(dense.sets) - 1):
        np.testing.assert_allclose(sparse.term(j), dense.term(j), atol=1e-15)


def test_strength_of_an_order_no_path_reaches():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 3))
    rf = RandomForestRegressor(5, max_depth=2, random_state=0).fit(X, X[:, 0])
    with pytest.raises(ValueError, match='order=3: no path'):
        interaction_strength(rf, X, order=3)


@pytest.mark.parametrize('lib', ['xgboost', 'lightgbm'])
def test_category_boosters_in_their_own_categories(lib):
    mod = pytest.importorskip(lib)
    rng = np.random.default_rng(5)
    n = 400
    X = pd.DataFrame(
        {
            'a': rng.normal(size=n),
            'colour': pd.Categorical(rng.choice(['red', 'green', 'blue'], n)),
            'b': rng.normal(size=n),
        }
    )
    y = X.a * (X.colour == 'green') + 0.3 * X.b
    if lib == 'xgboost':
        m = mod.XGBRegressor(
            n_estimators=20, max_depth=3, enable_categorical=True, tree_method='hist'
        )
    else:
        m = mod.LGBMRegressor(n_estimators=20, verbose=-1, min_child_samples=5)
    m.fit(X, y)
    jc = joint_contributions(m, X)
    scale = max(1.0, float(np.abs(m.predict(X)).max()))
    tol = 1e-5 if lib == 'xgboost' else 1e-9  # XGBoost's float32 leaves
    assert np.abs(jc.output - m.predict(X)).max() <= tol * scale
    # the category column takes part in sets under its own name (its splits are category sets)
    assert ('a', 'colour') in jc.terms and np.abs(jc.terms[('a', 'colour')]).max() > 0
