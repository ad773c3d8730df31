"""Benchmark: boosting contributions (notebook 01c) against the model's own raw prediction and against shap's Saabas mode.

Same rows on every side, nothing but the timed call inside the timer:
* ours   = `contributions(model, X, check_additivity=False)` with the model's trees already read (the per-model cache is
  warm: reading happens once per fitted model, its cost is printed separately as "read");
* model  = the model's own raw score on the same rows: HGB `decision_function` (classifier) / `predict` (squared-error
  regressor, whose prediction is the raw score); XGBoost `predict(output_margin=True)`; LightGBM `predict(raw_score=True)`;
* shap   = `explainer.shap_values(X, approximate=True)` with `shap.TreeExplainer(model)` built once (HGB only; shap reads
  no categorical HGB splits, so the shap case has numeric features only);
* each case twice: all cores on every side (ours n_jobs=-1; the libraries' default threads; shap's Saabas is serial
  C++), and one thread on every side (ours n_jobs=1; the model call inside threadpoolctl's openmp limit of 1 and, for
  XGBoost/LightGBM, n_jobs=1), because on a shared machine OpenMP thread pools can stall under load;
* one warm-up call per side (numba JIT, OpenMP pools), then the median of `--reps` (default 7) interleaved calls;
* the contributions are checked once, outside the timing, to add up to the raw score (1e-9; XGBoost 1e-6).
Cases: HGB regressor and 3-class classifier (200 iterations, 31 leaves, 20 features, 20,000 training rows; the
classifier has 2 categorical columns); 5,000 training rows and 5,000 held-out rows explained. XGBoost and LightGBM
(if installed): the same regression data, 200 trees of depth 6 / 31 leaves.
Target: ours <= 1.5x the model's own raw prediction.
Run: .venv/bin/python bench/boosting.py [--quick] [--reps N]
"""

import sys, time, statistics
import numpy as np
import pandas as pd
from sklearn.ensemble import (
    HistGradientBoostingRegressor,
    HistGradientBoostingClassifier,
)
from deepforest_interp.tree_contributions import contributions
from threadpoolctl import threadpool_limits
from deepforest_interp.boosting import boosted_trees
from deepforest_interp.adapters import clear_node_tables

quick = '--quick' in sys.argv
reps = (
    int(sys.argv[sys.argv.index('--reps') + 1])
    if '--reps' in sys.argv
    else (3 if quick else 7)
)
n_train, n_iter = (5000, 50) if quick else (20000, 200)
try:
    import shap
except ImportError:
    shap = None


def med(fn):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def compare(label, model, X, raw_fn, with_shap=False):
    return max(
        _compare(label, model, X, raw_fn, with_shap, -1),
        _compare(label, model, X, raw_fn, with_shap, 1),
    )


def _compare(label, model, X, raw_fn, with_shap, n_jobs):
    if n_jobs == 1:
        fn0 = raw_fn

        def raw_fn(Z):
            with threadpool_limits(limits=1, user_api='openmp'):
                return fn0(Z)

        if hasattr(model, 'set_params') and 'n_jobs' in model.get_params():
            model.set_params(n_jobs=1)
    elif hasattr(model, 'set_params') and 'n_jobs' in model.get_params():
        model.set_params(n_jobs=None)
    clear_node_tables()
    t = time.perf_counter()
    boosted_trees(model)
    t_read = time.perf_counter() - t
    e = contributions(model, X)  # warm-up + additivity check (not timed)
    raw_fn(X)
    sides = {
        'ours': lambda: contributions(model, X, check_additivity=False, n_jobs=n_jobs),
        'model': lambda: raw_fn(X),
    }
    if with_shap and shap is not None:
        explainer = shap.TreeExplainer(model)
        sv = explainer.shap_values(X, approximate=True)
        err = float(np.abs(np.asarray(sv) - e.values).max())
        assert err <= 1e-9, f'ours and shap differ by {err}'
        sides['shap'] = lambda: explainer.shap_values(X, approximate=True)
    times = {k: [] for k in sides}
    for _ in range(reps):  # interleaved repetitions
        for k, fn in sides.items():
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
    m = {k: statistics.median(v) for k, v in times.items()}
    r = m['ours'] / m['model']
    line = (
        f'{label} [{"all cores" if n_jobs == -1 else "one thread"}]: median of {reps} on {X.shape[0]} rows: ours {m["ours"] * 1e3:.1f} ms, model raw {m["model"] * 1e3:.1f} ms, '
        f'ratio {r:.2f}x ({"met" if r <= 1.5 else "NOT met"} <= 1.5)'
    )
    if 'shap' in m:
        line += f', shap Saabas {m["shap"] * 1e3:.1f} ms (ours / shap {m["ours"] / m["shap"]:.2f}x)'
    if n_jobs == -1:
        line += f' | read once {t_read * 1e3:.0f} ms'
    print(line, flush=True)
    return r


rng = np.random.default_rng(0)
N = n_train + 5000
X = rng.normal(size=(N, 20))
y = X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + X[:, 3:8].sum(1) + 0.3 * rng.normal(size=N)
X[rng.random(X.shape) < 0.05] = np.nan
Xtr, Xte, ytr = X[:n_train], X[n_train:], y[:n_train]
reg = HistGradientBoostingRegressor(
    max_iter=n_iter, max_leaf_nodes=31, early_stopping=False, random_state=0
).fit(Xtr, ytr)
ratios = []
for name, rows in [('training', Xtr[:5000]), ('held-out', Xte)]:
    ratios.append(
        compare(f'HGB regressor, {name} rows', reg, rows, reg.predict, with_shap=True)
    )

df = pd.DataFrame(X, columns=[f'x{j}' for j in range(20)])
for j in (18, 19):
    df[f'x{j}'] = pd.Categorical(rng.integers(0, 12, N))
yc = np.digitize(y + df['x18'].cat.codes.to_numpy() % 3, np.quantile(y, [1 / 3, 2 / 3]))
clf = HistGradientBoostingClassifier(
    max_iter=n_iter,
    max_leaf_nodes=31,
    early_stopping=False,
    categorical_features='from_dtype',
    random_state=0,
).fit(df[:n_train], yc[:n_train])
for name, rows in [('training', df[:5000]), ('held-out', df[n_train:])]:
    ratios.append(
        compare(
            f'HGB 3-class classifier with categorical columns, {name} rows',
            clf,
            rows,
            clf.decision_function,
        )
    )

try:
    import xgboost as xgb

    xm = xgb.XGBRegressor(n_estimators=n_iter, max_depth=6, random_state=0).fit(
        Xtr, ytr
    )
    compare(
        'XGBoost regressor, held-out rows',
        xm,
        Xte,
        lambda Z: xm.predict(Z, output_margin=True),
    )
except ImportError:
    print('xgboost not installed: skipped')
try:
    import lightgbm as lgb

    lm = lgb.LGBMRegressor(
        n_estimators=n_iter, num_leaves=31, verbose=-1, random_state=0
    ).fit(Xtr, ytr)
    compare(
        'LightGBM regressor, held-out rows',
        lm,
        Xte,
        lambda Z: lm.predict(Z, raw_score=True),
    )
except ImportError:
    print('lightgbm not installed: skipped')
print(
    f'HGB target ours <= 1.5x decision_function/predict: {"met" if max(ratios) <= 1.5 else "NOT met"} on every HGB case '
    f'(worst {max(ratios):.2f}x)'
)
