"SSFI (seed 004 Eq. 6-7, Algorithm 1): hand-computed trees, fast == reference on random forests, leave-one-out, errors."

import numpy as np
import pytest
import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingRegressor,
)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from deepforest_interp.core import oob_mask
from deepforest_interp.nodes import tree_arrays
from deepforest_interp.single_sample import (
    ssfi,
    ssfi_reference,
    ssfi_loo,
    loo_forest,
    depth_weight,
    feature_ranges,
    plot_ssfi,
    plot_ssfi_image,
)

HSET = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


# check: seed 004 Eq. 6, Eq. 7
def test_stump_by_hand():
    X = np.array([[0.0, 7], [1, 3], [2, 5], [3, 1]])
    stump = DecisionTreeRegressor(max_depth=1).fit(
        X, [0, 0, 1, 1]
    )  # root: x0 <= 1.5, depth 0, factor 1/2
    Xq = np.array([[0.0, 4], [1.4, 4], [3, 0]])
    want = np.array([[0.75, 0], [0.05, 0], [0.75, 0]])
    for f in (ssfi, ssfi_reference):
        np.testing.assert_allclose(f(stump, Xq), want, atol=1e-12)
        np.testing.assert_allclose(
            f(stump, Xq, alpha=0.3), want, atol=1e-12
        )  # the root's factor is 1/2 for every alpha


# check: seed 004 Eq. 6, Eq. 7
def test_depth2_by_hand():
    # same feature twice on the path: root x0 <= 2.5 (d=0), then x0 <= 1.5 (d=1)
    t = DecisionTreeRegressor(max_depth=2).fit(
        np.array([[0.0], [1], [2], [3]]), [0, 1, 10, 30]
    )
    want = np.array([[0.5 * 2.5 + 0.9 / 1.9 * 1.5], [0.5 * 0.5]])
    for f in (ssfi, ssfi_reference):
        np.testing.assert_allclose(f(t, [[0.0], [3.0]]), want, atol=1e-12)
    # two features: root x0 <= 0.5, children x1 <= 0.5
    t2 = DecisionTreeRegressor(max_depth=2).fit(
        np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]]), [0, 1, 2, 6]
    )
    for f in (ssfi, ssfi_reference):
        np.testing.assert_allclose(
            f(t2, [[0.2, 0.9]]), [[0.15, 0.9 / 1.9 * 0.4]], atol=1e-12
        )
        np.testing.assert_allclose(
            f(t2, [[0.2, 0.9]], alpha=1.0), [[0.15, 0.2]], atol=1e-12
        )
    # a forest of two identical-structure trees averages (default) or sums (paper Eq. 7)
    rf = RandomForestRegressor(n_estimators=2, bootstrap=False, random_state=0).fit(
        np.array([[0.0], [1], [2], [3]]), [0, 1, 10, 30]
    )
    single = ssfi_reference(rf.estimators_[0], [[0.0]]) + ssfi_reference(
        rf.estimators_[1], [[0.0]]
    )
    np.testing.assert_allclose(ssfi(rf, [[0.0]], average=False), single, atol=1e-12)
    np.testing.assert_allclose(ssfi(rf, [[0.0]]), single / 2, atol=1e-12)


def test_depth_weight():
    np.testing.assert_allclose(
        depth_weight([0, 1, 2], 0.9), 1 / (1 + 0.9 ** -np.array([0.0, 1, 2]))
    )
    assert 0 <= depth_weight(50_000, 0.9) < 1e-300  # no overflow of alpha^-d


@st.composite
def models(draw):
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n, K = draw(st.integers(20, 100)), draw(st.integers(1, 6))
    X = rng.normal(size=(n, K)).round(
        draw(st.sampled_from([1, 3]))
    )  # rounding: ties and values on thresholds
    kind = draw(st.sampled_from(['rf', 'et', 'dt']))
    params = dict(
        max_depth=draw(st.sampled_from([None, 1, 3, 8])),
        random_state=seed,
        max_features=draw(st.sampled_from([None, 'sqrt', 0.5])),
    )
    if kind != 'dt':
        params.update(
            n_estimators=draw(st.integers(1, 10)), bootstrap=draw(st.booleans())
        )
    if draw(st.booleans()):
        y = rng.integers(0, 3, n)
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
    Xq = np.r_[X[:10], rng.normal(size=(10, K)).round(2)]  # training rows and new rows
    alpha = draw(st.floats(0.05, 1.0))
    scale = rng.uniform(0.1, 10, K) if draw(st.booleans()) else None
    return cls(**params).fit(X, y), Xq, alpha, scale, draw(st.booleans())


@HSET
@given(models())
def test_fast_equals_reference(case):
    m, Xq, alpha, scale, average = case
    fast = ssfi(m, Xq, alpha=alpha, scale=scale, average=average).to_numpy()
    np.testing.assert_allclose(
        fast,
        ssfi_reference(m, Xq, alpha=alpha, scale=scale, average=average),
        rtol=1e-10,
        atol=1e-12,
    )
    assert (fast >= 0).all() and np.isfinite(fast).all()
    # features never used by any tree get exactly 0
    used = np.unique(
        np.concatenate([tree_arrays(t).feature for t in getattr(m, 'estimators_', [m])])
    )
    unused = np.setdiff1d(np.arange(Xq.shape[1]), used)
    assert (fast[:, unused] == 0).all()


def test_scale_is_a_divisor():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3)) * [1, 100, 0.01]
    y = X[:, 0] + X[:, 1] / 100 + X[:, 2] * 100
    rf = RandomForestRegressor(10, random_state=0).fit(X, y)
    r = feature_ranges(X)
    np.testing.assert_allclose(ssfi(rf, X, scale=r), ssfi(rf, X) / r, rtol=1e-12)


