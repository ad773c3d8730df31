"""Benchmark: explanations beyond memory and beyond one machine (issue 18 §2-3).

(A) dask: a random forest (100 trees, max_depth=12, 20 features, fitted on 20,000 rows) explains N rows that exist
    only on a 2-worker LocalCluster (one single-threaded worker process per core, `da.random` blocks of 250,000 rows,
    generated on the workers). Timed: `contribution_summary(model, X_dask)` (reduced on the cluster) and the lazy
    `contributions(model, X_dask).values` reduced to mean |.| per feature; worker start-up is not timed. Peak RSS per
    worker is sampled every 20 ms by a thread on each worker (target <= 2 GiB). Both results are checked against the
    in-memory computation on the first block to 1e-12.
(B) beyond memory, one process: `contribution_summary` of N x 100 float32 rows for a 10-class forest (100 trees,
    max_depth=12), batch by batch; peak RSS of the process sampled every 20 ms (target <= 1 GiB), with the size the full
    (N, 100, 10) float64 array would have had.
Default sizes are small for this busy 2-core machine: (A) N = 1,000,000, (B) N = 200,000. `--full`: (A) 10,000,000 and
(B) 1,000,000 (the issue's sizes). To run (A) on an existing cluster instead, pass `--scheduler tcp://HOST:8786`.
Run: .venv/bin/python bench/scale.py [--full] [--only A|B] [--scheduler ADDRESS]
"""

import sys, time, threading
import numpy as np

full = '--full' in sys.argv
only = sys.argv[sys.argv.index('--only') + 1] if '--only' in sys.argv else None
address = (
    sys.argv[sys.argv.index('--scheduler') + 1] if '--scheduler' in sys.argv else None
)
GiB = 2**30


class PeakRSS:
    "Sample this process's resident set size every `every` seconds in a daemon thread; `.peak` in bytes."

    def __init__(self, every=0.02):
        import psutil

        self.proc, self.every, self.peak, self._stop = (
            psutil.Process(),
            every,
            0,
            threading.Event(),
        )
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self.proc.memory_info().rss)
            time.sleep(self.every)

    def stop(self):
        self._stop.set()
        self._t.join()
        self.peak = max(self.peak, self.proc.memory_info().rss)
        return self.peak


def _start_monitor(dask_worker=None):
    "Run on a worker: start (or restart) its RSS sampler."
    import builtins

    m = getattr(builtins, '_scale_bench_rss', None)
    if m is not None:
        m.stop()
    builtins._scale_bench_rss = PeakRSS()


def _read_monitor(dask_worker=None):
    "Run on a worker: its peak RSS since the monitor started."
    import builtins

    return builtins._scale_bench_rss.stop()


def bench_dask():
    import dask.array as da
    from dask.distributed import Client, LocalCluster
    from sklearn.ensemble import RandomForestRegressor
    from deepforest_interp.tree_contributions import contributions, contribution_summary

    n, K, chunk = (10_000_000 if full else 1_000_000), 20, 250_000
    rng = np.random.default_rng(0)
    Xtr = rng.random((20_000, K))
    ytr = Xtr[:, 0] * Xtr[:, 1] + np.sin(6 * Xtr[:, 2]) + 0.1 * rng.normal(size=20_000)
    rf = RandomForestRegressor(
        n_estimators=100, max_depth=12, n_jobs=-1, random_state=0
    ).fit(Xtr, ytr)
    cluster = (
        None
        if address
        else LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            memory_limit='3GiB',
        )
    )
    client = Client(address or cluster)
    client.run(lambda: __import__('deepforest_interp.tree_contributions'))
    X = da.random.RandomState(1).random_sample(
        (n, K), chunks=(chunk, K)
    )  # generated on the workers
    contribution_summary(rf, X[:1000])  # warm-up: numba kernels load on each worker
    client.run(_start_monitor)
    t = time.perf_counter()
    s = contribution_summary(rf, X)
    t_sum = time.perf_counter() - t
    peak_sum = client.run(_read_monitor)
    client.run(_start_monitor)
    t = time.perf_counter()
    lazy = (
        abs(contributions(rf, X, check_additivity=False).values).mean(axis=0).compute()
    )
    t_lazy = time.perf_counter() - t
    peak_lazy = client.run(_read_monitor)
    x0 = X.blocks[0].compute()  # check against the in-memory path
    s0, s0d = contribution_summary(rf, x0), contribution_summary(rf, X.blocks[0])
    err = max(
        float(np.abs(s0.mean_abs - s0d.mean_abs).to_numpy().max()),
        float(np.abs(s.mean_abs.to_numpy()[:, 0] - lazy).max()),
    )
    assert err <= 1e-12, err
    client.close()
    if cluster is not None:
        cluster.close()
    where = address or '2-worker LocalCluster (1 thread each)'
    for what, t, peak in [
        ('contribution_summary', t_sum, peak_sum),
        ('lazy contributions().values -> mean |.|', t_lazy, peak_lazy),
    ]:
        worst = max(peak.values())
        print(
            f'(A) {n:,} x {K} rows, RF100 depth 12, {where}: {what} {t:.1f}s ({n / t:,.0f} rows/s); peak RSS per worker '
            + ', '.join(f'{v / GiB:.2f}' for v in peak.values())
            + f' GiB ({"met" if worst <= 2 * GiB else "NOT met"} <= 2 GiB)',
            flush=True,
        )
    print(
        f'(A) max |dask - in-memory| {err:.1e} (first block; summary vs lazy values on all rows)',
        flush=True,
    )


def bench_memory():
    from sklearn.ensemble import RandomForestClassifier
    from deepforest_interp.tree_contributions import contribution_summary

    n, K, C = (1_000_000 if full else 200_000), 100, 10
    rng = np.random.default_rng(0)
    Xtr = rng.standard_normal((20_000, K), dtype=np.float32)
    ytr = np.digitize(
        Xtr[:, :3].sum(1) + 0.3 * rng.standard_normal(20_000),
        np.quantile(Xtr[:, :3].sum(1), np.linspace(0.1, 0.9, C - 1)),
    )
    rf = RandomForestClassifier(
        n_estimators=100, max_depth=12, n_jobs=-1, random_state=0
    ).fit(Xtr, ytr)
    X = rng.standard_normal((n, K), dtype=np.float32)
    contribution_summary(rf, X[:100])  # warm-up (kernels, flattened forest)
    mon = PeakRSS()
    t = time.perf_counter()
    s = contribution_summary(rf, X)
    dt = time.perf_counter() - t
    peak = mon.stop()
    full_array = n * K * C * 8
    print(
        f'(B) {n:,} x {K} float32 rows, {C} classes, RF100 depth 12, one process: contribution_summary {dt:.1f}s; peak RSS '
        f'{peak / GiB:.2f} GiB ({"met" if peak <= GiB else "NOT met"} <= 1 GiB; X itself {X.nbytes / GiB:.2f} GiB) -- the full '
        f'(n, K, C) float64 array would be {full_array / GiB:.2f} GiB; n = {s.n:,}',
        flush=True,
    )


if __name__ == '__main__':
    if only in (None, 'B'):
        bench_memory()
    if only in (None, 'A'):
        bench_dask()
