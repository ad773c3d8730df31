"Tests for deepforest_interp.forest_floor: OOB contributions, goodness-of-visualization, colours and plots (seed 003)."
import warnings
import numpy as np
import pandas as pd
import pytest
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import RandomForestRegressor, RandomForestClassifier, ExtraTreesClassifier
from deepforest_interp.core import Explanation, inbag_counts
from deepforest_interp.contributions import contributions
from deepforest_interp.forest_floor import (oob_contributions, goodness_of_visualization, knn_loo, knn_smooth,
                                            default_k, feature_colors, contribution_importance, rank_interactions,
                                            plot_forest_floor, plot_two_way, plot_aligned, plot_simplex,
                                            plot_simplex_grid, simplex_coordinates, _kernel_weights, _context_scale)

HSET = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _fit_quiet(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')            # sklearn warns when some rows are never out of bag
        return model.fit(X, y)


def _explain_quiet(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return oob_contributions(*args, **kw)


@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(30, 150), K=st.integers(1, 5), M=st.integers(3, 25),
       leaf=st.integers(1, 6), frac=st.sampled_from([None, 0.5, 0.9]), with_y=st.booleans())
def test_oob_identity_regression(seed, n, K, M, leaf, frac, with_y):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)); y = X[:, 0] * X[:, -1] + rng.normal(size=n)
    rf = _fit_quiet(RandomForestRegressor(n_estimators=M, min_samples_leaf=leaf, max_samples=frac, oob_score=True,
                                          random_state=seed), X, y)
    e = _explain_quiet(rf, X, y if with_y else None, never_oob='all_trees')
    assert np.isfinite(e.values).all() and np.isfinite(e.bootstrap).all()
    seen = (inbag_counts(rf) == 0).any(0)
    np.testing.assert_allclose((e.bias + e.bootstrap + e.values.sum(1))[seen], rf.oob_prediction_[seen], atol=1e-9)
    if (~seen).any(): np.testing.assert_allclose(e.output[~seen], rf.predict(X[~seen]), atol=1e-9)   # fallback: all trees
    np.testing.assert_allclose(e.bias, y.mean() if with_y else np.mean([t.tree_.value[0, 0, 0] for t in rf.estimators_]))


@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(40, 150), C=st.integers(2, 4), M=st.integers(5, 25),
       extra=st.booleans())
def test_oob_identity_classification(seed, n, C, M, extra):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)); y = np.arange(n) % C; rng.shuffle(y)
    cls = ExtraTreesClassifier if extra else RandomForestClassifier
    rf = _fit_quiet(cls(n_estimators=M, bootstrap=True, oob_score=True, random_state=seed), X, y)
    e = _explain_quiet(rf, X, y, never_oob='all_trees')
    seen = (inbag_counts(rf) == 0).any(0)
    np.testing.assert_allclose(e.output[seen], rf.oob_decision_function_[seen], atol=1e-9)
    np.testing.assert_allclose(e.values.sum(-1), 0, atol=1e-12)
    np.testing.assert_allclose(e.bootstrap.sum(-1), 0, atol=1e-12)
    np.testing.assert_allclose(e.bias[0], np.bincount(y, minlength=C) / n)


def test_oob_equals_per_tree_average():
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(200, 3)); y = np.sin(3 * X[:, 0]) + X[:, 1] * X[:, 2]
    rf = RandomForestRegressor(n_estimators=40, random_state=0).fit(X, y)
    e = oob_contributions(rf, X)
    oob = inbag_counts(rf) == 0
    per_tree = np.stack([contributions(t, X).values for t in rf.estimators_])
    np.testing.assert_allclose(np.einsum('mi,mik->ik', oob / oob.sum(0), per_tree), e.values, atol=1e-10)


