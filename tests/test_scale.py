"Uncertainty over the trees, summaries without the full array, float32, and dask (issue 18 items 1-3)."

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingRegressor,
)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from deepforest_interp.explanation import Importance
from deepforest_interp.tree_contributions import (
    contributions,
    contributions_reference,
    contribution_summary,
)
from deepforest_interp.importance import (
    mdi,
    mdi_tree,
    mdi_covariance,
    mdi_oob,
    local_mdi,
    plot_importances,
)

HSET = settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def forests(draw):
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n, K = draw(st.integers(20, 80)), draw(st.integers(1, 5))
    X = rng.normal(size=(n, K)).round(
        draw(st.sampled_from([1, 3]))
    )  # rounding creates ties
    clf, kind = draw(st.booleans()), draw(st.sampled_from(['rf', 'et', 'dt']))
    params = dict(
        max_depth=draw(st.sampled_from([None, 1, 3, 6])),
        random_state=seed,
        max_features=draw(st.sampled_from([None, 0.5])),
    )
    if kind != 'dt':
        params.update(
            n_estimators=draw(st.integers(1, 9)), bootstrap=draw(st.booleans())
        )
    if clf:
        C = draw(st.integers(2, 4))
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


def _trees(m):
    return list(getattr(m, 'estimators_', [m]))


@HSET
@given(forests())
def test_std_is_the_sd_of_the_per_tree_contributions(mX):
    m, X = mX
    e = contributions(m, X, return_std=True)
    own = np.stack(
        [contributions_reference(t, X).values for t in _trees(m)]
    )  # each tree walked on its own
    np.testing.assert_allclose(e.values, own.mean(0), atol=1e-12)
    np.testing.assert_allclose(e.std, own.std(0), atol=1e-12)  # ddof=0 over the trees
    np.testing.assert_allclose(e.values, contributions(m, X).values, atol=1e-12)
    assert (
        e.std.shape == e.values.shape
        and np.isfinite(e.std).all()
        and (e.std >= 0).all()
    )
    assert e.info['n_trees'] == len(_trees(m))


@HSET
@given(forests(), st.integers(1, 30))
def test_summary_equals_the_full_array(mX, batch):
    m, X = mX
    v = contributions(m, X).values
    v = v if v.ndim == 3 else v[..., None]
    s = contribution_summary(m, X, batch_size=batch)
    np.testing.assert_allclose(s.mean.to_numpy(), v.mean(0), atol=1e-12)
    np.testing.assert_allclose(s.mean_abs.to_numpy(), np.abs(v).mean(0), atol=1e-12)
    assert s.n == len(X) and list(s.mean.index) == [f'x{j}' for j in range(X.shape[1])]


def _iris():
    from sklearn.datasets import load_iris

    d = load_iris(as_frame=True)
    return d.data, d.target


def test_importance_bunches_have_sklearns_shape_and_names():
    X, y = _iris()
    M = RandomForestClassifier(n_estimators=15, max_depth=4, random_state=0).fit(X, y)
    names = list(X.columns)
    for f, plain in [
        (lambda **k: mdi(M, **k), mdi(M)),
        (lambda **k: mdi(M, normalize=True, **k), mdi(M, normalize=True)),
        (lambda **k: mdi_covariance(M, X, y, **k), mdi_covariance(M, X, y)),
        (
            lambda **k: mdi_covariance(M, X, y, inbag=False, **k),
            mdi_covariance(M, X, y, inbag=False),
        ),
        (lambda **k: mdi_oob(M, X, y, **k), mdi_oob(M, X, y)),
    ]:
        b = f(return_std=True)
        # the same type with and without the spread
        assert type(b) is type(f()) is Importance and f().importances_std is None
        assert b.importances.shape == (4, 15) and list(b.importances.index) == names
        assert (
            list(b.importances_mean.index) == names
            and list(b.importances_std.index) == names
        )
        np.testing.assert_allclose(b.importances_mean, plain, atol=1e-12)
        np.testing.assert_allclose(
            b.importances_std, b.importances.to_numpy().std(1), atol=1e-15
        )
    # per tree, Eq. (13) on the in-bag rows is that tree's own impurity MDI (Eq. 7)
    per_tree = np.array([mdi_tree(t) for t in M.estimators_]).T
    np.testing.assert_allclose(
        mdi_covariance(M, X, y, return_std=True).importances, per_tree, atol=1e-12
    )
    lm = local_mdi(M, X, y, return_std=True)
    np.testing.assert_allclose(lm.importances_mean, local_mdi(M, X, y), atol=1e-12)
    assert (
        lm.importances.shape == (4, 3, 15) and list(lm.importances_std.index) == names
    )
    np.testing.assert_allclose(lm.importances_std, lm.importances.std(-1), atol=1e-15)


