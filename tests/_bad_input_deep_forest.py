"Bad-input table: deep forest (cascade, estimation, calibration; issue 11 §3). Harness: tests/test_bad_input.py."

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from _bad_input_common import Bad, Edge
from deepforest_interp.nodes import tree_arrays
from deepforest_interp.cascade import (
    CascadeForestClassifier,
    CascadeForestRegressor,
    plot_validation_curve,
    new_feature_split_share,
)
from deepforest_interp.estimation import (
    inbag_rows,
    node_sums,
    estimated_increments,
    cascade_contributions_reference,
)
from deepforest_interp.calibration import (
    multiplicative_calibration,
    additive_calibration,
    partial_additive_calibration,
    cascade_pass,
    deep_forest_contributions,
    deep_forest_mdi,
    deep_forest_local_mdi,
    deep_forest_explain,
    prepare_explanations,
)

_rng = np.random.default_rng(0)
X = pd.DataFrame(_rng.uniform(size=(60, 3)), columns=['a', 'b', 'c'])
y = np.r_[np.repeat([0, 1, 2], 4), (X['a'].to_numpy()[12:] * 3).astype(int)]
yr = X['a'].to_numpy() * 2 + X['b'].to_numpy()
KW = dict(
    n_forests=2,
    n_estimators=3,
    max_depth=3,
    max_layers=2,
    n_tolerant_rounds=2,
    random_state=0,
)
CLF = CascadeForestClassifier(**KW).fit(X, y)
REG = CascadeForestRegressor(**KW).fit(X, yr)
UNFIT = CascadeForestClassifier(**KW)
RF = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
L = CLF.n_layers_
Xn = X.iloc[:5].copy()
X_inf = Xn.copy()
X_inf.iloc[0, 1] = np.inf
X_narrow = Xn.iloc[:, :2]
X_empty = Xn.iloc[:0]
TA = tree_arrays(RF.estimators_[0])
MAPS = [
    ('multiplicative', multiplicative_calibration),
    ('additive', additive_calibration),
    ('partial', partial_additive_calibration),
]
EXPLAINERS = [
    ('contributions', lambda X_, **k: deep_forest_contributions(CLF, X_, **k)),
    ('cascade_pass', lambda X_, **k: cascade_pass(CLF, X_, **k)),
    ('explain', lambda X_, **k: deep_forest_explain(CLF, X_, **k)),
]