def test_oob_bad_input():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 3)); y = X[:, 0]
    rf = RandomForestRegressor(n_estimators=20, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match='bootstrap=False'):
        oob_contributions(RandomForestRegressor(n_estimators=2, bootstrap=False).fit(X, y), X)
    with pytest.raises(ValueError, match='fitted on 100'):
        oob_contributions(rf, X[:90])
    with pytest.raises(ValueError, match='not the data this forest was fitted on'):
        oob_contributions(rf, rng.normal(size=(100, 3)))
    with pytest.raises(ValueError, match='NaN'):
        Xn = X.copy(); Xn[0, 0] = np.nan; oob_contributions(rf, Xn)
    with pytest.raises(TypeError, match='unsupported model type'):
        oob_contributions(contributions, X)
    with pytest.raises(ValueError, match='never out of bag'):
        oob_contributions(RandomForestRegressor(n_estimators=1, random_state=0).fit(X, y), X)


def test_pandas_names_carried():
    rng = np.random.default_rng(1)
    df = pd.DataFrame(rng.normal(size=(120, 3)), columns=['age', 'dose', 'bmi'])
    rf = RandomForestRegressor(n_estimators=20, random_state=0).fit(df, df['dose'] ** 2)
    e = oob_contributions(rf, df)
    assert e.feature_names == ['age', 'dose', 'bmi']
    assert goodness_of_visualization(e).index.tolist() == ['age', 'dose', 'bmi']
    assert contribution_importance(e).index[0] == 'dose'


# ---------------------------------------------------------------- goodness of visualization

def _loo_brute(Z, f, k):
    Z = np.asarray(Z, float).reshape(len(Z), -1); Zs = Z / _context_scale(Z)
    out, amb = np.empty(len(Z)), np.zeros(len(Z), bool)
    for i in range(len(Z)):
        others = np.delete(np.arange(len(Z)), i)
        d = np.sqrt(((Zs[others] - Zs[i]) ** 2).sum(1)); o = np.argsort(d, kind='stable')
        w = _kernel_weights(d[o[:k + 1]][None], k)[0]
        out[i] = (w * f[others][o[:k]]).sum() / w.sum()
        amb[i] = d[o[k]] == d[o[k - 1]] and np.ptp(f[others][d == d[o[k - 1]]]) > 0
    return out, amb


@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(10, 80), q=st.integers(1, 3), k=st.integers(1, 8),
       dup=st.integers(0, 10))
def test_knn_loo_exact(seed, n, q, k, dup):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, q)); f = rng.normal(size=n)
    dup = min(dup, n // 2); Z[n - dup:] = Z[:dup]                 # duplicated rows with different values
    k = min(k, n - 2)
    ref, amb = _loo_brute(Z, f, k)
    np.testing.assert_allclose(knn_loo(Z, f, k=k)[~amb], ref[~amb], atol=1e-12)


def test_knn_loo_many_duplicates_and_shapes():
    Z = np.r_[np.zeros((30, 1)), np.arange(1, 21)[:, None]]; f = np.r_[np.full(30, 2.0), np.arange(20.)]
    g = knn_loo(Z, f, k=4)
    np.testing.assert_allclose(g[:30], 2.0)                         # 29 copies left: all neighbours at distance 0
    g2 = knn_loo(Z, np.c_[f, -f], k=4)
    assert g2.shape == (50, 2) and np.allclose(g2[:, 0], g) and np.allclose(g2[:, 1], -g)
    assert default_k(5000) == 35 and default_k(1) == 1
    s = knn_smooth(Z, f, np.array([[0.0], [20.0]]), k=3)
    assert s.shape == (2,) and abs(s[0] - 2.0) < 1e-12


def test_gov_known_answers():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(1500, 3)); y = X[:, 0] ** 2 + X[:, 1] * X[:, 2]
    e = oob_contributions(RandomForestRegressor(n_estimators=60, max_features=1, random_state=0).fit(X, y), X, y)
    g = goodness_of_visualization(e)
    assert g['x0'] > 0.95 and g['x1'] < 0.15 and g['x2'] < 0.15, g
    assert goodness_of_visualization(e, context=('x1', 'x2'))['x1+x2'] > 0.85
    # synthetic explanation: exact main effect is recovered almost perfectly, pure noise not at all
    x = rng.uniform(size=(2000, 2))
    ex = Explanation(np.c_[np.sin(6 * x[:, 0]), rng.normal(size=2000)], np.zeros(2000), ['a', 'b'], x)
    g = goodness_of_visualization(ex)
    assert g['a'] > 0.99 and g['b'] < 0.02