def test_plot_importances_draws_error_bars():
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    X, y = _iris()
    M = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    ax = plot_importances(
        {'MDI': mdi(M, return_std=True), 'MDI-oob': mdi_oob(M, X, y)}, X.columns
    )
    assert (
        len(ax.patches) == 8 and len(ax.lines) > 0
    )  # error-bar lines drawn for the Bunch
    plt.close(ax.figure)
    ax = plot_importances({'MDI': mdi(M)}, X.columns)
    assert len(ax.lines) == 0
    plt.close(ax.figure)


def test_walk_dot_against_per_tree_contributions():
    from deepforest_interp.adapters import node_table
    from deepforest_interp.walkers import walk_dot

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = rng.integers(0, 3, 60)
    M = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    Y, w = rng.normal(size=(60, 3)), rng.uniform(size=(5, 60))
    S = walk_dot(node_table(M), X, Y, w)
    own = np.stack([contributions(t, X).values for t in M.estimators_])
    np.testing.assert_allclose(S, np.einsum('mi,mikc,ic->mkc', w, own, Y), atol=1e-12)


def test_float32_is_not_copied_and_matches():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5)).astype(np.float32)
    y = rng.integers(0, 3, 200)
    M = RandomForestClassifier(n_estimators=8, random_state=0).fit(X, y)
    e32, e64 = contributions(M, X, dtype=np.float32), contributions(M, X)
    assert e32.values.dtype == np.float32 and e64.values.dtype == np.float64
    assert (
        e32.data.dtype == np.float32 and e64.data.dtype == np.float32
    )  # never widened to a float64 copy
    assert not np.shares_memory(
        e32.data, X
    )  # e.data is the explanation's own read-only copy (issue 16)
    np.testing.assert_allclose(e32.values, e64.values, atol=1e-6)
    s = contribution_summary(M, pd.DataFrame(X, columns=list('abcde')), batch_size=64)
    assert list(s.mean.index) == list('abcde') and list(s.mean.columns) == [0, 1, 2]


def test_bad_arguments_are_named():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = X[:, 0] + rng.normal(size=50)
    gb = GradientBoostingRegressor(n_estimators=5, random_state=0).fit(X, y)
    rf = RandomForestRegressor(n_estimators=3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match='needs a tree or a forest'):
        contributions(gb, X, return_std=True)
    with pytest.raises(TypeError, match='return_std must be a bool'):
        contributions(rf, X, return_std='yes')
    with pytest.raises(ValueError, match='dtype must be'):
        contributions(rf, X, dtype=np.int32)
    with pytest.raises(TypeError, match='return_std must be a bool'):
        mdi(rf, return_std=1)
    with pytest.raises(ValueError, match='batch_size must be >= 1'):
        contribution_summary(rf, X, batch_size=0)
    with pytest.raises(TypeError, match='batch_size must be an int'):
        contribution_summary(rf, X, batch_size=2.5)
    with pytest.raises(ValueError, match='has 2 features'):
        contribution_summary(rf, X[:, :2])


def test_dask_equals_in_memory_on_a_local_cluster():
    da = pytest.importorskip('dask.array')
    distributed = pytest.importorskip('distributed')
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 5))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    M = RandomForestClassifier(n_estimators=10, max_depth=6, random_state=0).fit(X, y)
    Xd = da.from_array(X, chunks=(90, 5))  # 5 blocks, the last one short
    with distributed.Client(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ):
        ed, em = (
            contributions(M, Xd, return_std=True),
            contributions(M, X, return_std=True),
        )
        assert isinstance(ed.values, da.Array) and isinstance(
            ed.std, da.Array
        )  # lazy until computed
        assert isinstance(
            ed.data, da.Array
        )  # the rows are never gathered into one process (10M-row bench)
        v, b, s = da.compute(ed.values, ed.bias, ed.std)
        np.testing.assert_allclose(v, em.values, atol=1e-12)
        np.testing.assert_allclose(b, em.bias, atol=1e-12)
        np.testing.assert_allclose(s, em.std, atol=1e-12)
        np.testing.assert_allclose(
            contribution_summary(M, Xd).mean_abs,
            contribution_summary(M, X).mean_abs,
            atol=1e-12,
        )
        sw = rng.uniform(size=400)
        bd = mdi_covariance(
            M,
            Xd,
            da.from_array(y, chunks=130),
            inbag=False,
            sample_weight=sw,
            return_std=True,
        )
        bm = mdi_covariance(M, X, y, inbag=False, sample_weight=sw, return_std=True)
        np.testing.assert_allclose(bd.importances, bm.importances, atol=1e-12)
        np.testing.assert_allclose(bd.importances_mean, bm.importances_mean, atol=1e-12)
        with pytest.raises(ValueError, match='inbag=False'):
            mdi_covariance(M, Xd, y)
        with pytest.raises(ValueError, match='5 columns'):
            contributions(M, Xd[:, :3])


