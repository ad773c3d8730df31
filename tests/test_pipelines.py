"Pipelines explained on their raw columns (grouping of seed 000 Eq. 12), categorical input, and Explanation as a value."

import warnings
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.pipeline import make_pipeline
from sklearn.compose import make_column_transformer
from sklearn.preprocessing import (
    OneHotEncoder,
    OrdinalEncoder,
    StandardScaler,
    MinMaxScaler,
    KBinsDiscretizer,
    PolynomialFeatures,
)
from sklearn.impute import SimpleImputer
from sklearn.decomposition import PCA
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
)
from sklearn.tree import DecisionTreeRegressor
import deepforest_interp as dfi
from deepforest_interp.rows import check_X
from deepforest_interp.explanation import Explanation
from deepforest_interp.pipelines import unwrap_pipeline
from deepforest_interp.importance import mdi, mdi_covariance, mdi_oob

HSET = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TOL = 1e-9


def _frame(rng, n, n_num, n_cat, nan=False):
    cols = {}
    for j in range(n_num):
        x = rng.normal(size=n).round(2)
        if nan and j == 0:
            x[rng.random(n) < 0.1] = np.nan
        cols[f'num{j}'] = x
    for j in range(n_cat):
        levels = [f'L{j}{k}' for k in range(rng.integers(2, 5))]
        v = rng.choice(levels, n)
        cols[f'cat{j}'] = (
            pd.Categorical(v) if j % 2 == 0 else v
        )  # pandas category and plain strings
    return pd.DataFrame(cols)


NUM_STEPS = ['scale', 'minmax', 'passthrough', 'drop', 'impute', 'bins']
CAT_STEPS = ['onehot', 'ordinal', 'drop']


def _transformer(kind):
    return {
        'scale': StandardScaler(),
        'minmax': MinMaxScaler(),
        'passthrough': 'passthrough',
        'drop': 'drop',
        'impute': make_pipeline(SimpleImputer(add_indicator=True), StandardScaler()),
        'bins': KBinsDiscretizer(
            n_bins=3, encode='onehot-dense', quantile_method='averaged_inverted_cdf'
        ),
        'onehot': OneHotEncoder(handle_unknown='ignore'),
        'ordinal': OrdinalEncoder(),
    }[kind]


@st.composite
def pipelines(draw):
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    n_num, n_cat = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    X = _frame(rng, draw(st.integers(30, 60)), n_num, n_cat, nan=True)
    parts = [
        (_transformer(draw(st.sampled_from(NUM_STEPS))), [f'num{j}'])
        for j in range(n_num)
    ]
    parts[0] = (_transformer('impute'), ['num0'])  # num0 has NaN
    parts += [
        (_transformer(draw(st.sampled_from(CAT_STEPS))), [f'cat{j}'])
        for j in range(n_cat)
    ]
    keep = draw(st.integers(1, len(parts)))  # the rest goes to the remainder
    remainder = draw(st.sampled_from(['drop', 'passthrough', 'scale']))
    rest = [c for _, cols in parts[keep:] for c in cols]
    if remainder != 'drop' and any(c.startswith('cat') or c == 'num0' for c in rest):
        remainder = 'drop'
    ct = make_column_transformer(
        *parts[:keep], remainder=StandardScaler() if remainder == 'scale' else remainder
    )
    kind = draw(st.sampled_from(['rf', 'et', 'gb', 'dtr']))
    y = (X['num1' if n_num > 1 else 'num0'].fillna(0) > 0).astype(int).to_numpy().copy()
    y[:2] = [0, 1]
    model = {
        'rf': RandomForestClassifier(n_estimators=5, random_state=seed),
        'et': ExtraTreesClassifier(n_estimators=5, random_state=seed),
        'gb': GradientBoostingClassifier(n_estimators=5, random_state=seed),
        'dtr': DecisionTreeRegressor(max_depth=4, random_state=seed),
    }[kind]
    yy = rng.normal(size=len(X)) + y if kind == 'dtr' else np.where(y == 1, 'yes', 'no')
    pipe = make_pipeline(ct, model)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # e.g. KBins' constant-bin warnings
        pipe.fit(X, yy)
    return pipe, X