# check: seed 004 Algorithm 1
def test_ssfi_loo_refit_is_algorithm_1():
    rng = np.random.default_rng(2)
    X = rng.uniform(size=(40, 4))
    y = (X[:, 0] + X[:, 1] > 1).astype(int)
    est = RandomForestClassifier(15, random_state=3)
    r = ssfi_loo(est, X, y, rows=[0, 7, 39], progress=False)
    r2 = ssfi_loo(
        est, X, y, rows=[0, 7, 39], n_jobs=2, progress=False
    )  # joblib workers give the same numbers
    np.testing.assert_allclose(r.values.to_numpy(), r2.values.to_numpy(), atol=1e-12)
    for j, i in enumerate([0, 7, 39]):
        keep = np.arange(40) != i
        m = RandomForestClassifier(15, random_state=3).fit(X[keep], y[keep])
        np.testing.assert_allclose(
            r.values.iloc[j].to_numpy(), ssfi(m, X[i : i + 1]).to_numpy()[0], atol=1e-12
        )
        assert r.prediction[j] == m.predict(X[i : i + 1])[0]


def test_loo_forest_members_are_out_of_bag():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 3))
    y = X[:, 0] + rng.normal(size=60)
    lf = loo_forest(RandomForestRegressor(20, random_state=0), X, y)
    assert lf.members.shape == (60, 20)
    assert not (~oob_mask(lf.forest))[lf.members, lf.rows[:, None]].any()
    np.testing.assert_allclose(lf.predict(X)[3], lf.sub_forest(3).predict(X[3:4])[0])
    r = ssfi_loo(
        RandomForestRegressor(20, random_state=0), X, y, method='oob', rows=[3]
    )
    np.testing.assert_allclose(
        r.values.iloc[0].to_numpy(),
        ssfi(lf.sub_forest(3), X[3:4]).to_numpy()[0],
        atol=1e-12,
    )


def test_bad_input():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 3))
    y = X[:, 0]
    rf = RandomForestRegressor(3, random_state=0).fit(X, y)
    for a, msg in [
        (0, '(0, 1]'),
        (-0.1, '(0, 1]'),
        (1.5, '(0, 1]'),
        (float('nan'), 'finite'),
        ('0.9', 'real number'),
        (None, 'real number'),
        (True, 'real number'),
    ]:
        with pytest.raises((ValueError, TypeError), match=None) as e:
            ssfi(rf, X, alpha=a)
        assert msg in str(e.value)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    np.testing.assert_allclose(
        ssfi(rf, Xn), ssfi_reference(rf, Xn), atol=1e-12
    )  # NaN routed, no distance credited
    with pytest.raises(ValueError, match='overflowed'):
        ssfi(rf, X * 1e10, scale=1e-300)
    with pytest.raises(ValueError, match='1/scale overflows'):
        ssfi(rf, X, scale=1e-310)
    Xn[0, 0] = np.inf
    with pytest.raises(ValueError, match='infinite'):
        ssfi(rf, Xn)
    with pytest.raises(ValueError, match='has 2 features'):
        ssfi(rf, X[:, :2])
    with pytest.raises(Exception, match='not fitted'):
        ssfi(RandomForestRegressor(), X)
    with pytest.raises(TypeError, match='unsupported model type'):
        ssfi(GradientBoostingRegressor(n_estimators=2).fit(X, y), X)
    with pytest.raises(ValueError, match='one per feature'):
        ssfi(rf, X, scale=[1, 2])
    with pytest.raises(ValueError, match='positive'):
        ssfi(rf, X, scale=[1, 0, 1])
    with pytest.raises(TypeError, match='unsupported estimator'):
        ssfi_loo(GradientBoostingRegressor(), X, y)
    with pytest.raises(ValueError, match='has 29 rows'):
        ssfi_loo(RandomForestRegressor(3), X, y[:-1])
    with pytest.raises(ValueError, match='bootstrap=True'):
        ssfi_loo(RandomForestRegressor(3, bootstrap=False), X, y, method='oob')


def test_plots():
    ax = plot_ssfi(np.array([0.3, 0.1, 0.2]), ['a', 'b', 'c'])
    assert [t.get_text() for t in ax.get_yticklabels()] == ['b', 'c', 'a']
    plt.close(ax.figure)
    ax = plot_ssfi_image(np.zeros(64), np.arange(64.0), k=10)
    img = ax.images[0].get_array()
    assert img.shape == (8, 8, 3) and np.isclose(img[..., 1], 0.1).sum() == 10
    plt.close(ax.figure)


@given(
    seed=st.integers(0, 10_000),
    frac=st.sampled_from([0.05, 0.3]),
    kind=st.sampled_from(['rf', 'et', 'dt']),
)
@HSET
def test_missing_values_routed_as_predict(seed, frac, kind):
    "Forests trained with NaN: SSFI follows the branch scikit-learn takes for NaN and credits no distance for it."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 4))
    y = X[:, 0] + rng.normal(size=80)
    X[rng.random(X.shape) < frac] = np.nan
    m = {
        'rf': RandomForestRegressor(6, random_state=seed),
        'et': ExtraTreesRegressor(6, random_state=seed),
        'dt': DecisionTreeRegressor(max_depth=5, random_state=seed),
    }[kind].fit(X, y)
    got = ssfi(m, X).to_numpy()
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, ssfi_reference(m, X), atol=1e-10)
