"""Benchmark: the fixed cost of one call, on 1 and 20 rows, for every model family the library reads.

Models fitted on 2,000 x 10 Gaussian rows (a binary target with an interaction): RandomForestClassifier(100),
HistGradientBoostingClassifier(100 iterations), XGBClassifier(100, depth 4), LGBMClassifier(100). Each column is the
median of `--reps` (default 41) calls, the sides called in turn in every round after one warm-up each (the warm-up is
the model's first call, which reads its trees and checks every row):
* ours = `contributions(model, X)`, the default call (the additivity check compares the rows with a missing value;
  for an XGBoost / LightGBM model, whose trees can be edited in place, 16 rows spread over X, i.e. one predict);
* no check = `contributions(model, X, check_additivity=False)`;
* predict = the model's own `predict_proba`;
* shap = `TreeExplainer(model).shap_values(X, approximate=True)`, the explainer built once outside the timer (shap has
  no Saabas mode for LightGBM).
Target: ours <= 2 ms on every row.
Run: .venv/bin/python bench/fixed_cost.py [--reps N]
"""

import sys, warnings
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier

import deepforest_interp as dfi
from _timing import interleaved

warnings.filterwarnings('ignore')
reps = int(sys.argv[sys.argv.index('--reps') + 1]) if '--reps' in sys.argv else 41
models = {'RandomForest(100)': RandomForestClassifier(100, random_state=0)}
models['HistGradientBoosting(100)'] = HistGradientBoostingClassifier(max_iter=100)
try:
    import xgboost

    models['XGBoost(100)'] = xgboost.XGBClassifier(n_estimators=100, max_depth=4)
except ImportError:
    pass
try:
    import lightgbm

    models['LightGBM(100)'] = lightgbm.LGBMClassifier(n_estimators=100, verbose=-1)
except ImportError:
    pass
try:
    import shap
except ImportError:
    shap = None


rng = np.random.default_rng(0)
X = pd.DataFrame(rng.normal(size=(2000, 10)), columns=[f'f{j}' for j in range(10)])
y = (X.f0 + X.f1 * X.f2 > 0).astype(int)
print(f'median of {reps} calls, sides interleaved; ms')
print(
    '| model | rows | ours (default) | ours, no check | model predict_proba | shap Saabas |'
)
print('|---|---|---|---|---|---|')
for name, model in models.items():
    model.fit(X, y)
    for n in (1, 20):
        rows = X.iloc[:n]
        fns = {
            'ours': lambda: dfi.contributions(model, rows),
            'plain': lambda: dfi.contributions(model, rows, check_additivity=False),
            'predict': lambda: model.predict_proba(rows),
        }
        if shap is not None and not name.startswith('LightGBM'):
            ex = shap.TreeExplainer(model)
            fns['shap'] = lambda: ex.shap_values(rows, approximate=True)
        t = {k: v * 1e3 for k, v in interleaved(fns, reps).items()}  # ms
        shap_s = f'{t["shap"]:.2f}' if 'shap' in t else 'n/a'
        print(
            f'| {name} | {n} | {t["ours"]:.2f} | {t["plain"]:.2f} | {t["predict"]:.2f} | {shap_s} |'
        )
