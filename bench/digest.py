"""Benchmark: the content digest `node_table` takes on every call (issue 40 item 2) against reading the model again and
against explaining rows with a warm cache, per model family, 1 thread.

Cases: 5000x50 rows, 3 classes; RF 200 fully grown (bench/contributions.py case A), GradientBoosting 50 stages,
HistGradientBoosting 200 iterations, XGBoost 200 rounds depth 6, LightGBM 200 rounds 31 leaves. Timed: the digest
alone; `node_table(model, cache=False)` (a full read); `contributions(model, X, check_additivity=False, n_jobs=1)`
with a warm cache on 5000 rows and on 1 row (each includes one digest). Best of `--reps` (default 5).
Run: .venv/bin/python bench/digest.py [--reps N]
"""

import sys, time
from sklearn.datasets import make_classification
from sklearn.ensemble import (
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from deepforest_interp import adapters
from deepforest_interp.adapters import node_table
from deepforest_interp.tree_contributions import contributions

reps = int(sys.argv[sys.argv.index('--reps') + 1]) if '--reps' in sys.argv else 5
X, y = make_classification(5000, 50, n_informative=10, n_classes=3, random_state=0)
models = {
    'RF 200': RandomForestClassifier(200, random_state=0, n_jobs=2),
    'GB 50': GradientBoostingClassifier(n_estimators=50, max_depth=3, random_state=0),
    'HGB 200': HistGradientBoostingClassifier(max_iter=200, early_stopping=False),
}
try:
    import xgboost, lightgbm

    models['XGBoost 200'] = xgboost.XGBClassifier(n_estimators=200, max_depth=6)
    models['LightGBM 200'] = lightgbm.LGBMClassifier(n_estimators=200, verbose=-1)
except ImportError:
    print('xgboost / lightgbm not installed: skipped')


def best(fn):
    t = []
    for _ in range(reps):
        a = time.perf_counter()
        fn()
        t.append(time.perf_counter() - a)
    return min(t)


def digest_of(model):
    ad = adapters.model_adapter(model)
    return lambda: ad.digest(model)


print(f'best of {reps}, 1 thread, ms')
print(
    '| model | digest | read | digest / read | explain 5000 rows | digest share | explain 1 row |'
)
print('|---|---|---|---|---|---|---|')
for name, m in models.items():
    m.fit(X, y)
    if hasattr(m, 'n_jobs'):
        m.set_params(n_jobs=1)
    contributions(m, X[:10], n_jobs=1)  # warm: compiled, cached, verified
    d = (
        best(digest_of(m)) if hasattr(adapters, 'model_adapter') else 0.0
    )  # 0: no digest
    r = best(lambda: node_table(m, cache=False, refresh=True))
    w = best(lambda: contributions(m, X, check_additivity=False, n_jobs=1))
    one = best(lambda: contributions(m, X[:1], check_additivity=False, n_jobs=1))
    print(
        f'| {name} | {1e3 * d:.2f} | {1e3 * r:.1f} | {d / r:.3f} | {1e3 * w:.1f} |'
        f' {d / w:.1%} | {1e3 * one:.2f} |'
    )
