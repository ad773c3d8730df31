"Bad-input table: tree contributions (issue 11 §3)."

import numpy as np
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    GradientBoostingRegressor,
)
from sklearn.linear_model import LinearRegression
from _bad_input_common import Bad, Edge
from deepforest_interp.tree_contributions import (
    contributions,
    contribution_summary,
    plot_contributions,
)

_rng = np.random.default_rng(4)
X = _rng.normal(size=(80, 3))
y = 3 * X[:, 0] + X[:, 1]
rf = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, y)
one_class = RandomForestClassifier(n_estimators=5, random_state=0).fit(
    X, np.zeros(80, int)
)
gb_init = GradientBoostingRegressor(
    n_estimators=20, init=LinearRegression(), random_state=0
).fit(X, y)
huge = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, y * 1e11)
_exact = lambda m, out: (
    np.abs(
        out.output
        - np.asarray(
            m.predict_proba(X) if hasattr(m, 'predict_proba') else m.predict(X)
        )
    ).max()
    <= 1e-9 * max(1.0, float(np.abs(out.output).max()))
)

BAD = [
    Bad(
        'contributions/unfitted',
        lambda: contributions(RandomForestRegressor(), X),
        ValueError,
        'not fitted',
    ),
    Bad(
        'contributions/wrong-type',
        lambda: contributions(LinearRegression().fit(X, y), X),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'contributions/wrong-width',
        lambda: contributions(rf, X[:, :2]),
        ValueError,
        'fitted with 3',
    ),
    Bad(
        'contributions/inf',
        lambda: contributions(rf, np.where(X > 1, np.inf, X)),
        ValueError,
        'infinite',
    ),
    Bad(
        'contributions/empty',
        lambda: contributions(rf, np.zeros((0, 3))),
        ValueError,
        'no rows',
    ),
    Bad(
        'contributions/strings',
        lambda: contributions(rf, [['a', 'b', 'c']]),
        TypeError,
        'strings',
    ),
    Bad(
        'contributions/std-of-boosting',
        lambda: contributions(gb_init, X, return_std=True),
        ValueError,
        'needs a tree or a forest',
    ),
    Bad(
        'contributions/dtype',
        lambda: contributions(rf, X, dtype=np.float16),
        ValueError,
        'dtype must be',
    ),
    Bad(
        'contribution_summary/inf',
        lambda: contribution_summary(rf, np.where(X > 1, np.inf, X), batch_size=7),
        ValueError,
        'infinite',
    ),
    Bad(
        'contribution_summary/empty',
        lambda: contribution_summary(rf, np.zeros((0, 3))),
        ValueError,
        'no rows',
    ),
    Bad(
        'contribution_summary/wrong-width',
        lambda: contribution_summary(rf, X[:, :2]),
        ValueError,
        'fitted with 3',
    ),
    Bad(
        'contribution_summary/strings',
        lambda: contribution_summary(rf, [['a', 'b', 'c']]),
        TypeError,
        'strings',
    ),
    Bad(
        'plot_contributions/not-explanation',
        lambda: plot_contributions(np.zeros((2, 3))),
        TypeError,
        'must be an Explanation',
    ),
    Bad(
        'plot_contributions/row-out-of-range',
        lambda: plot_contributions(contributions(rf, X[:3]), row=5),
        ValueError,
        'row must be <= 2',
    ),
    Bad(
        'plot_contributions/output-out-of-range',
        lambda: plot_contributions(contributions(one_class, X[:3]), output=4),
        ValueError,
        'output must be <= 0',
    ),
]
EDGE = [
    Edge(
        'contributions/one-row',
        lambda: contributions(rf, X[:1]),
        lambda out: _exact(rf, contributions(rf, X)),
    ),
    Edge(
        'contributions/one-class',
        lambda: contributions(one_class, X),
        lambda out: out.values.shape == (80, 3, 1) and _exact(one_class, out),
    ),
    Edge(
        'contributions/boosting-init-estimator',
        lambda: contributions(gb_init, X),
        lambda out: _exact(gb_init, out),
    ),
    Edge(
        'contributions/huge-target',
        lambda: contributions(huge, X),
        lambda out: _exact(huge, out),
    ),
]

# ---- round two (issue 16 §4, §7) ------------------------------------------------------------------------------------
import matplotlib

matplotlib.use('Agg')
from sklearn.ensemble import RandomForestRegressor as _RFR
from deepforest_interp.adapters import node_table
from deepforest_interp.walkers import walk
from deepforest_interp.forest_floor import oob_contributions, heldout_contributions

_rfo = _RFR(n_estimators=25, random_state=0).fit(X, y)


def _title(e, **kw):
    import matplotlib.pyplot as plt

    ax = plot_contributions(e, **kw)
    t = ax.get_title()
    plt.close(ax.figure)
    return t


BAD += [
    Bad(
        'contributions/n_jobs-str',
        lambda: contributions(rf, X, n_jobs='two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'contributions/n_jobs-float',
        lambda: contributions(rf, X, n_jobs=1.5),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'contributions/n_jobs-zero',
        lambda: contributions(rf, X, n_jobs=0),
        ValueError,
        'non-zero',
    ),
    Bad(
        'walk/n_jobs',
        lambda: walk(node_table(rf), X, n_jobs=1.5),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'contributions/complex',
        lambda: contributions(rf, X.astype(complex)),
        TypeError,
        'complex',
    ),
    Bad(
        'plot_contributions/max_features',
        lambda: plot_contributions(contributions(rf, X[:3]), max_features=0),
        ValueError,
        'max_features must be >= 1',
    ),
]
EDGE += [
    # the title's total is the explanation's output, bootstrap term included (out-of-bag and held-out explanations)
    Edge(
        'plot_contributions/oob-title',
        lambda: (
            oob_contributions(_rfo, X, y),
            _title(oob_contributions(_rfo, X, y), row=4),
        ),
        lambda out: (
            'bootstrap' in out[1] and out[1].endswith(f'= {out[0].output[4]:.3g}')
        ),
    ),
    Edge(
        'plot_contributions/heldout-title',
        lambda: (
            heldout_contributions(_rfo, X[:3], y),
            _title(heldout_contributions(_rfo, X[:3], y), row=-1),
        ),
        lambda out: (
            out[1].startswith('row 2') and out[1].endswith(f'= {out[0].output[2]:.3g}')
        ),
    ),
]
