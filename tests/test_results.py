"Results a practitioner keeps: save/load, parquet, shap, plots that name what they show."

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import deepforest_interp as dfi

rng = np.random.default_rng(0)
N = 200
FRAME = pd.DataFrame(
    {
        'age': rng.integers(18, 80, N),
        'colour': rng.choice(['red', 'green', 'blue'], N),
        'income': rng.normal(50, 10, N),
    }
)
Y = np.where(FRAME.income + 5 * (FRAME.colour == 'red') > 52, 'high', 'low')
PIPE = make_pipeline(
    make_column_transformer((OneHotEncoder(), ['colour']), remainder='passthrough'),
    RandomForestClassifier(n_estimators=10, random_state=0),
).fit(FRAME, Y)


def test_save_load_round_trip_is_exact(tmp_path):
    e = dfi.contributions(PIPE, FRAME)
    p = tmp_path / 'e.npz'
    e.save(p)
    back = dfi.Explanation.load(p)
    np.testing.assert_array_equal(back.values, e.values)
    np.testing.assert_array_equal(back.bias, e.bias)
    assert back.feature_names == e.feature_names and back.output_names == e.output_names
    assert [str(v) for v in back.data[:, 1]] == [str(v) for v in e.data[:, 1]]
    np.testing.assert_array_equal(
        back.data[:, 2].astype(float), e.data[:, 2].astype(float)
    )
    with pytest.raises(ValueError, match='not an Explanation file'):
        np.savez(tmp_path / 'other.npz', values=e.values)
        dfi.Explanation.load(tmp_path / 'other.npz')


def test_deep_forest_layers_and_spread_survive_save(tmp_path):
    X = FRAME[['age', 'income']].to_numpy(float)
    casc = dfi.CascadeForestClassifier(
        n_estimators=5, max_layers=2, random_state=0
    ).fit(X, Y)
    e = dfi.deep_forest_contributions(casc, X[:20], all_layers=True)
    e.save(tmp_path / 'df.npz')
    back = dfi.Explanation.load(tmp_path / 'df.npz')
    assert set(back.layers) == set(e.layers)
    for l in e.layers:
        np.testing.assert_array_equal(back.layers[l].values, e.layers[l].values)
    rf = RandomForestRegressor(5, random_state=0).fit(X, FRAME.income)
    s = dfi.contributions(rf, X[:5], return_std=True)
    s.save(tmp_path / 's.npz')
    np.testing.assert_array_equal(dfi.Explanation.load(tmp_path / 's.npz').std, s.std)


def test_to_frame_writes_to_parquet_and_csv(tmp_path):
    pytest.importorskip('pyarrow')
    e = dfi.contributions(PIPE, FRAME.iloc[:30])
    df = e.to_frame()
    df.to_parquet(tmp_path / 'e.parquet')
    back = dfi.Explanation.from_frame(pd.read_parquet(tmp_path / 'e.parquet'))
    np.testing.assert_array_equal(back.values, e.values)
    assert list(back.data[:, 1]) == list(e.data[:, 1])
    df.to_csv(tmp_path / 'e.csv', index=False)
    csv = dfi.Explanation.from_frame(pd.read_csv(tmp_path / 'e.csv'))
    np.testing.assert_allclose(csv.values, e.values, rtol=1e-15)
    np.testing.assert_array_equal(
        csv.data[:, 2].astype(float), e.data[:, 2].astype(float)
    )


def test_to_shap_has_numeric_data_and_shows_labels():
    pytest.importorskip('shap')
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    import shap

    e = dfi.contributions(PIPE, FRAME.iloc[:40])
    with pytest.warns(UserWarning, match='not Shapley values'):
        s = e.to_shap(output='high')
    assert s.data.dtype.kind == 'f' and list(s.display_data[:3, 1]) == list(
        FRAME.colour[:3]
    )
    shap.plots.scatter(s[:, 'income'], color=s[:, 'age'], show=False)
    plt.close('all')