def test_boosting_summary_dask_dtype_and_blocks(monkeypatch):
    "contribution_summary, lazy dask and float32 for HGB / XGBoost / LightGBM; a large call in blocks equals one piece (issue 45)."
    da = pytest.importorskip('dask.array')
    import deepforest_interp.boosting as B
    import deepforest_interp.tree_contributions as T
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestRegressor
    from deepforest_interp.tree_contributions import contributions, contribution_summary

    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 4))
    X[::9, 2] = np.nan
    y = (X[:, 0] + np.nan_to_num(X[:, 2]) > 0).astype(int) + (X[:, 1] > 1)
    models = [HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(X, y)]
    for lib, make in [
        ('xgboost', lambda m: m.XGBRegressor(n_estimators=5, max_depth=3)),
        ('lightgbm', lambda m: m.LGBMRegressor(n_estimators=5, verbose=-1)),
    ]:
        try:
            models.append(make(__import__(lib)).fit(X, X[:, 0] - X[:, 1]))
        except ImportError:
            pass
    for m in models:
        e = contributions(m, X)
        v = e.values.reshape(len(X), 4, -1)
        s = contribution_summary(m, X, batch_size=250)
        np.testing.assert_allclose(s.mean_abs.to_numpy(), np.abs(v).mean(0), atol=1e-12)
        ed = contributions(m, da.from_array(X, chunks=(200, 4)))
        assert hasattr(ed.values, 'dask') and ed.info['output'] == 'raw score'
        np.testing.assert_allclose(ed.values.compute(), e.values, atol=1e-12)
        sd = contribution_summary(m, da.from_array(X, chunks=(200, 4)))
        np.testing.assert_allclose(sd.mean.to_numpy(), s.mean.to_numpy(), atol=1e-12)
        monkeypatch.setattr(B, 'BOOST_BLOCK_ROWS', 250)
        eb = contributions(m, X, dtype=np.float32)
        monkeypatch.setattr(B, 'BOOST_BLOCK_ROWS', 2**16)
        assert eb.values.dtype == np.float32
        np.testing.assert_allclose(eb.values, e.values, atol=1e-5)
        np.testing.assert_array_equal(eb.bias, e.bias)
    rf = RandomForestRegressor(5, random_state=0).fit(X, X[:, 0])
    e = contributions(rf, X, return_std=True)
    monkeypatch.setattr(T, 'CONTRIB_BLOCK_ROWS', 250)
    eb = contributions(rf, X, return_std=True)
    np.testing.assert_array_equal(eb.values, e.values)
    np.testing.assert_array_equal(eb.std, e.std)
    np.testing.assert_array_equal(eb.data, e.data)


def test_copy_false_views_the_rows():
    "contributions(copy=False): e.data is a read-only view of a float X (no second copy), the numbers are the same."
    import deepforest_interp.tree_contributions as tc

    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4))
    y = X[:, 0] + X[:, 1] * X[:, 2]
    rf = RandomForestRegressor(n_estimators=6, max_depth=5, random_state=0).fit(X, y)
    for Xi in (X, X.astype(np.float32)):
        e, v = contributions(rf, Xi), contributions(rf, Xi, copy=False)
        np.testing.assert_array_equal(v.values, e.values)
        assert np.shares_memory(v.data, Xi) and not np.shares_memory(e.data, Xi)
        assert (
            not v.data.flags.writeable and Xi.flags.writeable
        )  # the caller's X stays writable
    old = tc.CONTRIB_BLOCK_ROWS
    tc.CONTRIB_BLOCK_ROWS = 64  # the block path: the result's data is X, never copied
    try:
        v = contributions(rf, X, copy=False)
        assert np.shares_memory(v.data, X)
        np.testing.assert_array_equal(v.values, contributions(rf, X).values)
    finally:
        tc.CONTRIB_BLOCK_ROWS = old
    frame = pd.DataFrame(X, columns=list('abcd'))  # converted: its own array, no view
    assert contributions(rf.fit(frame, y), frame, copy=False).feature_names == list(
        'abcd'
    )
    with pytest.raises(TypeError, match='copy must be a bool'):
        contributions(rf, X, copy='no')


def test_copy_false_keeps_the_attribution():
    "copy=False changes where e.data lives, never which attribution is computed."
    from deepforest_interp.tree_shap import shapley_values

    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 4))
    rf = RandomForestRegressor(n_estimators=5, max_depth=4, random_state=0).fit(
        X, X[:, 0] * X[:, 1]
    )
    want = shapley_values(rf, X).values
    for copy in (True, False):
        got = contributions(rf, X, method='shapley', copy=copy)
        np.testing.assert_array_equal(got.values, want)
    with pytest.raises(ValueError, match='method must be'):
        contributions(rf, X, method='saabas', copy=False)
