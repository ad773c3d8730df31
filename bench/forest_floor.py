"""Benchmark: out-of-bag contributions and goodness-of-visualization (seed 003).

RF regressor with 500 trees on 5000 x 10 (fully grown, max_features=1/3 as randomForest's regression default).
Targets: oob_contributions(rf, X) <= 2x the time of contributions(rf, X) on the same rows (an OOB walk visits ~37 %
of the (tree, row) pairs, but also checks the training rows); goodness_of_visualization for all 10 features < 5 s.
Timings are the median of 5 runs (the machine is shared: compare the ratio, measured in one process, not seconds).
Run: .venv/bin/python bench/forest_floor.py [--quick]
"""

import sys, time
import numpy as np
from sklearn.ensemble import RandomForestRegressor, RandomForestClassifier
from deepforest_interp.tree_contributions import contributions
from deepforest_interp.forest_floor import (
    oob_contributions,
    heldout_contributions,
    goodness_of_visualization,
)

quick = '--quick' in sys.argv
n, K, M = (1000, 10, 100) if quick else (5000, 10, 500)
rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(n, K))
y = (
    X[:, 0] ** 2
    + 0.5 * np.sin(2 * np.pi * X[:, 1])
    + X[:, 2] * X[:, 3]
    + 0.5 * rng.normal(size=n)
)
t = time.perf_counter()
rf = RandomForestRegressor(
    n_estimators=M, max_features=1 / 3, oob_score=True, n_jobs=-1, random_state=0
).fit(X, y)
print(f'fit: {time.perf_counter() - t:.1f}s ({M} trees, {n} x {K})', flush=True)


def median_time(f, reps=5):
    ts, r = [], None
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)), r


contributions(rf, X[:10])
oob_contributions(rf, X)  # JIT warm-up (cached after the first run)
t_all, _ = median_time(lambda: contributions(rf, X, check_additivity=False))
t_oob, e = median_time(lambda: oob_contributions(rf, X, y))
t_new, en = median_time(lambda: heldout_contributions(rf, X, y))
err = np.abs(e.output - rf.oob_prediction_).max()
print(
    f'contributions (all trees): {t_all:.3f}s | oob_contributions: {t_oob:.3f}s | ratio oob/contributions '
    f'{t_oob / t_all:.2f} (target <= 2) | heldout_contributions/contributions {t_new / t_all:.2f} | '
    f'identity error vs oob_prediction_ {err:.1e}',
    flush=True,
)
t_gov, gov = median_time(lambda: goodness_of_visualization(e), reps=3)
print(
    f'goodness_of_visualization, all {K} features, n={n}: {t_gov:.2f}s (target < 5 s)',
    flush=True,
)
t_gov2, _ = median_time(lambda: goodness_of_visualization(e, context=(2, 3)), reps=3)
print(f'two-way GOV (x2, x3): {t_gov2:.2f}s', flush=True)
print('one-way GOV:', ' '.join(f'{k}={v:.2f}' for k, v in gov.items()))
yc = np.digitize(y, np.quantile(y, [1 / 3, 2 / 3]))
rfc = RandomForestClassifier(
    n_estimators=M // 2, max_features=1 / 3, n_jobs=-1, random_state=0
).fit(X, yc)
ec = oob_contributions(rfc, X, yc)
t_mc, _ = median_time(lambda: goodness_of_visualization(ec), reps=3)
t_pool, _ = median_time(
    lambda: goodness_of_visualization(ec, multiclass='pooled'), reps=3
)
print(
    f'3-class GOV, all features: mean of classes {t_mc:.2f}s, pooled {t_pool:.2f}s',
    flush=True,
)
