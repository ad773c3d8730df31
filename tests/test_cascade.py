"Tests of deepforest_interp.cascade: scikit-learn conformance, the cascade's identities, reproducibility, bad input."

import warnings
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestClassifier,
    ExtraTreesClassifier,
    RandomForestRegressor,
    ExtraTreesRegressor,
)
from sklearn.utils.estimator_checks import parametrize_with_checks
from deepforest_interp.cascade import (
    CascadeForestClassifier,
    CascadeForestRegressor,
    plot_validation_curve,
)

TINY = dict(n_forests=2, n_estimators=3, max_layers=2, random_state=0)


# Random forests cannot make integer sample weights equal to repeated rows (bootstrap and fold draws differ);
# scikit-learn marks the same check as an expected failure for its own RandomForest*/ExtraTrees* (instance_generator.py).
_SW_EQUIV = {
    'check_sample_weight_equivalence_on_dense_data': 'sample_weight is not equivalent to removing/repeating samples (random forests, cross-fitted folds)'
}


@parametrize_with_checks(
    [CascadeForestClassifier(**TINY), CascadeForestRegressor(**TINY)],
    expected_failed_checks=lambda est: _SW_EQUIV,
)
def test_sklearn_conformance(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        check(estimator)


def _chain_outputs(model, X, j):
    "Outputs (n, F, C) per layer of the cascade restricted to the fold-j models."
    outs, out = [], None
    for l in range(model.n_layers_):
        Z = X if out is None else np.hstack([X, out.reshape(len(X), -1)])
        pred = (
            (lambda m: m.predict_proba(Z))
            if hasattr(model, 'classes_')
            else (lambda m: m.predict(Z)[:, None])
        )
        out = np.stack(
            [pred(model.layers_[l][f][j]) for f in range(model.n_forests)], axis=1
        )
        outs.append(out)
    return outs


def _check_identities(model, X, X_new, greater_is_better):
    n, K = X.shape
    F, C, J = model.n_forests, model.n_outputs_, model.n_folds
    s = np.asarray(model.validation_scores_)
    best = int(np.argmax(s) if greater_is_better else np.argmin(s))
    assert model.best_layer_ == best and model.n_layers_ == best + 1
    assert len(s) == min(
        model.max_layers, best + 1 + model.n_tolerant_rounds
    )  # the stopping rule
    assert len(model.layers_) == len(model.oof_outputs_) == model.n_layers_
    # folds partition the rows, in every layer
    assert len(model.folds_) == model.n_layers_
    for folds in model.folds_:
        assert len(folds) == J
        np.testing.assert_array_equal(
            np.sort(np.concatenate([v for _, v in folds])), np.arange(n)
        )
        for tr, va in folds:
            assert len(np.intersect1d(tr, va)) == 0 and len(tr) + len(va) == n
    for l in range(model.n_layers_):
        assert model.oof_outputs_[l].shape == (n, F, C)
        for f in range(F):
            kinds = (
                (RandomForestClassifier, RandomForestRegressor)
                if f % 2 == 0
                else (ExtraTreesClassifier, ExtraTreesRegressor)
            )
            assert (
                all(isinstance(m, kinds) for m in model.layers_[l][f])
                and len(model.layers_[l][f]) == J
            )
    # each training row's out-of-fold output at layer l is the fold model's that did not see it at that layer
    pred = (
        (lambda m, Z: m.predict_proba(Z))
        if hasattr(model, 'classes_')
        else (lambda m, Z: m.predict(Z)[:, None])
    )
    for l in range(model.n_layers_):
        Z = model.layer_input(X, l, oof=True)
        for j, (tr, va) in enumerate(model.folds_[l]):
            out = np.stack(
                [pred(model.layers_[l][f][j], Z[va]) for f in range(F)], axis=1
            )
            np.testing.assert_array_equal(out, model.oof_outputs_[l][va])
            assert model.layers_[l][0][j].n_features_in_ == (K if l == 0 else K + F * C)
    # with fold_scheme='fixed' the whole chain of fold-j models never saw the rows of fold j
    if model.fold_scheme == 'fixed':
        for j, (tr, va) in enumerate(model.folds_[0]):
            for l, out in enumerate(_chain_outputs(model, X[va], j)):
                np.testing.assert_array_equal(out, model.oof_outputs_[l][va])
    # the training input of layer l is built from the previous layer's out-of-fold outputs
    for l in range(model.n_layers_):
        Z = model.layer_input(X, l, oof=True)
        if l:
            np.testing.assert_array_equal(
                Z[:, K:], model.oof_outputs_[l - 1].reshape(n, F * C)
            )
        np.testing.assert_array_equal(Z[:, :K], X)
    # new data: layer input columns K + f*C + c are forest f's fold-averaged outputs of the previous layer
    for l in range(model.n_layers_):
        outs = model.layer_outputs(X_new, l)
        assert outs.shape == (len(X_new), F, C)
        for f in range(F):
            fo = model.forest_output(X_new, l, f)
            np.testing.assert_allclose(
                fo if fo.ndim == 2 else fo[:, None], outs[:, f], rtol=0, atol=1e-12
            )
        if l + 1 < model.n_layers_:
            Z = model.layer_input(X_new, l + 1)
            np.testing.assert_allclose(
                Z[:, K:], outs.reshape(len(X_new), F * C), rtol=0, atol=1e-12
            )
    return s


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(30, 70),
    K=st.integers(1, 4),
    C=st.integers(2, 3),
    J=st.integers(2, 3),
    F=st.integers(1, 3),
    tol=st.integers(1, 2),
    scheme=st.sampled_from(['per_layer', 'fixed']),
)
def test_classifier_identities(seed, n, K, C, J, F, tol, scheme):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)).round(2)
    y = np.r_[
        np.repeat(np.arange(C), J), rng.integers(0, C, n - C * J)
    ]  # every class >= J rows
    model = CascadeForestClassifier(
        n_forests=F,
        n_estimators=3,
        n_folds=J,
        max_layers=4,
        n_tolerant_rounds=tol,
        max_depth=3,
        fold_scheme=scheme,
        random_state=seed,
    ).fit(X, y)
    X_new = rng.normal(size=(11, K))
    _check_identities(model, X, X_new, True)
    for l in range(model.n_layers_):
        p = model.predict_proba(X_new, layer=l)
        np.testing.assert_allclose(p.sum(1), 1.0, atol=1e-12)
        np.testing.assert_allclose(p, model.layer_outputs(X_new, l).mean(1), atol=1e-12)
        np.testing.assert_array_equal(
            model.predict(X_new, layer=l), model.classes_[p.argmax(1)]
        )
        oof_pred = model.oof_outputs_[l].mean(1).argmax(1)
        assert model.validation_scores_[l] == pytest.approx(
            np.mean(oof_pred == y), abs=1e-12
        )
    np.testing.assert_array_equal(model.predict(X_new), model.predict(X_new, layer=-1))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 70),
    K=st.integers(1, 4),
    J=st.integers(2, 3),
    F=st.integers(1, 3),
    tol=st.integers(1, 2),
    scheme=st.sampled_from(['per_layer', 'fixed']),
)
def test_regressor_identities(seed, n, K, J, F, tol, scheme):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, K))
    y = np.sin(3 * X[:, 0]) + rng.normal(scale=0.1, size=n)
    model = CascadeForestRegressor(
        n_forests=F,
        n_estimators=3,
        n_folds=J,
        max_layers=4,
        n_tolerant_rounds=tol,
        max_depth=3,
        fold_scheme=scheme,
        random_state=seed,
    ).fit(X, y)
    X_new = rng.uniform(size=(9, K))
    _check_identities(model, X, X_new, False)
    for l in range(model.n_layers_):
        np.testing.assert_allclose(
            model.predict(X_new, layer=l),
            model.layer_outputs(X_new, l).mean(1)[:, 0],
            atol=1e-12,
        )
        mse = np.mean((model.oof_outputs_[l].mean(1)[:, 0] - y) ** 2)
        assert model.validation_scores_[l] == pytest.approx(mse, abs=1e-12)


