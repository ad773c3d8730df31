"""Benchmark: deep-forest contributions of new rows against the cascade's own predict_proba (issue 11 §1).

satimage (KEEL copy), 70/30 stratified split (seed 0), package defaults, n_jobs=1 on both sides (same work: the
cascade's forward pass is part of both). Prints, median of `--reps` (default 5) timed calls after one warm-up call
each (JIT compilation and the per-model cache of the training rows' out-of-fold contributions are warm-up):
* predict_proba(3000 new rows) vs deep_forest_contributions(3000 new rows): ratio, target <= 2.5x (the per-model cache
  of the training rows' out-of-fold contributions and of the explained layer's leaf tables is warm; its size is printed);
* the same with the per-model cache cleared before every call (the cost of a first call on a fitted model);
* the one-pass `deep_forest_explain` (training rows out of fold + test rows + MDI(DF), every layer) vs the fit.
Run: .venv/bin/python bench/deep_forest.py [--quick] [--reps N]
"""
import sys, time, statistics
import numpy as np
from sklearn.model_selection import train_test_split
from deepforest_interp.datasets import load_keel
from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.calibration import deep_forest_contributions, deep_forest_explain, _TRAIN_CACHE, _cache_get, TABLE_CACHE_BYTES

quick = '--quick' in sys.argv
reps = int(sys.argv[sys.argv.index('--reps') + 1]) if '--reps' in sys.argv else 5
X, y = load_keel('satimage')
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
if quick: Xtr, ytr = Xtr.iloc[:1500], ytr.iloc[:1500]
t = time.perf_counter()
df = CascadeForestClassifier(random_state=0).fit(Xtr, ytr)
t_fit = time.perf_counter() - t
print(f"satimage: {len(Xtr)} training rows; cascade fit {t_fit:.1f}s, {df.n_layers_} layer(s) kept, "
      f"test accuracy {np.mean(df.predict(Xte) == yte):.4f}", flush=True)

Xnew = Xte.sample(3000, replace=len(Xte) < 3000, random_state=0)

def median_time(fn, reps, before=None):
    ts = []
    for _ in range(reps):
        if before: before()
        t = time.perf_counter(); fn(); ts.append(time.perf_counter() - t)
    return statistics.median(ts), ts

predict = lambda: df.predict_proba(Xnew)
explain = lambda: deep_forest_contributions(df, Xnew, calibration='partial')
predict(); e = explain()                                         # warm-up: JIT compile, cache fill
np.testing.assert_allclose(e.output, df.predict_proba(Xnew), atol=1e-9)
# interleave the two so that load from other processes hits both alike
tp, te = [], []
for _ in range(reps):
    tp.append(median_time(predict, 1)[0]); te.append(median_time(explain, 1)[0])
mp, me = statistics.median(tp), statistics.median(te)
print(f"3000 new rows, median of {reps}: predict_proba {mp:.3f}s, deep_forest_contributions {me:.3f}s "
      f"-> ratio {me / mp:.2f}x (target <= 2.5x: {'met' if me / mp <= 2.5 else 'NOT met'})", flush=True)
print(f"per-model cache after the warm-up: leaf tables {(_cache_get(df, 'table bytes') or 0) / 2**20:.0f} MiB "
      f"(budget TABLE_CACHE_BYTES = {TABLE_CACHE_BYTES / 2**20:.0f} MiB); the model itself pickles to "
      f"{len(__import__('pickle').dumps(df)) / 2**20:.0f} MiB", flush=True)
clear = lambda: _TRAIN_CACHE.pop(df, None)
tc = [median_time(explain, 1, before=clear)[0] for _ in range(max(3, reps // 2))]
mc = statistics.median(tc)
print(f"first call on a fitted model (cache cleared, JIT warm), median of {len(tc)}: {mc:.3f}s -> ratio {mc / mp:.2f}x "
      f"predict_proba", flush=True)
clear()
t = time.perf_counter(); b = deep_forest_explain(df, Xte, calibration='partial'); t_pass = time.perf_counter() - t
print(f"deep_forest_explain (training rows OOF + {len(Xte)} test rows + MDI(DF), every layer): {t_pass:.1f}s = "
      f"{100 * t_pass / t_fit:.0f}% of the fit")
