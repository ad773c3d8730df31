"""One boundary: every public explainer and importance takes what `contributions` takes.

A frame whose columns come in another order gets the answer of the frame in fitted order; a Pipeline is accepted by
every function (grouped back to its raw columns exactly, or at level='transformed'); `dtype` is honoured for every
model family; estimators keep copies of their training data.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
import deepforest_interp as dfi
from deepforest_interp.explanation import Importance
from deepforest_interp.pipelines import unwrap_pipeline

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*in bag for every tree', 'ignore:.*out-of-bag'
)

_rng = np.random.default_rng(7)
N = 160
X = pd.DataFrame(
    {
        'a': _rng.normal(size=N),
        'b': _rng.normal(size=N),
        'c': _rng.choice(['u', 'v', 'w'], N),
        'd': _rng.integers(0, 3, N).astype(float),
    }
)
y = np.where(X.a + (X.c == 'u') + 0.3 * X.d > 0.5, 'yes', 'no')
XR = X[['d', 'c', 'b', 'a']]  # the same columns in another order
PIPE = make_pipeline(
    make_column_transformer((OneHotEncoder(), ['c']), remainder=StandardScaler()),
    RandomForestClassifier(n_estimators=12, random_state=0),
).fit(X, y)
PARTS = unwrap_pipeline(PIPE)
XT = PARTS.transform_rows(X)
NUM = X[['a', 'b', 'd']]
RF = RandomForestClassifier(n_estimators=12, random_state=0).fit(NUM, y)


def _values(out):
    "The numbers of any result, for comparison."
    if isinstance(out, dfi.Explanation):
        return [out.values, out.bias, np.asarray(out.feature_names)]
    if isinstance(out, (pd.Series, pd.DataFrame)):
        return [out.to_numpy(), np.asarray(out.index)]
    if isinstance(out, dict):
        return [a for k in sorted(out) for a in _values(out[k])]
    if isinstance(out, list):
        return [a for o in out for a in _values(o)]
    return [np.asarray(out)]


def _same(a, b):
    A, B = _values(a), _values(b)
    assert len(A) == len(B)
    for u, v in zip(A, B):
        if u.dtype.kind in 'fc':
            np.testing.assert_allclose(u, v, rtol=0, atol=1e-12)
        else:
            np.testing.assert_array_equal(u, v)


CALLS = {  # name -> call(model, X)
    'contributions': lambda m, X: dfi.contributions(m, X, n_jobs=1),
    'contribution_summary': lambda m, X: dfi.contribution_summary(m, X, n_jobs=1),
    'mdi_covariance': lambda m, X: dfi.mdi_covariance(m, X, y),
    'mdi_oob': lambda m, X: dfi.mdi_oob(m, X, y),
    'local_mdi': lambda m, X: dfi.local_mdi(m, X, y),
    'mda': lambda m, X: dfi.mda(m, X, y, n_repeats=2, random_state=0, n_jobs=1),
    'oob_permutation_importance': lambda m, X: dfi.oob_permutation_importance(
        m, X, y, random_state=0
    ),
    'ssfi': lambda m, X: dfi.ssfi(m, X, n_jobs=1),
    'oob_contributions': lambda m, X: dfi.oob_contributions(
        m, X, y, never_oob='all_trees', n_jobs=1
    ),
    'heldout_contributions': lambda m, X: dfi.heldout_contributions(m, X, n_jobs=1),
}


@pytest.mark.parametrize('name', sorted(CALLS))
@pytest.mark.parametrize('which', ['forest', 'pipeline'])
def test_reordered_columns_give_the_fitted_order_answer(name, which):
    model, frame = (RF, NUM) if which == 'forest' else (PIPE, X)
    call = CALLS[name]
    _same(call(model, frame[frame.columns[::-1]]), call(model, frame))


@pytest.mark.parametrize('name', sorted(CALLS))
def test_every_function_accepts_a_pipeline(name):
    "Raw level on a frame with a string column; the transformed level is the final model on the transformed rows."
    out = CALLS[name](PIPE, X)
    names = out.feature_names if isinstance(out, dfi.Explanation) else None
    if names is not None:
        assert names == ['a', 'b', 'c', 'd']
    if name in ('mda',):
        return  # a pipeline's MDA permutes its raw columns (checked below)
    t = {
        'contributions': lambda: dfi.contributions(
            PIPE, X, n_jobs=1, level='transformed'
        ),
        'contribution_summary': lambda: dfi.contribution_summary(
            PIPE, X, n_jobs=1, level='transformed'
        ),
        'mdi_covariance': lambda: dfi.mdi_covariance(PIPE, X, y, level='transformed'),
        'mdi_oob': lambda: dfi.mdi_oob(PIPE, X, y, level='transformed'),
        'local_mdi': lambda: dfi.local_mdi(PIPE, X, y, level='transformed'),
        'oob_permutation_importance': lambda: dfi.oob_permutation_importance(
            PIPE, X, y, random_state=0, level='transformed'
        ),
        'ssfi': lambda: dfi.ssfi(PIPE, X, n_jobs=1, level='transformed'),
        'oob_contributions': lambda: dfi.oob_contributions(
            PIPE, X, y, never_oob='all_trees', n_jobs=1, level='transformed'
        ),
        'heldout_contributions': lambda: dfi.heldout_contributions(
            PIPE, X, n_jobs=1, level='transformed'
        ),
    }[name]()
    model_out = CALLS[name](PARTS.model, XT)
    if name == 'oob_permutation_importance':  # same permutations, column by column
        np.testing.assert_array_equal(t.importances, model_out.importances)
    else:
        _same(t, model_out)


def test_grouped_importances_are_exact_sums():
    groups = PARTS.groups
    e = dfi.contributions(PIPE, X, n_jobs=1, level='transformed')
    # local MDI, SSFI and the summary's mean are linear in the per-column terms: sums of the groups
    lt = dfi.local_mdi(PIPE, X, y, level='transformed').to_numpy()
    lr = dfi.local_mdi(PIPE, X, y)
    np.testing.assert_allclose(
        lr.to_numpy(), [lt[g].sum(0) for g in groups.values()], atol=1e-12
    )
    st = dfi.ssfi(PIPE, X, n_jobs=1, level='transformed').to_numpy()
    np.testing.assert_allclose(
        dfi.ssfi(PIPE, X, n_jobs=1),
        np.stack([st[:, g].sum(1) for g in groups.values()], 1),
        atol=1e-12,
    )
    s = dfi.contribution_summary(PIPE, X, n_jobs=1, batch_size=50)
    er = dfi.contributions(PIPE, X, n_jobs=1)
    np.testing.assert_allclose(s.mean.to_numpy(), er.values.mean(0), atol=1e-12)
    # mean |.| of a raw column is that of its summed contribution, not the sum of the |.| of its parts
    np.testing.assert_allclose(
        s.mean_abs.to_numpy(), np.abs(er.values).mean(0), atol=1e-12
    )
    assert not np.allclose(
        s.mean_abs.loc['c'], np.abs(e.values[:, groups['c']]).sum(1).mean(0)
    )


@pytest.mark.parametrize('fn', ['mdi', 'mdi_covariance', 'mdi_oob', 'local_mdi'])
def test_pipeline_spread_is_over_grouped_per_tree_values(fn):
    call = {
        'mdi': lambda **k: dfi.mdi(PIPE, **k),
        'mdi_covariance': lambda **k: dfi.mdi_covariance(PIPE, X, y, **k),
        'mdi_oob': lambda **k: dfi.mdi_oob(PIPE, X, y, **k),
        'local_mdi': lambda **k: dfi.local_mdi(PIPE, X, y, **k),
    }[fn]
    b = call(return_std=True)
    assert b.importances_std is not None and b.importances is not None
    per_tree = np.asarray(b.importances)
    np.testing.assert_allclose(
        np.asarray(b.importances_std), per_tree.std(-1), atol=1e-12
    )
    np.testing.assert_allclose(
        np.asarray(b.importances_mean), np.asarray(call()), atol=1e-12
    )
    bt = call(return_std=True, level='transformed')
    grouped = np.stack(
        [np.asarray(bt.importances)[g].sum(0) for g in PARTS.groups.values()]
    )
    np.testing.assert_allclose(per_tree, grouped, atol=1e-12)
    assert list(b.importances_mean.index) == ['a', 'b', 'c', 'd']


def test_mdi_transformed_names_are_those_of_contributions():
    names = dfi.contributions(PIPE, X, level='transformed').feature_names
    assert list(dfi.mdi(PIPE, level='transformed').index) == names
    assert (
        list(dfi.mdi(PIPE, level='transformed', return_std=True).importances_mean.index)
        == names
    )


def test_oob_permutation_importance_of_a_raw_column_permutes_its_encoded_columns_together():
    r = dfi.oob_permutation_importance(PIPE, X, y, random_state=0)
    assert list(r.importances_mean.index) == [
        'a',
        'b',
        'c',
        'd',
    ] and r.importances.shape == (4, 12)
    assert np.isfinite(r.importances.to_numpy()).all() and r.importances_mean['c'] > 0
    # a pipeline whose columns each map to one column: the raw and the transformed answers agree
    p = make_pipeline(
        StandardScaler(), RandomForestClassifier(n_estimators=8, random_state=0)
    ).fit(NUM, y)
    a = dfi.oob_permutation_importance(p, NUM, y, random_state=3)
    b = dfi.oob_permutation_importance(p, NUM, y, random_state=3, level='transformed')
    np.testing.assert_array_equal(a.importances, b.importances)


def test_mda_of_a_pipeline_permutes_raw_columns():
    from sklearn.inspection import permutation_importance

    r = dfi.mda(PIPE, XR, y, n_repeats=3, random_state=1, n_jobs=1)
    ref = permutation_importance(PIPE, X, y, n_repeats=3, random_state=1)
    assert list(r.index) == ['a', 'b', 'c', 'd']
    np.testing.assert_allclose(r.to_numpy(), ref.importances_mean)


def test_cv_contributions_of_a_pipeline():
    # each fold refits a clone on the caller's frame: its column order is the fitted one
    e = dfi.cv_contributions(PIPE, XR, y, n_folds=3, n_jobs=1)
    assert e.feature_names == ['d', 'c', 'b', 'a'] and len(e) == N
    assert list(np.asarray(e.data)[:, 1]) == list(
        X['c']
    )  # the raw rows, aligned with the names
    e = dfi.cv_contributions(PIPE, X, y, n_folds=3, n_jobs=1)
    assert np.isfinite(e.values).all()
    t = dfi.cv_contributions(PIPE, X, y, n_folds=3, n_jobs=1, level='transformed')
    np.testing.assert_allclose(
        e.values,
        np.stack([t.values[:, g].sum(1) for g in PARTS.groups.values()], 1),
        atol=1e-12,
    )


@pytest.mark.parametrize('lib', ['hgb', 'xgboost', 'lightgbm'])
def test_dtype_is_honoured_for_boosting(lib):
    Xn = NUM.to_numpy()
    yn = (y == 'yes').astype(int)
    if lib == 'hgb':
        m = HistGradientBoostingClassifier(max_iter=8).fit(Xn, yn)
    elif lib == 'xgboost':
        xgb = pytest.importorskip('xgboost')
        m = xgb.XGBClassifier(n_estimators=8, max_depth=3).fit(Xn, yn)
    else:
        lgb = pytest.importorskip('lightgbm')
        m = lgb.LGBMClassifier(n_estimators=8, verbose=-1).fit(Xn, yn)
    e64 = dfi.contributions(m, Xn)
    e32 = dfi.contributions(m, Xn, dtype=np.float32)
    assert e32.values.dtype == np.float32 and e64.values.dtype == np.float64
    np.testing.assert_allclose(e32.values, e64.values, rtol=1e-6, atol=1e-6)


def test_hgb_categories_on_a_reordered_frame():
    Xc = X.assign(c=X.c.astype('category'))
    m = HistGradientBoostingClassifier(
        max_iter=8, categorical_features='from_dtype'
    ).fit(Xc, y)
    e, er = dfi.contributions(m, Xc), dfi.contributions(m, Xc[['d', 'c', 'b', 'a']])
    assert er.feature_names == e.feature_names == ['a', 'b', 'c', 'd']
    np.testing.assert_array_equal(er.values, e.values)
    np.testing.assert_array_equal(np.asarray(er.data), np.asarray(e.data))


def test_missing_or_extra_columns_are_refused_by_name():
    with pytest.raises(ValueError, match=r"missing \['d'\]"):
        dfi.contributions(PIPE, X[['a', 'b', 'c']])
    with pytest.raises(ValueError, match=r"unexpected \['z'\]"):
        dfi.contributions(RF, NUM.assign(z=1.0))
    with pytest.raises(ValueError, match=r"missing \['a'\]"):
        dfi.ssfi(RF, NUM.drop(columns='a'))


@pytest.mark.parametrize('frame', [False, True])
def test_cascade_keeps_copies_of_its_training_data(frame):
    rng = np.random.default_rng(1)
    Xa = rng.normal(size=(90, 3))
    ya = (Xa[:, 0] > 0).astype(int)
    sw = np.ones(90)
    sw[:3] = 2.0
    Xin = pd.DataFrame(Xa, columns=list('pqr')) if frame else Xa
    m = dfi.CascadeForestClassifier(
        n_estimators=6, max_layers=2, n_folds=3, random_state=0
    ).fit(Xin, ya, sw)
    t = m.training_data()
    before = dfi.deep_forest_contributions(m, Xin, oof=True)
    Xa[:] = 0.0
    ya[:] = 1 - ya
    sw[:] = 5.0
    if frame:
        Xin.iloc[:, :] = 0.0
    after_t = m.training_data()
    np.testing.assert_array_equal(after_t.X, t.X)
    np.testing.assert_array_equal(after_t.y, t.y)
    np.testing.assert_array_equal(after_t.sample_weight, t.sample_weight)
    m2 = dfi.CascadeForestClassifier(
        n_estimators=6, max_layers=2, n_folds=3, random_state=0
    )
    e = dfi.deep_forest_contributions(
        m, pd.DataFrame(t.X, columns=list('pqr')) if frame else t.X, oof=True
    )
    np.testing.assert_array_equal(e.values, before.values)
    assert m2 is not None


def test_deep_forest_functions_accept_a_pipeline():
    Xn = X.assign(c=(X.c == 'u').astype(float))
    pipe = make_pipeline(
        StandardScaler(),
        dfi.CascadeForestClassifier(
            n_estimators=6, max_layers=2, n_folds=3, random_state=0
        ),
    ).fit(Xn, y)
    casc, Xt = pipe[-1], pipe[:-1].transform(Xn)
    lm = dfi.deep_forest_local_mdi(pipe, Xn, y)
    np.testing.assert_allclose(
        lm.to_numpy(), dfi.deep_forest_local_mdi(casc, Xt, y).to_numpy(), atol=1e-12
    )
    assert list(lm.index) == ['a', 'b', 'c', 'd']
    b = dfi.deep_forest_explain(pipe, Xn[['d', 'c', 'b', 'a']].iloc[:5])
    ref = dfi.deep_forest_explain(casc, Xt[:5])
    np.testing.assert_allclose(b.new.values, ref.new.values, atol=1e-12)
    np.testing.assert_allclose(b.mdi.to_numpy(), ref.mdi.to_numpy(), atol=1e-12)
    assert b.new.feature_names == ['a', 'b', 'c', 'd']
    np.testing.assert_array_equal(
        np.asarray(b.new.data, dtype=float), Xn.iloc[:5].to_numpy()
    )


def test_deep_forest_mdi_of_a_pipeline_with_its_spread():
    "MDI(DF) of a Pipeline with return_std: every tree's term summed over a raw column's encoded columns, then averaged."
    pipe = make_pipeline(
        make_column_transformer(
            (OneHotEncoder(sparse_output=False), ['c']), remainder='passthrough'
        ),
        dfi.CascadeForestClassifier(n_estimators=5, max_layers=2, random_state=0),
    ).fit(X, y)
    r = dfi.deep_forest_mdi(pipe, X, y, oof=False, return_std=True)
    np.testing.assert_array_equal(
        r.to_numpy(), dfi.deep_forest_mdi(pipe, X, y, oof=False).to_numpy()
    )
    t = dfi.deep_forest_mdi(
        pipe[-1], pipe[:-1].transform(X), y, oof=False, return_std=True
    )
    parts = unwrap_pipeline(pipe)
    for name, cols in parts.groups.items():
        per = t.importances.to_numpy()[cols].sum(0)  # per tree, the raw column's sum
        np.testing.assert_allclose(r.importances.loc[name].to_numpy(), per, atol=1e-12)
        np.testing.assert_allclose(r.importances_std[name], per.std(), atol=1e-12)


def test_models_and_functions_that_need_the_model_itself_say_how():
    for call in (
        lambda: dfi.leaf_rules(PIPE),
        lambda: dfi.explore_path(PIPE, X),
        lambda: dfi.grit_forest(PIPE, X, random_state=0),
    ):
        with pytest.raises(TypeError, match=r'pipe\[:-1\]\.transform\(X\)'):
            call()


def test_hidf_in_a_pipeline_is_grouped_exactly():
    Xn = X.assign(c=(X.c == 'u').astype(float))
    pipe = make_pipeline(
        StandardScaler(),
        dfi.HiDFClassifier(n_estimators=8, max_layers=2, random_state=0),
    ).fit(Xn, y)
    e = dfi.hidf_contributions(pipe, Xn[['d', 'c', 'b', 'a']])
    ref = dfi.hidf_contributions(pipe[-1], pipe[:-1].transform(Xn))
    np.testing.assert_allclose(e.values, ref.values, atol=1e-12)
    np.testing.assert_allclose(e.output, pipe.predict_proba(Xn), atol=1e-9)
    assert e.feature_names == ['a', 'b', 'c', 'd']
    np.testing.assert_allclose(
        dfi.hidf_mdi(pipe, Xn, y).to_numpy(),
        dfi.hidf_mdi(pipe[-1], pipe[:-1].transform(Xn), y),
        atol=1e-12,
    )


def test_a_numeric_row_as_a_series():
    Xi = pd.DataFrame(
        {'n': np.arange(40), 'flag': np.arange(40) % 2 == 0, 'x': np.linspace(0, 1, 40)}
    )
    m = RandomForestRegressor(n_estimators=5, random_state=0).fit(Xi, np.arange(40.0))
    np.testing.assert_allclose(
        dfi.contributions(m, Xi.iloc[3]).values,
        dfi.contributions(m, Xi.iloc[[3]]).values,
    )


def _count_checks(monkeypatch, call):
    "How many times `rows.check_X` checks rows during `call()` (patched in every module that imported it); `Rows` passed down, which it returns at once, are not counted."
    import importlib, pkgutil
    from deepforest_interp import rows

    calls, orig = [], rows.check_X

    def counted(*a, **k):
        if not rows.is_checked(a[0], a[1] if len(a) > 1 else k.get('model')):
            calls.append(1)
        return orig(*a, **k)

    for m in pkgutil.iter_modules(dfi.__path__):
        mod = importlib.import_module(f'deepforest_interp.{m.name}')
        if getattr(mod, 'check_X', None) is orig:
            monkeypatch.setattr(mod, 'check_X', counted)
    call()
    return len(calls)


def test_inputs_are_checked_once_per_call(monkeypatch):
    Xn = NUM
    casc = dfi.CascadeForestClassifier(
        n_estimators=6, max_layers=3, n_folds=3, random_state=0
    ).fit(Xn, y)
    hidf = dfi.HiDFClassifier(n_estimators=8, max_layers=3, random_state=0).fit(Xn, y)
    assert _count_checks(monkeypatch, lambda: dfi.contributions(PIPE, X)) == 1
    assert (
        _count_checks(monkeypatch, lambda: dfi.deep_forest_contributions(casc, Xn)) == 1
    )
    assert _count_checks(monkeypatch, lambda: dfi.deep_forest_explain(casc, Xn)) == 1
    assert _count_checks(monkeypatch, lambda: dfi.hidf_contributions(hidf, Xn)) == 1
    assert _count_checks(monkeypatch, lambda: dfi.hidf_mdi(hidf, Xn, y)) == 1
    assert (
        _count_checks(
            monkeypatch, lambda: dfi.deep_forest_mdi(casc, Xn, y, return_std=True)
        )
        == 1
    )
    rf = RandomForestClassifier(n_estimators=5, random_state=0).fit(Xn, y)
    for f in (dfi.mdi_covariance, dfi.mdi_oob, dfi.oob_permutation_importance):
        assert _count_checks(monkeypatch, lambda: f(rf, Xn, y)) == 1, f.__name__


def test_checked_rows_are_passed_down_not_rechecked():
    "A `Rows` from `check_X` is returned as it is for its model; for another model its array is checked again."
    from deepforest_interp.rows import Rows, check_X

    rf = RandomForestClassifier(n_estimators=3, random_state=0).fit(NUM, y)
    rows = check_X(NUM, rf)
    assert isinstance(rows, Rows) and check_X(rows, rf) is rows
    other = RandomForestClassifier(n_estimators=3, random_state=0).fit(
        NUM.iloc[:, :2], y
    )
    with pytest.raises(ValueError, match='features'):
        check_X(rows, other)


def test_a_row_series_with_a_category_column_for_hgb():
    "HGB with category columns explains one row given as a Series (object dtype), as it predicts it."
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            'a': rng.normal(size=300),
            'color': pd.Categorical(rng.choice(['red', 'green', 'blue'], 300)),
            'b': rng.normal(size=300),
        }
    )
    m = HistGradientBoostingRegressor(max_iter=10, categorical_features='from_dtype')
    m.fit(df, df.a + 2 * (df.color == 'red'))
    e = dfi.contributions(m, df.iloc[3])
    np.testing.assert_array_equal(e.values, dfi.contributions(m, df.iloc[[3]]).values)
    np.testing.assert_allclose(e.output, m.predict(df.iloc[[3]]), atol=1e-9)


def test_ssfi_scales_follow_the_callers_columns():
    "ssfi on a reordered frame: an array of scales is the caller's order, feature_ranges of a frame is by name."
    from deepforest_interp.single_sample import feature_ranges

    rng = np.random.default_rng(0)
    Xs = pd.DataFrame({'a': rng.random(200), 'b': 1000 * rng.random(200)})
    rf = RandomForestRegressor(10, random_state=0).fit(Xs, Xs.a + Xs.b / 1000)
    ref = dfi.ssfi(rf, Xs, scale=feature_ranges(Xs), n_jobs=1)
    Xr = Xs[['b', 'a']]
    for scale in (feature_ranges(Xr), feature_ranges(Xr).to_numpy()):
        np.testing.assert_allclose(dfi.ssfi(rf, Xr, scale=scale, n_jobs=1), ref)


def test_plot_importances_matches_by_name():
    "A sorted importance is plotted by feature name, its error bars too."
    import matplotlib.pyplot as plt

    imp = dfi.mdi(RF, return_std=True)
    names = list(imp.index)

    def drawn(v):
        ax = dfi.plot_importances({'a': v}, names)
        bars = [p.get_width() for p in ax.patches]
        errs = np.concatenate(
            [np.zeros(0)] + [np.ravel(l.get_xydata()) for l in ax.lines]
        )
        labels = [t.get_text() for t in ax.get_yticklabels()]
        plt.close(ax.figure)
        return labels, bars, errs

    per = imp.importances.to_numpy().T  # the same importance, its features reversed
    rev = Importance.of(imp.to_numpy()[::-1], names[::-1], 'MDI', per[:, ::-1])
    ref, got = drawn(imp), drawn(rev)
    assert drawn(imp.sort_values())[1] == pytest.approx(ref[1])  # a plain sorted Series
    assert ref[0] == got[0]
    np.testing.assert_allclose(got[1], ref[1])
    np.testing.assert_allclose(got[2], ref[2])  # the error bars, matched by name too


def test_models_the_library_does_not_read_are_refused_by_name():
    xgb = pytest.importorskip('xgboost')
    Xm = np.random.default_rng(0).normal(size=(200, 4))
    m = xgb.XGBRegressor(n_estimators=3, multi_strategy='multi_output_tree')
    m.fit(Xm, np.c_[Xm[:, 0], -Xm[:, 1]])
    with pytest.raises(TypeError, match='multi_output_tree'):
        dfi.contributions(m, Xm)
    h = dfi.HiDFClassifier(
        pipeline='cascade', n_estimators=5, n_bootstrap=2, max_layers=2, random_state=0
    ).fit(NUM, y)
    with pytest.raises(TypeError, match='hidf_contributions'):
        dfi.deep_forest_contributions(h.cascade_, NUM)


def test_lightgbm_zero_as_missing_at_its_float_threshold():
    "LightGBM's zero threshold is the C float 1e-35f: a value between the double 1e-35 and it counts as zero."
    lgb = pytest.importorskip('lightgbm')
    rng = np.random.RandomState(0)
    Xl = rng.randn(400, 3)
    Xl[rng.rand(400, 3) < 0.3] = 0
    m = lgb.LGBMRegressor(n_estimators=10, zero_as_missing=True, verbose=-1)
    m.fit(Xl, Xl.sum(1) + (Xl[:, 0] == 0))
    edge = np.full((1, 3), float(np.float32(1e-35)))  # in (1e-35, 1e-35f]
    e = dfi.contributions(m, edge, check_additivity=False)
    np.testing.assert_allclose(e.output, m.predict(edge, raw_score=True), atol=1e-9)


def test_loo_ssfi_matches_scales_by_name():
    "ssfi_loo and LOOForest.ssfi match a Series of scales (feature_ranges of a frame) to the columns by name."
    from deepforest_interp.single_sample import feature_ranges, loo_forest, ssfi_loo

    rng = np.random.RandomState(0)
    Xs = pd.DataFrame({'a': rng.rand(60), 'b': 1000 * rng.rand(60)})
    ys = Xs.a + Xs.b / 1000
    est = RandomForestRegressor(8, random_state=0)
    s, s_rev = feature_ranges(Xs), feature_ranges(Xs[['b', 'a']])
    for method in ('oob', 'refit'):
        run = lambda sc: (
            ssfi_loo(
                est, Xs, ys, scale=sc, method=method, rows=[0, 5], progress=False
            ).values
        )
        np.testing.assert_allclose(run(s_rev), run(s))
        np.testing.assert_allclose(run(s.to_numpy()), run(s))
    lf = loo_forest(est, Xs, ys, rows=[0])
    np.testing.assert_allclose(lf.ssfi(Xs, scale=s_rev), lf.ssfi(Xs, scale=s))


def test_importance_copies_and_in_place_arithmetic():
    "A copy keeps the spread; in-place arithmetic gives a plain Series (its spread would be stale); duplicate names are refused."
    import copy

    imp = dfi.mdi(RF, return_std=True)
    for c in (imp.copy(), copy.deepcopy(imp), copy.copy(imp)):
        assert type(c) is Importance
        np.testing.assert_array_equal(c.importances_std, imp.importances_std)
    x = imp.copy()
    x /= x.sum()
    assert type(x) is pd.Series and type(imp) is Importance
    with pytest.raises(ValueError, match='unique'):
        dfi.plot_importances({'a': imp}, ['a', 'a', 'b'])


def test_out_of_fold_mdi_needs_the_training_labels():
    casc = dfi.CascadeForestClassifier(n_estimators=5, max_layers=2, random_state=0)
    casc.fit(NUM, y)
    with pytest.raises(ValueError, match='training labels'):
        dfi.deep_forest_mdi(casc, NUM, np.where(y == 'yes', 'no', 'yes'))
    dfi.deep_forest_mdi(casc, NUM, y)  # the training labels: fine


def test_hidf_refuses_a_pipeline_switched_after_fit():
    h = dfi.HiDFClassifier(
        pipeline='cascade', n_estimators=5, n_bootstrap=2, max_layers=2, random_state=0
    ).fit(NUM, y)
    h.set_params(pipeline='paper').fit(NUM, y)
    assert not hasattr(h, 'cascade_')  # the other pipeline's leftovers are dropped
    h.set_params(pipeline='cascade')
    with pytest.raises(ValueError, match='fit it again'):
        dfi.hidf_contributions(h, NUM)


# ---- the second adversarial pass: checked rows, keyword calls, missing values, names ----


def _rows_case():
    from deepforest_interp.rows import check_X

    rng = np.random.default_rng(0)
    Xd = pd.DataFrame(rng.normal(size=(200, 4)), columns=list('abcd'))
    yd = Xd.a * 2 + Xd.b**2
    perm = ['d', 'b', 'a', 'c']
    A = RandomForestRegressor(10, random_state=0).fit(Xd, yd)
    return check_X, Xd, yd, perm, A


def test_rows_checked_for_another_model_or_none_are_matched_by_name():
    check_X, Xd, yd, perm, A = _rows_case()
    B = RandomForestRegressor(10, random_state=0).fit(Xd[perm], yd)
    for rows in (check_X(Xd.iloc[:10], A), check_X(Xd[perm].iloc[:10])):
        for m, want in (
            (B, B.predict(Xd[perm].iloc[:10])),
            (A, A.predict(Xd.iloc[:10])),
        ):
            e = dfi.contributions(m, rows)
            assert e.feature_names == list(m.feature_names_in_)
            np.testing.assert_allclose(e.output, want, atol=1e-9)


def test_rows_of_a_model_refit_in_place_are_checked_again():
    check_X, Xd, yd, perm, _ = _rows_case()
    m = RandomForestRegressor(10, random_state=0).fit(Xd, yd)
    rows = check_X(Xd.iloc[:10], m)
    m.fit(Xd[perm], yd)
    e = dfi.contributions(m, rows)
    assert e.feature_names == perm
    np.testing.assert_allclose(e.output, m.predict(Xd[perm].iloc[:10]), atol=1e-9)


def test_checked_rows_are_read_only():
    check_X, Xd, _, _, A = _rows_case()
    rows = check_X(Xd.iloc[:5], A)
    with pytest.raises(ValueError, match='read-only'):
        rows.X[0, 0] = np.nan
    a = np.ones((3, 4), np.float32)
    check_X(
        a, keep_float32=True
    )  # kept without a copy: the caller's array stays writable
    a[0, 0] = 2.0


def test_ssfi_array_scale_follows_a_row_series_like_a_frame():
    _, Xd, _, perm, A = _rows_case()
    scale = pd.Series([1.0, 2.0, 5.0, 10.0], list('abcd'))[perm].to_numpy()
    np.testing.assert_allclose(
        dfi.ssfi(A, Xd[perm].iloc[3], scale=scale).to_numpy(),
        dfi.ssfi(A, Xd[perm].iloc[[3]], scale=scale).to_numpy(),
    )


def test_pipeline_edges_give_clear_answers():
    from deepforest_interp.rows import check_X

    with pytest.raises(TypeError, match='pipe\\[-1\\]'):
        dfi.ssfi_loo(PIPE, X, y, rows=[0], progress=False)
    with pytest.raises(TypeError, match='X is None'):
        dfi.contributions(PIPE, None)
    # checked rows given to a Pipeline are read as the frame they came from
    with pytest.raises(ValueError, match=r"missing \['c'\]"):
        dfi.contributions(PIPE, check_X(NUM))
    e = dfi.oob_contributions(PIPE, X, y, never_oob='all_trees')
    gov = dfi.goodness_of_visualization(e, X=X)  # the raw frame, labels included
    np.testing.assert_allclose(
        gov.to_numpy(), dfi.goodness_of_visualization(e).to_numpy()
    )


def test_decorated_explainers_take_their_documented_positional_arguments():
    _, Xd, yd, _, A = _rows_case()
    np.testing.assert_allclose(
        dfi.mdi_covariance(A, Xd, yd, True, None, 'raw', True).importances_std,
        dfi.mdi_covariance(A, Xd, yd, return_std=True).importances_std,
    )
    assert list(dfi.mdi_oob(A, Xd, yd, None, 'transformed').index) == list('abcd')
    with pytest.raises(
        TypeError, match="mdi_oob\\(\\): missing a required argument: 'y'"
    ):
        dfi.mdi_oob(A, Xd)


def test_forest_floor_leaves_rows_with_missing_values_out_of_fits_and_colours():
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(1)
    Xn = pd.DataFrame(rng.normal(size=(200, 3)), columns=list('abc'))
    yn = Xn.a * 2 + Xn.b
    Xn.iloc[::7, 0] = np.nan
    m = RandomForestRegressor(20, random_state=3).fit(Xn, yn)
    e = dfi.oob_contributions(m, Xn, yn)
    gov = dfi.goodness_of_visualization(e)
    assert np.isfinite(gov.to_numpy()).all()
    ok = Xn.a.notna().to_numpy()
    # GOV of 'a' uses exactly the rows where 'a' is present
    e_ok = dfi.Explanation(
        e.values[ok], e.bias[ok], e.feature_names, np.asarray(e.data)[ok]
    )
    assert gov['a'] == pytest.approx(
        dfi.goodness_of_visualization(e_ok)['a'], abs=1e-12
    )
    colours = dfi.feature_colors(e, ['a'], max_components=1)
    assert np.allclose(colours[~ok, :3], 0.6) and np.isfinite(colours).all()
    dfi.plot_forest_floor(e)
    plt.close('all')
    assert 'null' in dfi.explore_forest_floor(e).to_html()
    r = dfi.ssfi_loo(
        RandomForestRegressor(5, random_state=0),
        Xn.iloc[:40],
        yn[:40],
        rows=[0],
        progress=False,
    )
    assert np.isfinite(r.values.to_numpy()).all()


def test_transformed_level_uses_the_pipelines_names_everywhere():
    from sklearn.compose import make_column_transformer

    casc = make_pipeline(
        make_column_transformer(
            (OneHotEncoder(sparse_output=False), ['c']), remainder='passthrough'
        ),
        dfi.CascadeForestClassifier(
            n_forests=2, n_estimators=5, max_layers=2, random_state=0
        ),
    ).fit(X, y)
    want = dfi.deep_forest_contributions(
        casc, X.iloc[:3], level='transformed'
    ).feature_names
    assert not want[0].startswith('x')
    assert (
        dfi.deep_forest_explain(casc, X.iloc[:3], level='transformed').new.feature_names
        == want
    )
    b = dfi.deep_forest_mdi(casc, X, y, return_std=True)
    assert b.importances.columns.names == ['forest', 'fold', 'tree']


def test_dask_arrays_with_unknown_or_empty_blocks():
    da = pytest.importorskip('dask.array')
    rng = np.random.default_rng(0)
    Xd = rng.normal(size=(600, 4))
    yd = (Xd[:, 0] > 0).astype(int)
    m = RandomForestClassifier(n_estimators=5, random_state=0).fit(Xd, yd)
    lazy = da.from_array(Xd, chunks=(200, 4))
    kept = lazy[lazy[:, 0] > 0]  # block lengths unknown until computed
    e = dfi.contributions(m, kept)
    np.testing.assert_allclose(
        e.values.compute(), dfi.contributions(m, Xd[Xd[:, 0] > 0]).values, atol=1e-12
    )
    gaps = da.from_array(Xd, chunks=((200, 0, 400), (4,)))  # an empty block
    assert dfi.contribution_summary(m, gaps).n == 600
    with pytest.raises(ValueError, match='no rows'):
        dfi.contribution_summary(m, lazy[lazy[:, 0] > 99])
    imp = dfi.mdi_covariance(
        m, kept, da.from_array(yd, chunks=200)[lazy[:, 0] > 0], inbag=False
    )
    np.testing.assert_allclose(
        imp.to_numpy(),
        dfi.mdi_covariance(
            m, Xd[Xd[:, 0] > 0], yd[Xd[:, 0] > 0], inbag=False
        ).to_numpy(),
        atol=1e-12,
    )


def test_explore_path_shows_missing_values():
    rng = np.random.default_rng(0)
    Xn = rng.normal(size=(300, 4))
    Xn[:5, 1] = np.nan
    m = RandomForestRegressor(5, random_state=0).fit(
        Xn, Xn[:, 0] + np.nan_to_num(Xn[:, 1])
    )
    html = dfi.explore_path(m, Xn[:10]).to_html()
    assert 'null' in html and 'NaN' not in html.split('<script')[0]


def test_long_calls_show_progress(capsys):
    "verbose=1 draws a tqdm bar on stderr; verbose=0 draws nothing; a bad verbose is named."
    from sklearn.ensemble import RandomForestClassifier
    from deepforest_interp.forest_floor import cv_contributions
    from deepforest_interp.importance import oob_permutation_importance
    from deepforest_interp.intersection_trees import stability_scores

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 4))
    y = (X[:, 0] > 0).astype(int)
    rf = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    calls = [
        (
            'cv_contributions',
            lambda v: cv_contributions(rf, X, y, n_folds=2, verbose=v),
        ),
        (
            'oob_permutation_importance',
            lambda v: oob_permutation_importance(rf, X, y, verbose=v),
        ),
        (
            'stability_scores',
            lambda v: stability_scores(X, y, n_bootstrap=2, n_estimators=5, verbose=v),
        ),
    ]
    for name, call in calls:
        call(0)
        assert name not in capsys.readouterr().err
        call(1)
        assert name in capsys.readouterr().err
        with pytest.raises((TypeError, ValueError), match='verbose'):
            call(-1)