@pytest.mark.parametrize('Est', [CascadeForestClassifier, CascadeForestRegressor])
def test_bit_reproducible(Est):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 5))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    kw = dict(
        n_forests=2, n_estimators=3, max_layers=3, n_tolerant_rounds=3, random_state=7
    )
    a, b = Est(**kw).fit(X, y), Est(n_jobs=2, **kw).fit(X, y)
    assert a.validation_scores_ == b.validation_scores_
    for l in range(a.n_layers_):
        np.testing.assert_array_equal(a.oof_outputs_[l], b.oof_outputs_[l])
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    c = Est(**{**kw, 'random_state': 8}).fit(X, y)
    assert not np.array_equal(a.oof_outputs_[0], c.oof_outputs_[0])


def test_training_fingerprint_and_names():
    rng = np.random.default_rng(2)
    df = pd.DataFrame(rng.normal(size=(40, 3)), columns=['a', 'b', 'c'])
    y = np.arange(40) % 2
    m = CascadeForestClassifier(
        n_forests=2, n_estimators=3, max_layers=2, random_state=0
    ).fit(df, y)
    assert list(m.feature_names_in_) == ['a', 'b', 'c']
    assert m.is_training_data(df) and m.is_training_data(df.to_numpy())
    assert not m.is_training_data(df.iloc[1:]) and not m.is_training_data(
        df.sample(frac=1, random_state=0)
    )
    assert not m.is_training_data(df * 1.0000001) and not m.is_training_data(
        np.ones((40, 2))
    )
    assert m.train_fingerprint_['shape'] == (40, 3)
    with pytest.raises(ValueError, match='training data'):
        m.layer_input(df.iloc[:10], 0, oof=True)
    ax = plot_validation_curve(m)
    assert ax.get_xlabel() == 'layer'
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_bad_input_messages():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 3))
    y = np.arange(30) % 3
    with pytest.raises(ValueError, match='n_samples=2 is fewer than n_folds=3'):
        CascadeForestClassifier().fit(X[:2], y[:2])
    with pytest.raises(ValueError, match='only one class'):
        CascadeForestClassifier().fit(X, np.zeros(30))
    with pytest.raises(
        ValueError, match=r'class 1.0 has only 2 row\(s\), fewer than n_folds=3'
    ):
        CascadeForestClassifier().fit(X[:22], np.r_[np.zeros(20), 1, 1])
    with pytest.raises(ValueError, match='Unknown label type'):
        CascadeForestClassifier().fit(X, rng.normal(size=30))
    Xn = X.copy()
    Xn[3, 1] = np.inf  # NaN is routed as the forests route it (test below)
    with pytest.raises(ValueError, match='infinity'):
        CascadeForestRegressor().fit(Xn, y)
    with pytest.raises(ValueError, match='NaN'):
        CascadeForestRegressor().fit(X, np.r_[np.nan, y[1:]])
    with pytest.raises(ValueError, match='could not convert'):
        CascadeForestRegressor().fit([['a', 'b']] * 4, [1.0] * 4)
    with pytest.raises(ValueError, match='n_tolerant_rounds'):
        CascadeForestRegressor(n_tolerant_rounds=0).fit(X, y)
    m = CascadeForestRegressor(
        n_forests=2, n_estimators=3, max_layers=2, random_state=0
    ).fit(X, y)
    with pytest.raises(ValueError, match='out of range'):
        m.predict(X, layer=m.n_layers_)
    with pytest.raises(ValueError, match='out of range'):
        m.layer_input(X, -m.n_layers_ - 1)
    with pytest.raises(TypeError, match='layer must be an int'):
        m.predict(X, layer='last')
    with pytest.raises(ValueError, match='forest=2 is out of range'):
        m.forest_output(X, 0, 2)
    with pytest.raises(ValueError, match='features'):
        m.predict(X[:, :2])
    # a constant target is legal: a perfect layer 0 that no later layer beats
    c = CascadeForestRegressor(
        n_forests=2, n_estimators=3, max_layers=5, random_state=0
    ).fit(X, np.full(30, -1.5))
    assert c.best_layer_ == 0 and c.validation_scores_[0] == 0.0
    np.testing.assert_array_equal(c.predict(X[:4]), np.full(4, -1.5))


