"""Property-based and external-oracle tests for `forest_floor` / `forest_floor_plots` (seed 003).

Worked examples, plots and error messages live in notebooks 08 / 08b and in `tests/_bad_input_forest_floor.py`;
this file keeps what needs many random cases (hypothesis) or an outside reference (scikit-learn's OOB predictions,
a brute-force leave-one-out, the standard library's HSV conversion) and the import-time rule.
"""

import colorsys, warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestRegressor,
    RandomForestClassifier,
    ExtraTreesClassifier,
)
from deepforest_interp.core import inbag_counts
from deepforest_interp.explanation import Explanation
from deepforest_interp.forest_floor import (
    oob_contributions,
    heldout_contributions,
    goodness_of_visualization,
    knn_loo,
    _kernel_weights,
    _context_scale,
    _hsv_rgb,
)

HSET = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _fit_quiet(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter(
            'ignore'
        )  # sklearn warns when some rows are never out of bag
        return model.fit(X, y)


def _explain_quiet(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return oob_contributions(*args, **kw)


@HSET
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(30, 150),
    K=st.integers(1, 5),
    M=st.integers(3, 25),
    leaf=st.integers(1, 6),
    frac=st.sampled_from([None, 0.5, 0.9]),
    with_y=st.booleans(),
)
def test_oob_identity_regression(seed, n, K, M, leaf, frac, with_y):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K))
    y = X[:, 0] * X[:, -1] + rng.normal(size=n)
    rf = _fit_quiet(
        RandomForestRegressor(
            n_estimators=M,
            min_samples_leaf=leaf,
            max_samples=frac,
            oob_score=True,
            random_state=seed,
        ),
        X,
        y,
    )
    e = _explain_quiet(rf, X, y if with_y else None, never_oob='all_trees')
    assert np.isfinite(e.values).all() and np.isfinite(e.bootstrap).all()
    seen = (inbag_counts(rf) == 0).any(0)
    np.testing.assert_allclose(
        (e.bias + e.bootstrap + e.values.sum(1))[seen],
        rf.oob_prediction_[seen],
        atol=1e-9,
    )
    if (~seen).any():
        np.testing.assert_allclose(
            e.output[~seen], rf.predict(X[~seen]), atol=1e-9
        )  # fallback: all trees
    np.testing.assert_allclose(
        e.bias,
        y.mean()
        if with_y
        else np.mean([t.tree_.value[0, 0, 0] for t in rf.estimators_]),
    )


@HSET
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(40, 150),
    C=st.integers(2, 4),
    M=st.integers(5, 25),
    extra=st.booleans(),
)
def test_oob_identity_classification(seed, n, C, M, extra):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.arange(n) % C
    rng.shuffle(y)
    cls = ExtraTreesClassifier if extra else RandomForestClassifier
    rf = _fit_quiet(
        cls(n_estimators=M, bootstrap=True, oob_score=True, random_state=seed), X, y
    )
    e = _explain_quiet(rf, X, y, never_oob='all_trees')
    seen = (inbag_counts(rf) == 0).any(0)
    np.testing.assert_allclose(
        e.output[seen], rf.oob_decision_function_[seen], atol=1e-9
    )
    np.testing.assert_allclose(e.values.sum(-1), 0, atol=1e-12)
    np.testing.assert_allclose(e.bootstrap.sum(-1), 0, atol=1e-12)
    np.testing.assert_allclose(e.bias[0], np.bincount(y, minlength=C) / n)


# ---------------------------------------------------------------- goodness of visualization


def _loo_brute(Z, f, k):
    Z = np.asarray(Z, float).reshape(len(Z), -1)
    Zs = Z / _context_scale(Z)
    out, amb = np.empty(len(Z)), np.zeros(len(Z), bool)
    for i in range(len(Z)):
        others = np.delete(np.arange(len(Z)), i)
        d = np.sqrt(((Zs[others] - Zs[i]) ** 2).sum(1))
        o = np.argsort(d, kind='stable')
        w = _kernel_weights(d[o[: k + 1]][None], k)[0]
        out[i] = (w * f[others][o[:k]]).sum() / w.sum()
        amb[i] = d[o[k]] == d[o[k - 1]] and np.ptp(f[others][d == d[o[k - 1]]]) > 0
    return out, amb


@HSET
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(10, 80),
    q=st.integers(1, 3),
    k=st.integers(1, 8),
    dup=st.integers(0, 10),
)
def test_knn_loo_exact(seed, n, q, k, dup):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, q))
    f = rng.normal(size=n)
    dup = min(dup, n // 2)
    Z[n - dup :] = Z[:dup]  # duplicated rows with different values
    k = min(k, n - 2)
    ref, amb = _loo_brute(Z, f, k)
    np.testing.assert_allclose(knn_loo(Z, f, k=k)[~amb], ref[~amb], atol=1e-12)


@HSET
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 120),
    C=st.integers(1, 4),
    M=st.integers(3, 20),
)
def test_heldout_identity(seed, n, C, M):
    "New rows: bias + bootstrap + values = predict / predict_proba, with the bias of the OOB explanation (Eq. 13, 16)."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    Xn = rng.normal(size=(17, 3))
    if C == 1:
        y = X[:, 0] + rng.normal(size=n)
        m = RandomForestRegressor(n_estimators=M, random_state=seed).fit(X, y)
        ref = m.predict(Xn)
    else:
        y = np.arange(n) % C
        m = RandomForestClassifier(n_estimators=M, random_state=seed).fit(X, y)
        ref = m.predict_proba(Xn)
    e = heldout_contributions(m, Xn, y)
    np.testing.assert_allclose(e.output, ref, atol=1e-9)
    np.testing.assert_allclose(
        e.bias[0], y.mean() if C == 1 else np.bincount(y, minlength=C) / n
    )


