"""Benchmark: what a practitioner keeps of a default deep forest, and what its first explanation costs.

Data: statsmodels' `fair` (6,366 rows, 8 columns; `affairs > 0`, 2 classes), shipped with statsmodels (nothing is
downloaded). For each seed, the package-default `CascadeForestClassifier(random_state=seed)` (4 forests x 50 fully grown
trees x 3 folds per layer, up to 10 layers) is fitted on a 75 % stratified split (`--full`: on all rows, as a user
keeping the final model would) and measured:
* trees, nodes, kept layers, held-out accuracy (the packed pickle reloads to byte-identical trees, so the accuracy
  after a round trip is the same model's, checked);
* the pickle of the plain state (scikit-learn's own tree pickles, `BaseEstimator.__getstate__`) and the package's pickle
  (packed trees), with the time to dump and to load;
* on the reloaded model (cache empty): the first `deep_forest_contributions(model, rows)` against `predict_proba(rows)`
  on the held-out rows and on the training rows, one thread on both sides (model n_jobs=None), each the median of
  `--reps` (default 3) runs; the explanation is cold every time (the per-model cache is emptied before each run).
Run: .venv/bin/python bench/cascade_size.py [--seeds 0,1,2] [--reps N] [--full]   (needs: pip install statsmodels)
"""

import pickle, statistics, sys, time
import numpy as np
from sklearn.base import BaseEstimator
from sklearn.model_selection import train_test_split

from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.calibration import deep_forest_contributions
from deepforest_interp import estimation

try:
    import statsmodels.api as sm
except ImportError as err:
    sys.exit(f'bench/cascade_size.py needs statsmodels: {err}')

arg = lambda name, default: (
    sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
)
seeds = [int(s) for s in arg('--seeds', '0,1,2').split(',')]
reps = int(arg('--reps', 3))
full = '--full' in sys.argv


def timed(fn, reps=reps, before=lambda: None):
    ts = []
    for _ in range(reps):
        before()
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


data = sm.datasets.fair.load_pandas().data
y = (data.pop('affairs') > 0).astype(int)
X = data
print(
    f'fair: {X.shape[0]} rows x {X.shape[1]} columns; {"all rows" if full else "75/25 split"}; reps={reps}'
)
for seed in seeds:
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=0.25, stratify=y, random_state=seed
    )
    if full:
        X_tr, y_tr = X, y
    t = time.perf_counter()
    model = CascadeForestClassifier(random_state=seed, prepare_explanations=False).fit(
        X_tr, y_tr
    )
    fit = time.perf_counter() - t
    trees = [
        t
        for layer in model.layers_
        for fs in layer
        for fm in fs
        for t in fm.estimators_
    ]
    nodes = sum(t.tree_.node_count for t in trees)
    plain = len(pickle.dumps(BaseEstimator.__getstate__(model)))
    dump = timed(lambda: pickle.dumps(model), reps=1)
    blob = pickle.dumps(model)
    load = timed(lambda: pickle.loads(blob), reps=1)
    back = pickle.loads(blob)
    assert np.array_equal(back.predict_proba(X_te), model.predict_proba(X_te))
    acc = float(np.mean(back.predict(X_te) == y_te))
    print(
        f'seed {seed}: fit {fit:.1f} s, {model.n_layers_} layers, {len(trees):,} trees, {nodes / 1e6:.2f}M nodes,'
        f' accuracy {acc:.4f}{" (training rows)" if full else ""}; pickle {plain / 1e6:,.0f} MB plain ->'
        f' {len(blob) / 1e6:,.1f} MB packed ({plain / len(blob):.1f}x), dump {dump:.1f} s, load {load:.1f} s'
    )
    deep_forest_contributions(back, X_te[:20])  # JIT compilation, outside the timings
    for name, rows in ([] if full else [('held-out', X_te)]) + [('training', X_tr)]:
        pred = timed(lambda: back.predict_proba(rows))
        cold = timed(
            lambda: deep_forest_contributions(back, rows),
            before=lambda: estimation._CACHES.pop(back, None),
        )
        warm = timed(lambda: deep_forest_contributions(back, rows))
        print(
            f'   {name} ({len(rows):,} rows): predict_proba {pred:.2f} s, first explanation {cold:.2f} s'
            f' = {cold / pred:.2f}x (target <= 2.5x), later calls {warm:.2f} s = {warm / pred:.2f}x'
        )
