"Bad-input table: saved explanations, tables and DF21 exports (issue 41): one message per bad file, labels kept exactly."

import copy, io, os, pathlib, tempfile
import numpy as np
import pandas as pd
from _bad_input_common import Bad, Edge
from deepforest_interp.explanation import Explanation
from deepforest_interp.df21 import from_df21, load_export

DIR = pathlib.Path(tempfile.mkdtemp(prefix='dfi-bad-files-'))
LABELS = np.array([['01', 1.0, 'nan'], ['2.50', 2.0, 'inf']], dtype=object)
E = Explanation(
    np.arange(6.0).reshape(2, 3), np.ones(2), ['a', 'b', 'c'], LABELS, info={'k': 1}
)
E3 = Explanation(  # class labels as a classifier's classes_ gives them
    np.zeros((2, 3, 2)),
    np.zeros((2, 2)),
    ['a', 'b', 'c'],
    output_names=[np.int64(1), np.int64(2)],
)
E.save(DIR / 'good.npz')
(DIR / 'table.csv').write_text('a,b\n1,2\n')
np.save(DIR / 'one.npy', np.zeros(3))
(DIR / 'sub').mkdir()


def _tampered(name: str, **changes) -> pathlib.Path:
    "A copy of good.npz with members replaced (None: removed)."
    with np.load(DIR / 'good.npz') as z:
        a = {k: z[k] for k in z.files}
    for k, v in changes.items():
        a.pop(k) if v is None else a.__setitem__(k, v)
    np.savez(
        DIR / name, **a
    )  # an object member is pickled by numpy: load must refuse it
    return DIR / name


def _same(a: Explanation, b: Explanation) -> bool:
    "Values, bias, names and data equal, labels as the same strings."
    data = lambda e: (
        None if e.data is None else [[(type(v), v) for v in r] for r in e.data.tolist()]
    )
    return (
        np.array_equal(a.values, b.values)
        and np.array_equal(a.bias, b.bias)
        and a.feature_names == b.feature_names
        and str(data(a)) == str(data(b))
        and [(type(v), v) for v in a.output_names or []]
        == [(type(v), v) for v in b.output_names or []]
    )


def _saved_as_named():
    E.save(DIR / 'expl')  # no suffix: kept as given, as pandas and joblib do
    return sorted(os.listdir(DIR)), Explanation.load(DIR / 'expl')


def _failed_save_keeps_old():
    before = (DIR / 'good.npz').read_bytes()
    bad = Explanation(
        np.zeros((2, 3)), np.zeros(2), ['a', 'b', 'c'], info={'x': object()}
    )
    try:
        bad.save(DIR / 'good.npz')
    except TypeError:
        pass
    return (DIR / 'good.npz').read_bytes() == before and not any(
        f.endswith('.partial') for f in os.listdir(DIR)
    )


def _via_bytes(e: Explanation) -> Explanation:
    "save to / load from an open binary file (io.BytesIO), as numpy's own savez allows."
    buf = io.BytesIO()
    e.save(buf)
    buf.seek(0)
    return Explanation.load(buf)


def _frame(e: Explanation, **cells) -> pd.DataFrame:
    "e.to_frame() with some cells of row 0 replaced."
    f = e.to_frame().astype({c: object for c in cells})
    for c, v in cells.items():
        f.loc[0, c] = v
    return f


def _parquet(e: Explanation) -> Explanation:
    e.to_frame().to_parquet(DIR / 't.parquet')
    return Explanation.from_frame(pd.read_parquet(DIR / 't.parquet'))


EX, DATA, _ = load_export(pathlib.Path(__file__).parent / 'data/df21/wine_cascade.npz')
XT, YT = DATA['X_train'], DATA['y_train']
M21 = from_df21(EX, XT, YT)


def _export(**changes) -> dict:
    "A copy of the wine export with arrays / meta fields changed (a function of the copy)."
    e = {k: np.array(v) for k, v in EX.items() if k != 'meta'}
    e['meta'] = copy.deepcopy(EX['meta'])
    for k, f in changes.items():
        f(e)
    return e


