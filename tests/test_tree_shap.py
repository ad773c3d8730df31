"Exact TreeSHAP (notebook 02b): brute force on hypothesis-generated trees (missing values, categories, repeated features), the Shapley axioms, the libraries' own TreeSHAP, Pipelines' raw columns, in-place edits, bad input."

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.ensemble import (
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from deepforest_interp import contributions, shapley_interactions, shapley_values
from deepforest_interp.adapters import node_table
from deepforest_interp.tree_shap import (
    _prepare,
    interventional_value,
    path_dependent_value,
    shapley_brute,
)

HSET = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _interaction_brute(value, K):
    "The Shapley interaction index by enumeration, main effects on the diagonal."
    fact = [math.factorial(k) for k in range(K + 1)]
    v = {S: value(S) for k in range(K + 1) for S in itertools.combinations(range(K), k)}
    out = np.zeros((K, K) + np.shape(v[()]))
    for i, j in itertools.permutations(range(K), 2):
        rest = [k for k in range(K) if k not in (i, j)]
        for k in range(K - 1):
            for S in itertools.combinations(rest, k):
                w = fact[k] * fact[K - k - 2] / fact[K - 1]
                u = lambda A: v[tuple(sorted(S + A))]
                out[i, j] += 0.5 * w * (u((i, j)) - u((i,)) - u((j,)) + u(()))
    phi = shapley_brute(value, K)
    for i in range(K):
        out[i, i] = phi[i] - out[i].sum(0) + out[i, i]
    return out


@st.composite
def models(draw):
    "A small fitted model: a tree, a forest or HGB with a category column; NaN in X where the family routes it."
    K = draw(st.integers(2, 6))
    n = draw(st.integers(40, 160))
    seed = draw(st.integers(0, 10_000))
    kind = draw(st.sampled_from(['tree', 'forest', 'classifier', 'hgb']))
    depth = draw(st.integers(1, 6))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)).round(
        draw(st.sampled_from([0, 1, 3]))
    )  # ties: repeated splits
    y = X[:, 0] * (X[:, 1] > 0) + X[:, -1] + 0.1 * rng.normal(size=n)
    if draw(st.booleans()):
        X[rng.random((n, K)) < 0.15] = np.nan
    if kind == 'tree':
        m = DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(X, y)
    elif kind == 'forest':
        m = RandomForestRegressor(3, max_depth=depth, random_state=seed).fit(X, y)
    elif kind == 'classifier':
        m = RandomForestClassifier(3, max_depth=depth, random_state=seed).fit(
            X, np.digitize(y, [-0.5, 0.5])
        )
    else:
        X = pd.DataFrame(X, columns=[f'f{j}' for j in range(K)])
        X['f0'] = pd.Categorical(
            np.nan_to_num(X['f0'].to_numpy()).round().clip(-2, 2).astype(int)
        )
        m = HistGradientBoostingRegressor(
            max_iter=4,
            max_depth=depth,
            categorical_features='from_dtype',
            random_state=seed,
        ).fit(X, y)
    return m, X


@HSET
@given(models(), st.integers(0, 3))
def test_path_dependent_equals_brute_force(mx, row):
    m, X = mx
    x = X.iloc[[row]] if hasattr(X, 'iloc') else X[[row]]
    e = shapley_values(m, x)
    nt, rows, *_ = _prepare(m, x)
    K = rows.shape[1]
    brute = shapley_brute(lambda S: path_dependent_value(nt, rows[0], S), K)
    vals = e.values.reshape(1, K, -1)[0]
    scale = max(1.0, float(np.abs(brute).max()))
    assert np.abs(vals - brute).max() <= 1e-9 * scale
    # efficiency: v(N) - v(empty) = output - bias
    assert np.allclose(
        vals.sum(0),
        path_dependent_value(nt, rows[0], range(K))
        - path_dependent_value(nt, rows[0], ()),
        atol=1e-9 * scale,
    )


