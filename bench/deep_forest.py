"""Benchmark: deep-forest contributions of new rows against the cascade's own predict_proba.

Targets (a practitioner's third day): an explanation costs at most 2.5x `predict_proba` cold (the first call on a
freshly fitted cascade) and at most 1.5x warm (later calls), on any number of classes and features.

Protocol, per case: package defaults, n_jobs=1 on both sides (same work: the cascade's forward pass is part of
both), every timing the median of `--reps` (default 5) calls, the sides interleaved so that load from other processes
hits both alike, after one warm-up call each (JIT compilation, once per process):
* predict_proba: `model.predict_proba(X_new)`;
* cold: the first `deep_forest_contributions(model, X_new)` on a freshly fitted cascade. `fit` ends with
  `prepare_explanations` (Algorithm 1 on the training rows below the best layer, that layer's leaf tables packed:
  `prepare_explanations=True`, the default), so every repetition empties the per-model cache, runs exactly what `fit`
  runs last (`calibration._prepare_after_fit`, timed as part of the fit, below) and then times the first call. Once per
  case a genuinely fresh fit is timed the same way, to check that the emulation is the real thing;
* warm: the next call on the same model;
* unprepared: the first call with nothing prepared (a cascade fitted with `prepare_explanations=False`, or one just
  unpickled: the cache is not pickled) -- it pays for the preparation; no target, reported for the record;
* fit: `fit` with and without the preparation, and the preparation alone as a share of the fit;
* every ratio also in CPU time (`time.process_time`, single-threaded on both sides), which other processes on the
  machine disturb less than wall time;
* the cache after a call: leaf tables (budget: the larger of the trees' bytes and `TABLE_CACHE_FLOOR`, 512 MiB),
  the training rows' arrays, and the model's pickle size (the cache is not in it).
Cases: `synthetic` (make_three_class with 10 noise features, 3,000 training rows, 3,000 new rows; max_layers=4,
n_tolerant_rounds=4, so that 3 layers are kept), `digits` (scikit-learn's digits, 10 classes x 64 features, the default
cascade on 1,497 rows, 300 stratified held-out rows explained: the case where the cost grows with classes x features),
`adult` (UCI Adult, the first `--adult-rows` training rows (default 5,000), 1,000 test rows explained), `satimage`
(KEEL, 70/30 split, 3,000 new rows; `--satimage` to include it). `deep_forest_explain` (every layer, training rows +
test rows + MDI) is timed against the fit with `--explain`.
What a call costs (cProfile of digits, warm): the forward pass through the layers below the explained one (compiled
walks, `walkers.walk_leaves`, summed in the cascade's order), one walk down each of the explained layer's 600 trees,
and per row and tree one leaf-table row of K*C = 640 numbers added (`estimation._gather_leaf_rows`, four trees at a
time), plus the content digest of the trees that notices an edit in place (about 5-10 ms).
Last run (2026-11-28, load 0.7-1.8, median of 3-5; warm / cold as ratios to predict_proba, wall = CPU time):
  digits (10 classes x 64 features, 300 rows):  warm 1.28-1.30x, cold 1.25-1.35x; preparation 1.47 s = 31% of the fit;
                                                 unprepared first call 35x; leaf tables 180.5 MiB
  synthetic (3 classes, 12 features, 3,000 rows): warm 0.93x, cold 0.90x; preparation 9% of the fit; tables 0.8 MiB
  adult (5,000 rows, 1 layer):                   warm 1.05x, cold 1.09x; preparation 5% of the fit; tables 112 MiB
  satimage (6 classes x 36 features, 3,000 rows): warm 1.16x, cold 1.20x; preparation 25% of the fit; tables 318 MiB
Run: .venv/bin/python bench/deep_forest.py [--reps N] [--cases synthetic,digits,adult] [--table-mib MiB: leaf-table budget] [--adult-rows N] [--satimage] [--explain]
"""

import os, sys, time, statistics, pickle
import numpy as np
from sklearn.base import clone
from sklearn.model_selection import train_test_split
from deepforest_interp.cascade import CascadeForestClassifier
import deepforest_interp.calibration as _cal
from deepforest_interp.calibration import (
    deep_forest_contributions,
    deep_forest_explain,
    _prepare_after_fit,
    _tree_bytes,
)
from deepforest_interp.estimation import _CACHES

arg = lambda name, default: (
    type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default
)
reps = arg('--reps', 5)
if '--table-mib' in sys.argv:  # a leaf-table budget other than the default
    _cal.TABLE_CACHE_BYTES = int(arg('--table-mib', 0.0) * 2**20)
cases = arg('--cases', 'synthetic,digits').split(',') + (
    ['satimage'] if '--satimage' in sys.argv else []
)


def data(case):
    if case == 'synthetic':
        from deepforest_interp.datasets import make_three_class

        X, y = make_three_class(3000, n_noise=10, random_state=0)
        return X, y, make_three_class(3000, n_noise=10, random_state=1)[0]
    if case == 'digits':  # 10 classes x 64 features: 300 held-out rows
        from sklearn.datasets import load_digits

        X, y = load_digits(return_X_y=True)
        Xtr, Xte, ytr, _ = train_test_split(
            X, y, test_size=300, stratify=y, random_state=0
        )
        return Xtr, ytr, Xte
    if case == 'adult':
        from deepforest_interp.datasets import load_adult

        Xtr, Xte, ytr, yte = load_adult()
        n = arg('--adult-rows', 5000)
        return Xtr.iloc[:n], ytr.iloc[:n], Xte.iloc[:1000]
    from deepforest_interp.datasets import load_keel

    X, y = load_keel('satimage')
    Xtr, Xte, ytr, _ = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    return Xtr, ytr, Xte.sample(3000, replace=len(Xte) < 3000, random_state=0)


