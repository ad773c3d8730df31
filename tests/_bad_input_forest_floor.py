"Bad-input table: forest floor (seed 003; `forest_floor`, `forest_floor_plots`), see tests/test_bad_input.py."

import warnings
import numpy as np
import pandas as pd
import matplotlib

matplotlib.use('Agg')
from sklearn.ensemble import (
    RandomForestRegressor,
    RandomForestClassifier,
    ExtraTreesClassifier,
)
from sklearn.exceptions import NotFittedError
from _bad_input_common import Bad, Edge
from deepforest_interp.explanation import Explanation
from deepforest_interp.forest_floor import (
    oob_contributions,
    heldout_contributions,
    default_k,
    knn_loo,
    knn_smooth,
    goodness_of_visualization,
    feature_colors,
    contribution_importance,
    rank_interactions,
)
from deepforest_interp.forest_floor_plots import (
    plot_forest_floor,
    plot_two_way,
    plot_aligned,
    simplex_coordinates,
    plot_simplex,
    plot_simplex_grid,
)

_rng = np.random.default_rng(0)
X = _rng.uniform(-1, 1, size=(120, 3))
y = X[:, 0] ** 2 + X[:, 1] * X[:, 2]
yc = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5])  # 3 classes
RF = RandomForestRegressor(n_estimators=25, oob_score=True, random_state=0).fit(X, y)
RFC = RandomForestClassifier(n_estimators=25, oob_score=True, random_state=0).fit(X, yc)
RFC2 = RandomForestClassifier(n_estimators=10, random_state=0).fit(
    X, np.c_[X[:, 0] > 0, X[:, 1] > 0].astype(int)
)
E = oob_contributions(RF, X, y)
EC = oob_contributions(RFC, X, yc)
XNAN = X.copy()
XNAN[3, 1] = np.nan
XINF = X.copy()
XINF[3, 1] = np.inf
DF = pd.DataFrame(X, columns=['a', 'b', 'c'])


def _close(a, b, tol=1e-9):
    return bool(np.allclose(a, b, rtol=0, atol=tol * (1 + np.abs(b).max())))


def _plot(f):
    "Call a plot function, close its figure, return a finite summary (the test checks exceptions and finiteness)."
    import matplotlib.pyplot as plt

    out = f()  # noqa: F841 (kept: the call is what the test exercises)
    plt.close('all')
    return np.zeros(1)


def _one_class():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        m = RandomForestClassifier(n_estimators=25, random_state=0).fit(
            X, np.zeros(120, int)
        )
    return m


def _never_oob():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        m = RandomForestRegressor(n_estimators=2, random_state=0).fit(X, y)
        never = (
            np.stack([np.bincount(i, minlength=len(X)) for i in m.estimators_samples_])
            > 0
        ).all(0)
        return m, oob_contributions(m, X, y, never_oob='all_trees'), never


