"""Benchmark: deep-forest contributions of new rows against the cascade's own predict_proba (issues 11 §1, 18 §4).

For each case, package defaults, n_jobs=1 on both sides (same work: the cascade's forward pass is part of both), every
timing the median of `--reps` (default 5) calls, the two sides interleaved so that load from other processes hits both
alike, after one warm-up call each (JIT compilation):
* cold: `deep_forest_contributions(model, X_new)` with the per-model cache emptied before every call (the first call on a
  fitted model: Algorithm 1 on the training rows of every layer below the explained one, then the new rows);
* warm: the same call with the cache filled by the previous call (the training rows' out-of-fold contributions and the
  explained layer's leaf tables are reused);
* prepared: `prepare_explanations(model)` (what every explanation shares, run once right after fit: Algorithm 1 on the
  training rows of the layers below the explained one, the explained layer's leaf tables), timed as a share of the fit,
  then the first `deep_forest_contributions(model, X_new)` on the prepared model;
* ratios cold / predict_proba (target <= 2.5x), prepared first call / predict_proba and warm / predict_proba (target
  <= 1.5x);
* every ratio also in CPU time (`time.process_time`, single-threaded on both sides), which other processes on the
  machine disturb less than wall time;
* the cache after a call: leaf tables (budget: the bytes of the model's own trees, `TABLE_CACHE_BYTES=None`), the
  training rows' arrays, and the model's pickle size.
Cases: `synthetic` (make_three_class with 10 noise features, 3,000 training rows, 3,000 new rows; max_layers=4,
n_tolerant_rounds=4, so that 3 layers are kept), `digits` (scikit-learn's digits, 10 classes x 64 features, the default
cascade on 1,497 rows, 300 stratified held-out rows explained; issue 45: the cost grows with classes x features), `adult` (UCI Adult, the first
`--adult-rows` training rows (default 5,000), 1,000 test rows explained), `satimage` (KEEL, 70/30 split, 3,000 new
rows; `--satimage` to include it). `deep_forest_explain` (every layer, training rows + test rows + MDI) is timed
against the fit with `--explain`.
Where the cost grows with classes x features (cProfile of digits, issue 45): a tree of layer l >= 1 that splits on a
previous forest's output needs its leaf table (n_leaves, K*C), built from the node sums of its in-bag rows'
layer-below contributions, each K*C = 640 wide (`estimation._split_sums`: one pass over the in-bag rows for every forest
the tree splits on, only at the nodes Eq. (16) reads; about half of a cold call, bound by reading those rows), then Eq. (16) and
the calibration per node (`calibration._table_nb`); a prediction carries C = 10 numbers per tree. Warm calls reuse
only the tables that fit the budget (the model's own tree bytes, 43.5 MiB for digits: about a third of them), so they
rebuild the rest: 28.5x predict_proba (load 1.3-1.6). With every table kept (`--table-mib 2000`: 180 MiB, 44x the
pickle) warm is 2.1x, cold stays 43x (the training rows' pass through every tree of the layers below).
Run: .venv/bin/python bench/deep_forest.py [--reps N] [--cases synthetic,digits,adult] [--table-mib MiB: leaf-table budget] [--adult-rows N] [--satimage] [--explain]
"""

import os, sys, time, statistics, pickle
import numpy as np
from sklearn.model_selection import train_test_split
from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.calibration import (
    deep_forest_contributions,
    deep_forest_explain,
    prepare_explanations,
    _tree_bytes,
    TABLE_CACHE_BYTES,
)
from deepforest_interp.estimation import _CACHES

arg = lambda name, default: (
    type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default
)
reps = arg('--reps', 5)
if (
    '--table-mib' in sys.argv
):  # a leaf-table budget other than the model's own tree bytes
    import deepforest_interp.calibration as _cal

    _cal.TABLE_CACHE_BYTES = TABLE_CACHE_BYTES = int(arg('--table-mib', 0.0) * 2**20)
cases = arg('--cases', 'synthetic,adult').split(',') + (
    ['satimage'] if '--satimage' in sys.argv else []
)


def data(case):
    if case == 'synthetic':
        from deepforest_interp.datasets import make_three_class

        X, y = make_three_class(3000, n_noise=10, random_state=0)
        return X, y, make_three_class(3000, n_noise=10, random_state=1)[0]
    if case == 'digits':  # 10 classes x 64 features (issue 45): 300 held-out rows
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


