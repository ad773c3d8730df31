"Deep-forest explanations of new rows at the cost of a prediction: the packed tables give the engine's numbers."

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.ensemble import (
    ExtraTreesRegressor,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
)

import deepforest_interp.calibration as cal
from deepforest_interp.adapters import node_table
from deepforest_interp.calibration import (
    deep_forest_contributions,
    prepare_explanations,
)
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.estimation import _CACHES, _layer_input_of, _model_cache
from deepforest_interp.walkers import walk_leaves

HSET = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _data(seed, n, K, C, nan):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)).round(2)
    y = (
        (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 0] > 1) * (C > 2)
        if C
        else X[:, 0] * 2 + np.sin(X[:, 1])
    )
    if C:
        y[: 3 * C] = np.repeat(np.arange(C), 3)
    Xn = rng.normal(size=(25, K))
    if nan:  # forests route missing values (scikit-learn >= 1.4)
        X[rng.uniform(size=X.shape) < 0.1] = np.nan
        Xn[rng.uniform(size=Xn.shape) < 0.1] = np.nan
    w = rng.uniform(0.5, 2, n) if seed % 2 else None
    return X, y, Xn, w


def _slow(m, Xn, **kw):
    "The engine without kept tables: every table rebuilt per call."
    old = cal.TABLE_CACHE_BYTES
    cal.TABLE_CACHE_BYTES = 0
    _CACHES.pop(m, None)
    try:
        return deep_forest_contributions(m, Xn, **kw)
    finally:
        cal.TABLE_CACHE_BYTES = old
        _CACHES.pop(m, None)


@HSET
@given(
    seed=st.integers(0, 9999),
    C=st.sampled_from([0, 2, 3]),
    calibration=st.sampled_from(['partial', 'additive', 'multiplicative', None]),
    nan=st.booleans(),
    scheme=st.sampled_from(['per_layer', 'fixed']),
    last=st.booleans(),
)
def test_packed_tables_equal_the_engine(seed, C, calibration, nan, scheme, last):
    X, y, Xn, w = _data(seed, 90, 4, C, nan)
    Est = CascadeForestClassifier if C else CascadeForestRegressor
    m = Est(
        n_forests=2,
        n_estimators=5,
        max_depth=4,
        max_layers=3,
        n_tolerant_rounds=3,
        fold_scheme=scheme,
        random_state=seed,
    ).fit(X, y, sample_weight=w)
    layer = None if last else 0
    L = m.n_layers_ - 1 if last else 0
    kw = dict(calibration=calibration, layer=layer)
    fast = deep_forest_contributions(m, Xn, **kw)
    st_ = _model_cache(m, m.layers_)[('new rows', cal._method(calibration), L)]
    # the packed forward pass: layer L's inputs bit for bit
    np.testing.assert_array_equal(
        _layer_input_of(m, Xn, st_), m.layer_inputs(Xn, L)[-1]
    )
    slow = _slow(m, Xn, **kw)
    scale = max(1.0, np.abs(slow.values).max())
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(fast.bias, slow.bias, rtol=0, atol=1e-12 * scale)
    out = m.predict_proba(Xn, layer=layer) if C else m.predict(Xn, layer=layer)
    if (
        calibration is not None or L == 0
    ):  # estimation alone is not additive past layer 0
        np.testing.assert_allclose(fast.output, out, rtol=0, atol=1e-9)
    assert np.isfinite(fast.values).all()


def test_fit_prepares_and_pickles_without_the_cache():
    X, y, Xn, _ = _data(3, 120, 5, 3, False)
    kw = dict(n_estimators=6, max_depth=5, max_layers=3, n_tolerant_rounds=3)
    m = CascadeForestClassifier(random_state=0, **kw).fit(X, y)
    keys = {k for k in _CACHES[m][1] if isinstance(k, tuple)}
    assert ('new rows', cal._method('partial'), m.n_layers_ - 1) in keys
    e = deep_forest_contributions(m, Xn)
    assert {k for k in _CACHES[m][1] if isinstance(k, tuple)} == keys  # nothing added
    lazy = CascadeForestClassifier(random_state=0, prepare_explanations=False, **kw)
    lazy.fit(X, y)
    assert _CACHES.get(lazy) is None
    np.testing.assert_array_equal(deep_forest_contributions(lazy, Xn).values, e.values)
    # the cache is not pickled: the loaded model prepares on its first call, same numbers
    blob = pickle.dumps(m)
    assert len(blob) < 4 * len(pickle.dumps(lazy.set_params(prepare_explanations=True)))
    loaded = pickle.loads(blob)
    assert _CACHES.get(loaded) is None
    np.testing.assert_array_equal(
        deep_forest_contributions(loaded, Xn).values, e.values
    )
    assert prepare_explanations(loaded) is loaded
    with pytest.raises(ValueError, match='prepare_explanations'):
        CascadeForestClassifier(prepare_explanations='yes').fit(X, y)