def _self_child(e):
    e['node_children'][e['tree_node_offsets'][0] + 1, 0] = 1  # node 1 is its own child


BAD = [
    Bad(
        'save/directory',
        lambda: E.save(DIR / 'sub'),
        ValueError,
        'is a directory',
        'path',
    ),
    Bad(
        'save/no-directory',
        lambda: E.save(DIR / 'no' / 'x.npz'),
        FileNotFoundError,
        'does not exist',
        'path',
    ),
    Bad('save/not-a-path', lambda: E.save(3), TypeError, 'file name', 'path'),
    Bad(
        'load/csv',
        lambda: Explanation.load(DIR / 'table.csv'),
        ValueError,
        'not an Explanation file',
        'path',
    ),
    Bad(
        'load/npy',
        lambda: Explanation.load(DIR / 'one.npy'),
        ValueError,
        'not an Explanation file',
        'path',
    ),
    Bad(
        'load/missing',
        lambda: Explanation.load(DIR / 'none.npz'),
        FileNotFoundError,
        'no such file',
        'path',
    ),
    Bad(
        'load/meta-not-json',
        lambda: Explanation.load(_tampered('m.npz', meta=np.array('{'))),
        ValueError,
        "damaged Explanation file: member 'meta'",
        'path',
    ),
    Bad(
        'load/no-values',
        lambda: Explanation.load(_tampered('v.npz', values=None)),
        ValueError,
        "member 'values' is missing",
        'path',
    ),
    Bad(
        'load/text-values',
        lambda: Explanation.load(_tampered('t.npz', values=np.array([['x'] * 3] * 2))),
        ValueError,
        "member 'values'",
        'path',
    ),
    Bad(
        'load/pickled-member',
        lambda: Explanation.load(
            _tampered('p.npz', bias=np.array([{}, {}], dtype=object))
        ),
        ValueError,
        "member 'bias' cannot be read",
        'path',
    ),
    Bad(
        'load/bias-shape',
        lambda: Explanation.load(_tampered('s.npz', bias=np.ones(5))),
        ValueError,
        'damaged Explanation file',
        'path',
    ),
    Bad(
        'load/directory',
        lambda: Explanation.load(DIR / 'sub'),
        ValueError,
        'is a directory',
        'path',
    ),
    Bad(
        'df21/text-X_train',
        lambda: from_df21(EX, XT.astype(str).astype(object) + 'a', YT),
        TypeError,
        'must hold numbers',
        'X_train',
    ),
    Bad('load/not-a-path', lambda: Explanation.load(3), TypeError, 'file name', 'path'),
    Bad(
        'from_frame/two-biases',
        lambda: Explanation.from_frame(_frame(E, bias=9.0)),
        ValueError,
        "column 'bias' differs",
        'df',
    ),
    Bad(
        'from_frame/blank',
        lambda: Explanation.from_frame(_frame(E, contribution=np.nan)),
        ValueError,
        "column 'contribution' has 1 blank",
        'df',
    ),
    Bad(
        'from_frame/n-a',
        lambda: Explanation.from_frame(_frame(E, contribution='n/a')),
        ValueError,
        "column 'contribution' must hold numbers",
        'df',
    ),
    Bad(
        'from_frame/bias-n-a',
        lambda: Explanation.from_frame(_frame(E, bias='n/a')),
        ValueError,
        "column 'bias' must hold numbers",
        'df',
    ),
    Bad(
        'df21/own-child',
        lambda: from_df21(_export(f=_self_child), XT, YT),
        ValueError,
        'tree 0 is not a tree',
        'model_or_export',
    ),
    Bad(
        'df21/no-children',
        lambda: from_df21(_export(f=lambda e: e.pop('node_children')), XT, YT),
        ValueError,
        "'node_children' is missing",
        'model_or_export',
    ),
    Bad(
        'df21/child-range',
        lambda: from_df21(
            _export(f=lambda e: e['node_children'].__setitem__((0, 0), 10**6)), XT, YT
        ),
        ValueError,
        'child index beyond',
        'model_or_export',
    ),
    Bad(
        'df21/feature-range',
        lambda: from_df21(
            _export(f=lambda e: e['node_feature'].__setitem__(0, 99)), XT, YT
        ),
        ValueError,
        'splits on a column beyond',
        'model_or_export',
    ),
    Bad(
        'df21/leaf-value-cut',
        lambda: from_df21(
            _export(f=lambda e: e.__setitem__('leaf_value', e['leaf_value'][:-5])),
            XT,
            YT,
        ),
        ValueError,
        'leaf_value',
        'model_or_export',
    ),
    Bad(
        'df21/bin-offsets-cut',
        lambda: from_df21(
            _export(f=lambda e: e.__setitem__('bin_offsets', e['bin_offsets'][:-2])),
            XT,
            YT,
        ),
        ValueError,
        'bin_offsets',
        'model_or_export',
    ),
    Bad(
        'df21/tree-seed-cut',
        lambda: from_df21(
            _export(f=lambda e: e.__setitem__('tree_seed', e['tree_seed'][:-2])), XT, YT
        ),
        ValueError,
        'tree_seed',
        'model_or_export',
    ),
    Bad(
        'df21/meta-no-forests',
        lambda: from_df21(_export(f=lambda e: e['meta'].pop('forests')), XT, YT),
        ValueError,
        "meta has no 'forests'",
        'model_or_export',
    ),
    Bad(
        'df21/explanation-file',
        lambda: from_df21(str(DIR / 'good.npz'), XT, YT),
        ValueError,
        'not a DF21 export',
        'model_or_export',
    ),
    Bad(
        'df21/leaf_tol-negative',
        lambda: from_df21(EX, XT, YT, leaf_tol=-1),
        ValueError,
        '>= 0',
        'leaf_tol',
    ),
    Bad(
        'df21/leaf_tol-str',
        lambda: from_df21(EX, XT, YT, leaf_tol='tight'),
        TypeError,
        'a number',
        'leaf_tol',
    ),
    Bad(
        'df21/leaf_tol-nan',
        lambda: from_df21(EX, XT, YT[::-1], leaf_tol=float('nan')),
        ValueError,
        '>= 0',
        'leaf_tol',
    ),
    Bad(
        'df21/duplicate-names',
        lambda: from_df21(EX, XT, YT, feature_names=['a'] * 13),
        ValueError,
        'duplicate names',
        'feature_names',
    ),
    Bad(
        'load_export/explanation-file',
        lambda: load_export(DIR / 'good.npz'),
        ValueError,
        'not a DF21 export',
    ),
]