@HSET
@given(models(), st.integers(0, 3))
def test_interventional_equals_brute_force(mx, row):
    m, X = mx
    x = X.iloc[[row]] if hasattr(X, 'iloc') else X[[row]]
    bg = X.iloc[10:16] if hasattr(X, 'iloc') else X[10:16]
    e = shapley_values(m, x, background=bg)
    nt, rows, *_ = _prepare(m, x)
    brows = _prepare(m, bg)[1]
    K = rows.shape[1]
    brute = shapley_brute(lambda S: interventional_value(nt, rows[0], S, brows), K)
    vals = e.values.reshape(1, K, -1)[0]
    assert np.abs(vals - brute).max() <= 1e-9 * max(1.0, float(np.abs(brute).max()))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.integers(0, 3))
def test_interactions_equal_brute_force(mx, row):
    m, X = mx
    x = X.iloc[[row]] if hasattr(X, 'iloc') else X[[row]]
    si = shapley_interactions(m, x)
    nt, rows, *_ = _prepare(m, x)
    K = rows.shape[1]
    brute = _interaction_brute(lambda S: path_dependent_value(nt, rows[0], S), K)
    vals = si.values.reshape((1, K, K, -1))[0]
    assert np.abs(vals - brute.reshape(vals.shape)).max() <= 1e-9 * max(
        1.0, float(np.abs(brute).max())
    )


def test_and_function_symmetry_and_dummy():
    "Lundberg's AND: x0 and x1 play symmetric roles, so at (1, 1) their Shapley values are equal (the path credits them unequally); x2 is never split on: 0."
    X = np.array(
        [[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 25, float
    )
    y = X[:, 0] * X[:, 1]
    m = DecisionTreeRegressor(random_state=0).fit(X, y)
    x = np.array([[1.0, 1.0, 0.0]])
    e = shapley_values(m, x)
    assert abs(e.values[0, 0] - e.values[0, 1]) < 1e-12
    assert e.values[0, 2] == 0.0
    path = contributions(m, x)
    assert abs(path.values[0, 0] - path.values[0, 1]) > 0.1  # the path is not symmetric
    assert abs(e.output[0] - 1.0) < 1e-12


def test_shap_cpp_and_additivity_forest():
    shap = pytest.importorskip('shap')
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 7))
    y = np.digitize(X[:, 0] + X[:, 1] * X[:, 2], [-0.5, 0.5])
    m = RandomForestClassifier(15, random_state=0).fit(X, y)
    e = shapley_values(m, X[:60], n_jobs=2)
    assert np.abs(e.values - shap.TreeExplainer(m).shap_values(X[:60])).max() < 1e-12
    assert np.abs(e.output - m.predict_proba(X[:60])).max() < 1e-12
    si = shapley_interactions(m, X[:10])
    ref = shap.TreeExplainer(m).shap_interaction_values(X[:10])
    assert np.abs(si.values - ref).max() < 1e-12


def test_xgboost_and_lightgbm_own_treeshap():
    xgb = pytest.importorskip('xgboost')
    lgb = pytest.importorskip('lightgbm')
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 6))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = (
        np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1]) * np.nan_to_num(X[:, 2]) > 0
    ).astype(int)
    xm = xgb.XGBClassifier(n_estimators=15, max_depth=5, random_state=0).fit(X, y)
    e = shapley_values(xm, X[:80])
    b = xm.get_booster()
    ref = b.predict(xgb.DMatrix(X[:80]), pred_contribs=True)
    assert np.abs(e.values[..., 0] - ref[:, :-1]).max() < 1e-5
    inter = b.predict(xgb.DMatrix(X[:20]), pred_interactions=True)
    assert (
        np.abs(
            shapley_interactions(xm, X[:20]).values[..., 0] - inter[:, :-1, :-1]
        ).max()
        < 1e-5
    )
    # LightGBM with a category column and zero-as-missing
    Xf = pd.DataFrame(np.nan_to_num(X), columns=[f'c{j}' for j in range(6)])
    Xf['c5'] = pd.Categorical(
        (np.nan_to_num(np.abs(X[:, 5] * 3)) % 7).round().astype(int)
    )
    lm = lgb.LGBMRegressor(
        n_estimators=15,
        num_leaves=12,
        min_child_samples=5,
        zero_as_missing=True,
        verbose=-1,
    )
    lm.fit(Xf, y + Xf['c5'].cat.codes * 0.3)
    e = shapley_values(lm, Xf[:80])
    assert (
        np.abs(e.values - lm.predict(Xf[:80], pred_contrib=True)[:, :-1]).max() < 1e-9
    )


