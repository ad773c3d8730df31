"Identities and external oracles for tree feature contributions (seed 000 Eq. 2-6)."

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from deepforest_interp.tree_contributions import contributions, contributions_reference
from deepforest_interp.adapters import model_output

shap = pytest.importorskip('shap')
from treeinterpreter import treeinterpreter as ti

HSET = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def forests(draw, classifier=True):
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n, K = draw(st.integers(20, 120)), draw(st.integers(1, 6))
    X = rng.normal(size=(n, K)).round(
        draw(st.sampled_from([1, 3]))
    )  # rounding creates ties
    kind = draw(st.sampled_from(['rf', 'et', 'dt']))
    params = dict(
        max_depth=draw(st.sampled_from([None, 1, 2, 4, 8])),
        random_state=seed,
        max_features=draw(st.sampled_from([None, 'sqrt', 0.5])),
    )
    if kind != 'dt':
        params.update(
            n_estimators=draw(st.integers(1, 12)), bootstrap=draw(st.booleans())
        )
    if classifier:
        C = draw(st.integers(2, 5))
        y = rng.integers(0, C, n)
        y[:C] = np.arange(C)
        cls = {
            'rf': RandomForestClassifier,
            'et': ExtraTreesClassifier,
            'dt': DecisionTreeClassifier,
        }[kind]
    else:
        y = X[:, 0] * rng.normal() + rng.normal(size=n)
        cls = {
            'rf': RandomForestRegressor,
            'et': ExtraTreesRegressor,
            'dt': DecisionTreeRegressor,
        }[kind]
    return cls(**params).fit(X, y), X


def _shap_saabas(model, X, C):
    sv = np.asarray(shap.TreeExplainer(model).shap_values(X, approximate=True))
    if C and sv.shape != (X.shape[0], X.shape[1], C):
        sv = np.moveaxis(sv, 0, -1)
    return sv


@HSET
@given(forests(classifier=True))
def test_classifier_identity_and_oracles(mX):
    m, X = mX
    e = contributions(m, X)
    np.testing.assert_allclose(e.output, m.predict_proba(X), atol=1e-9)
    np.testing.assert_allclose(
        e.values, contributions_reference(m, X).values, atol=1e-9
    )
    np.testing.assert_allclose(e.values, _shap_saabas(m, X, len(m.classes_)), atol=1e-9)
    _, bias, contrib = ti.predict(m, X)
    np.testing.assert_allclose(e.values, contrib, atol=1e-9)
    np.testing.assert_allclose(e.bias, bias, atol=1e-9)


@HSET
@given(forests(classifier=False))
def test_regressor_identity_and_shap(mX):
    m, X = mX
    e = contributions(m, X)
    np.testing.assert_allclose(e.output, m.predict(X), atol=1e-9)
    np.testing.assert_allclose(
        e.values, contributions_reference(m, X).values, atol=1e-9
    )
    np.testing.assert_allclose(e.values, _shap_saabas(m, X, None), atol=1e-9)


@pytest.mark.parametrize('cls', [GradientBoostingClassifier, GradientBoostingRegressor])
@pytest.mark.parametrize('n_classes', [2, 3])
def test_boosting_raw_scores(cls, n_classes):
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(150, 4))
    y = (
        rng.integers(0, n_classes, 150)
        if cls is GradientBoostingClassifier
        else X[:, 0] + rng.normal(size=150)
    )
    m = cls(n_estimators=15, max_depth=3, random_state=0).fit(X, y)
    e = contributions(m, X)
    np.testing.assert_allclose(
        e.output, np.asarray(model_output(m, X)).reshape(e.output.shape), atol=1e-9
    )
    np.testing.assert_allclose(
        e.values, contributions_reference(m, X).values, atol=1e-9
    )
    if (
        cls is GradientBoostingClassifier
    ):  # every classifier is 3-D with output_names; binary: one log-odds column
        assert e.values.shape == (150, 4, 1 if n_classes == 2 else 3)
        assert e.output_names == (
            [m.classes_[1]] if n_classes == 2 else list(m.classes_)
        )
    else:
        assert e.values.shape == (150, 4) and e.output_names is None


def test_fixed_case_stump():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0.0, 0.0, 1.0, 3.0])
    m = DecisionTreeRegressor(max_depth=1).fit(
        X, y
    )  # best split at 2.5 (SSE 2/3 vs 2 at 1.5): means 1/3 and 3, root 1
    e = contributions(m, X)
    np.testing.assert_allclose(e.bias, 1.0)
    np.testing.assert_allclose(e.values[:, 0], [-2 / 3, -2 / 3, -2 / 3, 2])