BAD = [
    # ---- cascade estimators
    Bad(
        'fit/inf-X',
        lambda: CascadeForestRegressor(**KW).fit(X_inf, yr[:5]),
        ValueError,
        'infinity',
    ),
    Bad(
        'fit/empty',
        lambda: CascadeForestRegressor(**KW).fit(X_empty, yr[:0]),
        ValueError,
        'sample',
    ),
    Bad(
        'fit/one-row',
        lambda: CascadeForestRegressor(**KW).fit(X.iloc[:1], yr[:1]),
        ValueError,
        'fewer than n_folds',
    ),
    Bad(
        'fit/one-class',
        lambda: CascadeForestClassifier(**KW).fit(X, np.zeros(60)),
        ValueError,
        'only one class',
    ),
    Bad(
        'fit/y-length',
        lambda: CascadeForestRegressor(**KW).fit(X, yr[:10]),
        ValueError,
        'inconsistent',
    ),
    Bad(
        'fit/n_jobs-str',
        lambda: CascadeForestRegressor(**KW, n_jobs='two').fit(X, yr),
        ValueError,
        'n_jobs',
    ),
    Bad(
        'fit/n_jobs-zero',
        lambda: CascadeForestRegressor(**KW, n_jobs=0).fit(X, yr),
        ValueError,
        'n_jobs',
    ),
    Bad(
        'fit/sample_weight-negative',
        lambda: CascadeForestRegressor(**KW).fit(X, yr, sample_weight=-np.ones(60)),
        ValueError,
        'negative',
    ),
    Bad(
        'fit/sample_weight-length',
        lambda: CascadeForestRegressor(**KW).fit(X, yr, sample_weight=np.ones(5)),
        ValueError,
        'sample_weight',
    ),
    Bad(
        'fit/sample_weight-zero-class',
        lambda: CascadeForestClassifier(**KW).fit(
            X, y, sample_weight=(y != 2).astype(float)
        ),
        ValueError,
        'zero on every row of a class',
    ),
    Bad(
        'fit/max_features',
        lambda: CascadeForestRegressor(max_features='all').fit(X, yr),
        ValueError,
        'max_features',
    ),
    Bad('predict/unfitted', lambda: UNFIT.predict(Xn), Exception, 'not fitted'),
    Bad('predict/wrong-width', lambda: CLF.predict(X_narrow), ValueError, 'feature'),
    # NaN is routed as the layers' forests route it (scikit-learn >= 1.4): not bad input
    Bad('predict/inf', lambda: CLF.predict_proba(X_inf), ValueError, 'infinity'),
    Bad(
        'predict/bad-layer',
        lambda: CLF.predict_proba(Xn, layer=L),
        ValueError,
        'out of range',
    ),
    Bad(
        'predict/layer-float',
        lambda: REG.predict(Xn, layer=0.0),
        TypeError,
        'layer must be an int',
    ),
    Bad(
        'layer_input/oof-not-training',
        lambda: CLF.layer_input(Xn, 0, oof=True),
        ValueError,
        'training data',
    ),
    Bad(
        'layer_inputs/bad-layer',
        lambda: CLF.layer_inputs(Xn, -L - 1),
        ValueError,
        'out of range',
    ),
    Bad(
        'layer_outputs/empty', lambda: CLF.layer_outputs(X_empty), ValueError, 'sample'
    ),
    Bad(
        'forest_output/bad-forest',
        lambda: CLF.forest_output(Xn, 0, 5),
        ValueError,
        'forest=5 is out of range',
    ),
    Bad(
        'training_input/bad-layer',
        lambda: REG.training_input(9),
        ValueError,
        'out of range',
    ),
    Bad(
        'training_data/unfitted', lambda: UNFIT.training_data(), Exception, 'not fitted'
    ),
    Bad(
        'is_training_data/unfitted',
        lambda: UNFIT.is_training_data(X),
        Exception,
        'not fitted',
    ),
    Bad(
        'new_feature_split_share/layer0',
        lambda: new_feature_split_share(CLF, 0),
        ValueError,
        'layer >= 1',
    ),
    Bad(
        'new_feature_split_share/model',
        lambda: new_feature_split_share(RF),
        TypeError,
        'CascadeForest',
    ),
    Bad(
        'plot_validation_curve/model',
        lambda: plot_validation_curve(RF),
        TypeError,
        'CascadeForest',
    ),
    # ---- estimation (low-level)
    Bad(
        'inbag_rows/model',
        lambda: inbag_rows(CLF, 0, np.arange(60)),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'inbag_rows/tree-index',
        lambda: inbag_rows(RF, 3, np.arange(60)),
        ValueError,
        'm must be <= 2',
    ),
    Bad(
        'inbag_rows/train_idx-length',
        lambda: inbag_rows(RF, 0, np.arange(10)),
        ValueError,
        'rows',
    ),
    Bad(
        'inbag_rows/train_idx-float',
        lambda: inbag_rows(RF, 0, np.linspace(0, 1, 60)),
        TypeError,
        'train_idx',
    ),
    Bad(
        'node_sums/leaf-range',
        lambda: node_sums(TA, np.full(3, TA.n_nodes), np.ones(3), np.ones((3, 1))),
        ValueError,
        'node ids',
    ),
    Bad(
        'node_sums/lengths',
        lambda: node_sums(TA, np.zeros(3, int), np.ones(2), np.ones((3, 1))),
        ValueError,
        'one entry per row',
    ),
    Bad(
        'node_sums/nan',
        lambda: node_sums(TA, np.zeros(2, int), np.ones(2), np.full((2, 1), np.nan)),
        ValueError,
        'finite',
    ),
    Bad(
        'estimated_increments/S-shape',
        lambda: estimated_increments(TA, np.zeros((2, 1, 3, 3)), 3, 3),
        ValueError,
        'S must have shape',
    ),
    Bad(
        'reference/model',
        lambda: cascade_contributions_reference(RF),
        TypeError,
        'CascadeForest',
    ),
    # ---- calibration maps: checked before any compiled kernel runs
    *[
        Bad(
            f'{n}/dmu-width',
            lambda g=g: g(np.ones(4), [0.1, 0.2]),
            ValueError,
            'one entry per column',
        )
        for n, g in MAPS
    ],
    *[
        Bad(
            f'{n}/dmu-width-2d',
            lambda g=g: g(np.ones((4, 3)), [0.1, 0.2]),
            ValueError,
            'one entry per column',
        )
        for n, g in MAPS
    ],
    *[
        Bad(
            f'{n}/nan',
            lambda g=g: g(np.array([np.nan, 1.0]), 0.1),
            ValueError,
            'finite',
        )
        for n, g in MAPS
    ],
    *[
        Bad(f'{n}/inf-dmu', lambda g=g: g(np.ones(2), np.inf), ValueError, 'finite')
        for n, g in MAPS
    ],
    *[
        Bad(
            f'{n}/empty',
            lambda g=g: g(np.ones(0), 0.1),
            ValueError,
            'at least one feature',
        )
        for n, g in MAPS
    ],
    *[
        Bad(
            f'{n}/3d',
            lambda g=g: g(np.ones((2, 2, 2)), 0.1),
            ValueError,
            'est must be 1-D',
        )
        for n, g in MAPS
    ],
    *[
        Bad(
            f'{n}/strings',
            lambda g=g: g(np.array(['a', 'b']), 0.1),
            TypeError,
            'numeric',
        )
        for n, g in MAPS
    ],
    # ---- explainers
    *[
        Bad(f'{n}/inf-X', lambda f=f: f(X_inf), ValueError, 'infinite')
        for n, f in EXPLAINERS
    ],
    *[
        Bad(f'{n}/wrong-width', lambda f=f: f(X_narrow), ValueError, 'features')
        for n, f in EXPLAINERS
    ],
    *[
        Bad(f'{n}/empty', lambda f=f: f(X_empty), ValueError, 'no rows')
        for n, f in EXPLAINERS[:1]
    ],
    *[
        Bad(f'{n}/bad-layer', lambda f=f: f(Xn, layer=L), ValueError, 'out of range')
        for n, f in EXPLAINERS
    ],
    *[
        Bad(
            f'{n}/layer-str',
            lambda f=f: f(Xn, layer='last'),
            TypeError,
            'layer must be an int',
        )
        for n, f in EXPLAINERS
    ],
    *[
        Bad(
            f'{n}/calibration-list',
            lambda f=f: f(Xn, calibration=['partial']),
            TypeError,
            'calibration must be a str',
        )
        for n, f in EXPLAINERS
    ],
    *[
        Bad(
            f'{n}/calibration-unknown',
            lambda f=f: f(Xn, calibration='exact'),
            ValueError,
            "choose one of 'partial'",
        )
        for n, f in EXPLAINERS
    ],
    *[
        Bad(
            f'{n}/n_jobs-str',
            lambda f=f: f(Xn, n_jobs='two'),
            TypeError,
            'n_jobs must be an int',
        )
        for n, f in EXPLAINERS
    ],
    Bad(
        'contributions/unfitted',
        lambda: deep_forest_contributions(UNFIT, Xn),
        Exception,
        'not fitted',
    ),
    Bad(
        'contributions/model',
        lambda: deep_forest_contributions(RF, Xn),
        TypeError,
        'CascadeForest',
    ),
    Bad(
        'contributions/oof-not-training',
        lambda: deep_forest_contributions(CLF, Xn, oof=True),
        ValueError,
        'training data',
    ),
    Bad(
        'mdi/y-length',
        lambda: deep_forest_mdi(CLF, X, y[:10]),
        ValueError,
        'has 10 rows',
    ),
    Bad(
        'mdi/unknown-label',
        lambda: deep_forest_mdi(CLF, X, np.r_[y[:-1], 7]),
        ValueError,
        'not fitted on',
    ),
    Bad('mdi/model', lambda: deep_forest_mdi(RF, X, y), TypeError, 'CascadeForest'),
    Bad(
        'mdi/nan-y',
        lambda: deep_forest_mdi(REG, X, np.r_[np.nan, yr[1:]]),
        ValueError,
        'NaN',
    ),
    Bad(
        'mdi/held-out-oof',
        lambda: deep_forest_mdi(CLF, Xn, y[:5]),
        ValueError,
        'use oof=False for new rows',
    ),
    Bad(
        'mdi/return_std-int',
        lambda: deep_forest_mdi(CLF, X, y, return_std=1),
        TypeError,
        'return_std must be a bool',
    ),
    Bad(
        'mdi/return_std-all-layers',
        lambda: deep_forest_mdi(CLF, X, y, return_std=True, all_layers=True),
        ValueError,
        'all_layers',
    ),
    Bad('prepare/model', lambda: prepare_explanations(RF), TypeError, 'CascadeForest'),
    Bad(
        'prepare/unfitted', lambda: prepare_explanations(UNFIT), Exception, 'not fitted'
    ),
    Bad(
        'prepare/calibration',
        lambda: prepare_explanations(CLF, calibration='exact'),
        ValueError,
        "choose one of 'partial'",
    ),
    Bad(
        'prepare/layer',
        lambda: prepare_explanations(CLF, layer=L),
        ValueError,
        'out of range',
    ),
    Bad(
        'prepare/n_jobs',
        lambda: prepare_explanations(CLF, n_jobs='two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'local_mdi/regressor',
        lambda: deep_forest_local_mdi(REG, X, yr),
        TypeError,
        'per class',
    ),
    Bad(
        'local_mdi/calibration-list',
        lambda: deep_forest_local_mdi(CLF, X, y, calibration=['x']),
        TypeError,
        'calibration must be a str',
    ),
    Bad(
        'cascade_pass/new_layers',
        lambda: cascade_pass(CLF, Xn, new_layers='first'),
        ValueError,
        'new_layers',
    ),
]


def _exact(model, X_, e, layer=None):
    out = (
        model.predict_proba(X_, layer=layer)
        if hasattr(model, 'classes_')
        else model.predict(X_, layer=layer)
    )
    return np.allclose(
        e.bias + e.values.sum(1), out, rtol=0, atol=1e-9 * max(1.0, np.abs(out).max())
    )


EDGE = [
    *[
        Edge(
            f'contributions/one-row/{cal}/{kind}',
            lambda m=m, cal=cal: deep_forest_contributions(
                m, X.iloc[:1], calibration=cal
            ),
            lambda e, m=m: _exact(m, X.iloc[:1], e),
        )
        for cal in ['partial', 'additive', 'multiplicative']
        for kind, m in [('clf', CLF), ('reg', REG)]
    ],
    *[
        Edge(
            f'contributions/layer0/{cal}',
            lambda cal=cal: deep_forest_contributions(
                CLF, Xn, calibration=cal, layer=0
            ),
            lambda e: _exact(CLF, Xn, e, 0),
        )
        for cal in ['partial', None]
    ],
    Edge(
        'contributions/numpy-one-row',
        lambda: deep_forest_contributions(REG, X.to_numpy()[:1]),
        lambda e: _exact(REG, X.iloc[:1], e),
    ),
    Edge(
        'contributions/oof-training',
        lambda: deep_forest_contributions(CLF, X, oof=True),
        lambda e: np.allclose(e.output, CLF.oof_outputs_[-1].mean(1), atol=1e-9),
    ),
    *[
        Edge(
            f'{n}/all-zero-estimate',
            lambda g=g: g(np.zeros(3), 0.3),
            lambda out: np.isclose(out.sum(), 0.3, atol=1e-15),
        )
        for n, g in MAPS
    ],
    *[
        Edge(
            f'{n}/near-cancelling',
            lambda g=g: g(np.array([0.5, -0.5 + 1e-12]), 0.1),
            lambda out: (
                np.isclose(out.sum(), 0.1, atol=1e-15) and np.abs(out).max() < 1
            ),
        )
        for n, g in MAPS
    ],
    *[
        Edge(
            f'{n}/one-feature',
            lambda g=g: g(np.array([0.2]), -0.1),
            lambda out: np.isclose(out[0], -0.1, atol=1e-15),
        )
        for n, g in MAPS
    ],
    Edge(
        'mdi/series',
        lambda: deep_forest_mdi(REG, X, yr),
        lambda s: isinstance(s, pd.Series) and list(s.index) == ['a', 'b', 'c'],
    ),
    Edge(
        'mdi/return_std-names',
        lambda: deep_forest_mdi(REG, X, yr, return_std=True),
        lambda b: (
            list(b.importances_std.index) == ['a', 'b', 'c']
            and np.isfinite(b.importances.to_numpy()).all()
        ),
    ),
    Edge(
        'mdi/in-sample',
        lambda: deep_forest_mdi(CLF, X, y, oof=False),
        lambda s: isinstance(s, pd.Series) and len(s) == 3,
    ),
    Edge(
        'local_mdi/frame',
        lambda: deep_forest_local_mdi(CLF, X, y),
        lambda d: list(d.index) == ['a', 'b', 'c'] and list(d.columns) == [0, 1, 2],
    ),
    Edge(
        'fit/zero-weights-some-rows',
        lambda: (
            CascadeForestRegressor(**KW)
            .fit(X, yr, sample_weight=np.r_[np.zeros(10), np.ones(50)])
            .predict(Xn)
        ),
        lambda p: p.shape == (5,),
    ),
]