CPU = {}  # id(list of wall times) -> list of CPU times of the same calls


def timed(fn, before=None, into=None):
    if before:
        before()
    t, c = time.perf_counter(), time.process_time()
    fn()
    w = time.perf_counter() - t
    if into is not None:
        into.append(w)
        CPU.setdefault(id(into), []).append(time.process_time() - c)
    return w


def verdict(r, target):
    return f'{r:.2f}x (target <= {target}x: {"met" if r <= target else "NOT met"})'


MiB = 2**20
for case in cases:
    X, y, Xnew = data(case)
    kw = dict(max_layers=4, n_tolerant_rounds=4) if case == 'synthetic' else {}
    lazy = CascadeForestClassifier(random_state=0, prepare_explanations=False, **kw)
    t = time.perf_counter()
    lazy.fit(X, y)
    t_fit0 = time.perf_counter() - t
    t = time.perf_counter()
    df = clone(lazy).set_params(prepare_explanations=True).fit(X, y)
    t_fit = time.perf_counter() - t
    print(
        f'[{case}] {len(X)} training rows x {X.shape[1]} features, {len(np.unique(y))} classes; '
        f'{df.n_layers_} layer(s) kept; {len(Xnew)} new rows',
        flush=True,
    )
    predict = lambda: df.predict_proba(Xnew)
    explain = lambda: deep_forest_contributions(df, Xnew)
    e = explain()  # warm-up: JIT compilation (and the check below)
    np.testing.assert_allclose(e.output, df.predict_proba(Xnew), rtol=0, atol=1e-9)
    predict()
    # a genuinely fresh fit, then its first call: what the emulated cold calls below stand for
    fresh = clone(df).fit(X, y)
    t = time.perf_counter()
    deep_forest_contributions(fresh, Xnew)
    t_fresh = time.perf_counter() - t
    del fresh
    as_fit = lambda: (
        _CACHES.pop(df, None),
        _prepare_after_fit(df),
    )  # what fit runs last
    unprepared = lambda: _CACHES.pop(df, None)
    tp, tc, tw, tu, tq = [], [], [], [], []
    load0 = os.getloadavg()
    for _ in range(reps):
        timed(predict, into=tp)
        timed(as_fit, into=tq)  # the preparation alone (part of the fit)
        timed(explain, into=tc)  # cold: the first call after fit
        timed(predict, into=tp)
        timed(explain, into=tw)  # warm
        timed(explain, unprepared, into=tu)  # nothing prepared (e.g. just unpickled)
    mp, mc, mw, mu, mq = (statistics.median(v) for v in (tp, tc, tw, tu, tq))
    cp, cc, cw, cu = (statistics.median(CPU[id(v)]) for v in (tp, tc, tw, tu))
    print(
        f'[{case}] median of {reps}: predict_proba {mp:.3f}s | cold (first call after fit) {mc:.3f}s = '
        f"{verdict(mc / mp, 2.5)} | warm {mw:.3f}s = {verdict(mw / mp, 1.5)} | a fresh fit's first call "
        f'{t_fresh:.3f}s = {t_fresh / mp:.2f}x | load average {load0[0]:.2f} -> {os.getloadavg()[0]:.2f}',
        flush=True,
    )
    print(
        f'[{case}] the same calls in CPU time (process_time, median): predict_proba {cp:.3f}s | cold {cc:.3f}s = '
        f'{cc / cp:.2f}x | warm {cw:.3f}s = {cw / cp:.2f}x',
        flush=True,
    )
    print(
        f'[{case}] fit {t_fit0:.1f}s without the preparation, {t_fit:.1f}s with it; the preparation alone '
        f'{mq:.2f}s = {100 * mq / t_fit0:.0f}% of the fit | unprepared first call (prepare_explanations=False, '
        f'or just unpickled) {mu:.3f}s = {mu / mp:.1f}x predict_proba (CPU {cu / cp:.1f}x)',
        flush=True,
    )
    cache = _CACHES[df][1]
    train_bytes = sum(
        v.train.nbytes + v.train_bias.nbytes
        for k, v in cache.items()
        if isinstance(k, tuple) and k[0] == 'train'
    )
    size = len(pickle.dumps(df))
    print(
        f'[{case}] cache: leaf tables {cache["table bytes"] / MiB:.1f} MiB (budget {_cal._table_budget(df, cache) / MiB:.0f} MiB; '
        f"the trees' node arrays {_tree_bytes(df.layers_) / MiB:.1f} MiB), training rows' arrays {train_bytes / MiB:.1f} MiB; "
        f'model pickle {size / MiB:.1f} MiB (the cache is not pickled)',
        flush=True,
    )
    if '--explain' in sys.argv:
        unprepared()
        t = time.perf_counter()
        deep_forest_explain(df, Xnew)
        t_pass = time.perf_counter() - t
        print(
            f'[{case}] deep_forest_explain (training rows OOF + {len(Xnew)} rows + MDI(DF), every layer): {t_pass:.1f}s = '
            f'{100 * t_pass / t_fit0:.0f}% of the fit',
            flush=True,
        )
