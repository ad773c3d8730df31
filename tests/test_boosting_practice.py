"Boosting models as practitioners fit them: categories, missing-value sentinels, logitraw, column names LightGBM rewrites."

import numpy as np
import pandas as pd
import pytest

import deepforest_interp as dfi

xgb = pytest.importorskip('xgboost')
lgb = pytest.importorskip('lightgbm')

rng = np.random.default_rng(0)
N = 400
FRAME = pd.DataFrame(
    {
        'a': rng.normal(size=N),
        'colour': pd.Categorical(rng.choice(['red', 'green', 'blue', 'grey'], N)),
        'size': pd.Categorical(rng.choice([10, 20, 35], N)),
        'b': rng.normal(size=N),
    }
)
FRAME.loc[rng.uniform(size=N) < 0.05, 'colour'] = np.nan
Y_REG = FRAME.a + 2 * (FRAME.colour == 'green') - (FRAME['size'] == 35) + 0.1 * FRAME.b
Y_CLS = np.where(Y_REG > 0.5, 'high', np.where(Y_REG > -0.5, 'mid', 'low'))


def _new_rows():
    "Rows with categories in another order, an unseen category and a missing value."
    X = FRAME.iloc[:60].copy()
    X['colour'] = (
        X['colour']
        .cat.add_categories(['purple'])
        .cat.reorder_categories(['purple', 'grey', 'red', 'green', 'blue'])
    )
    X.loc[X.index[:5], 'colour'] = 'purple'
    X.loc[X.index[5:8], 'size'] = np.nan
    return X[['b', 'size', 'a', 'colour']]  # and the columns in another order


def _margin(m, X):
    if 'XGB' in type(m).__name__:
        return m.predict(X, output_margin=True)
    return m.predict(X, raw_score=True)


@pytest.mark.parametrize('lib', ['xgboost', 'lightgbm'])
@pytest.mark.parametrize('task', ['regression', 'classification'])
def test_category_columns_are_explained_in_their_own_categories(lib, task):
    y = Y_REG if task == 'regression' else Y_CLS
    if lib == 'xgboost':
        cls = xgb.XGBRegressor if task == 'regression' else xgb.XGBClassifier
        m = cls(
            n_estimators=15, max_depth=3, enable_categorical=True, tree_method='hist'
        )
        if task == 'classification':
            y = pd.Series(y).map({'low': 0, 'mid': 1, 'high': 2})
    else:
        cls = lgb.LGBMRegressor if task == 'regression' else lgb.LGBMClassifier
        m = cls(n_estimators=15, min_child_samples=5, verbose=-1)
    m.fit(FRAME, y)
    for X in (FRAME, _new_rows()):
        e = dfi.contributions(m, X)
        out = np.asarray(_margin(m, X[list(FRAME.columns)]), dtype=float)
        out = out.reshape(e.output.shape)
        np.testing.assert_allclose(e.output, out, atol=1e-5 * max(1, np.abs(out).max()))
        assert e.feature_names == ['a', 'colour', 'size', 'b']
        # the rows are shown with their labels, aligned with the names
        shown = pd.DataFrame(np.asarray(e.data), columns=e.feature_names).fillna('-')
        want = X[e.feature_names].astype(object).fillna('-')
        assert shown.values.tolist() == want.values.tolist()


def test_xgboost_logitraw_margin_is_the_base_score():
    X = FRAME[['a', 'b']].to_numpy()
    m = xgb.XGBClassifier(
        n_estimators=10, max_depth=3, objective='binary:logitraw'
    ).fit(X, (Y_REG > 0).astype(int))
    e = dfi.contributions(m, X)
    np.testing.assert_allclose(
        e.output.ravel(), m.predict(X, output_margin=True), atol=1e-5
    )


@pytest.mark.parametrize('sentinel', [-999.0, 1e-8])
def test_xgboost_missing_sentinel_is_routed_as_missing(sentinel):
    X = FRAME[['a', 'b']].to_numpy().copy()
    X[rng.uniform(size=X.shape) < 0.15] = sentinel
    m = xgb.XGBRegressor(n_estimators=10, max_depth=3, missing=sentinel).fit(X, Y_REG)
    e = dfi.contributions(m, X)
    np.testing.assert_allclose(e.output, m.predict(X), atol=1e-5)


