"Boosting libraries (notebook 01c): HistGradientBoosting*, XGBoost and LightGBM contributions add up to each model's raw score."

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    GradientBoostingClassifier,
)
from deepforest_interp.boosting import (
    boosted_trees,
)
from deepforest_interp.tree_contributions import contributions

HSET = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _rel(a, b):
    return np.abs(np.asarray(a) - np.asarray(b)).max() / max(
        1.0, float(np.abs(b).max())
    )


def _data(rng, n, K, nan_frac, n_cats):
    X = rng.normal(size=(n, K)).round(
        rng.choice([1, 3])
    )  # rounding creates ties at thresholds
    cat = rng.integers(0, n_cats, n).astype(float)
    X[rng.random(X.shape) < nan_frac] = np.nan
    cat[rng.random(n) < nan_frac] = np.nan
    return X, cat


@st.composite
def hgb_models(draw):
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n, K = draw(st.integers(40, 200)), draw(st.integers(1, 4))
    X, cat = _data(
        rng, n, K, draw(st.sampled_from([0.0, 0.1, 0.3])), draw(st.integers(2, 12))
    )
    kind = draw(st.sampled_from(['reg', 'poisson', 'bin', 'multi']))
    signal = np.nan_to_num(X[:, 0]) + np.nan_to_num(cat) % 3
    as_frame = draw(st.booleans())
    df = pd.DataFrame(X, columns=[f'f{j}' for j in range(K)])
    if as_frame:
        df.insert(
            draw(st.integers(0, K)), 'cat', pd.Categorical(cat)
        )  # categorical_features='from_dtype'
    else:
        df.insert(K, 'cat', cat)
    params = dict(
        max_iter=draw(st.integers(1, 15)),
        max_leaf_nodes=draw(st.sampled_from([2, 4, 8, 16])),
        learning_rate=draw(st.sampled_from([0.1, 0.5])),
        min_samples_leaf=draw(st.sampled_from([1, 5, 20])),
        l2_regularization=draw(st.sampled_from([0.0, 1.0])),
        random_state=seed,
        categorical_features='from_dtype' if as_frame else [K],
    )
    w = rng.uniform(0.2, 3, n) if draw(st.booleans()) else None
    if kind in ('reg', 'poisson'):
        y = signal + rng.normal(size=n)
        if kind == 'poisson':
            y = np.exp(y / 3)
        m = HistGradientBoostingRegressor(
            loss='poisson' if kind == 'poisson' else 'squared_error', **params
        )
    else:
        C = 2 if kind == 'bin' else draw(st.integers(3, 4))
        y = np.digitize(
            signal + rng.normal(size=n),
            np.quantile(signal, np.linspace(0, 1, C + 1)[1:-1]),
        )
        y[:C] = np.arange(C)
        m = HistGradientBoostingClassifier(**params)
    m.fit(df if as_frame else df.to_numpy(), y, sample_weight=w)
    return m, (df if as_frame else df.to_numpy()), kind


@HSET
@given(hgb_models())
def test_hgb_identity(mXk):
    m, X, kind = mXk
    e = contributions(m, X)
    raw = m._raw_predict(X)
    if kind in ('reg', 'poisson'):
        assert e.values.shape == (len(X), X.shape[1]) and e.output_names is None
        out = np.log(m.predict(X)) if kind == 'poisson' else m.predict(X)
        assert _rel(e.output, out) < 1e-9
    else:
        C = len(m.classes_)
        assert e.values.shape == (len(X), X.shape[1], 1 if C == 2 else C)
        assert e.output_names == (list(m.classes_[1:]) if C == 2 else list(m.classes_))
        assert _rel(e.output, m.decision_function(X).reshape(len(X), -1)) < 1e-9
    assert _rel(e.output, raw.reshape(e.output.shape)) < 1e-9
    assert np.isfinite(e.values).all() and np.isfinite(e.bias).all()


def test_hgb_matches_shap_saabas():
    shap = pytest.importorskip('shap')
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 5))
    y = X[:, 0] * X[:, 1] + X[:, 2]
    X[rng.random(X.shape) < 0.1] = np.nan
    m = HistGradientBoostingRegressor(
        max_iter=25, max_leaf_nodes=12, random_state=0
    ).fit(X, y)
    sv = shap.TreeExplainer(m).shap_values(X, approximate=True)
    np.testing.assert_allclose(contributions(m, X).values, sv, atol=1e-9)


