"Bad-input table: single-sample feature importance and its leave-one-out forms (issue 16 §4, §7, §8)."

import numpy as np
import matplotlib

matplotlib.use('Agg')
from sklearn.ensemble import RandomForestRegressor
from _bad_input_common import Bad, Edge
from deepforest_interp.single_sample import (
    ssfi,
    ssfi_reference,
    loo_forest,
    ssfi_loo,
    plot_ssfi,
    plot_ssfi_image,
    depth_weight,
)

_rng = np.random.default_rng(3)
X = _rng.normal(size=(40, 4))
y = X[:, 0] + 0.5 * X[:, 1]
rf = RandomForestRegressor(n_estimators=4, max_depth=4, random_state=0).fit(X, y)
LF = loo_forest(
    RandomForestRegressor(n_estimators=3, max_depth=3, random_state=0),
    X,
    y,
    rows=[0, 1, 2],
)


def _plot(f):
    import matplotlib.pyplot as plt

    f()
    plt.close('all')
    return np.zeros(1)


BAD = [
    Bad(
        'ssfi/n_jobs-str',
        lambda: ssfi(rf, X, n_jobs='two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'ssfi/n_jobs-float',
        lambda: ssfi(rf, X, n_jobs=1.5),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad('ssfi/n_jobs-zero', lambda: ssfi(rf, X, n_jobs=0), ValueError, 'non-zero'),
    Bad(
        'ssfi/alpha-inf',
        lambda: ssfi(rf, X, alpha=np.inf),
        ValueError,
        'alpha must be a finite number',
    ),
    Bad('ssfi/complex-X', lambda: ssfi(rf, X + 0j), TypeError, 'complex'),
    Bad(
        'LOOForest.ssfi/n_jobs',
        lambda: LF.ssfi(X, n_jobs='two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'LOOForest.sub_forest/out-of-range',
        lambda: LF.sub_forest(3),
        ValueError,
        'j 3 is out of range for 3',
    ),
    Bad(
        'LOOForest.sub_forest/float',
        lambda: LF.sub_forest(0.5),
        TypeError,
        'j must be an int',
    ),
    Bad(
        'loo_forest/one-row',
        lambda: loo_forest(RandomForestRegressor(n_estimators=2), X[:1], y[:1]),
        ValueError,
        'at least 2 rows',
    ),
    Bad(
        'loo_forest/max_trees-negative',
        lambda: loo_forest(RandomForestRegressor(n_estimators=2), X, y, max_trees=-5),
        ValueError,
        'max_trees must be >= 2',
    ),
    Bad(
        'loo_forest/max_trees-float',
        lambda: loo_forest(RandomForestRegressor(n_estimators=2), X, y, max_trees=2.5),
        TypeError,
        'max_trees must be an int',
    ),
    Bad(
        'loo_forest/n_estimators-str',
        lambda: loo_forest(RandomForestRegressor(n_estimators='3'), X, y),
        TypeError,
        'n_estimators must be an int',
    ),
    Bad(
        'ssfi_loo/n_jobs',
        lambda: ssfi_loo(
            RandomForestRegressor(n_estimators=2), X, y, n_jobs=1.5, rows=[0]
        ),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad(
        'plot_ssfi/max_features',
        lambda: plot_ssfi(np.ones(4), max_features=0),
        ValueError,
        'max_features must be >= 1',
    ),
    Bad('plot_ssfi/nan', lambda: plot_ssfi(np.array([1.0, np.nan])), ValueError, 'NaN'),
    Bad(
        'plot_ssfi_image/k-negative',
        lambda: plot_ssfi_image(np.ones(16), np.ones(16), k=-1),
        ValueError,
        'k must be >= 0',
    ),
    Bad(
        'plot_ssfi_image/shape-negative',
        lambda: plot_ssfi_image(np.ones(16), np.ones(16), shape=(-4, -4)),
        ValueError,
        'shape[0] must be >= 1',
    ),
    Bad(
        'plot_ssfi_image/shape-type',
        lambda: plot_ssfi_image(np.ones(16), np.ones(16), shape=16),
        TypeError,
        'shape must be a pair',
    ),
    Bad(
        'plot_ssfi_image/nan',
        lambda: plot_ssfi_image(np.full(16, np.nan), np.ones(16)),
        ValueError,
        'finite',
    ),
]
EDGE = [
    Edge(
        'ssfi/n_jobs-numpy-int',
        lambda: ssfi(rf, X, n_jobs=np.int64(1)),
        lambda out: np.allclose(out, ssfi_reference(rf, X), atol=1e-12),
    ),
    Edge(
        'LOOForest.sub_forest/negative',
        lambda: LF.sub_forest(-1),
        lambda f: len(f.estimators_) == 3,
    ),
    Edge(
        'plot_ssfi_image/k-zero',
        lambda: _plot(lambda: plot_ssfi_image(np.arange(16.0), np.ones(16), k=0)),
    ),
    Edge(
        'depth_weight/alpha-one',
        lambda: depth_weight(np.arange(4), 1.0),
        lambda out: np.allclose(out, 0.5),
    ),
]

# ---- fresh adversarial pass (issue 16, last item) -------------------------------------------------------------------
BAD += [
    Bad(
        'LOOForest.ssfi/not-training-rows',
        lambda: LF.ssfi(X[:10]),
        ValueError,
        'fitted on 40',
    ),
    Bad(
        'LOOForest.predict/not-training-rows',
        lambda: LF.predict(X[::-1]),
        ValueError,
        'not the data this forest was fitted on',
    ),
    Bad(
        'ssfi/scale-str',
        lambda: ssfi(rf, X, scale='a'),
        TypeError,
        'scale must be numeric',
    ),
    Bad(
        'depth_weight/str',
        lambda: depth_weight('a'),
        TypeError,
        'depth must be numeric',
    ),
    Bad(
        'plot_ssfi/values-str',
        lambda: plot_ssfi(['a', 'b']),
        TypeError,
        'values must be numeric',
    ),
    Bad(
        'plot_ssfi_image/image-str',
        lambda: plot_ssfi_image(['a'] * 4, np.ones(4)),
        TypeError,
        'image must be numeric',
    ),
]