def test_gov_bad_input():
    ex = Explanation(np.zeros((20, 2)), np.zeros(20), ['a', 'b'], np.random.default_rng(0).normal(size=(20, 2)))
    with pytest.raises(ValueError, match="unknown feature 'c'"):
        goodness_of_visualization(ex, features=['c'])
    with pytest.raises(ValueError, match='out of range'):
        goodness_of_visualization(ex, context=(0, 5))
    with pytest.raises(TypeError, match='name or an integer'):
        goodness_of_visualization(ex, features=[1.5])
    with pytest.raises(ValueError, match='no data'):
        goodness_of_visualization(Explanation(np.zeros((5, 2)), np.zeros(5), ['a', 'b']))


# ---------------------------------------------------------------- colours and plots

@pytest.fixture(scope='module')
def expl():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(400, 3)); y = X[:, 0] ** 2 + X[:, 1] * X[:, 2]
    yc = np.digitize(X[:, 0] + X[:, 1] * X[:, 2], [-0.3, 0.3])
    er = oob_contributions(RandomForestRegressor(n_estimators=30, random_state=0).fit(X, y), X, y)
    ec = oob_contributions(RandomForestClassifier(n_estimators=30, max_samples=100, random_state=0).fit(X, yc), X, yc)
    return er, ec, yc


def test_feature_colors(expl):
    er, _, _ = expl
    c = feature_colors(er, 'x1')
    assert c.shape == (400, 4) and ((c >= 0) & (c <= 1)).all()
    lo, hi = np.argmin(er.data[:, 1]), np.argmax(er.data[:, 1])
    assert c[lo, 0] > c[lo, 2] and c[hi, 2] > c[hi, 0]                 # low red, high blue
    assert feature_colors(er, ['x0', 'x1', 'x2'], max_components=3).shape == (400, 4)


def test_plot_forest_floor(expl):
    er, ec, _ = expl
    fig = plot_forest_floor(er, color='x1', ncols=2)
    vis = [a for a in fig.axes if a.get_visible()]
    assert len(vis) == 3 and vis[0].get_xlabel() == 'x0' and 'GOV R²=' in vis[0].get_title()
    assert len(vis[0].collections) == 1 and vis[0].get_ylabel() == 'contribution'
    plt.close(fig)
    fig = plot_forest_floor(ec, ['x2'], output=2, fit=False, gov=False)
    assert fig.axes[0].get_title() == 'x2' and fig.axes[0].get_ylabel() == 'contribution to 2'
    plt.close(fig)
    with pytest.raises(ValueError, match='several outputs'):
        plot_forest_floor(ec)


def test_plot_two_way(expl):
    er, _, _ = expl
    ax = plot_two_way(er, ('x1', 'x2'))
    assert ax.name == '3d' and ax.get_zlabel() == 'f(x1) + f(x2)' and 'two-way GOV' in ax.get_title()
    plt.close(ax.figure)
    ax = plot_two_way(er, (1, 2), kind='contour')
    assert ax.get_xlabel() == 'x1' and ax.get_ylabel() == 'x2' and len(ax.collections) >= 2
    plt.close(ax.figure)


def test_plot_aligned_and_simplex(expl):
    _, ec, yc = expl
    fig = plot_aligned(ec)
    assert len(fig.axes[0].collections) == 3 and fig.axes[0].get_ylabel() == 'change of probability'
    plt.close(fig)
    ax = plot_simplex(ec, y=yc)
    np.testing.assert_allclose(ax.collections[0].get_offsets(), simplex_coordinates(ec.output), atol=1e-12)
    assert ax.get_lines()[-1].get_label() == 'prior'
    plt.close(ax.figure)
    fig = plot_simplex_grid(ec, yc, features=['x0'])
    assert sum(a.get_visible() for a in fig.axes) == 4
    plt.close(fig)


def test_rank_interactions(expl):
    er, _, _ = expl
    r = rank_interactions(er)
    assert set(r.loc[0, ['feature', 'partner']]) == {'x1', 'x2'} and len(r) == 6
