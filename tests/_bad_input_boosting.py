"Bad-input table: boosting libraries (notebook 01c) through `contributions`."

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    HistGradientBoostingRegressor,
    HistGradientBoostingClassifier,
)
from _bad_input_common import Bad, Edge
from deepforest_interp.tree_contributions import contributions

_rng = np.random.default_rng(5)
X = _rng.normal(size=(120, 3))
y = 3 * X[:, 0] + X[:, 1]
hgb = HistGradientBoostingRegressor(max_iter=10, random_state=0).fit(X, y)
flat = HistGradientBoostingRegressor(max_iter=5).fit(
    X, np.full(120, 2.5)
)  # constant target: single-leaf trees
Xn = X.copy()
Xn[5:, 2] = np.nan  # a column that is almost always missing
hgb_nan = HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(Xn, y > 0)
df = pd.DataFrame({'a': X[:, 0], 'k': pd.Categorical(_rng.integers(0, 3, 120))})
hgb_cat = HistGradientBoostingRegressor(
    max_iter=5, categorical_features='from_dtype'
).fit(df, y + df['k'].cat.codes)
_exact = lambda out, ref: (
    np.abs(out.output - np.asarray(ref).reshape(out.output.shape)).max()
    <= 1e-9 * max(1.0, float(np.abs(ref).max()))
)

BAD = [
    Bad(
        'hgb/unfitted',
        lambda: contributions(HistGradientBoostingRegressor(), X),
        ValueError,
        'not fitted',
    ),
    Bad(
        'hgb/wrong-width',
        lambda: contributions(hgb, X[:, :2]),
        ValueError,
        'fitted with 3',
    ),
    Bad(
        'hgb/inf',
        lambda: contributions(hgb, np.where(X > 1, np.inf, X)),
        ValueError,
        'infinite',
    ),
    Bad(
        'hgb/empty', lambda: contributions(hgb, np.zeros((0, 3))), ValueError, 'no rows'
    ),
    Bad(
        'hgb/strings',
        lambda: contributions(hgb, [['a', 'b', 'c']]),
        TypeError,
        'strings',
    ),
    Bad(
        'hgb/frame-missing-column',
        lambda: contributions(hgb_cat, df[['a']]),
        ValueError,
        'X',
    ),
    Bad(
        'hgb/frame-inf',
        lambda: contributions(hgb_cat, df.assign(a=np.inf)),
        ValueError,
        'infinite',
    ),
]
EDGE = [
    Edge(
        'hgb/one-row',
        lambda: contributions(hgb, X[:1]),
        lambda out: _exact(out, hgb.predict(X[:1])),
    ),
    Edge(
        'hgb/constant-target',
        lambda: contributions(flat, X),
        lambda out: _exact(out, flat.predict(X)) and not out.values.any(),
    ),
    Edge(
        'hgb/mostly-nan-column',
        lambda: contributions(hgb_nan, Xn),
        lambda out: _exact(out, hgb_nan.decision_function(Xn)),
    ),
    Edge(
        'hgb/categorical-frame',
        lambda: contributions(hgb_cat, df),
        lambda out: _exact(out, hgb_cat.predict(df)),
    ),
]
try:
    import xgboost as xgb

    BAD.append(
        Bad(
            'xgboost/unfitted',
            lambda: contributions(xgb.XGBRegressor(), X),
            ValueError,
            'not fitted',
        )
    )
    xm = xgb.XGBRegressor(n_estimators=5, n_jobs=1).fit(X, y)
    BAD.append(
        Bad('xgboost/wrong-width', lambda: contributions(xm, X[:, :2]), ValueError, '3')
    )
    EDGE.append(
        Edge(
            'xgboost/one-row',
            lambda: contributions(xm, X[:1]),
            lambda out: out.values.shape == (1, 3),
        )
    )
except ImportError:
    pass
try:
    import lightgbm as lgb

    BAD.append(
        Bad(
            'lightgbm/unfitted',
            lambda: contributions(lgb.LGBMRegressor(), X),
            ValueError,
            'not fitted',
        )
    )
    lm = lgb.LGBMRegressor(n_estimators=5, verbose=-1, n_jobs=1).fit(X, y)
    EDGE.append(
        Edge(
            'lightgbm/nan-rows',
            lambda: contributions(lm, Xn),
            lambda out: _exact(out, lm.predict(Xn, raw_score=True)),
        )
    )
except ImportError:
    pass
