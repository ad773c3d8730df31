"Bad-input table: hiDF (grit + hidf modules, issue 11 §3). Format: tests/test_bad_input.py."

import numpy as np
from _bad_input_common import Bad, Edge
from deepforest_interp.intersection_trees import (
    Interaction,
    grit,
    leaf_rules,
    stability_scores,
    plot_stability,
    intersect,
)
from deepforest_interp.hidf import (
    alc_features,
    alc_shares,
    credit_alc,
    HiDFClassifier,
    hidf_contributions,
    hidf_mdi,
)
from sklearn.tree import DecisionTreeClassifier

_rng = np.random.default_rng(0)
_X = _rng.normal(size=(60, 3))
_y = (_X[:, 0] * _X[:, 1] > 0).astype(int)
_tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(_X, _y)
_TINY = dict(
    n_estimators=3,
    n_bootstrap=2,
    n_estimators_bootstrap=2,
    n_intersection_trees=3,
    intersection_depth=2,
    max_layers=2,
    random_state=0,
)
_I = Interaction((1, -2), (0.0, 0.0))
_w = np.array([0.5, 0.5, 0.0])


def _fitted(pipeline):
    return HiDFClassifier(pipeline=pipeline, **_TINY).fit(_X, _y)


BAD = [
    Bad(
        'Interaction/zero-index',
        lambda: Interaction((0,), (1.0,)),
        ValueError,
        '0 is not a valid',
    ),
    Bad(
        'Interaction/inf-threshold',
        lambda: Interaction((1,), (np.inf,)),
        ValueError,
        'finite',
    ),
    Bad(
        'grit/depth-huge',
        lambda: grit(leaf_rules(_tree), depth=10**6),
        ValueError,
        'depth must be <= 12',
    ),
    Bad(
        'grit/n_child-float',
        lambda: grit(leaf_rules(_tree), n_child=2.5),
        TypeError,
        'n_child must be an int',
    ),
    Bad(
        'grit/too-many-nodes',
        lambda: grit(leaf_rules(_tree), n_trees=10**5, depth=12, n_child=2),
        ValueError,
        'exceeds',
    ),
    Bad(
        'stability/sample_weight-shape',
        lambda: stability_scores(
            _X, _y, n_bootstrap=1, n_estimators=2, sample_weight=np.ones(3)
        ),
        ValueError,
        'sample_weight has 3 entries',
    ),
    Bad(
        'stability/sample_weight-zero',
        lambda: stability_scores(
            _X, _y, n_bootstrap=1, n_estimators=2, sample_weight=np.zeros(60)
        ),
        ValueError,
        'not all zero',
    ),
    Bad(
        'plot_stability/empty',
        lambda: plot_stability([]),
        ValueError,
        'no interactions',
    ),
    Bad(
        'alc_features/weights-shape',
        lambda: alc_features(_X, [_I], np.ones(2)),
        ValueError,
        'weights has 2 entries',
    ),
    Bad(
        'alc_features/not-interaction',
        lambda: alc_features(_X, [(1, 2)], _w),
        TypeError,
        'not an Interaction',
    ),
    Bad(
        'alc_shares/empty',
        lambda: alc_shares(_X, Interaction((), ()), _w),
        ValueError,
        'empty',
    ),
    Bad(
        'alc_shares/column',
        lambda: alc_shares(_X, Interaction((5,), (0.0,)), _w),
        ValueError,
        'uses column 4',
    ),
    Bad(
        'credit_alc/specs',
        lambda: credit_alc(np.zeros((2, 4)), np.zeros((2, 4)), [], 3),
        ValueError,
        '1 ALC columns but 0',
    ),
    Bad(
        'HiDF/pipeline',
        lambda: HiDFClassifier(pipeline='tree').fit(_X, _y),
        ValueError,
        'pipeline',
    ),
    Bad(
        'HiDF/intersection_depth',
        lambda: HiDFClassifier(intersection_depth=100).fit(_X, _y),
        ValueError,
        'intersection_depth',
    ),
    Bad(
        'HiDF/n_child',
        lambda: HiDFClassifier(n_child=2**40).fit(_X, _y),
        ValueError,
        'n_child',
    ),
    Bad(
        'HiDF/final_estimator',
        lambda: HiDFClassifier(final_estimator='RF').fit(_X, _y),
        ValueError,
        'final_estimator',
    ),
    Bad(
        'HiDF/n_estimators_final',
        lambda: HiDFClassifier(n_estimators_final=0).fit(_X, _y),
        ValueError,
        'n_estimators_final',
    ),
    Bad(
        'HiDF/one-class',
        lambda: HiDFClassifier(**_TINY).fit(_X, np.zeros(60)),
        ValueError,
        'only one class',
    ),
    Bad(
        'HiDF/nan',
        lambda: HiDFClassifier(**_TINY).fit(np.where(_X > 1, np.nan, _X), _y),
        ValueError,
        'NaN',
    ),
    Bad(
        'HiDF/negative-weights',
        lambda: HiDFClassifier(pipeline='paper', **_TINY).fit(
            _X, _y, sample_weight=-np.ones(60)
        ),
        ValueError,
        'Negative values',
    ),
    Bad(
        'HiDF/representation-layer',
        lambda: _fitted('paper').representation(_X, layer=-1),
        ValueError,
        'layer must be',
    ),
    Bad(
        'HiDF/layer_inputs-paper',
        lambda: _fitted('paper').layer_inputs(_X),
        ValueError,
        "pipeline='cascade'",
    ),
    Bad(
        'hidf_contributions/model',
        lambda: hidf_contributions(_tree, _X),
        TypeError,
        'must be a HiDFClassifier',
    ),
    Bad(
        'hidf_contributions/calibration',
        lambda: hidf_contributions(_fitted('cascade'), _X, calibration='exact'),
        ValueError,
        'calibration must be one of',
    ),
    Bad(
        'hidf_contributions/width',
        lambda: hidf_contributions(_fitted('cascade'), _X[:, :2]),
        ValueError,
        'features',
    ),
    Bad(
        'hidf_mdi/y-length',
        lambda: hidf_mdi(_fitted('paper'), _X, _y[:5]),
        ValueError,
        'rows',
    ),
]

