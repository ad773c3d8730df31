"""`nbdev_test` for `make test`: the same notebooks, flags and workers, with a line per notebook as it finishes.

Two things differ from calling `nbdev_test` directly:

1. Progress: each notebook prints `[k/N] name: seconds` when it completes (nbdev prints nothing until the end).
2. No idle wait at the end: a notebook that runs joblib's process backend leaves loky's reusable executor
   alive in the nbdev worker process, and that process cannot exit until loky's workers reach their idle
   timeout (300 s). Shutting the executor down after each notebook removed a five-minute wait from every run.

Usage: `python tools/nbtest.py [--n_workers 2] [nbdev_test options]`.
"""

import sys
import time
from pathlib import Path

import nbdev.test as _nbt

_original_test_nb = _nbt.test_nb


def _shutdown_loky():
    "Stop joblib's reusable process pool if this process started one."
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:
        return
    executor = getattr(reusable_executor, '_executor', None)
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)


def test_nb_with_progress(fn, *args, **kwargs):
    "nbdev's `test_nb`, then stop loky's pool and print the notebook's time."
    start = time.time()
    try:
        return _original_test_nb(fn, *args, **kwargs)
    finally:
        _shutdown_loky()
        print(f'  {fn.name}: {time.time() - start:.0f} s', flush=True)


if __name__ == '__main__':
    # By reference from an importable module: IPython replaces the workers' `__main__` once a notebook runs.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import nbtest

    _nbt.test_nb = nbtest.test_nb_with_progress
    print('nbdev_test: one line per notebook as it finishes', flush=True)
    start = time.time()
    sys.argv[0] = 'nbdev_test'
    try:
        _nbt.nbdev_test()
    finally:
        print(f'nbdev_test: {time.time() - start:.0f} s', flush=True)