# ---- pickles: packed trees come back byte for byte ------------------------------------
def _tree_state_bytes(model):
    out = []
    for layer in model.layers_:
        for forests in layer:
            for fm in forests:
                for t in fm.estimators_:
                    st = t.tree_.__getstate__()
                    out += [st['nodes'][n].tobytes() for n in st['nodes'].dtype.names]
                    out += [st['values'].tobytes(), str(st['max_depth'])]
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(36, 120),  # >= n_folds rows of each of up to 12 classes
    C=st.integers(2, 12),
    weighted=st.booleans(),
    regression=st.booleans(),
    max_depth=st.sampled_from([None, 2, 6]),
    bootstrap_dup=st.booleans(),
)
def test_pickle_round_trip_exact(
    seed, n, C, weighted, regression, max_depth, bootstrap_dup
):
    import pickle

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    if bootstrap_dup:  # duplicated rows with conflicting labels: impure leaves
        X = np.vstack([X, X[: n // 2]])
    y = X[:, 0] + rng.normal(size=len(X)) if regression else np.arange(len(X)) % C
    w = rng.uniform(0.5, 3, size=len(X)) if weighted else None
    Est = CascadeForestRegressor if regression else CascadeForestClassifier
    model = Est(
        n_forests=2,
        n_estimators=3,
        max_depth=max_depth,
        max_layers=2,
        n_tolerant_rounds=2,
        random_state=seed,
    ).fit(X, y, sample_weight=w)
    before = _tree_state_bytes(model)
    back = pickle.loads(pickle.dumps(model))
    assert (
        _tree_state_bytes(model) == before
    )  # pickling does not touch the fitted model
    assert _tree_state_bytes(back) == before
    out = back.predict(X) if regression else back.predict_proba(X)
    ref = model.predict(X) if regression else model.predict_proba(X)
    np.testing.assert_array_equal(out, ref)


def test_pickle_is_compact_and_explains_the_same():
    import pickle
    from sklearn.base import BaseEstimator
    from deepforest_interp.calibration import deep_forest_contributions

    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(1500, 6)).astype(float)
    y = (X[:, 0] + rng.integers(0, 4, size=1500) > 4).astype(int)
    model = CascadeForestClassifier(n_estimators=10, max_layers=2, random_state=0).fit(
        X, y
    )
    plain = len(pickle.dumps(BaseEstimator.__getstate__(model)))
    blob = pickle.dumps(model)
    assert len(blob) * 5 < plain, (len(blob), plain)
    back = pickle.loads(blob)
    a, b = (
        deep_forest_contributions(model, X[:50]),
        deep_forest_contributions(back, X[:50]),
    )
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.bias, b.bias)


def test_pickle_of_hidf_round_trip():
    import pickle
    from deepforest_interp.hidf import HiDFClassifier

    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 5))
    y = ((X[:, 0] > 0) & (X[:, 1] > 0)).astype(int)
    model = HiDFClassifier(n_estimators=5, max_layers=2, random_state=0).fit(X, y)
    back = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(back.predict_proba(X), model.predict_proba(X))


