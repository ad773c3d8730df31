"The adversarial pass of this round (Shapley values, plots, Boosters, cached labels): each failure it found, as a case that must now pass."

import io

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor  # noqa: E402

import deepforest_interp as dfi  # noqa: E402
from deepforest_interp.tree_contributions import describe  # noqa: E402

X, y = dfi.load_iris()
RF = RandomForestClassifier(5, random_state=0).fit(X, y)
RR = RandomForestRegressor(5, random_state=0).fit(X, y)


@pytest.mark.parametrize('lib', ['xgboost', 'lightgbm'])
def test_native_booster_refuses_renamed_columns(lib):
    Xd = pd.DataFrame(
        np.random.default_rng(21).normal(size=(300, 3)), columns=['a', 'b', 'c']
    )
    target = Xd.a * 3 + Xd.b
    if lib == 'xgboost':
        xgb = pytest.importorskip('xgboost')
        booster = xgb.train({}, xgb.DMatrix(Xd, target), 5)
    else:
        lgb = pytest.importorskip('lightgbm')
        booster = lgb.train({'verbose': -1}, lgb.Dataset(Xd, target), 5)
    renamed = Xd.iloc[:3][['c', 'b', 'a']].rename(columns={'a': 'A'})
    with pytest.raises(ValueError, match="missing \\['a'\\]"):
        dfi.shapley_values(booster, renamed)
    reordered = Xd.iloc[:3][
        ['c', 'b', 'a']
    ]  # the right names in another order: realigned
    e = dfi.shapley_values(booster, reordered)
    assert e.feature_names == ['a', 'b', 'c']


def test_relabelled_classes_are_noticed():
    m = RandomForestClassifier(5, random_state=0).fit(X, y)
    dfi.contributions(m, X[:3])
    m.classes_ = np.array(['setosa', 'versicolor', 'virginica'])
    assert list(dfi.contributions(m, X[:3]).output_names) == list(m.classes_)
    assert list(dfi.shapley_values(m, X[:3]).output_names) == list(m.classes_)


def test_one_output_keeps_its_space_and_dollar_names_draw():
    e = dfi.shapley_values(RF, X[:5])
    assert describe(e.for_output(1))['of'] == 'probability of 1'
    assert e[:, :, 1].plot.waterfall(0).get_xlabel().endswith('[probability of 1]')
    Xd = X.set_axis(['$\\frac{$'] + list(X.columns[1:]), axis=1)
    m = RandomForestClassifier(5, random_state=0).fit(Xd, y)
    ed = dfi.shapley_values(m, Xd[:5])
    for ax in (
        ed.plot.summary(output=0),
        ed.plot.waterfall(0, output=0),
        ed.plot.bar(0, output=0),
    ):
        ax.figure.savefig(io.BytesIO(), format='png')  # mathtext would fail here
    plt.close('all')


@pytest.mark.parametrize(
    'call, error, words',
    [
        (
            lambda: dfi.Explanation.from_frame(
                dfi.contributions(RR, X[:3]).to_frame().iloc[:0]
            ),
            ValueError,
            'no rows',
        ),
        (
            lambda: dfi.Explanation(np.array([[np.nan]]), np.zeros(1), ['a']),
            ValueError,
            'finite',
        ),
        (
            lambda: dfi.Explanation(np.zeros((1, 1)), np.array([np.inf]), ['a']),
            ValueError,
            'finite',
        ),
        (
            lambda: dfi.contributions(RR, X[:3], method='shapley', verbose='yes'),
            TypeError,
            'verbose',
        ),
        (
            lambda: dfi.shapley_values(
                RR, X[:3], background=X, max_background=10, random_state='a'
            ),
            TypeError,
            'random_state',
        ),
        (lambda: dfi.shapley_values(RR, X[:3], dtype='banana'), ValueError, 'dtype'),
        (lambda: dfi.contributions(RR, X[:3], dtype='banana'), ValueError, 'dtype'),
        (lambda: dfi.shapley_values(RR, X[:3], dtype=None), ValueError, 'dtype'),
        (
            lambda: dfi.shapley_values(RR, X[:3], background=[[1, 2, 3, 4], [1, 2]]),
            ValueError,
            'background',
        ),
        (
            lambda: dfi.shapley_values(RR, X[:20]).plot.dependence(
                [X.columns[2], X.columns[0]]
            ),
            TypeError,
            'feature',
        ),
        (
            lambda: dfi.shapley_values(RR, X[:20]).plot.dependence(
                X.columns[0], color=1.5
            ),
            TypeError,
            'color',
        ),
        (lambda: dfi.shapley_values(RR, X[:20]).plot.summary(ax='x'), TypeError, 'ax'),
        (
            lambda: dfi.shapley_interactions(RF, X[:3], output='nonsense'),
            ValueError,
            'output',
        ),
    ],
)
def test_refusals_name_the_argument(call, error, words):
    with pytest.raises(error, match=words):
        call()
    plt.close('all')


def test_deep_forest_verbose_checked():
    cf = dfi.CascadeForestClassifier(n_estimators=4, max_layers=1, random_state=0).fit(
        X, y
    )
    with pytest.raises(TypeError, match='verbose'):
        dfi.deep_forest_contributions(cf, X[:3], verbose='yes')
