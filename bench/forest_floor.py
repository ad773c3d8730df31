"""Benchmark: out-of-bag contributions and goodness-of-visualization (issue 4, seed 003).

RF regressor with 500 trees on 5000 x 10 (fully grown, max_features=1/3 as randomForest's regression default).
Targets: oob_contributions(rf, X) <= 2x the time of contributions(rf, X) on the same rows;
goodness_of_visualization for all 10 features < 5 s.
Run: .venv/bin/python bench/forest_floor.py [--quick]
"""
import sys, time
import numpy as np
from sklearn.ensemble import RandomForestRegressor
from deepforest_interp.contributions import contributions
from deepforest_interp.forest_floor import oob_contributions, goodness_of_visualization

quick = '--quick' in sys.argv
n, K, M = (1000, 10, 100) if quick else (5000, 10, 500)
rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(n, K))
y = X[:, 0] ** 2 + 0.5 * np.sin(2 * np.pi * X[:, 1]) + X[:, 2] * X[:, 3] + 0.5 * rng.normal(size=n)
t = time.perf_counter()
rf = RandomForestRegressor(n_estimators=M, max_features=1 / 3, oob_score=True, n_jobs=-1, random_state=0).fit(X, y)
print(f"fit: {time.perf_counter() - t:.1f}s ({M} trees, {n} x {K})", flush=True)

def best(f, reps=3):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); r = f(); ts.append(time.perf_counter() - t)
    return min(ts), r

contributions(rf, X[:10]); oob_contributions(rf, X)                 # JIT warm-up (cached after the first run)
t_all, _ = best(lambda: contributions(rf, X, check_additivity=False))
t_oob, e = best(lambda: oob_contributions(rf, X, y))
err = np.abs(e.output - rf.oob_prediction_).max()
print(f"contributions (all trees): {t_all:.3f}s | oob_contributions: {t_oob:.3f}s | "
      f"ratio oob/contributions {t_oob / t_all:.2f} (target <= 2) | identity error vs oob_prediction_ {err:.1e}", flush=True)
t_gov, gov = best(lambda: goodness_of_visualization(e), reps=2)
print(f"goodness_of_visualization, all {K} features, n={n}: {t_gov:.2f}s (target < 5 s)", flush=True)
t_gov2, _ = best(lambda: goodness_of_visualization(e, context=(2, 3)), reps=2)
print(f"two-way GOV (x2, x3): {t_gov2:.2f}s", flush=True)
print('one-way GOV:', ' '.join(f'{k}={v:.2f}' for k, v in gov.items()))