def test_threads_and_a_budget_too_small_give_the_same_numbers():
    X, y, Xn, _ = _data(5, 150, 4, 0, True)
    m = CascadeForestRegressor(
        n_estimators=6, max_depth=4, max_layers=3, n_tolerant_rounds=3, random_state=1
    ).fit(X, y)
    e = deep_forest_contributions(m, Xn)
    e2 = deep_forest_contributions(m, np.repeat(Xn, 30, 0), n_jobs=2)  # > one block
    np.testing.assert_array_equal(e2.values[::30], e.values)
    slow = _slow(m, Xn)
    np.testing.assert_allclose(e.values, slow.values, rtol=0, atol=1e-12)


def test_df21_runs_its_own_forward_pass():
    import pathlib
    from deepforest_interp.df21 import from_df21
    from deepforest_interp.df21_format import load_export

    ex, data, _ = load_export(
        pathlib.Path(__file__).parent / 'data/df21/wine_cascade.npz'
    )
    Xt, yt = np.asarray(data['X_train'], float), data['y_train']
    m = from_df21(ex, Xt, yt)
    fast = deep_forest_contributions(m, Xt[:20])
    st_ = _model_cache(m, m.layers_)[
        ('new rows', cal._method('partial'), m.n_layers_ - 1)
    ]
    assert st_.forward is None  # binned inputs: the model's own `layer_inputs`
    slow = _slow(m, Xt[:20])
    np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fast.output, m.predict_proba(Xt[:20]), atol=1e-9)


@HSET
@given(seed=st.integers(0, 9999), n=st.integers(1, 40), nan=st.booleans())
def test_walk_leaves_is_sklearn_apply(seed, n, nan):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 5))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)
    if nan:
        X[rng.uniform(size=X.shape) < 0.15] = np.nan
    for model in (
        RandomForestClassifier(n_estimators=7, max_depth=6, random_state=seed),
        ExtraTreesRegressor(n_estimators=5, random_state=seed),
    ):
        model.fit(X, y)
        nt = node_table(model)
        Xn = X[rng.integers(0, len(X), n)]
        want = np.stack([t.apply(Xn.astype(np.float32)) for t in model.estimators_], 1)
        np.testing.assert_array_equal(walk_leaves(nt, Xn) - nt.roots, want)


def test_walk_leaves_with_category_sets():
    "Category splits go through the general routing rule: the leaves' values sum to the model's raw output."
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(0, 12, 400), rng.normal(size=400)]).astype(float)
    y = np.where(np.isin(X[:, 0], [1, 4, 7, 9]), 2.0, -1.0) + X[:, 1]
    X[::9, 0] = np.nan
    hgb = HistGradientBoostingRegressor(
        max_iter=8, categorical_features=[0], random_state=0
    ).fit(X, y)
    nt = node_table(hgb)
    assert nt.cat_row is not None
    leaves = walk_leaves(nt, X)
    got = nt.offset[0] + (nt.value[leaves, 0] * nt.tree_weight).sum(1)
    np.testing.assert_allclose(got, hgb.predict(X), rtol=0, atol=1e-9)


def test_a_layer_that_never_splits_on_a_previous_output():
    "Its tables need no training rows, but the layers below are still prepared: no KeyError, the engine's numbers."
    r = np.random.default_rng(115)
    X = r.normal(size=(30, 5))
    y = X.sum(1) + r.normal(size=30)
    m = CascadeForestRegressor(
        n_estimators=1, max_depth=1, n_forests=1, max_layers=2, random_state=2
    ).fit(X, y)
    assert m.n_layers_ == 2
    assert all(
        t.tree_.feature.max() < 5 for fm in m.layers_[1][0] for t in fm.estimators_
    )
    for calibration in ('partial', None):
        fast = deep_forest_contributions(m, X[:3], calibration=calibration)
        slow = _slow(m, X[:3], calibration=calibration)
        np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fast.output, m.predict(X[:3]), rtol=0, atol=1e-9)


def test_flags_are_checked():
    X, y, Xn, _ = _data(4, 60, 3, 2, False)
    m = CascadeForestClassifier(n_estimators=3, max_layers=2, random_state=0).fit(X, y)
    for name in ('oof', 'all_layers'):
        with pytest.raises(TypeError, match=name):
            deep_forest_contributions(m, Xn, **{name: 'no'})


def test_copy_flag_spellings_and_dtypes():
    from deepforest_interp.tree_contributions import contributions

    X, y, _, _ = _data(6, 80, 3, 0, False)
    rf = ExtraTreesRegressor(n_estimators=4, random_state=0).fit(X, y)
    assert np.shares_memory(contributions(rf, X, copy=np.False_).data, X)
    X16 = X.astype(np.float16)  # converted to float64 either way: its own array
    e16 = contributions(rf, X16, copy=False)
    assert e16.data.dtype == np.float64 and not np.shares_memory(e16.data, X16)