def test_cascade_routes_nan_as_its_forests():
    "scikit-learn >= 1.4 forests route NaN: the cascade takes it, and its explanations add up on such rows (issue 45)."
    from deepforest_interp.calibration import deep_forest_contributions

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] > 0).astype(int)
    X[::5, 1] = np.nan
    m = CascadeForestClassifier(**TINY).fit(X, y)
    assert m.__sklearn_tags__().input_tags.allow_nan
    e = deep_forest_contributions(m, X[:20])
    np.testing.assert_allclose(e.output, m.predict_proba(X[:20]), atol=1e-12)
    assert m.is_training_data(X)


def test_from_fitted_layers_equals_the_fit():
    "A cascade rebuilt from a fitted one's layers (`from_fitted_layers`) predicts and is explained as the fitted one."
    from deepforest_interp.calibration import deep_forest_contributions
    from deepforest_interp.datasets import make_three_class

    X, y = make_three_class(150, n_noise=2, random_state=0)
    params = dict(n_forests=2, n_estimators=5, max_depth=4, max_layers=2)
    m = CascadeForestClassifier(**params, random_state=0).fit(X, y)
    r = CascadeForestClassifier.from_fitted_layers(
        m.layers_, m.folds_, m.oof_outputs_, X, y, classes=m.classes_, **params
    )
    assert r.best_layer_ == m.best_layer_
    assert r.fold_inbag_ is None and r.is_training_data(X)
    np.testing.assert_array_equal(r.predict_proba(X[:20]), m.predict_proba(X[:20]))
    a, b = deep_forest_contributions(m, X[:20]), deep_forest_contributions(r, X[:20])
    np.testing.assert_array_equal(a.values, b.values)
    with pytest.raises(ValueError, match='one entry per layer'):
        CascadeForestClassifier.from_fitted_layers(m.layers_, [], [], X, y)
