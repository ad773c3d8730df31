"""Benchmark: peak memory of explanations at scale against a plain predict (issue 45 §3).

For each family the library reads (RandomForestRegressor, HistGradientBoostingRegressor, XGBRegressor, LGBMRegressor;
100 trees, fitted on 20,000 rows), N = 500,000 float64 rows x 30 features are explained in a fresh subprocess per call
(so that each peak is that call's own): the process's resident set is read just before the call and its peak during
the call is sampled every 5 ms by a thread (psutil; numba's and the libraries' native allocations, which tracemalloc does
not see, are counted), cross-checked by `resource.getrusage(...).ru_maxrss`. Reported per call: peak above the resident
set before it, minus the same for the model's own `predict` (the plain predict), against
* the result: the `values` array the call returns (500,000 x 30 float64 = 114 MiB; float32: 57 MiB) -- target <= 1.5x;
* the whole Explanation (values + bias + data) for reference.
Calls: `predict`, `contributions(..., dtype=float64)`, `contributions(..., dtype=float32)`, the same two with
`copy=False` (`f64view`, `f32view`: `e.data` is a read-only view of X, not the Explanation's own copy), `contribution_summary`
(whose result is a few KiB: there the whole peak above predict is reported). The first call on a model (additivity check
on every row) is the one measured: the numba kernels are compiled on 1,000 rows first.
Last run (2026-11-28, load 1.9-2.2; blocks of about 4 MiB of temporaries, Explanation's finiteness check by chunks),
peak above predict / values:
  float64, default copy:  RF 1.48x, HGB 2.04x, XGBoost 2.09x, LightGBM 2.06x (= the Explanation's own arrays, values + its
                          private copy of the rows, 1.00-1.03x)
  float64, copy=False:    RF 0.48x, HGB 1.04x, XGBoost 1.09x, LightGBM 1.06x  (target <= 1.5x: met)
  float32, copy=False:    RF -0.07x, HGB 1.05x, XGBoost 1.16x, LightGBM 1.10x (target <= 1.5x: met)
  (RF's own predict peaks 73 MiB above its start, the others 3-7 MiB: "above predict" subtracts it.)
Run: .venv/bin/python bench/summary_memory.py [--rows N] [--families rf,hgb,xgb,lgbm] [--calls predict,f64,f32,f64view,f32view,summary]
[--lib DIR: import deepforest_interp from DIR, e.g. a copy of the package before a change]
"""

import json, os, subprocess, sys, time

arg = lambda name, default: (
    type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default
)
MiB = 2**20


def _use_library(path):
    "Import deepforest_interp from another copy of the package (`--lib DIR`, e.g. the code before a change)."
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        'deepforest_interp', f'{path}/__init__.py', submodule_search_locations=[path]
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules['deepforest_interp'] = mod
    spec.loader.exec_module(mod)


