"""Benchmark: what MDI+ costs and how it ranks on a plain classification design (issue 45 §6).

(A) cost: diabetes (442 rows, 10 features), RandomForestRegressor(100 trees, random_state=0); `mdi_plus` against
    `mdi_oob` and `ufi` on the same forest, each the median of `--reps` (default 3) interleaved calls. `mdi_plus` is
    timed as shipped (one BLAS thread per tree, `n_jobs=None`), with `n_jobs=-1` (threads over the trees), and, with
    `--lib DIR`, as an older copy of the package ran it (BLAS's own threads: on a busy machine they cost ~20x).
    Per tree, MDI+ fits a ridge with its leave-one-out path (an SVD of the n x (stumps + raw) design, its Cholesky
    solve and the inverse of the penalised Hessian): O(n p^2) with p ~ n for fully grown trees, 100 times.
(B) the classification caveat: y = 1[x0 + x1 > 0], 600 rows, x0, x1 and 8 noise columns standard normal,
    RandomForestClassifier(100 trees, random_state=0): the scores and ranks of x0 and x1 among the 10 features under
    imodels' default classification MDI+ (logistic partial models, log-loss; `classification='logistic'`) and under
    the variant of the authors' classification simulations (ridge on the 0/1 label, R²; `classification='ridge'`), over
    `--seeds` (default 5) data sets.
Run: .venv/bin/python bench/mdi_plus.py [--reps N] [--seeds N] [--lib DIR] [--only A|B]
"""

import os, sys, time, statistics
import numpy as np

arg = lambda name, default: (
    type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default
)
if (
    '--lib' in sys.argv
):  # an older copy of the package (the bench's own imports below use it)
    import importlib.util

    _p = arg('--lib', '')
    _spec = importlib.util.spec_from_file_location(
        'deepforest_interp', f'{_p}/__init__.py', submodule_search_locations=[_p]
    )
    sys.modules['deepforest_interp'] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules['deepforest_interp'])

from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from deepforest_interp.stumps import mdi_plus
from deepforest_interp.importance import mdi_oob, ufi

reps, seeds, only = arg('--reps', 3), arg('--seeds', 5), arg('--only', '')


def bench_cost():
    X, y = load_diabetes(return_X_y=True)
    rf = RandomForestRegressor(100, random_state=0).fit(X, y)
    new = 'n_jobs' in mdi_plus.__code__.co_varnames
    fns = {
        'mdi_plus': lambda: mdi_plus(rf, X, y),
        **(
            {'mdi_plus n_jobs=-1': lambda: mdi_plus(rf, X, y, n_jobs=-1)} if new else {}
        ),
        'mdi_oob': lambda: mdi_oob(rf, X, y),
        'ufi': lambda: ufi(rf, X, y),
    }
    load0 = os.getloadavg()[0]
    ts = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            t = time.perf_counter()
            fn()
            ts[k].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in ts.items()}
    print(
        f'(A) diabetes, RF 100 trees, median of {reps} ({"this package" if new else "--lib " + arg("--lib", "")}; '
        f'load average {load0:.2f} -> {os.getloadavg()[0]:.2f}): '
        + ', '.join(f'{k} {v:.2f}s' for k, v in med.items())
        + f'; mdi_plus / mdi_oob = {med["mdi_plus"] / med["mdi_oob"]:.0f}x',
        flush=True,
    )


def bench_caveat():
    rows = []
    variants = (
        ['logistic', 'ridge']
        if 'classification' in mdi_plus.__code__.co_varnames
        else ['logistic']
    )
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(600, 10))
        y = (X[:, 0] + X[:, 1] > 0).astype(int)
        rf = RandomForestClassifier(100, random_state=0).fit(X, y)
        for v in variants:
            kw = (
                {} if v == 'logistic' and len(variants) == 1 else dict(classification=v)
            )
            s = mdi_plus(rf, X, y, **kw)
            rank = s.rank(ascending=False)
            noise = s.iloc[2:]
            rows.append(
                (
                    seed,
                    v,
                    s.iloc[0],
                    s.iloc[1],
                    noise.min(),
                    noise.max(),
                    rank.iloc[0],
                    rank.iloc[1],
                )
            )
            print(
                f'(B) seed {seed} {v:8s}: x0 {s.iloc[0]:+.3f} (rank {rank.iloc[0]:.0f}), x1 {s.iloc[1]:+.3f} '
                f'(rank {rank.iloc[1]:.0f}); noise {noise.min():+.3f} .. {noise.max():+.3f}',
                flush=True,
            )
    for v in variants:
        r = [x for x in rows if x[1] == v]
        ok = sum(x[6] <= 2 and x[7] <= 2 for x in r)
        print(
            f'(B) {v}: both signal features ranked 1-2 in {ok} of {len(r)} data sets',
            flush=True,
        )


if __name__ == '__main__':
    if only in ('', 'A'):
        bench_cost()
    if only in ('', 'B'):
        bench_caveat()