def test_hgb_fixed_case_stump():
    "One split, learning rate 1, no regularisation: node values are the child means, the root their count-weighted mean."
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0.0, 0.0, 1.0, 3.0])
    m = HistGradientBoostingRegressor(
        max_iter=1,
        learning_rate=1.0,
        max_leaf_nodes=2,
        min_samples_leaf=1,
        early_stopping=False,
    ).fit(X, y)
    e = contributions(m, X)
    base = y.mean()  # squared error baseline
    left, right = (m.predict(X[:1]) - base)[0], (m.predict(X[-1:]) - base)[0]
    n_left = int((m.predict(X) == m.predict(X[:1])[0]).sum())
    root = (n_left * left + (4 - n_left) * right) / 4
    np.testing.assert_allclose(e.bias, base + root, atol=1e-12)
    np.testing.assert_allclose(
        e.values[:, 0],
        np.r_[[left - root] * n_left, [right - root] * (4 - n_left)],
        atol=1e-12,
    )


def test_binary_classifiers_share_dimensionality():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] > 0, 'yes', 'no')
    shapes = {}
    for m in [
        RandomForestClassifier(n_estimators=5, random_state=0),
        GradientBoostingClassifier(n_estimators=5),
        HistGradientBoostingClassifier(max_iter=5),
    ]:
        e = contributions(m.fit(X, y), X)
        shapes[type(m).__name__] = (e.values.ndim, e.bias.ndim, e.output_names)
    assert shapes['RandomForestClassifier'] == (3, 2, ['no', 'yes'])
    assert (
        shapes['GradientBoostingClassifier']
        == shapes['HistGradientBoostingClassifier']
        == (3, 2, ['yes'])
    )


def test_hgb_bad_input():
    X = np.random.default_rng(0).normal(size=(50, 3))
    y = X[:, 0]
    m = HistGradientBoostingRegressor(max_iter=3).fit(X, y)
    with pytest.raises(ValueError, match='features'):
        contributions(m, X[:, :2])
    with pytest.raises(ValueError, match='infinite'):
        contributions(m, np.where(X > 1, np.inf, X))
    with pytest.raises(TypeError, match='not numbers'):
        contributions(m, np.array([['a', 'b', 'c']]))
    from deepforest_interp.walkers import walk

    with pytest.raises(TypeError, match='NodeTable'):
        walk(m, X)
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        contributions(HistGradientBoostingClassifier(), X)


# ---- XGBoost ---------------------------------------------------------------------------------------------------


@st.composite
def xgb_models(draw):
    xgb = pytest.importorskip('xgboost')
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n, K = draw(st.integers(40, 200)), draw(st.integers(1, 4))
    X, _ = _data(rng, n, K, draw(st.sampled_from([0.0, 0.2])), 2)
    kind = draw(st.sampled_from(['reg', 'bin', 'multi', 'poisson']))
    params = dict(
        n_estimators=draw(st.integers(1, 20)),
        max_depth=draw(st.integers(1, 5)),
        random_state=seed,
        learning_rate=draw(st.sampled_from([0.1, 0.5])),
        num_parallel_tree=draw(st.sampled_from([1, 2])),
        subsample=0.8,
        n_jobs=1,
    )
    s = np.nan_to_num(X[:, 0])
    if kind == 'reg':
        m = xgb.XGBRegressor(**params).fit(X, s + rng.normal(size=n))
    elif kind == 'poisson':
        m = xgb.XGBRegressor(objective='count:poisson', **params).fit(
            X, rng.poisson(np.exp(s / 2))
        )
    else:
        C = 2 if kind == 'bin' else 3
        y = rng.integers(0, C, n)
        y[s > 0.5] = C - 1
        y[:C] = np.arange(C)
        m = xgb.XGBClassifier(**params).fit(X, y)
    return m, X


@HSET
@given(xgb_models())
def test_xgb_margin_and_approx_contribs(mX):
    xgb = pytest.importorskip('xgboost')
    m, X = mX
    e = contributions(m, X)
    margin = m.predict(X, output_margin=True).reshape(e.output.shape)
    assert _rel(e.output, margin) < 1e-6  # xgboost sums float32 leaves in float32
    approx = m.get_booster().predict(
        xgb.DMatrix(X), pred_contribs=True, approx_contribs=True
    )
    approx = approx if approx.ndim == 3 else approx[:, None, :]  # (n, C, K+1)
    ours = e.values if e.values.ndim == 3 else e.values[..., None]
    assert _rel(ours, np.moveaxis(approx[..., :-1], 1, -1)) < 1e-6
    assert _rel(e.bias.reshape(len(X), -1), approx[..., -1]) < 1e-6


