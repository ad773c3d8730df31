"""Benchmark: experiment repetitions in one process vs on a dask LocalCluster (issue 9 §1).

The same `run_repetitions` call, nothing stored (store=False), once in-process (n_jobs=1) and once with
`scheduler='local'` (LocalCluster, one single-threaded worker process per core). Each repetition is a real seed 000
Table 3 repetition on `sim` (random-forest columns: MDI, MDI-oob; 1000 rows), deterministic given its seed. Prints the
wall times, the speed-up and checks that the two result tables are identical. Worker start-up is included in the dask
time (that is what a user waits for). The ideal speed-up on this 2-core machine is 2x.
Run: .venv/bin/python bench/dask_repetitions.py [--reps N] [--workers W] [--trees T]
"""

import os, sys, time
from deepforest_interp.experiments import run_repetitions


def sim_repetition(rep, n_rows, n_trees):
    "One seed 000 Table 3 repetition on sim with the random-forest columns (AUC of MDI and MDI-oob)."
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.metrics import roc_auc_score
    from deepforest_interp.datasets import make_sim
    from deepforest_interp.importance import mdi, mdi_oob

    X, y, rel = make_sim(n_rows, random_state=rep, return_relevant=True)
    rf = RandomForestClassifier(n_estimators=n_trees, random_state=rep, n_jobs=1).fit(
        X, y
    )
    truth = X.columns.isin(rel).astype(int)
    return {
        'MDI(RF)': roc_auc_score(truth, mdi(rf)),
        'MDI-oob(RF)': roc_auc_score(truth, mdi_oob(rf, X, y)),
    }


if __name__ == '__main__':
    reps = int(sys.argv[sys.argv.index('--reps') + 1]) if '--reps' in sys.argv else 8
    workers = (
        int(sys.argv[sys.argv.index('--workers') + 1])
        if '--workers' in sys.argv
        else (os.cpu_count() or 1)
    )
    trees = (
        int(sys.argv[sys.argv.index('--trees') + 1]) if '--trees' in sys.argv else 1000
    )
    tasks = [dict(rep=r, n_rows=1000, n_trees=trees) for r in range(reps)]
    sim_repetition(**tasks[0])  # warm-up (imports, JIT) in this process
    t = time.perf_counter()
    one = run_repetitions(sim_repetition, tasks, slug='bench', store=False, n_jobs=1)
    t_one = time.perf_counter() - t
    from dask.distributed import LocalCluster, Client

    t = time.perf_counter()
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=':0',
        ) as c,
        Client(c) as cl,
    ):
        cl.run(lambda: __import__('deepforest_interp'))
    t_start = time.perf_counter() - t
    t = time.perf_counter()
    many = run_repetitions(
        sim_repetition,
        tasks,
        slug='bench',
        store=False,
        scheduler='local',
        n_workers=workers,
    )
    t_dask = time.perf_counter() - t
    same = (
        one.sort_values('rep')
        .reset_index(drop=True)
        .equals(many.sort_values('rep').reset_index(drop=True))
    )
    print(
        f'{reps} repetitions: one process {t_one:.1f}s, dask LocalCluster ({workers} worker processes, start-up included) '
        f'{t_dask:.1f}s -> speed-up {t_one / t_dask:.2f}x (ideal {workers}x; starting a cluster and importing the package on its '
        f'workers alone takes {t_start:.1f}s); results identical: {same}',
        flush=True,
    )
    if not same:
        sys.exit('results differ between the two backends')