def _pipe_output(pipe):
    m = pipe[-1]
    if isinstance(m, GradientBoostingClassifier):
        return pipe.decision_function
    return pipe.predict_proba if hasattr(m, 'predict_proba') else pipe.predict


@HSET
@given(pipelines())
def test_pipeline_contributions_add_up_and_group_exactly(case):
    pipe, X = case
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        e = dfi.contributions(pipe, X)
        et = dfi.contributions(pipe, X, level='transformed')
        out = np.asarray(_pipe_output(pipe)(X), dtype=float)
    assert e.feature_names == list(X.columns)
    np.testing.assert_allclose(
        e.output,
        out.reshape(e.output.shape),
        rtol=0,
        atol=TOL * max(1, np.abs(out).max()),
    )
    parts = unwrap_pipeline(pipe)
    for j, idx in enumerate(parts.groups.values()):  # grouping is an exact sum
        np.testing.assert_allclose(
            e.values[:, j], et.values[:, idx].sum(1), rtol=0, atol=1e-12
        )
    np.testing.assert_array_equal(e.bias, et.bias)
    raw = X.astype(object).to_numpy()  # data keeps raw values and labels
    same = (e.data == raw) | (pd.isna(e.data) & pd.isna(raw))
    assert same.all()


def _adult_like(n=150, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            'age': rng.integers(18, 80, n).astype(float),
            'workclass': pd.Categorical(
                rng.choice(['Private', 'State-gov', 'Self-emp'], n)
            ),
            'sex': rng.choice(['Female', 'Male'], n),
            'hours': rng.normal(40, 8, n).round(),
            'fnlwgt': rng.normal(size=n),
        }
    )
    y = np.where((X.age > 40) & (X.sex == 'Male') | (X.hours > 48), '>50K', '<=50K')
    ct = make_column_transformer(
        (OneHotEncoder(handle_unknown='ignore'), ['workclass', 'sex']),
        ('drop', ['fnlwgt']),
        remainder='passthrough',
    )
    return X, y, ct


def test_importances_group_to_raw_columns():
    X, y, ct = _adult_like()
    pipe = make_pipeline(
        ct, RandomForestClassifier(n_estimators=20, random_state=0, n_jobs=1)
    ).fit(X, y)
    groups = unwrap_pipeline(pipe).groups
    for f in (
        lambda **k: mdi(pipe, **k),
        lambda **k: mdi_covariance(pipe, X, y, **k),
        lambda **k: mdi_oob(pipe, X, y, **k),
    ):
        raw, tr = f(), f(level='transformed')
        assert list(raw.index) == list(X.columns) and raw['fnlwgt'] == 0
        np.testing.assert_allclose(
            raw.to_numpy(),
            [tr.to_numpy()[idx].sum() for idx in groups.values()],
            atol=1e-12,
        )
    np.testing.assert_allclose(
        mdi_covariance(pipe, X, y).to_numpy(),
        mdi(pipe).to_numpy(),
        rtol=1e-9,
        atol=1e-12,
    )


def test_forest_floor_and_deep_forest_pipelines():
    X, y, ct = _adult_like()
    pipe = make_pipeline(
        ct, RandomForestClassifier(n_estimators=40, random_state=0, n_jobs=1)
    ).fit(X, y)
    e = dfi.oob_contributions(pipe, X, y, n_jobs=1)
    et = dfi.oob_contributions(pipe, X, y, n_jobs=1, level='transformed')
    np.testing.assert_allclose(e.output, et.output, atol=1e-12)
    assert e.feature_names == list(X.columns) and e.bootstrap is not None
    h = dfi.heldout_contributions(pipe, X.iloc[:10], y, n_jobs=1)
    np.testing.assert_allclose(h.output, pipe.predict_proba(X.iloc[:10]), atol=1e-9)
    assert h.data[0, 1] == X['workclass'].iloc[0]
    cas = make_pipeline(
        ct,
        dfi.CascadeForestClassifier(
            n_estimators=5, max_layers=1, n_folds=2, random_state=0
        ),
    ).fit(X, y)
    d = dfi.deep_forest_contributions(cas, X.iloc[:20])
    dt = dfi.deep_forest_contributions(cas, X.iloc[:20], level='transformed')
    assert d.feature_names == list(X.columns)
    np.testing.assert_allclose(d.output, dt.output, atol=1e-12)