def child(family, call, n):
    import resource, threading
    import numpy as np
    import psutil

    rng = np.random.default_rng(0)
    K = 30
    Xtr = rng.normal(size=(20_000, K))
    ytr = Xtr[:, 0] * Xtr[:, 1] + np.sin(Xtr[:, 2]) + 0.1 * rng.normal(size=20_000)
    if family == 'rf':
        from sklearn.ensemble import RandomForestRegressor

        m = RandomForestRegressor(100, max_depth=10, random_state=0, n_jobs=2)
    elif family == 'hgb':
        from sklearn.ensemble import HistGradientBoostingRegressor

        m = HistGradientBoostingRegressor(max_iter=100, random_state=0)
    elif family == 'xgb':
        from xgboost import XGBRegressor

        m = XGBRegressor(n_estimators=100, max_depth=6, n_jobs=2)
    else:
        from lightgbm import LGBMRegressor

        m = LGBMRegressor(n_estimators=100, verbose=-1, n_jobs=2)
    m.fit(Xtr, ytr)
    from deepforest_interp.tree_contributions import contributions, contribution_summary
    from deepforest_interp.adapters import clear_node_tables

    X = rng.normal(size=(n, K))
    fn = {
        'predict': lambda: m.predict(X),
        'f64': lambda: contributions(m, X, dtype=np.float64),
        'f32': lambda: contributions(m, X, dtype=np.float32),
        'f64view': lambda: contributions(m, X, dtype=np.float64, copy=False),
        'f32view': lambda: contributions(m, X, dtype=np.float32, copy=False),
        'summary': lambda: contribution_summary(m, X),
    }[call]
    # compile the kernels, then forget the model's table: the measured call is a first call
    contributions(m, X[:1000], check_additivity=False)
    try:
        contribution_summary(m, X[:1000])
    except TypeError:  # an older copy of the package (--lib) that refuses the family
        pass
    clear_node_tables()
    import gc

    gc.collect()
    proc = psutil.Process()
    before = proc.memory_info().rss
    peak, stop = [before], threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss)
            time.sleep(0.005)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    t0 = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t0
    stop.set()
    t.join()
    peak[0] = max(peak[0], proc.memory_info().rss)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    values = getattr(out, 'values', None)
    res = dict(
        family=family,
        call=call,
        seconds=dt,
        above=peak[0] - before,
        above_maxrss=max(0, maxrss - before),
        values=0 if values is None or call == 'summary' else values.nbytes,
        explanation=0
        if call in ('predict', 'summary')
        else sum(
            a.nbytes
            for a in (out.values, out.bias, out.data)
            if isinstance(a, np.ndarray) and not np.shares_memory(a, X)
        ),
        data_is_X=bool(
            call not in ('predict', 'summary') and np.shares_memory(out.data, X)
        ),
    )
    print('RESULT ' + json.dumps(res), flush=True)


def main():
    n = arg('--rows', 500_000)
    fams = arg('--families', 'rf,hgb,xgb,lgbm').split(',')
    calls = arg('--calls', 'predict,f64,f32,f64view,f32view,summary').split(',')
    print(f'{n:,} x 30 float64 rows; load average {os.getloadavg()[0]:.2f}', flush=True)
    for fam in fams:
        got = {}
        for call in calls:
            env = dict(os.environ, OMP_NUM_THREADS='2')
            lib = ['--lib', arg('--lib', '')] if '--lib' in sys.argv else []
            p = subprocess.run(
                [sys.executable, __file__, '--child', fam, call, str(n)] + lib,
                capture_output=True,
                text=True,
                env=env,
            )
            line = [x for x in p.stdout.splitlines() if x.startswith('RESULT ')]
            if not line:
                print(f'[{fam}] {call} failed:\n{p.stderr[-2000:]}', flush=True)
                continue
            got[call] = r = json.loads(line[0][7:])
        base = got.get('predict', {}).get('above', 0)
        for call, r in got.items():
            extra = r['above'] - base if call != 'predict' else r['above']
            msg = f'[{fam}] {call:8s} {r["seconds"]:6.2f}s  peak above the rss before the call {r["above"] / MiB:7.1f} MiB (ru_maxrss {r["above_maxrss"] / MiB:7.1f})'
            if call not in ('predict', 'summary'):
                ratio = extra / r['values']
                msg += (
                    f'; above predict {extra / MiB:7.1f} MiB = {ratio:.2f}x the values ({r["values"] / MiB:.0f} MiB; '
                    f'target <= 1.5x: {"met" if ratio <= 1.5 else "NOT met"}), {extra / max(r["explanation"], 1):.2f}x the '
                    f"Explanation's own arrays ({r['explanation'] / MiB:.0f} MiB{'; data is X itself' if r['data_is_X'] else ''})"
                )
            elif call == 'summary':
                msg += f'; above predict {extra / MiB:7.1f} MiB (the result: a 30 x 1 frame)'
            print(msg, flush=True)
    print(f'load average after: {os.getloadavg()[0]:.2f}', flush=True)


if __name__ == '__main__':
    if '--child' in sys.argv:
        if '--lib' in sys.argv:
            _use_library(arg('--lib', ''))
        i = sys.argv.index('--child')
        child(sys.argv[i + 1], sys.argv[i + 2], int(sys.argv[i + 3]))
    else:
        main()