def test_pipeline_raw_columns_are_players():
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.default_rng(3)
    X = pd.DataFrame(
        {
            'a': rng.normal(size=200),
            'b': rng.choice(list('pqrs'), 200),
            'c': rng.normal(size=200),
        }
    )
    y = X.a + (X.b == 'q') * 2 - (X.b == 'r') + X.c * (X.b == 's')
    pipe = make_pipeline(
        make_column_transformer((OneHotEncoder(), ['b']), remainder='passthrough'),
        RandomForestRegressor(5, max_depth=5, random_state=0),
    ).fit(X, y)
    e = shapley_values(pipe, X[:3])
    assert e.feature_names == ['a', 'b', 'c']
    assert list(e.data[0]) == list(X.iloc[0])
    # brute force with the raw columns as players: a coalition knows all of b's dummies or none
    Xt = pipe[:-1].transform(X[:3])
    nt = node_table(pipe[-1])
    groups = {'b': [0, 1, 2, 3], 'a': [4], 'c': [5]}
    cols = [groups[n] for n in e.feature_names]
    for r in range(3):
        v = lambda S: path_dependent_value(nt, Xt[r], [c for s in S for c in cols[s]])
        assert np.abs(e.values[r] - shapley_brute(v, 3)[:, 0]).max() < 1e-12


def test_in_place_edit_is_noticed():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 4))
    m = RandomForestRegressor(5, max_depth=4, random_state=0).fit(X, X[:, 0])
    shapley_values(m, X[:5])
    leaf = np.flatnonzero(m.estimators_[0].tree_.children_left < 0)[0]
    m.estimators_[0].tree_.value[leaf] += 5.0
    e = shapley_values(m, X[:50])
    assert np.abs(e.output - m.predict(X[:50])).max() < 1e-9


def test_contributions_method_and_info():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(100, 3))
    m = RandomForestRegressor(4, random_state=0).fit(X, X[:, 0] * X[:, 1])
    a = contributions(m, X[:10], method='shapley')
    b = shapley_values(m, X[:10])
    assert np.array_equal(a.values, b.values)
    assert a.info['attribution'] == 'shapley'
    assert contributions(m, X[:10]).info.get('attribution', 'path') == 'path'


@pytest.mark.parametrize(
    'kwargs, error, words',
    [
        (dict(background=np.zeros((0, 3))), ValueError, 'background'),
        (dict(background=np.zeros((5, 2))), ValueError, 'background'),
        (
            dict(background=np.zeros((5, 3)), max_background=0),
            ValueError,
            'max_background',
        ),
        (dict(check_additivity='all'), TypeError, 'check_additivity'),
        (dict(level='encoded'), ValueError, 'level'),
        (dict(dtype=np.int64), ValueError, 'dtype'),
        (dict(n_jobs='two'), TypeError, 'n_jobs'),
    ],
)
def test_bad_input(kwargs, error, words):
    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 3))
    m = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, X[:, 0] > 0)
    with pytest.raises(error, match=words):
        shapley_values(m, X[:4], **kwargs)


def test_interactions_bad_input_and_memory():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 3))
    m = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, X[:, 0])
    with pytest.raises(ValueError, match='top'):
        shapley_interactions(m, X, top=0)
    pairs = shapley_interactions(m, X, top=2)
    assert list(pairs.columns) == ['mean_abs', 'mean'] and len(pairs) == 2
    assert all(isinstance(k, tuple) for k in pairs.index)


def test_no_split_model():
    X = np.random.default_rng(8).normal(size=(30, 3))
    m = DecisionTreeRegressor().fit(X, np.ones(30))
    e = shapley_values(m, X[:5])
    assert (e.values == 0).all() and np.allclose(e.bias, 1.0)
    assert (shapley_interactions(m, X[:5]).values == 0).all()
