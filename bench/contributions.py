"""Benchmark: feature contributions against shap's Saabas explainer (`approximate=True`), timed the same way on both sides.

Fair by construction (issue 11 §1): each side does the same work inside the timed call and nothing outside it.
* one-shot: ours = `contributions(model, X)` with the per-model flattened-forest cache cleared first;
  shap = `shap.TreeExplainer(model).shap_values(X, approximate=True)` (explainer built inside the call);
* repeated (a second call on the same fitted model): ours with the cache warm; shap with the explainer built once;
* additivity checks off on both sides (shap has none for approximate=True; ours `check_additivity=False`),
  then checked once, outside the timing, that the two agree to 1e-9;
* one warm-up call on each side (numba JIT / shap's first call), then the median of `--reps` (default 7) calls,
  interleaved so that load from other processes hits both alike; n_jobs=-1 for ours (shap's Saabas is serial C++),
  and the same with n_jobs=1 for a one-thread comparison.
Cases: (A) RF 200 fully grown, 5000x50, 3 classes, 5000 held-out rows; (B) the same with max_depth=8;
(C) RF 100 fully grown, 3000x30, 3 classes, explaining its own 3000 training rows.
Targets: one-shot <= 0.35x shap, repeated <= 0.25x shap, on every case.
Memory (`--memory`): RF 100 on 200,000x50 binary rows: peak extra memory traced during `contributions` against the
size of the result, with the time of `predict_proba` and of shap next to it.
Against predict (`--predict` / `--only-predict`, issue 18 §5): case (A) again, `contributions(check_additivity=False)` with a
warm cache against the model's own `predict_proba` on the same rows, both on 1 thread (`n_jobs=1` on both sides) and on
2 threads, interleaved, median of `--reps`. Targets: <= 1.5x on 1 thread, <= 1.3x on 2 threads.
Run: .venv/bin/python bench/contributions.py [--quick] [--reps N] [--memory | --only-memory] [--predict | --only-predict]
"""

import sys, time, statistics, tracemalloc
import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from deepforest_interp.tree_contributions import contributions
from deepforest_interp.adapters import clear_node_tables

quick = '--quick' in sys.argv
reps = (
    int(sys.argv[sys.argv.index('--reps') + 1])
    if '--reps' in sys.argv
    else (3 if quick else 7)
)
try:
    import shap
except ImportError:
    sys.exit('shap is needed for this benchmark: pip install shap')


def timed(fn, before=None):
    if before is not None:
        before()
    t = time.perf_counter()
    r = fn()
    return time.perf_counter() - t, r


def compare(label, model, X, n_jobs=-1):
    ours_one = lambda: contributions(model, X, check_additivity=False, n_jobs=n_jobs)
    shap_one = lambda: shap.TreeExplainer(model).shap_values(X, approximate=True)
    explainer = shap.TreeExplainer(model)
    shap_rep = lambda: explainer.shap_values(X, approximate=True)
    e = ours_one()
    sv = np.asarray(shap_one())
    shap_rep()  # warm-up on both sides
    sv = sv if sv.shape == e.values.shape else np.moveaxis(sv, 0, -1)
    err = float(np.abs(sv - e.values).max())
    assert err <= 1e-9, f'ours and shap differ by {err}'
    t = {
        k: []
        for k in ['ours one-shot', 'shap one-shot', 'ours repeated', 'shap repeated']
    }
    for _ in range(reps):
        t['ours one-shot'].append(timed(ours_one, before=clear_node_tables)[0])
        t['shap one-shot'].append(timed(shap_one)[0])
        contributions(
            model, X[:1], check_additivity=False
        )  # fill the cache (not timed)
        t['ours repeated'].append(timed(ours_one)[0])
        t['shap repeated'].append(timed(shap_rep)[0])
    m = {k: statistics.median(v) for k, v in t.items()}
    r1, r2 = (
        m['ours one-shot'] / m['shap one-shot'],
        m['ours repeated'] / m['shap repeated'],
    )
    print(
        f'{label} [n_jobs={n_jobs}] median of {reps}: one-shot ours {m["ours one-shot"]:.3f}s shap {m["shap one-shot"]:.3f}s '
        f'ratio {r1:.2f}x ({"met" if r1 <= 0.35 else "NOT met"} <= 0.35) | repeated ours {m["ours repeated"]:.3f}s '
        f'shap {m["shap repeated"]:.3f}s ratio {r2:.2f}x ({"met" if r2 <= 0.25 else "NOT met"} <= 0.25) | max |ours - shap| {err:.1e}',
        flush=True,
    )
    return r1, r2


