"Bad-input table: data generators and loaders (issue 11 §3)."

import numpy as np
from _bad_input_common import Bad, Edge
from deepforest_interp import datasets as ds

GENERATORS = [
    ds.make_sin_cos,
    ds.make_linear_sum,
    ds.make_three_class,
    ds.make_sim,
    ds.make_forest_floor_toy,
    ds.make_hidf_sphere,
]

BAD = [
    Bad(
        f'{g.__name__}/n_samples=0',
        (lambda g=g: g(0)),
        ValueError,
        'n_samples must be >= 1',
    )
    for g in GENERATORS
]
BAD += [
    Bad(
        f'{g.__name__}/n_samples=2.5',
        (lambda g=g: g(2.5)),
        TypeError,
        'n_samples must be an int',
    )
    for g in GENERATORS
]
BAD += [
    Bad(
        f'{g.__name__}/random_state=str',
        (lambda g=g: g(5, random_state='x')),
        TypeError,
        'random_state',
    )
    for g in GENERATORS
]
BAD += [
    Bad(
        'load_keel/unknown', lambda: ds.load_keel('phishing'), ValueError, 'valid names'
    ),
    Bad('load_keel/not-str', lambda: ds.load_keel(3), TypeError, 'name must be a str'),
    Bad(
        'load_bank_marketing/random_state<0',
        lambda: ds.load_bank_marketing(random_state=-1),
        ValueError,
        'random_state must be >= 0',
    ),
    Bad(
        'load_bank_marketing/random_state=float',
        lambda: ds.load_bank_marketing(random_state=0.5),
        TypeError,
        'random_state must be an int',
    ),
    Bad(
        'load_bank_marketing/test_size=0',
        lambda: ds.load_bank_marketing(test_size=0),
        ValueError,
        'test_size',
    ),
    Bad(
        'load_bank_marketing/test_size=1',
        lambda: ds.load_bank_marketing(test_size=1),
        ValueError,
        'test_size',
    ),
    Bad(
        'load_diabetes/scaled',
        lambda: ds.load_diabetes(scaled='yes'),
        TypeError,
        'scaled',
    ),
]


def _split_ok(out):
    Xtr, Xte, ytr, yte = out
    return (
        len(Xtr) == len(ytr)
        and len(Xte) == len(yte)
        and list(Xtr.columns) == list(Xte.columns)
    )


EDGE = [
    Edge(
        f'{g.__name__}/one-row',
        (lambda g=g: g(1, random_state=0)),
        lambda out: len(out[0]) == len(out[1]) == 1,
    )
    for g in GENERATORS
]
EDGE += [
    Edge(f'{f.__name__}/split', f, _split_ok)
    for f in (
        ds.load_adult,
        ds.load_statlog_satellite,
        ds.load_crowdsourced_mapping,
        ds.load_bank_marketing,
    )
]

# ---- round two (issue 16 §9) ----------------------------------------------------------------------------------------
BAD += [
    Bad(
        'make_sin_cos/noise=inf',
        lambda: ds.make_sin_cos(10, noise=np.inf),
        ValueError,
        'noise must be a finite number',
    ),
    Bad(
        'make_linear_sum/noise=inf',
        lambda: ds.make_linear_sum(10, noise=np.inf),
        ValueError,
        'noise must be a finite number',
    ),
    Bad(
        'make_sin_cos/noise=nan',
        lambda: ds.make_sin_cos(10, noise=np.nan),
        ValueError,
        'finite',
    ),
    Bad(
        'make_forest_floor_toy/cor-subnormal',
        lambda: ds.make_forest_floor_toy(10, cor=1e-320),
        ValueError,
        'too small',
    ),
    Bad(
        'make_forest_floor_toy/cor=0',
        lambda: ds.make_forest_floor_toy(10, cor=0.0),
        ValueError,
        'cor must be in (0, 1]',
    ),
]
EDGE += [
    Edge(
        'make_forest_floor_toy/cor=1e-200',
        lambda: ds.make_forest_floor_toy(10, cor=1e-200, random_state=0),
        lambda out: len(out[1]) == 10,
    )
]
