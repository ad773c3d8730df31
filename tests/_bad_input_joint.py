"Bad-input table: joint contributions and interaction strength (issue 41): models with no split, names, orders."

import numpy as np
import pandas as pd
import lightgbm, xgboost
import matplotlib.pyplot as plt
from sklearn.ensemble import (
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from _bad_input_common import Bad, Edge
from deepforest_interp.adapters import model_output
from deepforest_interp.joint import (
    joint_contributions,
    interaction_strength,
    plot_interaction_strength,
)

_rng = np.random.default_rng(0)
X = _rng.normal(size=(30, 3))
ZERO, ONE = np.full(30, 2.5), np.ones(30, int)
NO_SPLIT = {  # a constant target or a single class: every tree is one leaf
    'rf-constant': RandomForestRegressor(3, random_state=0).fit(X, ZERO),
    'rf-one-class': RandomForestClassifier(3, random_state=0).fit(X, ONE),
    'gb-constant': GradientBoostingRegressor(n_estimators=3).fit(X, ZERO),
    'hgb-constant': HistGradientBoostingRegressor(max_iter=3).fit(X, ZERO),
    'xgb-constant': xgboost.XGBRegressor(n_estimators=3).fit(X, ZERO),
    'lgbm-constant': lightgbm.LGBMRegressor(n_estimators=3, verbose=-1).fit(X, ZERO),
}
HGB2 = HistGradientBoostingClassifier(max_iter=3).fit(X, np.r_[ONE[:15], ONE[15:] * 2])
NAMES = ['a × b', 'c', 'b × c']  # names holding the separator of the set labels
XF = pd.DataFrame(X, columns=NAMES)
RF = RandomForestRegressor(4, max_depth=4, random_state=0).fit(
    XF, X[:, 0] + X[:, 1] * X[:, 2]
)
JC = joint_contributions(RF, XF)


def _no_sets(model):
    "No feature set, remainder 0, output the model's own."
    jc = joint_contributions(model, X)
    return (
        jc.sets == []
        and not np.any(jc.remainder)
        and np.allclose(jc.output, model_output(model, X), rtol=0, atol=1e-6)
    )


def _labels(order):
    idx = interaction_strength(RF, XF, order).index
    return list(idx)


BAD = [
    Bad('order/str', lambda: JC.order('2'), TypeError, 'must be an int', 'k'),
    Bad('order/zero', lambda: JC.order(0), ValueError, '>= 1', 'k'),
]

EDGE = [
    Edge(f'joint/no-split/{k}', lambda m=m: _no_sets(m)) for k, m in NO_SPLIT.items()
]
EDGE += [
    Edge('joint/no-split/hgb-two-classes', lambda: _no_sets(HGB2)),
    Edge(
        'interaction_strength/no-split',
        lambda: interaction_strength(NO_SPLIT['rf-one-class'], X),
        lambda s: (
            len(s) == 0 and list(s.columns) == ['strength', 'std_trees', 'n_trees']
        ),
    ),
    Edge(
        'interaction_strength/separator-in-names',
        lambda: _labels(3),
        lambda idx: len(set(idx)) == len(idx) and ('a × b', 'c', 'b × c') in idx,
    ),
    Edge(
        'plot_interaction_strength/no-std_trees',
        lambda: plot_interaction_strength(
            pd.DataFrame({'strength': [2.0, 1.0]}, index=['a × b', 'b × c'])
        ),
        lambda ax: len(ax.patches) == 2 and plt.close(ax.figure) is None,
    ),
]
