"""Benchmark: deep-forest contributions + MDI(DF) cost relative to fitting the cascade (issue 3).

satimage (KEEL copy), 70/30 stratified split (seed 0), package defaults. Prints the cascade fit time, the time of one
pass that explains the training rows (out of fold) and the test rows and computes MDI(DF), the ratio (target <= 25%),
predict time vs explain time for 5000 rows, and the peak traced memory of the explanation pass.
Run: .venv/bin/python bench/deep_forest.py [--quick]
"""
import sys, time, tracemalloc
import numpy as np
from sklearn.model_selection import train_test_split
from deepforest_interp.datasets import load_keel
from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.calibration import cascade_pass, deep_forest_contributions, deep_forest_explain

quick = '--quick' in sys.argv
X, y = load_keel('satimage')
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
if quick: Xtr, ytr = Xtr.iloc[:1500], ytr.iloc[:1500]
t = time.perf_counter()
df = CascadeForestClassifier(random_state=0, n_jobs=-1).fit(Xtr, ytr)
t_fit = time.perf_counter() - t
print(f"cascade fit {t_fit:.1f}s, {df.n_layers_} layers kept, test accuracy {np.mean(df.predict(Xte) == yte):.4f}", flush=True)

deep_forest_contributions(df, Xte.iloc[:20])                         # JIT warm-up (cached on disk afterwards)
t = time.perf_counter()
b = deep_forest_explain(df, Xte, calibration='partial', n_jobs=-1)   # train OOF + test + MDI(DF), every layer, one pass
t_pass = time.perf_counter() - t
print(f"contributions (train OOF + test) and MDI(DF) for every layer, one pass: {t_pass:.1f}s = "
      f"{100 * t_pass / t_fit:.0f}% of the fit (target <= 25%)", flush=True)
res = cascade_pass(df, Xte, n_jobs=1)

Xbig = Xte.sample(5000, replace=True, random_state=0)
t = time.perf_counter(); df.predict_proba(Xbig); t_pred = time.perf_counter() - t
t = time.perf_counter(); deep_forest_contributions(df, Xbig, n_jobs=-1); t_exp = time.perf_counter() - t
print(f"5000 new rows: predict_proba {t_pred:.2f}s, deep_forest_contributions {t_exp:.2f}s (ratio {t_exp / t_pred:.1f}x; "
      f"this includes one pass over the training rows, which the estimation step needs)")
tracemalloc.start(); cascade_pass(df, Xte, n_jobs=1); _, peak = tracemalloc.get_traced_memory(); tracemalloc.stop()
print(f"peak traced memory of one pass: {peak / 2**20:.0f} MiB "
      f"(result per layer: {res[0].train.nbytes / 2**20 + res[0].new.nbytes / 2**20:.0f} MiB)")