def data(n, k, seed=0):
    X, y = make_classification(
        n_samples=2 * n, n_features=k, n_informative=10, n_classes=3, random_state=seed
    )
    return X[:n], y[:n], X[n:]


s = 5 if quick else 1
Xtr, ytr, Xte = data(5000 // s, 50)
rf = RandomForestClassifier(n_estimators=200, n_jobs=-1, random_state=0).fit(Xtr, ytr)
rf8 = RandomForestClassifier(
    n_estimators=200, max_depth=8, n_jobs=-1, random_state=0
).fit(Xtr, ytr)
Xc, yc, _ = data(3000 // s, 30, seed=1)
rfc = RandomForestClassifier(n_estimators=100, n_jobs=-1, random_state=0).fit(Xc, yc)
cases = [
    (f'(A) RF200 {len(Xtr)}x50 held-out', rf, Xte),
    (f'(B) RF200 max_depth=8 {len(Xtr)}x50 held-out', rf8, Xte),
    (f'(C) RF100 {len(Xc)}x30 training rows', rfc, Xc),
]


def against_predict(model, X):
    "contributions vs the model's predict_proba on the same rows, same thread count, interleaved."
    for nj, target in [(1, 1.5), (2, 1.3)]:
        model.set_params(n_jobs=nj)
        ours = lambda: contributions(model, X, check_additivity=False, n_jobs=nj)
        pred = lambda: model.predict_proba(X)
        ours()
        pred()  # warm-up (JIT, cache, thread pools)
        a, b = [], []
        for _ in range(reps):
            a.append(timed(ours)[0])
            b.append(timed(pred)[0])
        r = statistics.median(a) / statistics.median(b)
        print(
            f'(A) vs predict_proba [{nj} thread{"s" if nj > 1 else ""}] median of {reps}: contributions {statistics.median(a):.3f}s '
            f'predict_proba {statistics.median(b):.3f}s ratio {r:.2f}x ({"met" if r <= target else "NOT met"} <= {target})',
            flush=True,
        )
    model.set_params(n_jobs=-1)


if '--predict' in sys.argv or '--only-predict' in sys.argv:
    against_predict(rf, Xte)
if '--only-predict' in sys.argv:
    sys.exit(0)

if '--only-memory' not in sys.argv:
    for label, model, X in cases:
        compare(label, model, X)
    for label, model, X in cases:
        compare(label, model, X, n_jobs=1)

if '--memory' in sys.argv or '--only-memory' in sys.argv:
    n = 20_000 if quick else 200_000
    X, y = make_classification(
        n_samples=n, n_features=50, n_informative=10, random_state=0
    )
    big = RandomForestClassifier(n_estimators=100, n_jobs=-1, random_state=0).fit(
        X, y
    )  # fully grown
    contributions(big, X[:10])
    clear_node_tables()
    tracemalloc.start()
    t = time.perf_counter()
    e = contributions(big, X, check_additivity=False)
    t_ours = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    res = e.values.nbytes + e.bias.nbytes
    t = time.perf_counter()
    big.predict_proba(X)
    t_pred = time.perf_counter() - t
    t = time.perf_counter()
    shap.TreeExplainer(big).shap_values(X, approximate=True)
    t_shap = time.perf_counter() - t
    nodes = sum(t.tree_.node_count for t in big.estimators_)
    print(
        f'memory: RF100 fully grown ({nodes:,} nodes) {n}x50 binary: result {res / 2**20:.0f} MiB, peak traced {peak / 2**20:.0f} MiB '
        f'-> extra beyond the result {(peak - res) / 2**20:.0f} MiB = {(peak - res) / res:.2f}x the result (target <= 2x); '
        f'time ours {t_ours:.2f}s, predict_proba {t_pred:.2f}s, shap {t_shap:.2f}s (ours/shap {t_ours / t_shap:.2f}x)',
        flush=True,
    )