def test_lightgbm_names_with_spaces_take_the_callers_frame():
    X = FRAME[['a', 'b']].rename(columns={'a': 'first value', 'b': 'b  second'})
    m = lgb.LGBMRegressor(n_estimators=10, verbose=-1).fit(X, Y_REG)
    e = dfi.contributions(m, X)
    assert e.feature_names == ['first value', 'b  second']
    np.testing.assert_allclose(e.output, m.predict(X), atol=1e-9)
    # the same in another column order
    e2 = dfi.contributions(m, X[['b  second', 'first value']])
    np.testing.assert_array_equal(e2.values, e.values)


def test_xgboost_bool_columns_and_their_missing_values():
    r = np.random.default_rng(2)
    G = pd.DataFrame(
        {'a': r.normal(size=N), 'flag': r.random(N) < 0.5, 'k': r.integers(0, 3, N)}
    )
    y = ((G.a + 2 * G.flag - G.k) > 0).astype(int).to_numpy()
    nullable = G.astype({'flag': 'boolean'})
    nullable.loc[::5, 'flag'] = pd.NA
    for X in (G, nullable):  # XGBoost stores bool columns as indicator ('i') features
        m = xgb.XGBClassifier(n_estimators=10, max_depth=3).fit(X, y)
        e = dfi.contributions(m, X)
        np.testing.assert_allclose(e.output[:, 0], _margin(m, X), atol=1e-5)


def test_category_models_take_a_row_series_strings_and_refuse_unseen_categories():
    for m in (
        xgb.XGBRegressor(n_estimators=5, enable_categorical=True),
        lgb.LGBMRegressor(n_estimators=5, verbose=-1, min_child_samples=5),
    ):
        m.fit(FRAME, Y_REG)
        full = dfi.contributions(m, FRAME.iloc[[3]])
        np.testing.assert_array_equal(
            dfi.contributions(m, FRAME.iloc[3]).values, full.values
        )
        as_text = FRAME.assign(colour=FRAME.colour.astype(str).replace('nan', np.nan))
        np.testing.assert_allclose(
            dfi.contributions(m, as_text).values, dfi.contributions(m, FRAME).values
        )
    xm = xgb.XGBRegressor(n_estimators=5, enable_categorical=True).fit(FRAME, Y_REG)
    with pytest.raises(ValueError, match='not in the training set'):
        dfi.contributions(xm, FRAME.iloc[:3].assign(colour=pd.Categorical(['zz'] * 3)))


def test_numbers_in_object_columns_are_read_as_numbers():
    from sklearn.ensemble import RandomForestRegressor

    X = FRAME[['a', 'b']]
    rf = RandomForestRegressor(5, random_state=0).fit(X, Y_REG)
    e = dfi.contributions(rf, X.astype(object))
    np.testing.assert_allclose(e.output, rf.predict(X), atol=1e-9)


@pytest.mark.parametrize('family', ['xgboost', 'hgb'])
def test_binary_boosting_gives_shap_users_their_shape(family):
    "A binary booster explains one column, the log-odds of classes_[1]: values (n, K, 1); `to_shap()` is shap's (n, K)."
    shap = pytest.importorskip('shap')
    from sklearn.ensemble import HistGradientBoostingClassifier

    r = np.random.default_rng(3)
    X = r.normal(size=(300, 5))
    y = np.where(X[:, 0] + X[:, 1] * X[:, 2] > 0, 'yes', 'no')
    if family == 'xgboost':
        m = xgb.XGBClassifier(n_estimators=20, max_depth=3).fit(
            X, (y == 'yes').astype(int)
        )
        positive = 1
    else:
        m = HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(X, y)
        positive = 'yes'
    e = dfi.contributions(m, X)
    assert e.values.shape == (300, 5, 1) and e.output_names == [positive]
    with pytest.warns(UserWarning, match='not Shapley values'):
        s = e.to_shap()
    sv = np.asarray(shap.TreeExplainer(m).shap_values(X, approximate=True))
    assert s.values.shape == sv.shape == (300, 5)
    # XGBoost keeps float32 leaves: shap and we agree to its rounding
    np.testing.assert_allclose(s.values, sv, atol=1e-6 if family == 'xgboost' else 1e-9)
    np.testing.assert_allclose(
        s.base_values + s.values.sum(1), e.output[:, 0], atol=1e-9
    )