def test_mixing_transformers_and_bad_input():
    X, y, _ = _adult_like()
    pca = make_pipeline(
        make_column_transformer(
            (OneHotEncoder(), ['workclass', 'sex']), remainder='passthrough'
        ),
        PCA(2),
        RandomForestClassifier(n_estimators=3, random_state=0),
    ).fit(X, y)
    with pytest.raises(TypeError, match='PCA is not one of the column-wise'):
        dfi.contributions(pca, X)
    e = dfi.contributions(pca, X, level='transformed')
    np.testing.assert_allclose(e.output, pca.predict_proba(X), atol=1e-9)
    poly = make_pipeline(
        make_column_transformer((PolynomialFeatures(2), ['age', 'hours'])),
        RandomForestClassifier(n_estimators=3, random_state=0),
    ).fit(X, y)
    with pytest.raises(TypeError, match='PolynomialFeatures makes the output column'):
        dfi.contributions(poly, X)
    with pytest.raises(ValueError, match="level must be 'raw'"):
        dfi.contributions(pca, X, level='raws')
    rf = RandomForestClassifier(n_estimators=3, random_state=0).fit(
        X[['age', 'hours']], y
    )
    with pytest.raises(ValueError, match='level must be'):
        dfi.contributions(rf, X[['age', 'hours']], level=None)
    with pytest.raises(
        ValueError, match=r"unexpected \['workclass', 'sex', 'fnlwgt'\]"
    ):
        check_X(X, rf)  # columns the model never saw are named
    with pytest.raises(TypeError, match=r"\['workclass', 'sex'\].*make_pipeline"):
        dfi.CascadeForestClassifier(n_estimators=5, max_layers=1).fit(X, y)


def test_plots_and_shap_take_labels():
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    X, y, ct = _adult_like()
    pipe = make_pipeline(
        ct, RandomForestClassifier(n_estimators=10, random_state=0, n_jobs=1)
    ).fit(X, y)
    e = dfi.contributions(pipe, X.iloc[:30])
    ax = dfi.plot_contributions(e, row=0, output='>50K')
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert (
        f'sex = {X["sex"].iloc[0]}' in labels
        and f'workclass = {X["workclass"].iloc[0]}' in labels
    )
    plt.close(ax.figure)
    with pytest.raises(ValueError, match='not one of the outputs'):
        dfi.plot_contributions(e, output='rich')
    shap = pytest.importorskip('shap')
    with pytest.raises(ValueError, match='pass output='):
        e.to_shap()
    with pytest.warns(UserWarning, match='not Shapley values'):
        s = e.to_shap(output='>50K')
    np.testing.assert_array_equal(s.values, e.values[..., 1])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        shap.plots.beeswarm(s, show=False)  # shap accepts one selected output
    plt.close('all')


@st.composite
def explanations(draw):
    rng = np.random.default_rng(draw(st.integers(0, 1000)))
    n, K = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    C = draw(st.sampled_from([None, 1, 3]))
    shape = (n, K) if C is None else (n, K, C)
    data = draw(st.sampled_from(['none', 'float', 'labels']))
    d = (
        None
        if data == 'none'
        else (
            rng.normal(size=(n, K))
            if data == 'float'
            else rng.choice(np.array(['a', 'b', 1.5], dtype=object), (n, K))
        )
    )
    return Explanation(
        rng.normal(size=shape),
        rng.normal(size=shape[:1] + shape[2:]),
        [f'f{k}' for k in range(K)],
        d,
        None if C is None else [f'c{c}' for c in range(C)],
        rng.normal(size=shape[:1] + shape[2:]) if draw(st.booleans()) else None,
        {},
        np.abs(rng.normal(size=shape)) if draw(st.booleans()) else None,
    )