def test_row_weights_oob_like():
    "The walker with row weights equals a per-tree masked sum."
    from deepforest_interp.nodes import read_trees
    from deepforest_interp.walkers import walk

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = X[:, 0] + rng.normal(size=80)
    m = RandomForestRegressor(n_estimators=7, random_state=0).fit(X, y)
    W = rng.uniform(size=(7, 80))
    g = walk(read_trees(m.estimators_, tree_weight=np.full(7, 1 / 7)), X, row_weights=W)
    ref = (
        sum(
            W[t][:, None] * contributions(tr, X, check_additivity=False).values
            for t, tr in enumerate(m.estimators_)
        )
        / 7
    )
    np.testing.assert_allclose(g[..., 0], ref, atol=1e-12)


def test_walk_lanes_zero_weights_nan_stumps_and_threads():
    "The two-lane walk: rows and trees of weight 0 skipped, NaN routed, single-node trees, any row count; same bits on 1 or 2 threads."
    from deepforest_interp.adapters import node_table
    from deepforest_interp.walkers import walk

    rng = np.random.default_rng(3)
    X = rng.normal(size=(301, 4))
    X[rng.random(X.shape) < 0.2] = np.nan
    y = np.nan_to_num(X[:, 0]) + rng.normal(size=301)
    for m in [
        RandomForestRegressor(n_estimators=6, max_depth=5, random_state=0).fit(X, y),
        RandomForestRegressor(n_estimators=3, min_samples_leaf=200, random_state=0).fit(
            X, y
        ),
    ]:  # single-node trees
        M = len(m.estimators_)
        flat = node_table(m)
        W = np.where(rng.random((M, 301)) < 0.6, 0.0, rng.uniform(size=(M, 301)))
        tw = np.r_[0.0, np.ones(M - 1)]
        g1 = walk(flat, X, row_weights=W, tree_weights=tw, n_jobs=1)
        g2 = walk(flat, X, row_weights=W, tree_weights=tw, n_jobs=2)
        np.testing.assert_array_equal(g1, g2)
        ref = sum(
            tw[t] * W[t][:, None] * contributions_reference(tr, X).values
            for t, tr in enumerate(m.estimators_)
        )
        np.testing.assert_allclose(g1[..., 0], ref, atol=1e-12)


def test_no_nan_and_chunk_independence():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(1000, 5))
    y = rng.integers(0, 3, 1000)
    m = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    a = contributions(m, X).values
    b = np.concatenate(
        [contributions(m, X[i : i + 97]).values for i in range(0, 1000, 97)]
    )
    assert np.isfinite(a).all()
    np.testing.assert_array_equal(a, b)


@given(
    seed=st.integers(0, 10_000),
    frac=st.sampled_from([0.05, 0.3, 0.8]),
    classifier=st.booleans(),
    kind=st.sampled_from(['rf', 'et', 'dt']),
    train_nan=st.booleans(),
)
@HSET
def test_missing_values_routed_as_predict(seed, frac, classifier, kind, train_nan):
    "NaN goes where the tree sends it (missing_go_to_left), so bias + values = the model output on rows with NaN."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(90, 4))
    y = (
        (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)
        if classifier
        else X[:, 0] + rng.normal(size=90)
    )
    Xm = X.copy()
    Xm[rng.random(X.shape) < frac] = np.nan
    cls = {
        ('rf', True): RandomForestClassifier,
        ('et', True): ExtraTreesClassifier,
        ('dt', True): DecisionTreeClassifier,
        ('rf', False): RandomForestRegressor,
        ('et', False): ExtraTreesRegressor,
        ('dt', False): DecisionTreeRegressor,
    }[kind, classifier]
    m = cls(random_state=seed, **({} if kind == 'dt' else {'n_estimators': 5})).fit(
        Xm if train_nan else X, y
    )
    e = contributions(m, Xm)
    assert np.isfinite(e.values).all()
    np.testing.assert_allclose(e.output, model_output(m, Xm), atol=1e-9)
    np.testing.assert_allclose(
        e.values, contributions_reference(m, Xm).values, atol=1e-9
    )


def test_nan_refused_where_the_model_cannot_route_it():
    X = np.random.default_rng(0).normal(size=(50, 3))
    X[0, 0] = np.nan
    gb = GradientBoostingRegressor(n_estimators=3).fit(
        np.nan_to_num(X), np.arange(50.0)
    )
    with pytest.raises(ValueError, match='cannot route missing values'):
        contributions(gb, X)


