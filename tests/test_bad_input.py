"""Bad and edge inputs against the public API (issue 11 §3), table-driven.

Each area of the package keeps its table in `tests/_bad_input_<area>.py`:
* `BAD`: a list of `Bad(id, call, exc, fragment)`: calling `call()` must raise `exc` with `fragment` in the message
  (never an IndexError, AssertionError or a numba error from deep inside);
* `EDGE`: a list of `Edge(id, call, check)`: `call()` must succeed, its result must hold no NaN/inf, and `check(result)`
  (the identity the function promises, e.g. `bias + values.sum(1) == output`) must return True.
"""
import importlib, pathlib, warnings
import numpy as np
import pandas as pd
import pytest
from _bad_input_common import Bad, Edge, all_finite

AREAS = sorted(p.stem for p in pathlib.Path(__file__).parent.glob('_bad_input_*.py') if p.stem != '_bad_input_common')
BAD, EDGE = [], []
for area in AREAS:
    mod = importlib.import_module(area)
    BAD += [pytest.param(c, id=f"{area[11:]}:{c.id}") for c in getattr(mod, 'BAD', [])]
    EDGE += [pytest.param(c, id=f"{area[11:]}:{c.id}") for c in getattr(mod, 'EDGE', [])]

@pytest.mark.parametrize('case', BAD)
def test_bad_input_is_answered(case):
    with pytest.raises(case.exc) as info:
        case.call()
    assert case.fragment.lower() in str(info.value).lower(), f"message {str(info.value)!r} lacks {case.fragment!r}"
    assert not isinstance(info.value, (IndexError, AssertionError, KeyError)), type(info.value)

@pytest.mark.parametrize('case', EDGE)
def test_edge_input_is_finite_and_exact(case):
    out = case.call()
    assert all_finite(out), f"non-finite output for {case.id}"
    assert case.check(out), f"identity fails for {case.id}"
