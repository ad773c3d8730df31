"Timing helper shared by the bench scripts (run as `python bench/<script>.py`, which puts bench/ on the import path)."

import statistics, time


def interleaved(fns: dict, reps: int) -> dict:
    "Median seconds of each function over `reps` rounds, the functions called in turn in every round (load hits all alike), after one warm-up each."
    for fn in fns.values():
        fn()
    ts = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            t = time.perf_counter()
            fn()
            ts[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in ts.items()}