def test_node_table_cache():
    "node_table caches per fitted model, is read again after a refit or warm-start growth, and is read-only."
    from deepforest_interp.nodes import read_trees
    from deepforest_interp.adapters import node_table, clear_node_tables, ensemble_trees

    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    y = X[:, 0] + rng.normal(size=80)
    rf = RandomForestRegressor(5, random_state=0, warm_start=True).fit(X, y)
    a = node_table(rf)
    assert node_table(rf) is a
    for k in ('delta', 'value', 'left', 'parent', 'depth', 'threshold32'):
        with pytest.raises(ValueError):
            getattr(a, k)[0] = 1
    rf.set_params(n_estimators=8).fit(X, y)  # warm start: 3 trees appended in place
    b = node_table(rf)
    assert b is not a and b.n_trees == 8
    np.testing.assert_allclose(contributions(rf, X).output, rf.predict(X), atol=1e-12)
    rf2 = RandomForestRegressor(5, random_state=1).fit(X, y)
    c = node_table(rf2)
    rf2.fit(X, -y)  # refit: new trees, the cache must not answer
    assert node_table(rf2) is not c
    np.testing.assert_allclose(contributions(rf2, X).output, rf2.predict(X), atol=1e-12)
    fresh = read_trees(ensemble_trees(rf2).trees, tree_weight=np.full(5, 0.2))
    for k in ['roots', 'left', 'right', 'feature', 'threshold', 'missing_left']:
        np.testing.assert_array_equal(getattr(fresh, k), getattr(node_table(rf2), k))
    for k in ['delta', 'root_value', 'tree_weight']:
        np.testing.assert_array_equal(getattr(fresh, k), getattr(node_table(rf2), k))
    old = node_table(rf2)
    clear_node_tables()
    assert node_table(rf2) is not old
    assert node_table(rf2, cache=False) is node_table(rf2)  # a cached one is returned
    rf3 = RandomForestRegressor(2, random_state=0).fit(X, y)
    assert node_table(rf3, cache=False) is not node_table(rf3, cache=False)


def test_walk_checks_before_the_kernel():
    "The public walker validates shapes and finiteness, so no input reaches numba unchecked."
    from deepforest_interp.adapters import node_table
    from deepforest_interp.walkers import walk, walk_dot

    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 4))
    y = X[:, 0]
    flat = node_table(RandomForestRegressor(3, random_state=0).fit(X, y))
    X32 = X.astype(np.float32)
    for bad, kw, msg in [
        (X32[:, :2], {}, 'shape'),
        (X32[0], {}, 'shape'),
        (X32, dict(row_weights=np.ones((3, 5))), 'row_weights'),
        (X32, dict(tree_weights=np.ones(2)), 'tree_weights'),
        (X32, dict(tree_weights=np.r_[1, np.nan, 1]), 'finite'),
        (X32, dict(table=np.ones(3)), 'one row per node'),
        (X32, dict(table=np.full(flat.n_nodes, np.inf)), 'finite'),
        (X32, dict(distance=np.ones(3)), 'distance'),
        (X32, dict(dtype=np.int64), 'dtype'),
    ]:
        with pytest.raises(ValueError, match=msg):
            walk(flat, bad, **kw)
    with pytest.raises(TypeError, match='NodeTable'):
        walk('flat', X32)
    with pytest.raises(ValueError, match='row_weights'):
        walk_dot(flat, X32, np.ones((40, 1)), np.ones((2, 40)))
    with pytest.raises(ValueError, match='Y must have shape'):
        walk_dot(flat, X32, np.ones((40, 2)), np.ones(40))


def test_sklearn_gradient_boosting_is_labelled_log_odds():
    import deepforest_interp as dfi

    "scikit-learn's GradientBoostingClassifier sums raw scores: its explanation says log-odds, not probability."
    from sklearn.ensemble import GradientBoostingClassifier

    X, y = dfi.load_breast_cancer()
    m = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X, y)
    e = dfi.contributions(m, X.iloc[:5])
    assert e.output_space == 'raw score (log-odds)'
    np.testing.assert_allclose(
        e.output[:, 0], m.decision_function(X.iloc[:5]), rtol=1e-9
    )
    from deepforest_interp.tree_contributions import describe

    assert 'log-odds' in describe(e)['value_label']
