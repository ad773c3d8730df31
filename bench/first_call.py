"""Benchmark: time to a first explanation on a fresh install, ours against shap's.

Each measurement is a fresh Python process with an empty numba cache (NUMBA_CACHE_DIR set to a new temporary
directory), as after `pip install`: the process imports the library and fits a small RandomForestRegressor
(100 x 5 rows, 10 trees; not timed), then times
* import = `import deepforest_interp.tree_contributions` (shap: `import shap`);
* first  = the first `contributions(model, X)` (shap: `TreeExplainer(model)` + `shap_values(X, approximate=True)`,
  its Saabas mode, the same decomposition), numba's compilation included;
* second = the same call again (warm), for scale.
`--warm-cache` keeps one cache directory across the runs (the second and later sessions of a user).
Run: .venv/bin/python bench/first_call.py [--runs N] [--warm-cache]

Measured for issue 41 on 2 cores shared with other jobs (load average 7-8, so every absolute time is about twice
what a quiet machine shows; the sides ran in turn, so the ratios hold). "Before" is the library as of commit 78e1f21,
run with `cd /tmp && PYTHONPATH=<an export of that commit> python bench/first_call.py` (the working directory would
otherwise shadow it). Seconds, median of 3 fresh processes, two rounds:

| side | import | first call | total, round 1 | total, round 2 |
|---|---|---|---|---|
| ours, before (every first call compiled the parallel walk kernel) | 0.56 | 4.99 / 5.68 | 5.56 | 6.23 |
| ours, after (a one-thread call compiles the serial twin; notice on stderr) | 0.49 | 2.72 / 2.45 | 3.21 | 2.94 |
| shap (`import shap`; `TreeExplainer(model).shap_values(X, approximate=True)`) | 1.4-2.0 | 0.01 | 2.01 / 1.57 | 1.98 / 1.44 |

In one process at load ~3, compiling the walk kernel for a RandomForest took 0.84 s parallel and 0.47 s serial; what
is left of a first call is numba's own start-up (~0.3 s import, ~0.45 s target set-up), which a warm cache keeps.
"""

import json, os, statistics, subprocess, sys, tempfile

CHILD = r"""
import json, sys, time
import numpy as np
from sklearn.ensemble import RandomForestRegressor
rng = np.random.default_rng(0)
X = rng.normal(size=(100, 5))
model = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, X[:, 0] + X[:, 1] * X[:, 2])
t0 = time.perf_counter()
if sys.argv[1] == 'ours':
    from deepforest_interp.tree_contributions import contributions
    call = lambda: contributions(model, X)
else:
    import shap
    call = lambda: shap.TreeExplainer(model).shap_values(X, approximate=True)
t1 = time.perf_counter()
call()
t2 = time.perf_counter()
call()
t3 = time.perf_counter()
print(json.dumps({'import': t1 - t0, 'first': t2 - t1, 'second': t3 - t2}))
"""


def run(side: str, cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, '-c', CHILD, side],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(runs: int = 3, warm: bool = False) -> None:
    keep = tempfile.mkdtemp(prefix='dfi-numba-')
    res = {'ours': [], 'shap': []}
    for _ in range(
        runs
    ):  # the sides in turn, so that load from other processes hits both alike
        for side in res:
            res[side].append(
                run(side, keep if warm else tempfile.mkdtemp(prefix='dfi-numba-'))
            )
    print(
        f'time to a first explanation, median of {runs} fresh processes'
        f' ({"warm" if warm else "empty"} numba cache), seconds'
    )
    print(f'{"":6} {"import":>8} {"first":>8} {"total":>8} {"second (ms)":>12}')
    for side, rs in res.items():
        m = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
        print(
            f'{side:6} {m["import"]:8.2f} {m["first"]:8.2f} {m["import"] + m["first"]:8.2f} {m["second"] * 1e3:12.2f}'
        )


if __name__ == '__main__':
    runs = int(sys.argv[sys.argv.index('--runs') + 1]) if '--runs' in sys.argv else 3
    main(runs, '--warm-cache' in sys.argv)
