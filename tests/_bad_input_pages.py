"Bad-input table: pages, copies and flags (issue 41): names that cannot break a page, copies that behave as originals, sklearn's verbose=True, values trees cannot compare."

import copy, json
import dask.array as da
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from _bad_input_common import Bad, Edge
from deepforest_interp.explanation import Explanation
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.calibration import explore_deep_forest
from deepforest_interp.forest_floor import (
    cv_contributions,
    rank_interactions,
)
from deepforest_interp.forest_floor_plots import explore_forest_floor
from deepforest_interp.importance import oob_permutation_importance
from deepforest_interp.intersection_trees import stability_scores
from deepforest_interp.tree_contributions import contributions, explore_path

NAME = '<!--<script>&'  # a comment opener, a tag and an entity in one feature name
_rng = np.random.default_rng(3)
X = pd.DataFrame(_rng.normal(size=(40, 3)), columns=[NAME, 'b', 'c'])
y = X[NAME].to_numpy() + X['b'].to_numpy()
yc = (y > 0).astype(int)
RF = RandomForestRegressor(n_estimators=8, max_depth=3, random_state=0).fit(X, y)
KW = dict(n_forests=1, n_estimators=3, max_depth=3, max_layers=1, random_state=0)
CLF = CascadeForestClassifier(**KW).fit(X, yc)
REG = CascadeForestRegressor(**KW).fit(X, y)
E = contributions(RF, X)


def _page_safe(explorer) -> bool:
    "The page's JSON holds no <, > or & (so no name can end or open a tag), and still reads back the name."
    html = explorer.to_html()
    js = html.split('class="dfx-data">', 1)[1].split('</script>', 1)[0]
    return not set('<>&') & set(js) and NAME in json.dumps(
        json.loads(js), ensure_ascii=False
    )


def _same_output(a, b) -> bool:
    return np.array_equal(a, b)


BAD = [
    Bad(
        'contributions/beyond-float32',
        lambda: contributions(RF, X * 1e39),
        ValueError,
        'float32 range',
        'X',
    ),
    Bad(
        'contributions/dask-zero-rows',
        lambda: contributions(RF, da.zeros((0, 3))),
        ValueError,
        'no rows',
        'X',
    ),
    Bad(
        'group/1-and-str-1',
        lambda: E.group([1, '1', 2]),
        ValueError,
        "labels 1 and '1'",
        'mapping',
    ),
    Bad(
        'group/dict-1-and-str-1',
        lambda: E.group({1: [NAME], '1': ['b', 'c']}),
        ValueError,
        "labels 1 and '1'",
        'mapping',
    ),
    Bad(
        'rank_interactions/partners-empty',
        lambda: rank_interactions(E, partners=[]),
        ValueError,
        'is empty',
        'partners',
    ),
    Bad(
        'save/info-not-json',
        lambda: Explanation(np.zeros((1, 1)), np.zeros(1), ['a'], info={'m': RF}).save(
            'x.npz'
        ),
        TypeError,
        'JSON',
        'info',
    ),
]

EDGE = [
    Edge(
        'explore_path/name-in-page',
        lambda: explore_path(RF, X, rows=3, trees=1),
        _page_safe,
    ),
    Edge(
        'explore_forest_floor/name-in-page',
        lambda: explore_forest_floor(E, max_rows=20),
        _page_safe,
    ),
    Edge(
        'explore_deep_forest/name-in-page',
        lambda: explore_deep_forest(CLF, X, rows=3, trees=1),
        _page_safe,
    ),
    Edge(
        'copy/cascade-classifier',
        lambda: copy.copy(CLF).predict_proba(X),
        lambda p: _same_output(p, CLF.predict_proba(X)),
    ),
    Edge(
        'copy/cascade-regressor',
        lambda: copy.copy(REG).predict(X),
        lambda p: _same_output(p, REG.predict(X)),
    ),
    Edge(
        'group/same-label-twice',
        lambda: E.group([1, np.int64(1), 'c']),
        lambda g: g.feature_names == ['1', 'c'],
    ),
    Edge(
        'contributions/verbose-True',
        lambda: contributions(RF, X, verbose=True),
        lambda e: np.array_equal(e.values, E.values),
    ),
    Edge(
        'oob_permutation_importance/verbose-True',
        lambda: oob_permutation_importance(RF, X, y, random_state=0, verbose=True),
        lambda s: len(s) == 3,
    ),
    Edge(
        'cv_contributions/verbose-True',
        lambda: cv_contributions(RF, X, y, n_folds=2, verbose=True),
        lambda e: e.values.shape == (40, 3),
    ),
    Edge(
        'stability_scores/verbose-True',
        lambda: stability_scores(
            X.to_numpy(), yc, n_bootstrap=2, n_estimators=3, verbose=True
        ),
        lambda s: s is not None,
    ),
]
