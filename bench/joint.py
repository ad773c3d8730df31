"""Benchmark: joint contributions (notebook 03b) against plain contributions and against shap's interaction values.

One thread on every side (n_jobs=1; shap's C extension runs on one thread), medians of `--reps` (default 5) calls after
one warm-up call each (JIT compilation, the model's tables and feature sets built once), the sides called in turn:
1. RandomForestRegressor(200 trees, min_samples_leaf=5) on 5,000 x 50 Gaussian rows, y = x0*x1 + x2 + noise:
   `joint_contributions(max_order=2)` / `contributions` (target <= 3x), and the same with `max_order=None`;
2. RandomForestRegressor(100 trees, max_depth=8) on 2,000 x 20 rows: `joint_contributions(max_order=2)` against
   `shap.TreeExplainer(model).shap_interaction_values(X)` (target: >= 10x faster), one shap call (it is slow),
   on `--shap-rows` rows (default 2,000).
Memory: the result of a call is one (rows x sets x outputs) array; its size is printed.
Run: .venv/bin/python bench/joint.py [--reps N] [--shap-rows N]
"""

import sys, time
import numpy as np
from sklearn.ensemble import RandomForestRegressor

from deepforest_interp import contributions
from deepforest_interp.joint import joint_contributions
from _timing import interleaved

arg = lambda name, default: (
    type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default
)
reps, shap_rows = arg('--reps', 5), arg('--shap-rows', 2000)


rng = np.random.default_rng(0)
X = rng.normal(size=(5000, 50))
y = X[:, 0] * X[:, 1] + X[:, 2] + 0.1 * rng.normal(size=5000)
rf = RandomForestRegressor(200, min_samples_leaf=5, random_state=0, n_jobs=-1).fit(X, y)
t = interleaved(
    {
        'plain': lambda: contributions(rf, X, n_jobs=1),
        'joint2': lambda: joint_contributions(rf, X, 2, n_jobs=1),
        'jointall': lambda: joint_contributions(rf, X, None, n_jobs=1),
    },
    reps,
)
j2, ja = (
    joint_contributions(rf, X, 2, n_jobs=1),
    joint_contributions(rf, X, None, n_jobs=1),
)
size = lambda jc: (  # bytes of the terms
    jc.values.nbytes
    if jc.dense
    else jc.values.data.nbytes + jc.values.indices.nbytes + jc.values.indptr.nbytes
)
print(f'1. RF200 on 5,000 x 50, one thread, median of {reps}:')
print(f'   contributions            {t["plain"]:.3f} s')
print(
    f'   joint, max_order=2       {t["joint2"]:.3f} s = {t["joint2"] / t["plain"]:.2f}x (target <= 3x);'
    f' {len(j2.sets)} sets, result {size(j2) / 1e6:.0f} MB'
)
print(
    f'   joint, max_order=None    {t["jointall"]:.3f} s = {t["jointall"] / t["plain"]:.2f}x;'
    f' {len(ja.sets)} sets, result {size(ja) / 1e6:.0f} MB ({"dense" if ja.dense else "sparse"})'
)

try:
    import shap
except ImportError:
    sys.exit('2. skipped: shap is not installed')
X2 = rng.normal(size=(2000, 20))
y2 = X2[:, 0] * X2[:, 1] + X2[:, 2] + 0.1 * rng.normal(size=2000)
rf2 = RandomForestRegressor(100, max_depth=8, random_state=0, n_jobs=-1).fit(X2, y2)
rows = X2[:shap_rows]
t2 = interleaved({'joint2': lambda: joint_contributions(rf2, rows, 2, n_jobs=1)}, reps)
ex = shap.TreeExplainer(rf2)
ex.shap_interaction_values(rows[:5])  # warm-up
start = time.perf_counter()
ex.shap_interaction_values(rows)
shap_t = time.perf_counter() - start
print(f'2. RF100 depth 8 on {len(rows):,} x 20 rows, one thread:')
print(f'   joint, max_order=2       {t2["joint2"]:.3f} s (median of {reps})')
print(
    f'   shap interaction values  {shap_t:.2f} s (one call) = {shap_t / t2["joint2"]:.0f}x ours (target >= 10x)'
)