EDGE = [
    Edge(
        'alc_shares/all-terms-zero',
        lambda: alc_shares(np.zeros((3, 3)), _I, _w)[0],
        lambda P: np.allclose(P, 0.5),
    ),
    Edge(
        'alc_shares/zero-weights',
        lambda: alc_shares(_X, _I, np.zeros(3))[0],
        lambda P: np.allclose(P.sum(1), 1),
    ),
    Edge(
        'alc_shares/mixed-signs',
        lambda: alc_shares(np.array([[2.0, 1.0, 0.0]]), _I, _w)[0],
        lambda P: np.allclose(P, [[2.0, -1.0]]),
    ),
    Edge(
        'intersect/disjoint',
        lambda: len(intersect(Interaction((1,), (0.0,)), Interaction((2,), (0.0,)))),
        lambda n: n == 0,
    ),
    Edge(
        'hidf_contributions/constant-column',
        lambda: (lambda m, X: (hidf_contributions(m, X), m.predict_proba(X)))(
            HiDFClassifier(**_TINY).fit(np.c_[_X, np.ones(60)], _y),
            np.c_[_X, np.ones(60)],
        ),
        lambda r: np.abs(r[0].output - r[1]).max() <= 1e-9,
    ),
    Edge(
        'hidf_contributions/final-layer-forests',
        lambda: (lambda m: (hidf_contributions(m, _X), m.predict_proba(_X)))(
            HiDFClassifier(final_estimator='layer', **_TINY).fit(_X, _y)
        ),
        lambda r: np.abs(r[0].output - r[1]).max() <= 1e-9,
    ),
]