@settings(max_examples=40, deadline=None)
@given(explanations())
def test_explanation_round_trip_and_selection(e):
    r = Explanation.from_frame(e.to_frame())
    for f in ('values', 'bias', 'bootstrap', 'std', 'data'):
        a, b = getattr(e, f), getattr(r, f)
        assert (a is None) == (b is None) and (a is None or np.array_equal(a, b))
    assert r.feature_names == e.feature_names and r.output_names == e.output_names
    names = e.feature_names[::-1]
    sub = e[:, names]
    np.testing.assert_array_equal(sub.values, e.values[:, ::-1])
    if e.std is not None:
        np.testing.assert_array_equal(sub.std, e.std[:, ::-1])
    g = e.group({'all': e.feature_names})
    np.testing.assert_allclose(g.output, e.output, atol=1e-12)
    m = e.abs().mean(0)
    np.testing.assert_allclose(m.values[0], np.abs(e.values).mean(0))
    assert len(repr(e)) < 300
    if e.output_names:
        o = e[:, :, e.output_names[-1]]
        np.testing.assert_array_equal(o.values, e.values[..., -1])
        assert o.values.ndim == 2


def test_explanation_bad_indices():
    e = Explanation(
        np.ones((3, 2, 2)), np.zeros((3, 2)), ['a', 'b'], np.ones((3, 2)), ['x', 'y']
    )
    for key, err in [
        (None, TypeError),
        (True, TypeError),
        (np.zeros((2, 2), int), ValueError),
        (7, ValueError),
        ('a', TypeError),
        ((slice(None), 'zz'), ValueError),
        ((0, 0, 'zz'), ValueError),
        (np.array([0.5]), TypeError),
        ((0, 0, 0, 0), ValueError),
    ]:
        with pytest.raises(err):
            e[key]
    X = np.ones((3, 2))
    e2 = Explanation(np.ones((3, 2)), np.zeros(3), ['a', 'b'], X)
    X[:] = 5
    assert (e2.data == 1).all() and not e2.data.flags.writeable
    with pytest.raises(ValueError, match='data has shape'):
        Explanation(np.ones((3, 2)), np.zeros(3), ['a', 'b'], np.ones((2, 2)))


def test_forest_floor_plots_show_labels():
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    X, _, ct = _adult_like()
    y = X.age / 10 + (X.sex == 'Male') * 2.0
    pipe = make_pipeline(
        ct, RandomForestRegressor(n_estimators=40, random_state=0, n_jobs=1)
    ).fit(X, y)
    e = dfi.oob_contributions(pipe, X, y, n_jobs=1)
    fig = dfi.plot_forest_floor(e, ['sex', 'age'], order=False)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ['Female', 'Male']
    plt.close(fig)
    gov = dfi.goodness_of_visualization(e)
    assert list(gov.index) == list(X.columns) and np.isfinite(gov.to_numpy()).all()


def test_a_bool_column_passed_through_and_a_one_row_series():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            'a': rng.normal(size=300),
            'flag': rng.uniform(size=300) > 0.5,
            's': rng.choice(['u', 'v'], 300),
        }
    )
    y = (df.a + df.flag > 0.5).astype(int)
    pipe = make_pipeline(
        make_column_transformer((OneHotEncoder(), ['s']), remainder='passthrough'),
        RandomForestClassifier(n_estimators=10, random_state=0),
    ).fit(df, y)
    e = dfi.contributions(pipe, df)
    assert e.feature_names == ['a', 'flag', 's']
    np.testing.assert_allclose(e.output, pipe.predict_proba(df), atol=1e-9)
    one = dfi.contributions(pipe, df.iloc[4])  # a row as a Series (object dtype)
    np.testing.assert_allclose(one.values, e.values[4:5], atol=1e-12)
