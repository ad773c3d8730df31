"""The derivation index (nbs/derivations.ipynb, built by tools/derivations.py): every symbol it names imports and is
checked somewhere."""

import sys
from pathlib import Path
import pytest
import deepforest_interp as dfi

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'tools'))
from derivations import ITEMS, derivation_index, parse_tags, resolve_symbol  # noqa: E402


@pytest.fixture(scope='module')
def index():
    return derivation_index(with_report=True)


def test_package_face():
    "The root exports only what users call (<= 90 names) and no module is shadowed by a function."
    import importlib, pkgutil, types

    assert len(dfi.__all__) <= 90 and len(set(dfi.__all__)) == len(dfi.__all__)
    assert all(hasattr(dfi, n) for n in dfi.__all__)
    for m in pkgutil.iter_modules(dfi.__path__):
        if m.name.startswith('_'):
            continue
        mod = importlib.import_module(f'deepforest_interp.{m.name}')
        assert isinstance(getattr(dfi, m.name, mod), types.ModuleType), m.name
        exec(f'import deepforest_interp.{m.name} as _m', (g := {}))
        assert isinstance(g['_m'], types.ModuleType), m.name
    # a module named like a call is callable as that function (issue 45): dfi.forest_floor(m, X)
    for name, fn in dfi.CALLABLE_MODULES.items():
        assert callable(getattr(dfi, name)) and isinstance(
            getattr(dfi, name), types.ModuleType
        )
        assert getattr(dfi, name).__class__.__call__.__doc__.startswith(
            f'`{name}(...)` is `{fn}'
        )
    for helper in [
        'is_full',
        'md_table',
        'check_X',
        'derivation_index',
        'run_repetitions',
    ]:
        assert helper not in dfi.__all__
    assert not hasattr(
        dfi, 'derivations'
    )  # a repository tool (tools/derivations.py), not shipped
    with pytest.raises(ImportError):
        importlib.import_module('deepforest_interp.derivations')


def test_one_row_per_item(index):
    df, _ = index
    assert list(df.columns) == [
        'seed',
        'label',
        'title',
        'symbol',
        'notebook',
        'checks',
    ]
    assert len(df) == len(ITEMS) and not df.duplicated(['seed', 'label']).any()
    assert set(df.seed) == {'000', '001', '002', '003', '004'}


def test_every_named_symbol_imports_and_every_item_has_a_tagged_check(index):
    "Each numbered item that is not notation is asserted by a notebook cell or test tagged `# check: seed NNN <label>`."
    df, _ = index
    named = df[df.symbol.ne('') & df.symbol.ne('notation')]
    for sym in sorted(set(named.symbol)):
        resolve_symbol(sym)  # raises ImportError / AttributeError
    unchecked = named[named.checks.eq('')]
    assert unchecked.empty, (
        'numbered items without a cell or test tagged `# check: seed NNN <label>`:\n'
        + unchecked[['seed', 'label', 'symbol', 'notebook']].to_string()
    )
    assert named.notebook.ne('').all()
    assert df.symbol.ne('').all(), df.loc[
        df.symbol.eq(''), ['seed', 'label']
    ].to_string()


def test_check_places_exist(index):
    "Every place a check tag names is a real notebook cell or test function."
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    df, _ = index
    for places in df.checks[df.checks.ne('')]:
        for p in places.split('; '):
            if p.startswith('nbs/'):
                path, cid = p.split('#')
                assert cid in {
                    c.get('id') for c in json.loads((root / path).read_text())['cells']
                }, p
            else:
                path, fn = p.split('::')
                assert f'def {fn}(' in (root / path).read_text(), p


def test_tags_cite_real_items(index):
    "A docstring tag citing an item the seed does not have (e.g. a typo `Eq. 123`) is a problem."
    _, problems = index
    assert not [p for p in problems if 'not a numbered item' in p], problems


@pytest.mark.parametrize(
    'doc,seed,expected',
    [
        ('(paper Eq. 13-14)', '000', [('000', 'Eq. 13', 2), ('000', 'Eq. 14', 2)]),
        ('(seed 004 Algorithm 1)', None, [('004', 'Algorithm 1', 1)]),
        ('(paper Proposition 1)', '000', [('000', 'Proposition 1', 1)]),
        ('Eq. 5 outside a tag', '000', []),
        ('(paper Sec. 5.2)', '004', []),
    ],
)
def test_parse_tags(doc, seed, expected):
    assert parse_tags(doc, seed) == expected


def test_resolve_symbol_bad_input():
    with pytest.raises(TypeError, match='symbol must be a non-empty dotted path'):
        resolve_symbol(3)
    with pytest.raises(ImportError, match='has no'):
        resolve_symbol('deepforest_interp.core.no_such_thing')
    assert (
        resolve_symbol('deepforest_interp.core.Explanation.output')
        is dfi.Explanation.output
    )


def test_beyond_seeds_index():
    "Every equation the course numbers with a letter (S1, O2, B3, ...) is listed; each function citing it imports and is run."
    import json, re
    from derivations import beyond_seeds_index

    df = beyond_seeds_index()
    nbs = Path(__file__).resolve().parents[1] / 'nbs'
    tagged = set()
    for p in nbs.glob('[01]*.ipynb'):
        for c in json.loads(p.read_text())['cells']:
            if c['cell_type'] == 'markdown':
                for t in re.findall(
                    r'\\tag\{\s*([A-Z][A-Za-z]?\d*)\s*\}', ''.join(c['source'])
                ):
                    tagged.add((p.stem, t))
    assert tagged == set(zip(df.notebook, df.label))
    assert {'S1', 'S9', 'O1', 'O3'} <= set(df.label)
    for r in df.itertuples():
        for sym in filter(None, r.symbols.split('; ')):
            resolve_symbol(sym)
        assert not r.symbols or r.run_in_notebook or r.tests, r.label
