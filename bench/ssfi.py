"""Benchmark: SSFI vs tree contributions on the same rows, and leave-one-out SSFI on wine.

1. RF with 100 fully grown trees on 5000 x 50 (3 classes, and a regressor), explaining the 5000 training rows:
   time of `ssfi` vs `contributions` (target, issue 5: ssfi <= 2x contributions).
2. Leave-one-out SSFI on wine (178 x 13, RF 100 trees), Algorithm 1 with one refit per row (`method='refit'`,
   n_jobs=-1) and the out-of-bag shortcut (`method='oob'`). Target: the refit loop under a minute on 2 cores.
Run: .venv/bin/python bench/ssfi.py [--quick]   (--quick: 1000 rows in part 1, 60 wine rows in part 2)
"""

import sys, time
import numpy as np
from sklearn.datasets import make_classification, load_wine
from sklearn.preprocessing import minmax_scale
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from deepforest_interp.tree_contributions import contributions
from deepforest_interp.single_sample import ssfi, ssfi_loo

quick = '--quick' in sys.argv
n = 1000 if quick else 5000
X, y = make_classification(
    n_samples=n, n_features=50, n_informative=10, n_classes=3, random_state=0
)


def best(f, reps=3):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        ts.append(time.perf_counter() - t)
    return min(ts), r


for name, model in [
    (
        'classifier (3 classes)',
        RandomForestClassifier(n_estimators=100, n_jobs=-1, random_state=0).fit(X, y),
    ),
    (
        'regressor',
        RandomForestRegressor(n_estimators=100, n_jobs=-1, random_state=0).fit(
            X, X[:, :3].sum(1)
        ),
    ),
]:
    ssfi(model, X[:10])
    contributions(model, X[:10], check_additivity=False)  # JIT warm-up
    t_s, S = best(lambda: ssfi(model, X))
    t_c, _ = best(lambda: contributions(model, X, check_additivity=False))
    print(
        f'RF 100 trees, {n} x 50, {name}: ssfi {t_s:.3f}s | contributions {t_c:.3f}s | '
        f'ratio ssfi/contributions {t_s / t_c:.2f} (target <= 2)',
        flush=True,
    )

Xw, yw = load_wine(return_X_y=True)
Xw = minmax_scale(Xw)
rows = np.arange(0, 178, 3) if quick else None
nr = 178 if rows is None else len(rows)
for method in ['refit', 'oob']:
    t = time.perf_counter()
    r = ssfi_loo(
        RandomForestClassifier(100, random_state=0),
        Xw,
        yw,
        rows=rows,
        method=method,
        n_jobs=-1,
        progress=False,
    )
    dt = time.perf_counter() - t
    acc = np.mean(r.prediction == yw[r.rows])
    print(
        f'leave-one-out SSFI on wine ({nr} rows, RF 100 trees), method={method!r}: {dt:.1f}s '
        f'(LOO accuracy {acc:.3f}){" (target < 60 s)" if method == "refit" else ""}',
        flush=True,
    )