@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(10, 60), C=st.integers(2, 4))
def test_gov_multiclass_modes(seed, n, C):
    "'mean' is the mean of 'per_class'; every GOV lies in [0, 1]; one output equals its per-class column."
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(n, 2, C))
    V -= V.mean(2, keepdims=True)
    e = Explanation(
        V, np.zeros((n, C)), ['a', 'b'], rng.normal(size=(n, 2)), list(range(C))
    )
    per = goodness_of_visualization(e, multiclass='per_class')
    mean = goodness_of_visualization(e)
    pooled = goodness_of_visualization(e, multiclass='pooled')
    np.testing.assert_allclose(mean.values, per.mean(axis=1).values, atol=1e-12)
    assert ((per.values >= 0) & (per.values <= 1)).all() and (
        (pooled >= 0) & (pooled <= 1)
    ).all()
    np.testing.assert_allclose(
        goodness_of_visualization(e, output=C - 1).values,
        per.iloc[:, -1].values,
        atol=1e-12,
    )


@HSET
@given(
    h=st.lists(
        st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)),
        min_size=1,
        max_size=30,
    )
)
def test_hsv_against_colorsys(h):
    H = np.array(h)
    np.testing.assert_allclose(
        _hsv_rgb(H[:, 0], H[:, 1], H[:, 2]),
        [colorsys.hsv_to_rgb(*r) for r in h],
        atol=1e-12,
    )


def test_no_pyplot_at_import_time():
    "Import-time rule: the forest-floor modules import matplotlib only inside functions (no top-level import)."
    import ast, deepforest_interp.forest_floor as ff, deepforest_interp.forest_floor_plots as ffp

    for mod in (ff, ffp):
        tree = ast.parse(open(mod.__file__, encoding='utf-8').read())
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        names = [a.name for n in top if isinstance(n, ast.Import) for a in n.names] + [
            n.module for n in top if isinstance(n, ast.ImportFrom) and n.module
        ]
        assert not [m for m in names if m.split('.')[0] in ('matplotlib', 'numba')], (
            mod.__name__,
            names,
        )


def test_cv_contributions_equal_cross_val_predict():
    "n-fold cross-validated contributions (issue 20): bias + F_0 + sum F is scikit-learn's cross-validated prediction."
    import numpy as np
    from sklearn.ensemble import RandomForestRegressor, ExtraTreesClassifier
    from sklearn.model_selection import cross_val_predict, KFold, StratifiedKFold
    from deepforest_interp.forest_floor import cv_contributions

    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(150, 3))
    y = X[:, 0] ** 2 + X[:, 1] * X[:, 2]
    est = RandomForestRegressor(n_estimators=15, random_state=1)
    e = cv_contributions(est, X, y, n_folds=3, random_state=2)
    ref = cross_val_predict(est, X, y, cv=KFold(3, shuffle=True, random_state=2))
    assert (
        np.abs(e.output - ref).max() < 1e-9 * max(1, np.abs(ref).max())
        and np.isfinite(e.values).all()
    )
    yc = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)
    ec = cv_contributions(
        ExtraTreesClassifier(n_estimators=10, bootstrap=True, random_state=0),
        X,
        yc,
        n_folds=3,
    )
    refc = cross_val_predict(
        ExtraTreesClassifier(n_estimators=10, bootstrap=True, random_state=0),
        X,
        yc,
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
        method='predict_proba',
    )
    assert np.abs(ec.output - refc).max() < 1e-9


def test_oob_shapley_is_the_oob_average_of_shaps_tree_values():
    "attribution='shapley': each row's OOB trees' Shapley values (shap's TreeExplainer as the oracle), averaged."
    shap = pytest.importorskip('shap')

    rng = np.random.default_rng(4)
    X = rng.uniform(-1, 1, size=(120, 3))
    y = X[:, 0] * X[:, 1] + np.sin(3 * X[:, 2])
    rf = RandomForestRegressor(
        n_estimators=15, max_depth=4, oob_score=True, random_state=0
    ).fit(X, y)
    e = oob_contributions(rf, X, y, attribution='shapley')
    oob = inbag_counts(rf, len(X)) == 0
    ref = np.zeros_like(e.values)
    for j, t in enumerate(rf.estimators_):
        v = shap.TreeExplainer(t).shap_values(
            X.astype(np.float32), check_additivity=False
        )
        ref += oob[j][:, None] * v / oob.sum(0)[:, None]
    assert np.abs(e.values - ref).max() < 1e-6
    path = oob_contributions(rf, X, y)
    assert np.allclose(e.bias, path.bias) and np.allclose(e.bootstrap, path.bootstrap)
    assert np.abs(e.output - rf.oob_prediction_).max() < 1e-9
    with pytest.raises(ValueError, match='attribution'):
        oob_contributions(rf, X, y, attribution='saabas')