CPU = {}  # id(list of wall times) -> list of CPU times of the same calls (process_time: less sensitive to other load)


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


MiB = 2**20
for case in cases:
    X, y, Xnew = data(case)
    kw = (
        dict(max_layers=4, n_tolerant_rounds=4) if case == 'synthetic' else {}
    )  # synthetic: keep 3 layers (best is 2)
    t = time.perf_counter()
    df = CascadeForestClassifier(random_state=0, **kw).fit(X, y)
    t_fit = time.perf_counter() - t
    size = len(pickle.dumps(df))
    print(
        f'[{case}] {len(X)} training rows x {X.shape[1]} features, {len(np.unique(y))} classes; fit {t_fit:.1f}s, '
        f'{df.n_layers_} layer(s) kept; {len(Xnew)} new rows',
        flush=True,
    )
    predict = lambda: df.predict_proba(Xnew)
    explain = lambda: deep_forest_contributions(df, Xnew)
    clear = lambda: _CACHES.pop(df, None)
    predict()
    e = explain()  # warm-up: JIT compilation
    np.testing.assert_allclose(e.output, df.predict_proba(Xnew), atol=1e-9)
    prepare = lambda: prepare_explanations(df)
    tp, tc, tw, tq, tf = [], [], [], [], []
    load0 = os.getloadavg()
    for _ in range(reps):
        timed(predict, into=tp)
        timed(explain, clear, into=tc)
        timed(explain, into=tw)
        timed(prepare, clear, into=tq)
        timed(explain, into=tf)  # the first call on a freshly prepared model
    mp, mc, mw, mq, mf = (statistics.median(v) for v in (tp, tc, tw, tq, tf))
    cp, cc, cw, cf = (statistics.median(CPU[id(v)]) for v in (tp, tc, tw, tf))
    cache = _CACHES[df][1]
    train_bytes = sum(
        v.train.nbytes + v.train_bias.nbytes
        for k, v in cache.items()
        if isinstance(k, tuple) and k[0] == 'train'
    )
    print(
        f'[{case}] median of {reps}: predict_proba {mp:.3f}s | cold deep_forest_contributions {mc:.3f}s = {mc / mp:.2f}x '
        f'(target <= 2.5x: {"met" if mc / mp <= 2.5 else "NOT met"}) | warm {mw:.3f}s = {mw / mp:.2f}x '
        f'(target <= 1.5x: {"met" if mw / mp <= 1.5 else "NOT met"})',
        flush=True,
    )
    print(
        f'[{case}] prepared: prepare_explanations {mq:.3f}s = {mq / t_fit:.3f} of the fit ({t_fit:.1f}s) | first '
        f'deep_forest_contributions on the prepared model {mf:.3f}s = {mf / mp:.2f}x predict_proba '
        f'(target <= 2.5x: {"met" if mf / mp <= 2.5 else "NOT met"}) | load average {load0[0]:.2f} -> '
        f'{os.getloadavg()[0]:.2f}',
        flush=True,
    )
    print(
        f'[{case}] the same calls in CPU time (process_time, median): predict_proba {cp:.3f}s | cold {cc:.3f}s = {cc / cp:.2f}x | '
        f'warm {cw:.3f}s = {cw / cp:.2f}x | prepared first call {cf:.3f}s = {cf / cp:.2f}x',
        flush=True,
    )
    print(
        f"[{case}] cache: leaf tables {cache['table bytes'] / MiB:.1f} MiB (budget = the trees' node arrays, "
        f'{_tree_bytes(df.layers_) / MiB:.1f} MiB{"" if TABLE_CACHE_BYTES is None else f"; TABLE_CACHE_BYTES={TABLE_CACHE_BYTES}"}), '
        f"training rows' arrays {train_bytes / MiB:.1f} MiB; model pickle {size / MiB:.1f} MiB -> tables / pickle "
        f'{cache["table bytes"] / size:.2f}, whole cache / pickle {(cache["table bytes"] + train_bytes) / size:.2f}',
        flush=True,
    )
    if '--explain' in sys.argv:
        clear()
        Xte = Xnew
        t = time.perf_counter()
        deep_forest_explain(df, Xte)
        t_pass = time.perf_counter() - t
        print(
            f'[{case}] deep_forest_explain (training rows OOF + {len(Xte)} rows + MDI(DF), every layer): {t_pass:.1f}s = '
            f'{100 * t_pass / t_fit:.0f}% of the fit',
            flush=True,
        )
