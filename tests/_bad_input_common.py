"Shared pieces of the bad-input tables (see test_bad_input.py)."

from dataclasses import dataclass
from typing import Any, Callable
import numpy as np
import pandas as pd


@dataclass
class Bad:
    id: str  # short name of the case, e.g. 'contributions/nan-X'
    call: Callable[[], Any]  # the call that must fail
    exc: Any  # expected exception type (or tuple of types)
    fragment: str  # text the message must contain (case-insensitive)
    argument: str | None = None  # the argument the message must name (round four on)


@dataclass
class Edge:
    id: str
    call: Callable[[], Any]  # the call that must succeed
    check: Callable[[Any], bool] = lambda out: True  # the identity it promises


def all_finite(out) -> bool:
    "True when every numeric array inside `out` (Explanation, Series, DataFrame, ndarray, tuple/list/dict) is finite."
    if out is None or isinstance(out, (str, bytes)):
        return True
    if isinstance(out, (pd.Series, pd.DataFrame)):
        num = (
            out.select_dtypes('number')
            if isinstance(out, pd.DataFrame)
            else (out if out.dtype.kind in 'biuf' else None)
        )
        return (
            True
            if num is None
            else bool(np.isfinite(np.asarray(num, dtype=float)).all())
        )
    if isinstance(out, np.ndarray):
        return True if out.dtype.kind not in 'biufc' else bool(np.isfinite(out).all())
    if isinstance(out, (list, tuple)):
        return all(all_finite(o) for o in out)
    if isinstance(out, dict):
        return all(all_finite(o) for o in out.values())
    if isinstance(out, (int, float, np.number)):
        return bool(np.isfinite(out))
    if hasattr(out, 'values') and hasattr(out, 'bias'):
        return all_finite(np.asarray(out.values)) and all_finite(np.asarray(out.bias))
    return True
