"Bad-input table: MDI, MDI as covariance, MDI-oob, local MDI, MDA, OOB permutation importance (issue 11 §3)."

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
)
from sklearn.tree import DecisionTreeClassifier
from _bad_input_common import Bad, Edge
from deepforest_interp.importance import (
    mdi,
    mdi_covariance,
    mdi_oob,
    ufi,
    local_mdi,
    mda,
    oob_permutation_importance,
    impurity_reductions,
    fit_weights,
)

_rng = np.random.default_rng(1)
X = _rng.normal(size=(60, 3))
y = (X[:, 0] > 0).astype(int)
yr = X[:, 0] + 0.1 * _rng.normal(size=60)
rf = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
rfr = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, yr)
rf2 = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, np.c_[yr, -yr])
mo_clf = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, np.c_[y, 1 - y])
one_class = RandomForestClassifier(n_estimators=3, random_state=0).fit(
    X, np.zeros(60, int)
)
sw = _rng.uniform(0.5, 2, 60)
et_w = ExtraTreesClassifier(n_estimators=4, random_state=0).fit(X, y, sample_weight=sw)
perm = _rng.permutation(60)

BAD = [
    Bad(
        'mdi/unfitted', lambda: mdi(RandomForestClassifier()), ValueError, 'not fitted'
    ),
    Bad('mdi/wrong-type', lambda: mdi(object()), TypeError, 'unsupported model'),
    Bad(
        'mdi/normalize',
        lambda: mdi(rf, normalize='yes'),
        TypeError,
        'normalize must be a bool',
    ),
    Bad(
        'mdi/return_std',
        lambda: mdi(rf, return_std='yes'),
        TypeError,
        'return_std must be a bool',
    ),
    Bad(
        'mdi_covariance/return_std',
        lambda: mdi_covariance(rf, X, y, return_std=None),
        TypeError,
        'return_std must be a bool',
    ),
    Bad(
        'mdi_oob/return_std',
        lambda: mdi_oob(rf, X, y, return_std=1),
        TypeError,
        'return_std must be a bool',
    ),
    Bad(
        'local_mdi/return_std',
        lambda: local_mdi(rf, X, y, return_std='no'),
        TypeError,
        'return_std must be a bool',
    ),
    Bad(
        'mdi_covariance/nan-X',
        lambda: mdi_covariance(rf, np.where(X > 1, np.nan, X), y),
        ValueError,
        'training data in training order',
    ),  # NaN routed; not the training rows
    Bad(
        'mdi_covariance/wrong-width',
        lambda: mdi_covariance(rf, X[:, :2], y),
        ValueError,
        'fitted with 3',
    ),
    Bad(
        'mdi_covariance/short-y',
        lambda: mdi_covariance(rf, X, y[:10]),
        ValueError,
        'has 10 rows',
    ),
    Bad(
        'mdi_covariance/unknown-label',
        lambda: mdi_covariance(rf, X, y + 5),
        ValueError,
        'not fitted on',
    ),
    Bad(
        'mdi_covariance/None-in-y',
        lambda: mdi_covariance(rf, X, np.where(y > 0, None, 0).astype(object)),
        ValueError,
        'missing values',
    ),
    Bad(
        'mdi_covariance/reordered',
        lambda: mdi_covariance(rf, X[perm], y[perm]),
        ValueError,
        'training order',
    ),
    Bad(
        'mdi_covariance/subset',
        lambda: mdi_covariance(rf, X[:30], y[:30]),
        ValueError,
        'fitted on 60',
    ),
    Bad(
        'mdi_covariance/missing-sample-weight',
        lambda: mdi_covariance(et_w, X, y),
        ValueError,
        'sample_weight missing',
    ),
    Bad(
        'mdi_covariance/sample-weight-shape',
        lambda: mdi_covariance(et_w, X, y, sample_weight=sw[:5]),
        ValueError,
        'sample_weight has shape',
    ),
    Bad(
        'mdi_covariance/negative-weight',
        lambda: mdi_covariance(et_w, X, y, sample_weight=-sw),
        ValueError,
        'non-negative',
    ),
    Bad(
        'mdi_covariance/target-width-1d-for-2',
        lambda: mdi_covariance(rf2, X, yr),
        ValueError,
        'target column',
    ),
    Bad(
        'mdi_covariance/target-width-2-for-1',
        lambda: mdi_covariance(rfr, X, np.c_[yr, yr]),
        ValueError,
        'target column',
    ),
    Bad(
        'mdi_covariance/multi-output-clf',
        lambda: mdi_covariance(mo_clf, X, np.c_[y, 1 - y]),
        ValueError,
        'multi-output',
    ),
    Bad(
        'mdi_covariance/entropy',
        lambda: mdi_covariance(
            RandomForestClassifier(n_estimators=2, criterion='entropy').fit(X, y), X, y
        ),
        ValueError,
        'variance impurity',
    ),
    Bad(
        'mdi_covariance/string-y-regressor',
        lambda: mdi_covariance(rfr, X, np.array(['a'] * 60)),
        ValueError,
        'numeric',
    ),
    Bad(
        'mdi_oob/no-bootstrap',
        lambda: mdi_oob(et_w, X, y),
        ValueError,
        'bootstrap=False',
    ),
    Bad(
        'mdi_oob/reordered',
        lambda: mdi_oob(rf, X[perm], y[perm]),
        ValueError,
        'training order',
    ),
    Bad(
        'mdi_oob/tree',
        lambda: mdi_oob(DecisionTreeClassifier().fit(X, y), X, y),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'mdi_oob/multi-output-clf',
        lambda: mdi_oob(mo_clf, X, np.c_[y, 1 - y]),
        ValueError,
        'multi-output',
    ),
    Bad(
        'ufi/return_std',
        lambda: ufi(rf, X, y, return_std=1),
        TypeError,
        'return_std must be a bool',
    ),
    Bad('ufi/no-bootstrap', lambda: ufi(et_w, X, y), ValueError, 'bootstrap=False'),
    Bad(
        'ufi/reordered',
        lambda: ufi(rf, X[perm], y[perm]),
        ValueError,
        'training order',
    ),
    Bad(
        'ufi/tree',
        lambda: ufi(DecisionTreeClassifier().fit(X, y), X, y),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'ufi/multi-output-clf',
        lambda: ufi(mo_clf, X, np.c_[y, 1 - y]),
        ValueError,
        'multi-output',
    ),
    Bad(
        'ufi/entropy',
        lambda: ufi(
            RandomForestClassifier(3, criterion='entropy', random_state=0).fit(X, y),
            X,
            y,
        ),
        ValueError,
        'variance impurity',
    ),
    Bad(
        'ufi/short-weights',
        lambda: ufi(rf, X, y, sample_weight=np.ones(5)),
        ValueError,
        'sample_weight',
    ),
    Bad(
        'local_mdi/regressor',
        lambda: local_mdi(rfr, X, yr),
        TypeError,
        'needs a classifier',
    ),
    Bad('mda/wrong-width', lambda: mda(rf, X[:, :2], y), ValueError, 'fitted with 3'),
    Bad(
        'mda/n_jobs',
        lambda: mda(rf, X, y, n_jobs='two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'oob_pi/reordered',
        lambda: oob_permutation_importance(rf, X[perm], y[perm]),
        ValueError,
        'training order',
    ),
    Bad(
        'oob_pi/multi-output-clf',
        lambda: oob_permutation_importance(mo_clf, X, np.c_[y, 1 - y]),
        ValueError,
        'multi-output',
    ),
    Bad(
        'impurity_reductions/forest',
        lambda: impurity_reductions(rf),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'impurity_reductions/unfitted',
        lambda: impurity_reductions(DecisionTreeClassifier()),
        ValueError,
        'not fitted',
    ),
    Bad(
        'impurity_reductions/too-few-names',
        lambda: impurity_reductions(rf.estimators_[0], ['a']),
        ValueError,
        'feature_names has 1',
    ),
    Bad(
        'fit_weights/wrong-y',
        lambda: fit_weights(rf, X, 1 - y),
        ValueError,
        'training order',
    ),
    Bad(
        'mda/n_repeats',
        lambda: mda(rf, X, y, n_repeats=0),
        ValueError,
        'n_repeats must be >= 1',
    ),
    Bad(
        'oob_pi/random_state',
        lambda: oob_permutation_importance(rf, X, y, random_state='a'),
        ValueError,
        'random_state must be',
    ),
    Bad(
        'local_mdi/one-class',
        lambda: local_mdi(one_class, X, np.zeros(60, int)),
        ValueError,
        'at least two classes',
    ),
    Bad(
        'mdi_covariance/inbag-str',
        lambda: mdi_covariance(rf, X, y, inbag='no'),
        TypeError,
        'inbag must be a bool',
    ),
    Bad(
        'mdi_covariance/2-D-labels',
        lambda: mdi_covariance(rf, X, np.c_[y, y]),
        ValueError,
        'one class label per row',
    ),
]
_same = lambda a, b: np.allclose(np.asarray(a), np.asarray(b), atol=1e-9)
EDGE = [
    Edge(
        'mdi_covariance/y-column',
        lambda: mdi_covariance(rfr, X, yr[:, None]),
        lambda out: _same(out, mdi_covariance(rfr, X, yr)),
    ),
    Edge(
        'mdi_covariance/weighted-et',
        lambda: mdi_covariance(et_w, X, y, sample_weight=sw),
        lambda out: _same(out, mdi(et_w)),
    ),
    Edge(
        'mdi_covariance/one-class',
        lambda: mdi_covariance(one_class, X, np.zeros(60, int)),
        lambda out: _same(out, 0),
    ),
    Edge('mdi/one-class', lambda: mdi(one_class), lambda out: _same(out, 0)),
    Edge(
        'mdi_covariance/series-names',
        lambda: mdi_covariance(
            RandomForestClassifier(n_estimators=3, random_state=0).fit(
                pd.DataFrame(X, columns=list('abc')), y
            ),
            pd.DataFrame(X, columns=list('abc')),
            y,
        ),
        lambda out: list(out.index) == list('abc'),
    ),
    Edge(
        'mdi_oob/finite',
        lambda: mdi_oob(rf, X, y),
        lambda out: isinstance(out, pd.Series) and len(out) == 3,
    ),
    Edge(
        'local_mdi/shape', lambda: local_mdi(rf, X, y), lambda out: out.shape == (3, 2)
    ),
    Edge(
        'mda/series',
        lambda: mda(rf, X, y, random_state=0),
        lambda out: isinstance(out, pd.Series) and out.importances_std is not None,
    ),
    Edge(
        'mdi_covariance/one-feature',
        lambda: (lambda m: (m, mdi_covariance(m, X[:, :1], y)))(
            RandomForestClassifier(n_estimators=3, random_state=0).fit(X[:, :1], y)
        ),
        lambda out: _same(out[1], mdi(out[0])),
    ),
    Edge(
        'mdi_covariance/one-row-held-out',
        lambda: mdi_covariance(rfr, X[:1], yr[:1], inbag=False),
        lambda out: _same(out, 0),
    ),
    Edge(
        'mdi_covariance/one-training-row',
        lambda: (lambda m: (m, mdi_covariance(m, X[:1], yr[:1])))(
            RandomForestRegressor(n_estimators=2, random_state=0).fit(X[:1], yr[:1])
        ),
        lambda out: _same(out[1], mdi(out[0])),
    ),
    Edge(
        'mdi_covariance/weighted-tree-class-weight',
        lambda: (lambda m: (m, mdi_covariance(m, X, y, sample_weight=sw)))(
            DecisionTreeClassifier(class_weight={0: 1, 1: 3}, random_state=0).fit(
                X, y, sample_weight=sw
            )
        ),
        lambda out: _same(out[1], mdi(out[0])),
    ),
    Edge(
        'mdi_covariance/weighted-rf-no-bootstrap',
        lambda: (lambda m: (m, mdi_covariance(m, X, yr, sample_weight=sw)))(
            RandomForestRegressor(n_estimators=3, bootstrap=False, random_state=0).fit(
                X, yr, sample_weight=sw
            )
        ),
        lambda out: _same(out[1], mdi(out[0])),
    ),
    Edge(
        'encode_target/cascade-classifier',
        lambda: __import__(
            'deepforest_interp.importance', fromlist=['x']
        ).encode_target(
            __import__('deepforest_interp.cascade', fromlist=['x'])
            .CascadeForestClassifier(n_estimators=4, max_layers=1, random_state=0)
            .fit(X, y),
            y,
        ),
        lambda out: out.shape == (60, 2) and (out.argmax(1) == y).all(),
    ),
    Edge(
        'oob_pi/one-row-tree-free',
        lambda: oob_permutation_importance(rf, X, y, random_state=0),
        lambda out: np.isfinite(out.z_scores).all(),
    ),
]

# ---- round two (issue 16 §2, §3, §7) --------------------------------------------------------------------------------
from deepforest_interp.importance import plot_importances

_tiny = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, yr * 1e-7)
_mono = RandomForestRegressor(
    n_estimators=5, random_state=0, monotonic_cst=[1, 0, 0]
).fit(X, yr)
_mono_clf = RandomForestClassifier(
    n_estimators=5, random_state=0, monotonic_cst=[1, 0, 0]
).fit(X, y)