def test_group_keeps_the_spread_of_a_relabelling_and_says_why_it_drops_it():
    X = FRAME[['age', 'income']].to_numpy(float)
    rf = RandomForestRegressor(5, random_state=0).fit(X, FRAME.income)
    e = dfi.contributions(rf, X[:5], return_std=True)
    r = e.group({'A': ['x0'], 'B': ['x1']})
    np.testing.assert_array_equal(r.std, e.std)
    g = e.group({'both': ['x0', 'x1']})
    assert g.std is None and 'covariances' in g.info['std']


def test_plot_title_names_the_class():
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    e = dfi.contributions(PIPE, FRAME.iloc[:3])
    ax = dfi.plot_contributions(e, row=1, output='high')
    assert ax.get_title().startswith('row 1, high:')
    plt.close('all')


def test_progress_bars_change_nothing_but_stderr(capsys):
    e0 = dfi.contributions(PIPE, FRAME)
    e1 = dfi.contributions(PIPE, FRAME, verbose=1)
    np.testing.assert_array_equal(e1.values, e0.values)
    assert list(e1.data[:, 1]) == list(e0.data[:, 1])
    assert 'contributions' in capsys.readouterr().err
    with pytest.raises(
        ValueError, match="check_additivity must be True, False or 'all'"
    ):
        dfi.contributions(PIPE, FRAME, check_additivity='yes')
    X = FRAME[['age', 'income']].to_numpy(float)
    # not prepared by fit: the first call runs Algorithm 1 on the training rows (a prepared
    # cascade's call is a forward pass and a gather: nothing to show)
    casc = dfi.CascadeForestClassifier(
        n_estimators=5, max_layers=2, random_state=0, prepare_explanations=False
    ).fit(X, Y)
    dfi.deep_forest_contributions(casc, X[:10], verbose=1)
    err = capsys.readouterr().err
    assert (
        'Algorithm 1' in err and ' 0tree' not in err
    )  # one bar with its total from the start


def test_help_lists_every_parameter_and_the_return():
    import inspect

    for name in dfi.__all__:
        fn = getattr(dfi, name)
        if not inspect.isfunction(fn):
            continue
        doc = fn.__doc__
        assert 'Parameters\n----------' in doc, name
        for p in inspect.signature(inspect.unwrap(fn)).parameters:
            assert f'\n{p}' in doc, (name, p)
    doc = dfi.contributions.__doc__
    assert 'check_additivity : bool | str, default True\n    raise if' in doc
    ret = doc.split('Returns\n-------\n', 1)[1]
    assert ret.startswith(
        'Explanation\n    values (n, K) or (n, K, C), bias (n,) or (n, C)'
    )
    # the symbols are defined and the units named
    for words in (
        'n rows of X',
        'K explained features',
        'C classes',
        'probability',
        'log-odds',
    ):
        assert words in ret, words
    ret = dfi.deep_forest_contributions.__doc__.split('Returns\n-------\n', 1)[1]
    assert ret.startswith('Explanation\n    values (n, K, C)') and 'probability' in ret


def test_the_additivity_check_asks_the_model_until_it_has_seen_what_varies(monkeypatch):
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    X[::9, 1] = np.nan
    m = HistGradientBoostingRegressor(max_iter=20).fit(X, X[:, 0])
    import deepforest_interp.boosting as boosting

    calls, real = [], boosting._hgb_raw
    monkeypatch.setattr(
        boosting, '_hgb_raw', lambda model, Z: calls.append(len(Z)) or real(model, Z)
    )
    dfi.contributions(m, X[~np.isnan(X).any(1)][:50])  # no missing value: every row
    dfi.contributions(m, X[:100])  # rows with a missing value: those compared
    dfi.contributions(m, X[:100])  # seen: nothing to ask
    dfi.contributions(m, X, check_additivity='all')  # every row, every call
    assert calls == [50, 12, 300]