EDGE = [
    Edge(
        'save/name-kept',
        _saved_as_named,
        lambda r: 'expl' in r[0] and 'expl.npz' not in r[0] and _same(r[1], E),
    ),
    Edge('save/failed-keeps-old-file', _failed_save_keeps_old, lambda ok: ok),
    Edge(
        'load/labels-stay-strings',
        lambda: Explanation.load(DIR / 'good.npz'),
        lambda e: _same(e, E),
    ),
    Edge('from_frame/labels-via-parquet', lambda: _parquet(E), lambda e: _same(e, E)),
    Edge(
        'save/numpy-class-labels',
        lambda: (E3.save(DIR / 'o.npz'), Explanation.load(DIR / 'o.npz'))[1],
        lambda e: _same(e, E3),
    ),
    Edge('from_frame/numpy-class-labels', lambda: _parquet(E3), lambda e: _same(e, E3)),
    Edge(
        'df21/predictor_copies-numpy-int',
        lambda: from_df21(EX, XT, YT, predictor_copies=np.int64(2)),
        lambda m: m.n_layers_ == 3,
    ),
    Edge(
        'copy/df21-cascade',
        lambda: copy.copy(M21).predict_proba(XT),
        lambda p: np.array_equal(p, M21.predict_proba(XT)),
    ),
    Edge('save/open-binary-file', lambda: _via_bytes(E), lambda e: _same(e, E)),
]