def test_xgb_booster_names_and_early_stopping():
    xgb = pytest.importorskip('xgboost')
    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.normal(size=(300, 3)), columns=['u', 'v', 'w'])
    y = df['u'] + 0.1 * rng.normal(size=300)
    m = xgb.XGBRegressor(
        n_estimators=200, early_stopping_rounds=3, learning_rate=0.5, n_jobs=1
    )
    m.fit(df[:200], y[:200], eval_set=[(df[200:], y[200:])], verbose=False)
    assert m.best_iteration < 199
    e = contributions(m, df)
    assert e.feature_names == ['u', 'v', 'w']
    assert _rel(e.output, m.predict(df, output_margin=True)) < 1e-6
    assert len(boosted_trees(m).roots) == m.best_iteration + 1
    b = xgb.train(
        {'max_depth': 3, 'objective': 'binary:logistic'},
        xgb.DMatrix(df, label=y > 0),
        10,
    )
    e = contributions(b, df)
    assert e.values.shape == (300, 3, 1) and e.output_names == [1]
    assert _rel(e.output[:, 0], b.predict(xgb.DMatrix(df), output_margin=True)) < 1e-6
    with pytest.raises(TypeError, match='gbtree'):
        contributions(
            xgb.XGBRegressor(booster='gblinear', n_estimators=2).fit(df, y), df
        )
    dfc = df.assign(w=pd.Categorical(rng.integers(0, 4, 300)))
    xc = xgb.XGBRegressor(
        n_estimators=3, enable_categorical=True, tree_method='hist'
    ).fit(dfc, y + dfc['w'].cat.codes)
    # categorical splits: explained in the model's own categories (test_boosting_practice)
    e = contributions(xc, dfc)
    assert _rel(e.output, xc.predict(dfc, output_margin=True)) < 1e-6


# ---- LightGBM --------------------------------------------------------------------------------------------------


@st.composite
def lgbm_models(draw):
    lgb = pytest.importorskip('lightgbm')
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n, K = draw(st.integers(60, 200)), draw(st.integers(1, 4))
    X, cat = _data(
        rng, n, K, draw(st.sampled_from([0.0, 0.2])), draw(st.integers(2, 8))
    )
    X[rng.random(X.shape) < draw(st.sampled_from([0.0, 0.2]))] = (
        0.0  # zeros for missing_type 'Zero'
    )
    Xc = np.c_[X, cat]
    kind = draw(st.sampled_from(['reg', 'bin', 'multi']))
    params = dict(
        n_estimators=draw(st.integers(1, 15)),
        num_leaves=draw(st.sampled_from([2, 4, 8])),
        min_child_samples=draw(st.sampled_from([2, 10])),
        random_state=seed,
        verbose=-1,
        n_jobs=1,
        zero_as_missing=draw(st.booleans()),
        use_missing=draw(st.booleans()),
        reg_lambda=draw(st.sampled_from([0.0, 1.0])),
        min_data_per_group=2,
        cat_smooth=1.0,
    )
    if draw(st.booleans()):
        params.update(boosting_type='rf', subsample=0.7, subsample_freq=1)
    s = np.nan_to_num(X[:, 0]) + np.nan_to_num(cat) % 3
    if kind == 'reg':
        m = lgb.LGBMRegressor(**params).fit(
            Xc, s + rng.normal(size=n), categorical_feature=[K]
        )
    else:
        C = 2 if kind == 'bin' else 3
        y = np.digitize(
            s + rng.normal(size=n), np.quantile(s, np.linspace(0, 1, C + 1)[1:-1])
        )
        y[:C] = np.arange(C)
        m = lgb.LGBMClassifier(**params).fit(Xc, y, categorical_feature=[K])
    return m, Xc


@HSET
@given(lgbm_models())
def test_lgbm_raw_score(mX):
    m, X = mX
    e = contributions(m, X)
    raw = m.predict(X, raw_score=True).reshape(e.output.shape)
    if m.boosting_type == 'rf':
        raw = (
            raw / m.booster_.current_iteration()
        )  # raw_score sums the trees predict averages
    assert _rel(e.output, raw) < 1e-9
    if m.boosting_type == 'rf' and isinstance(m, __import__('lightgbm').LGBMRegressor):
        assert _rel(e.output, m.predict(X)) < 1e-9
    assert np.isfinite(e.values).all()


def test_a_booster_edited_in_place_is_read_again():
    "A Booster whose trees are replaced in place (load_model, set_leaf_output) keeps its identity and tree count: the additivity check re-reads it."
    xgb = pytest.importorskip('xgboost')
    lgb = pytest.importorskip('lightgbm')
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = X[:, 0] + X[:, 1] ** 2
    b = xgb.XGBRegressor(n_estimators=5).fit(X, y).get_booster()
    contributions(b, X)
    other = xgb.XGBRegressor(n_estimators=5).fit(X, -y).get_booster()
    b.load_model(bytearray(other.save_raw('json')))
    e = contributions(b, X)  # the default check (16 rows spread over X): re-read
    margin = b.predict(xgb.DMatrix(X), output_margin=True)
    np.testing.assert_allclose(e.output, margin, atol=1e-5 * np.abs(margin).max())
    m = lgb.LGBMRegressor(n_estimators=5, verbose=-1).fit(X, y)
    contributions(m, X)
    m.booster_.set_leaf_output(0, 0, 100.0)
    e = contributions(m, X)
    np.testing.assert_allclose(e.output, m.predict(X, raw_score=True), atol=1e-9)