BAD = [
    # oob_contributions
    Bad(
        'oob/not-a-model',
        lambda: oob_contributions('forest', X),
        TypeError,
        'unsupported model type',
    ),
    Bad(
        'oob/unfitted',
        lambda: oob_contributions(RandomForestRegressor(), X),
        NotFittedError,
        'not fitted',
    ),
    Bad(
        'oob/no-bootstrap',
        lambda: oob_contributions(
            RandomForestRegressor(n_estimators=3, bootstrap=False).fit(X, y), X
        ),
        ValueError,
        'bootstrap=False',
    ),
    Bad(
        'oob/nan-X',
        lambda: oob_contributions(RF, XNAN),
        ValueError,
        'not the data this forest was fitted on',
    ),  # NaN is routed, but these are not the training rows
    Bad('oob/inf-X', lambda: oob_contributions(RF, XINF), ValueError, 'infinite'),
    Bad(
        'oob/wrong-width',
        lambda: oob_contributions(RF, X[:, :2]),
        ValueError,
        'has 2 features',
    ),
    Bad(
        'oob/wrong-rows',
        lambda: oob_contributions(RF, X[:100]),
        ValueError,
        'fitted on 120',
    ),
    Bad('oob/empty', lambda: oob_contributions(RF, X[:0]), ValueError, 'no rows'),
    Bad(
        'oob/X-reordered',
        lambda: oob_contributions(RF, X[::-1]),
        ValueError,
        'not the data this forest was fitted on',
    ),
    Bad(
        'oob/y-reordered',
        lambda: oob_contributions(RF, X, y[::-1]),
        ValueError,
        'not the target this forest was fitted on',
    ),
    Bad(
        'oob/y-reordered-clf',
        lambda: oob_contributions(RFC, X, np.roll(yc, 7)),
        ValueError,
        'not the target',
    ),
    Bad(
        'oob/y-short',
        lambda: oob_contributions(RF, X, y[:10]),
        ValueError,
        'has 10 rows',
    ),
    Bad(
        'oob/y-nan',
        lambda: oob_contributions(RF, X, np.where(np.arange(120) == 3, np.nan, y)),
        ValueError,
        'NaN',
    ),
    Bad(
        'oob/y-strings-regressor',
        lambda: oob_contributions(RF, X, np.array(['a'] * 120)),
        TypeError,
        'numeric',
    ),
    Bad(
        'oob/y-unknown-label',
        lambda: oob_contributions(RFC, X, yc + 5),
        ValueError,
        'labels',
    ),
    Bad(
        'oob/never-oob',
        lambda: oob_contributions(
            RandomForestRegressor(n_estimators=1, random_state=0).fit(X, y), X
        ),
        ValueError,
        'never out of bag',
    ),
    Bad(
        'oob/never_oob-value',
        lambda: oob_contributions(RF, X, never_oob='zero'),
        ValueError,
        'never_oob',
    ),
    Bad(
        'oob/n_jobs-str',
        lambda: oob_contributions(RF, X, n_jobs='two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'oob/n_jobs-zero',
        lambda: oob_contributions(RF, X, n_jobs=0),
        ValueError,
        'non-zero',
    ),
    Bad(
        'oob/string-X',
        lambda: oob_contributions(RF, np.array([['a'] * 3] * 120)),
        TypeError,
        'strings',
    ),
    Bad(
        'oob/multi-output-classifier',
        lambda: oob_contributions(RFC2, X),
        ValueError,
        'multi-output classifiers are not supported',
    ),
    # heldout_contributions
    Bad(
        'heldout/multi-output-classifier',
        lambda: heldout_contributions(RFC2, X),
        ValueError,
        'multi-output classifiers',
    ),
    Bad(
        'heldout/not-a-model',
        lambda: heldout_contributions(E, X),
        TypeError,
        'unsupported model type',
    ),
    Bad(
        'heldout/wrong-width',
        lambda: heldout_contributions(RF, X[:, :1]),
        ValueError,
        'has 1 features',
    ),
    Bad(
        'heldout/empty', lambda: heldout_contributions(RF, X[:0]), ValueError, 'no rows'
    ),
    Bad(
        'heldout/y-short',
        lambda: heldout_contributions(RF, X[:5], y[:5]),
        ValueError,
        'y is the training target',
    ),
    Bad(
        'heldout/n_jobs',
        lambda: heldout_contributions(RF, X, n_jobs=1.5),
        TypeError,
        'n_jobs must be an int',
    ),
    # kNN fit and GOV
    Bad('default_k/zero', lambda: default_k(0), ValueError, 'n must be >= 1'),
    Bad('default_k/float', lambda: default_k(2.5), TypeError, 'n must be an int'),
    Bad(
        'knn_loo/too-few-rows',
        lambda: knn_loo(np.ones((2, 1)), np.ones(2)),
        ValueError,
        'at least 3 rows',
    ),
    Bad(
        'knn_loo/length-mismatch',
        lambda: knn_loo(X, y[:50]),
        ValueError,
        'f has 50 rows',
    ),
    Bad('knn_loo/nan', lambda: knn_loo(XNAN, y), ValueError, 'NaN'),
    Bad('knn_loo/k-zero', lambda: knn_loo(X, y, k=0), ValueError, 'k must be >= 1'),
    Bad('knn_loo/k-str', lambda: knn_loo(X, y, k='5'), TypeError, 'k must be an int'),
    Bad(
        'knn_smooth/width',
        lambda: knn_smooth(X, y, X[:, :2]),
        ValueError,
        'Zq has 2 columns',
    ),
    Bad('knn_smooth/inf-query', lambda: knn_smooth(X, y, XINF), ValueError, 'infinite'),
    Bad(
        'gov/not-explanation',
        lambda: goodness_of_visualization(E.values),
        TypeError,
        'must be an Explanation',
    ),
    Bad(
        'gov/unknown-feature',
        lambda: goodness_of_visualization(E, features=['zz']),
        ValueError,
        "unknown feature 'zz'",
    ),
    Bad(
        'gov/feature-out-of-range',
        lambda: goodness_of_visualization(E, features=[3]),
        ValueError,
        'out of range',
    ),
    Bad(
        'gov/feature-float',
        lambda: goodness_of_visualization(E, features=[1.5]),
        TypeError,
        'name or an integer',
    ),
    Bad(
        'gov/context-out-of-range',
        lambda: goodness_of_visualization(E, context=(0, 9)),
        ValueError,
        'out of range',
    ),
    Bad(
        'gov/output-out-of-range',
        lambda: goodness_of_visualization(EC, output=5),
        ValueError,
        'out of range',
    ),
    Bad(
        'gov/unknown-output',
        lambda: goodness_of_visualization(EC, output='z'),
        ValueError,
        'unknown output',
    ),
    Bad(
        'gov/multiclass',
        lambda: goodness_of_visualization(EC, multiclass='max'),
        ValueError,
        'multiclass must be one of',
    ),
    Bad(
        'gov/X-shape',
        lambda: goodness_of_visualization(E, X=X[:10]),
        ValueError,
        'has shape',
    ),
    Bad(
        'gov/no-data',
        lambda: goodness_of_visualization(
            Explanation(np.zeros((5, 2)), np.zeros(5), ['a', 'b'])
        ),
        ValueError,
        'no data',
    ),
    Bad(
        'colors/unknown-feature',
        lambda: feature_colors(X, 'q'),
        ValueError,
        'unknown feature',
    ),
    Bad(
        'colors/components',
        lambda: feature_colors(X, max_components=4),
        ValueError,
        'max_components',
    ),
    Bad(
        'colors/outlier_lim',
        lambda: feature_colors(X, outlier_lim=-1),
        ValueError,
        'outlier_lim',
    ),
    Bad('colors/alpha', lambda: feature_colors(X, alpha=2), ValueError, 'alpha'),
    Bad(
        'importance/not-explanation',
        lambda: contribution_importance(None),
        TypeError,
        'must be an Explanation',
    ),
    Bad(
        'importance/output',
        lambda: contribution_importance(EC, output=3),
        ValueError,
        'out of range',
    ),
    Bad(
        'rank/per-class',
        lambda: rank_interactions(EC, multiclass='per_class'),
        ValueError,
        "'mean' or 'pooled'",
    ),
    Bad(
        'rank/not-explanation',
        lambda: rank_interactions({}),
        TypeError,
        'must be an Explanation',
    ),
    # plots
    Bad(
        'plot_ff/not-explanation',
        lambda: plot_forest_floor(X),
        TypeError,
        'must be an Explanation',
    ),
    Bad(
        'plot_ff/multi-output',
        lambda: plot_forest_floor(EC),
        ValueError,
        'several outputs',
    ),
    Bad(
        'plot_ff/output-out-of-range',
        lambda: plot_forest_floor(EC, output=-4),
        ValueError,
        'out of range',
    ),
    Bad(
        'plot_ff/feature-out-of-range',
        lambda: plot_forest_floor(E, [7]),
        ValueError,
        'out of range',
    ),
    Bad(
        'plot_ff/empty-features',
        lambda: plot_forest_floor(E, []),
        ValueError,
        'features is empty',
    ),
    Bad(
        'plot_ff/color-length',
        lambda: plot_forest_floor(E, color=np.zeros((5, 3))),
        ValueError,
        'color has 5 entries',
    ),
    Bad(
        'plot_ff/color-name',
        lambda: plot_forest_floor(E, color='nonsense'),
        ValueError,
        'neither a feature name',
    ),
    Bad(
        'plot_ff/ncols',
        lambda: plot_forest_floor(E, ncols=0),
        ValueError,
        'ncols must be >= 1',
    ),
    Bad(
        'plot_ff/fig',
        lambda: plot_forest_floor(E, fig=1),
        TypeError,
        'fig must be a matplotlib Figure',
    ),
    Bad(
        'plot_ff/test-type',
        lambda: plot_forest_floor(E, test=X),
        TypeError,
        'test must be an Explanation',
    ),
    Bad(
        'plot_ff/test-features',
        lambda: plot_forest_floor(
            E,
            test=oob_contributions(
                RandomForestRegressor(n_estimators=20, random_state=0).fit(DF, y), DF, y
            ),
        ),
        ValueError,
        'features',
    ),
    Bad(
        'plot_ff/test-outputs',
        lambda: plot_forest_floor(E, test=EC),
        ValueError,
        'outputs of shape',
    ),
    Bad(
        'plot_two_way/one-feature',
        lambda: plot_two_way(E, ('x1',)),
        ValueError,
        'exactly 2 features',
    ),
    Bad(
        'plot_two_way/same-feature',
        lambda: plot_two_way(E, (1, 1)),
        ValueError,
        'two-way view repeats a feature',
    ),
    Bad(
        'plot_two_way/kind',
        lambda: plot_two_way(E, (1, 2), kind='bar'),
        ValueError,
        'kind must be',
    ),
    Bad(
        'plot_two_way/grid',
        lambda: plot_two_way(E, (1, 2), grid=0),
        ValueError,
        'grid must be >= 2',
    ),
    Bad(
        'plot_two_way/ax',
        lambda: plot_two_way(E, (1, 2), ax='ax'),
        TypeError,
        'ax must be a matplotlib Axes',
    ),
    Bad(
        'plot_two_way/not-explanation',
        lambda: plot_two_way([E], (1, 2)),
        TypeError,
        'must be an Explanation',
    ),
    Bad(
        'plot_two_way/multi-output',
        lambda: plot_two_way(EC, (1, 2)),
        ValueError,
        'several outputs',
    ),
    Bad('plot_aligned/regression', lambda: plot_aligned(E), ValueError, 'multi-output'),
    Bad(
        'plot_aligned/colours',
        lambda: plot_aligned(EC, class_colors=['k']),
        ValueError,
        '3 classes',
    ),
    Bad(
        'plot_aligned/multiclass',
        lambda: plot_aligned(EC, multiclass='per_class'),
        ValueError,
        "'mean' or 'pooled'",
    ),
    Bad(
        'simplex_coordinates/shape',
        lambda: simplex_coordinates(np.ones((4, 2))),
        ValueError,
        'need 3 classes',
    ),
    Bad('plot_simplex/regression', lambda: plot_simplex(E), ValueError, '3-class'),
    Bad(
        'plot_simplex/y-length',
        lambda: plot_simplex(EC, y=yc[:5]),
        ValueError,
        'has 5 labels',
    ),
    Bad(
        'plot_simplex/y-labels',
        lambda: plot_simplex(EC, y=yc + 9),
        ValueError,
        'not the explanation',
    ),
    Bad(
        'plot_simplex/feature',
        lambda: plot_simplex(EC, 'q'),
        ValueError,
        'unknown feature',
    ),
    Bad(
        'plot_simplex_grid/empty',
        lambda: plot_simplex_grid(EC, yc, features=[], total=False),
        ValueError,
        'nothing to draw',
    ),
    Bad(
        'plot_simplex_grid/not-explanation',
        lambda: plot_simplex_grid('e', yc),
        TypeError,
        'must be an Explanation',
    ),
]

EDGE = [
    Edge(
        'oob/identity-regression',
        lambda: E,
        lambda e: _close(e.output, RF.oob_prediction_),
    ),
    Edge(
        'oob/identity-classification',
        lambda: EC,
        lambda e: _close(e.output, RFC.oob_decision_function_),
    ),
    Edge(
        'oob/extra-trees-strings',
        lambda: (
            lambda m: (m, oob_contributions(m, X, np.array(['lo', 'mid', 'hi'])[yc]))
        )(
            ExtraTreesClassifier(
                n_estimators=25, bootstrap=True, oob_score=True, random_state=0
            ).fit(X, np.array(['lo', 'mid', 'hi'])[yc])
        ),
        lambda me: _close(me[1].output, me[0].oob_decision_function_),
    ),
    Edge(
        'oob/dataframe',
        lambda: (lambda m: (m, oob_contributions(m, DF, y)))(
            RandomForestRegressor(n_estimators=20, oob_score=True, random_state=0).fit(
                DF, y
            )
        ),
        lambda me: (
            me[1].feature_names == ['a', 'b', 'c']
            and _close(me[1].output, me[0].oob_prediction_)
        ),
    ),
    Edge(
        'oob/y-column',
        lambda: oob_contributions(RFC, X, yc[:, None]),
        lambda e: _close(e.values, EC.values),
    ),
    Edge(
        'oob/never-oob-fallback',
        _never_oob,
        lambda men: (
            bool(men[2].any())
            and _close(men[1].output[men[2]], men[0].predict(X[men[2]]))
        ),
    ),
    Edge(
        'oob/one-class',
        lambda: oob_contributions(_one_class(), X, np.zeros(120, int)),
        lambda e: _close(e.output, np.ones((120, 1))),
    ),
    Edge(
        'heldout/nan-X-routed',
        lambda: heldout_contributions(RF, XNAN),
        lambda e: _close(e.output, RF.predict(XNAN)),
    ),
    Edge(
        'heldout/one-row',
        lambda: heldout_contributions(RF, X[:1], y),
        lambda e: _close(e.output, RF.predict(X[:1])),
    ),
    Edge(
        'heldout/identity-classification',
        lambda: heldout_contributions(RFC, X[:7], yc),
        lambda e: _close(e.output, RFC.predict_proba(X[:7])),
    ),
    Edge(
        'gov/in-unit-interval',
        lambda: goodness_of_visualization(EC, multiclass='per_class'),
        lambda g: bool(((g.values >= 0) & (g.values <= 1)).all()),
    ),
    Edge(
        'gov/constant-contributions',
        lambda: goodness_of_visualization(
            Explanation(np.zeros((30, 2)), np.zeros(30), ['a', 'b'], X[:30, :2])
        ),
        lambda g: g.tolist() == [1.0, 1.0],
    ),
    Edge(
        'gov/mean-of-per-class',
        lambda: (
            goodness_of_visualization(EC),
            goodness_of_visualization(EC, multiclass='per_class'),
        ),
        lambda gs: _close(gs[0].values, gs[1].mean(axis=1).values, 1e-12),
    ),
    Edge(
        'knn_loo/duplicates',
        lambda: knn_loo(np.zeros((10, 1)), np.arange(10.0), k=3),
        lambda g: bool(np.isfinite(g).all()),
    ),
    Edge(
        'colors/constant-feature',
        lambda: feature_colors(np.ones((5, 2))),
        lambda c: c.shape == (5, 4),
    ),
    Edge(
        'rank/classification',
        lambda: rank_interactions(EC, ['x0']),
        lambda r: len(r) == 2,
    ),
    Edge(
        'plot_ff/test-view',
        lambda: _plot(
            lambda: plot_forest_floor(E, test=heldout_contributions(RF, X[:20], y))
        ),
    ),
    Edge(
        'plot_two_way/binary-axis',
        lambda: _plot(
            lambda: plot_two_way(
                oob_contributions(
                    RandomForestRegressor(n_estimators=20, random_state=0).fit(
                        np.c_[X[:, 0], X[:, 1] > 0], y
                    ),
                    np.c_[X[:, 0], X[:, 1] > 0],
                    y,
                ),
                (0, 1),
                kind='contour',
            )
        ),
    ),
    Edge(
        'plot_simplex_grid/all-features',
        lambda: _plot(lambda: plot_simplex_grid(EC, yc)),
    ),
]

# ---- round two (issue 16 §1, §2, §3, §7) ----------------------------------------------------------------------------
_pm = np.random.default_rng(9).permutation(120)
RF_TINY = RandomForestRegressor(n_estimators=25, random_state=0).fit(X, y * 1e-7)
RF_MONO = RandomForestRegressor(
    n_estimators=25, random_state=0, monotonic_cst=[1, 0, 0]
).fit(X, y)
XN = X.copy()
XN[0, 0] = np.nan
E_NAN = heldout_contributions(RF, XN)
E3_NONAMES = Explanation(
    EC.values, EC.bias, EC.feature_names, EC.data
)  # 3 outputs, no output_names
BAD += [
    Bad(
        'oob/tiny-target-permuted-y',
        lambda: oob_contributions(RF_TINY, X, (y * 1e-7)[_pm]),
        ValueError,
        'not the target',
    ),
    Bad(
        'oob/monotonic-permuted-y',
        lambda: oob_contributions(RF_MONO, X, y[_pm]),
        ValueError,
        'not the target',
    ),
    Bad('oob/complex-X', lambda: oob_contributions(RF, X + 0j), TypeError, 'complex'),
    Bad(
        'plot_ff/repeated-feature',
        lambda: _plot(lambda: plot_forest_floor(E, [0, 0])),
        ValueError,
        'repeats a feature',
    ),
    Bad(
        'plot_aligned/repeated-feature',
        lambda: _plot(lambda: plot_aligned(EC, ['x1', 1])),
        ValueError,
        'repeats a feature',
    ),
    Bad(
        'rank/repeated-feature',
        lambda: rank_interactions(E, [0, 0]),
        ValueError,
        'repeats a feature',
    ),
    Bad(
        'gov/repeated-group',
        lambda: goodness_of_visualization(E, features=[(0, 0)]),
        ValueError,
        'repeats a feature',
    ),
    Bad(
        'colors/empty-features',
        lambda: feature_colors(X, features=[]),
        ValueError,
        'features is empty',
    ),
    Bad(
        'plot_simplex_grid/repeated',
        lambda: _plot(lambda: plot_simplex_grid(EC, yc, features=[0, 0])),
        ValueError,
        'repeats a feature',
    ),
]
EDGE += [
    Edge(
        'oob/tiny-target',
        lambda: oob_contributions(RF_TINY, X, y * 1e-7),
        lambda e: _close(e.bias, np.full(120, (y * 1e-7).mean()), 1e-12),
    ),
    Edge(
        'oob/monotonic',
        lambda: (lambda m: (m, oob_contributions(m, X, y)))(
            RandomForestRegressor(
                n_estimators=25, oob_score=True, random_state=0, monotonic_cst=[1, 0, 0]
            ).fit(X, y)
        ),
        lambda me: _close(me[1].output, me[0].oob_prediction_),
    ),
    Edge(
        'oob/data-not-a-view',
        lambda: (lambda Xc: (Xc, oob_contributions(RF, Xc)))(X.copy()),
        lambda out: not np.shares_memory(out[0], out[1].data),
    ),
    Edge(  # a missing value cannot be placed on a colour scale: that row is grey
        'colors/nan',
        lambda: feature_colors(XNAN),
        lambda c: (
            c.shape == (len(XNAN), 4)
            and np.allclose(c[3, :3], 0.6)
            and np.isfinite(c).all()
            and not np.allclose(c[4, :3], 0.6)
        ),
    ),
    Edge(
        'colors/nan-feature-not-used',
        lambda: feature_colors(E_NAN, features=[1, 2]),
        lambda c: c.shape == (120, 4),
    ),
    Edge(
        'plot_simplex/no-output-names', lambda: _plot(lambda: plot_simplex(E3_NONAMES))
    ),
    Edge(
        'plot_simplex/no-output-names-y',
        lambda: _plot(lambda: plot_simplex(E3_NONAMES, y=yc)),
    ),
]
BAD += [
    Bad(
        'colors/alpha-str',
        lambda: feature_colors(X, alpha='a'),
        TypeError,
        'alpha must be a real number',
    ),
    Bad(
        'colors/outlier_lim-str',
        lambda: feature_colors(X, outlier_lim='a'),
        TypeError,
        'outlier_lim must be a real number',
    ),
]
EDGE += [
    Edge(
        'plot_ff/feature-name-string', lambda: _plot(lambda: plot_forest_floor(E, 'x1'))
    )
]  # one name, not its characters