def _plot(f):
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    ax = f()
    n = len(ax.patches)
    plt.close('all')
    return n


BAD += [
    Bad(
        'mdi_covariance/tiny-target-permuted-y',
        lambda: mdi_covariance(_tiny, X, (yr * 1e-7)[perm]),
        ValueError,
        'training order',
    ),
    Bad(
        'mdi_oob/tiny-target-permuted-y',
        lambda: mdi_oob(_tiny, X, (yr * 1e-7)[perm]),
        ValueError,
        'training order',
    ),
    Bad(
        'mdi_covariance/monotonic',
        lambda: mdi_covariance(_mono, X, yr),
        ValueError,
        'monotonic_cst',
    ),
    Bad(
        'mdi_oob/monotonic-permuted-y',
        lambda: mdi_oob(_mono, X, yr[perm]),
        ValueError,
        'not the target',
    ),
    Bad(
        'mdi_covariance/complex-X',
        lambda: mdi_covariance(rfr, X + 0j, yr),
        TypeError,
        'complex',
    ),
    Bad(
        'plot_importances/top=0',
        lambda: plot_importances({'a': [1, 2, 3]}, list('abc'), top=0),
        ValueError,
        'top must be >= 1',
    ),
    Bad(
        'plot_importances/top-float',
        lambda: plot_importances({'a': [1, 2, 3]}, list('abc'), top=1.5),
        TypeError,
        'top must be an int',
    ),
    Bad(
        'plot_importances/not-dict',
        lambda: plot_importances([1, 2, 3], list('abc')),
        TypeError,
        'must be a non-empty dict',
    ),
    Bad(
        'plot_importances/length',
        lambda: plot_importances({'a': [1, 2]}, list('abc')),
        ValueError,
        "importances['a'] has 2 values",
    ),
    Bad(
        'plot_importances/nan',
        lambda: plot_importances({'a': [1, np.nan, 2]}, list('abc')),
        ValueError,
        'NaN',
    ),
]
EDGE += [
    Edge(
        'mdi_covariance/tiny-target',
        lambda: mdi_covariance(_tiny, X, yr * 1e-7),
        lambda out: np.allclose(out, mdi(_tiny), rtol=1e-9, atol=0),
    ),
    Edge('mdi_oob/monotonic', lambda: mdi_oob(_mono, X, yr), lambda out: len(out) == 3),
    Edge(
        'mdi_oob/monotonic-classifier',
        lambda: mdi_oob(_mono_clf, X, y),
        lambda out: len(out) == 3,
    ),
    Edge(
        'mdi_covariance/monotonic-held-out',
        lambda: mdi_covariance(_mono, X, yr, inbag=False),
        lambda out: len(out) == 3,
    ),
    Edge(
        'oob_pi/monotonic',
        lambda: oob_permutation_importance(_mono, X, yr, random_state=0),
        lambda out: len(out.importances_mean) == 3,
    ),
    Edge(
        'plot_importances/top=1',
        lambda: _plot(lambda: plot_importances({'a': [1, 2, 3]}, list('abc'), top=1)),
        lambda n: n == 1,
    ),
]
BAD += [
    Bad(
        'mdi_covariance/held-out-sample-weight-str',
        lambda: mdi_covariance(rfr, X, yr, inbag=False, sample_weight=['a'] * 60),
        TypeError,
        'sample_weight must be numeric',
    ),
    Bad(
        'mdi_covariance/sample-weight-str',
        lambda: mdi_covariance(et_w, X, y, sample_weight=['a'] * 60),
        TypeError,
        'sample_weight must be numeric',
    ),
]
