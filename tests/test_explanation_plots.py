"The plots of an explanation (notebook 02c): every plot on path and Shapley explanations of each output shape, with honest labels; the waterfall adds up; bad input."

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from sklearn.ensemble import RandomForestRegressor, RandomForestClassifier  # noqa: E402
from sklearn.compose import make_column_transformer  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import OneHotEncoder  # noqa: E402

from deepforest_interp import contributions, shapley_values  # noqa: E402
from deepforest_interp.explanation_plots import describe  # noqa: E402

rng = np.random.default_rng(0)
X = pd.DataFrame(rng.normal(size=(120, 5)), columns=list('abcde'))
y = X.a * X.b + X.c


@pytest.fixture(scope='module')
def explanations():
    reg = RandomForestRegressor(10, max_depth=5, random_state=0).fit(X, y)
    clf = RandomForestClassifier(10, max_depth=5, random_state=0).fit(
        X, np.digitize(y, [-0.5, 0.5])
    )
    Xp = X.assign(e=np.where(X.e > 0, 'up', 'down'))
    pipe = make_pipeline(
        make_column_transformer((OneHotEncoder(), ['e']), remainder='passthrough'),
        RandomForestRegressor(10, random_state=0),
    ).fit(Xp, y)
    return {
        'path regression': (
            contributions(reg, X),
            None,
            'path contribution (Saabas)',
            'prediction',
        ),
        'shapley regression': (
            shapley_values(reg, X),
            None,
            'Shapley value (TreeSHAP, path-dependent)',
            'prediction',
        ),
        'shapley classes': (
            shapley_values(clf, X),
            2,
            'Shapley value (TreeSHAP, path-dependent)',
            'probability of 2',
        ),
        'interventional pipeline': (
            shapley_values(pipe, Xp, background=Xp[:20]),
            None,
            'Shapley value (TreeSHAP, interventional)',
            'prediction',
        ),
    }


@pytest.mark.parametrize(
    'name',
    [
        'path regression',
        'shapley regression',
        'shapley classes',
        'interventional pipeline',
    ],
)
def test_every_plot_labels_attribution_and_space(explanations, name):
    e, out, attribution, of = explanations[name]
    ax = e.plot.waterfall(4, output=out, max_features=3)
    assert attribution in ax.get_xlabel() and of in ax.get_xlabel()
    widths = [p.get_width() for p in ax.patches]
    bias = e.bias[4] if out is None else e.bias[4, out]
    total = e.output[4] if out is None else e.output[4, out]
    assert (
        len(widths) == 4 and abs(bias + sum(widths) - total) < 1e-9
    )  # 3 bars + the remainder add up
    ax2 = e.plot.summary(output=out)
    assert (
        attribution in ax2.get_xlabel() and len(ax2.figure.axes) == 2
    )  # the colour bar
    ax3 = e.plot.dependence('e', output=out)
    assert attribution in ax3.get_ylabel() and ax3.figure.axes[
        -1
    ].get_ylabel().endswith('(rank)')
    fig, axs = plt.subplots(1, 2)
    assert (
        e.plot.bar(0, output=out, ax=axs[0]) is axs[0]
    )  # ax= is drawn on and returned
    plt.close('all')


def test_pipeline_labels_categories(explanations):
    e = explanations['interventional pipeline'][0]
    ax = e.plot.dependence('e', color=None)
    assert [t.get_text() for t in ax.get_xticklabels()] == ['down', 'up']
    plt.close('all')


def test_bad_input(explanations):
    e = explanations['shapley classes'][0]
    with pytest.raises(ValueError, match='output='):
        e.plot.summary()
    with pytest.raises(ValueError, match='row'):
        e.plot.waterfall(500, output=0)
    with pytest.raises(TypeError, match='Explanation'):
        describe(np.zeros((3, 2)))
    bare = shapley_values(
        RandomForestRegressor(3, random_state=0).fit(X.values, y), X.values
    )
    bare.data = None
    with pytest.raises(ValueError, match='data'):
        bare.plot.dependence(0)
    plt.close('all')
