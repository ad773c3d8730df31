"""The derivation index (the page nbs/derivations.ipynb): every numbered equation, algorithm and proposition of the
papers, the function that implements it, the notebook that derives it and the cells or tests that check it -- built from
the code, not typed by hand.

A repository tool, not part of the package: it reads the checkout's nbs/ and tests/ (and the installed package's
_modidx.py and docstrings). Import it with tools/ on sys.path, as nbs/derivations.ipynb, tests/test_derivations.py and
tools/build_site.py do:

    sys.path.insert(0, 'tools'); from derivations import derivation_index
"""

import importlib, inspect, json, re
from pathlib import Path
import pandas as pd

# (seed, label, title with $math$, fallback): fallback = 'notation', a dotted symbol
# when no tag places it, or None
ITEMS = [
    (
        '000',
        'Eq. 1',
        r'decision rule of a node: IF $x^{(j)} \lessgtr s$ THEN response',
        'notation',
    ),
    (
        '000',
        'Eq. 2',
        r'tree prediction = root mean + local increments along the path',
        None,
    ),
    (
        '000',
        'Eq. 3',
        (
            r'tree prediction = bias + per-feature contributions, $f(x) = \mu_0 +'
            r' \sum_k f_k(x)$'
        ),
        None,
    ),
    ('000', 'Eq. 4', r'contribution $f_k(x)$ of feature $k$ to a tree', None),
    ('000', 'Eq. 5', r'forest prediction = bias + per-feature contributions', None),
    ('000', 'Eq. 6', r'forest contribution = mean of the tree contributions', None),
    ('000', 'Eq. 7', r'MDI of feature $k$ in a tree', None),
    ('000', 'Eq. 8', r'impurity decrease $\Delta(s,t)$ of a split', None),
    (
        '000',
        'Eq. 9',
        r'impurity of a node: $\frac{1}{n(t)}\sum_{i \in t}(y_i-\mu(t))^2$',
        None,
    ),
    ('000', 'Eq. 10', r'MDI of a forest = mean over trees', None),
    ('000', 'Eq. 11', r'additive decomposition $f(x) = \mu_0 + \sum_k f_k(x)$', None),
    ('000', 'Eq. 12', r'additive decomposition per class', None),
    ('000', 'Eq. 13', r'MDI of a tree = $\mathrm{Cov}(f_k(X), Y)$', None),
    (
        '000',
        'Eq. 14',
        r'MDI of a forest = $\mathrm{Cov}(f_k(X), Y)$ of its contributions',
        None,
    ),
    (
        '000',
        'Eq. 15',
        r'estimated increment $\hat\Delta\mu$ of a new-feature split',
        'deepforest_interp.estimation.estimated_increments',
    ),
    ('000', 'Eq. 16', r'estimated increment attributed to original feature $k$', None),
    (
        '000',
        'Eq. 17',
        r'estimated increment = sum of its per-feature parts',
        'deepforest_interp.estimation.estimated_increments',
    ),
    (
        '000',
        'Eq. 18',
        r'true increment of the split, $\mu(t_i) - \mu(t_{i-1})$',
        'deepforest_interp.calibration.deep_forest_contributions',
    ),
    (
        '000',
        'Eq. 19',
        r'calibration map $g$ of the estimated increments',
        'deepforest_interp.calibration.deep_forest_contributions',
    ),
    (
        '000',
        'Eq. 20',
        r'calibrated increments add up to the true increment',
        'deepforest_interp.calibration.deep_forest_contributions',
    ),
    (
        '000',
        'Eq. 21',
        r'calibrated tree decomposition',
        'deepforest_interp.calibration.deep_forest_contributions',
    ),
    (
        '000',
        'Eq. 22',
        r'calibrated contribution of feature $k$ to a tree',
        'deepforest_interp.calibration.deep_forest_contributions',
    ),
    ('000', 'Eq. 23', r'multiplicative calibration', None),
    ('000', 'Eq. 24', r'naive additive calibration', None),
    (
        '000',
        'Eq. 25',
        r'features whose estimate agrees in sign with the increment',
        None,
    ),
    ('000', 'Eq. 26', r'partial additive calibration', None),
    (
        '000',
        'Algorithm 1',
        r'feature contributions of a tree in a later cascade layer',
        None,
    ),
    ('000', 'Eq. 27', r'calibrated forest decomposition', None),
    ('000', 'Eq. 28', r'calibrated forest contribution = mean over trees', None),
    ('000', 'Eq. 29', r'deep-forest (layer) decomposition', None),
    ('000', 'Eq. 30', r'layer contribution = mean over forests', None),
    (
        '000',
        'Eq. 31',
        r'MDI(DF): covariance of deep-forest contributions with $y$',
        None,
    ),
    (
        '000',
        'Proposition 1',
        r'$\sum_k$ MDI(DF)$_k$ = the last layer\'s MDI over all its features',
        'deepforest_interp.calibration.deep_forest_mdi',
    ),
    (
        '000',
        'Eq. 32',
        r'the identity of Proposition 1',
        'deepforest_interp.calibration.deep_forest_mdi',
    ),
    (
        '000',
        'Eq. 33',
        r'proof of Proposition 1, one last-layer forest',
        'deepforest_interp.calibration.deep_forest_mdi',
    ),
    (
        '000',
        'Eq. 34',
        r'sin-cos regression data',
        'deepforest_interp.datasets.make_sin_cos',
    ),
    (
        '000',
        'Eq. 35',
        r'linear-sum regression data',
        'deepforest_interp.datasets.make_linear_sum',
    ),
    ('001', 'Eq. 1', r'decision rule in signed-index notation with thresholds', None),
    ('001', 'Algorithm 1', r'generalized Random Intersection Trees (gRIT)', None),
    ('001', 'Eq. 2', r'bootstrap stability score of an interaction', None),
    ('001', 'Eq. 3', r'Activated Linear Combination (ALC) feature', None),
    (
        '001',
        'Algorithm 2',
        r'High-order Interaction Deep Forest (hiDF)',
        'deepforest_interp.hidf.HiDFClassifier',
    ),
    (
        '002',
        'PI^(t)',
        r'out-of-bag permutation importance $PI^{(t)}(X_j)$ in tree $t$',
        'deepforest_interp.importance.oob_permutation_importance',
    ),
    (
        '002',
        'PI',
        r'permutation importance $PI(X_j)$, mean over trees',
        'deepforest_interp.importance.oob_permutation_importance',
    ),
    (
        '002',
        'z_j',
        r'$z_j = PI(X_j) / (\hat\sigma / \sqrt{n_{\rm tree}})$',
        'deepforest_interp.importance.oob_permutation_importance',
    ),
    (
        '002',
        'RI_i^(t)',
        r'weighted impurity reduction $RI_i^{(t)}$ of node $i$ in tree $t$',
        'deepforest_interp.importance.impurity_reductions',
    ),
    (
        '002',
        'FI_j^(t)',
        r"feature importance $FI_j^{(t)}$ in tree $t$ (scikit-learn's, normalised)",
        'deepforest_interp.importance.mdi',
    ),
    (
        '002',
        'FI_j',
        r'feature importance $FI_j$ of the forest, mean over trees',
        'deepforest_interp.importance.mdi',
    ),
    (
        '003',
        'Eq. 1',
        r'a regression model as a mapping $f_r: \mathcal{X} \to \hat{y}$',
        'notation',
    ),
    (
        '003',
        'Eq. 2',
        r'a probabilistic classifier as a mapping $f_c: \mathcal{X} \to \mathcal{P}$',
        'notation',
    ),
    (
        '003',
        'Eq. 3',
        r'the random-forest mapping to a $c$-dimensional prediction space',
        'notation',
    ),
    (
        '003',
        'LIdef',
        r'(Eq. 4) local increment $L$: node prediction minus parent prediction',
        'deepforest_interp.nodes.NodeTable.delta',
    ),
    (
        '003',
        'nodePredReg',
        r'(Eq. 5) node prediction (regression): mean in-bag target of the node',
        'notation',
    ),
    (
        '003',
        'nodePredClass',
        r'(Eq. 6) node prediction (classification): in-bag class frequencies',
        'notation',
    ),
    (
        '003',
        'Eq. 7',
        r'a node prediction as a point of the $(K-1)$-simplex',
        'notation',
    ),
    (
        '003',
        'nodePredClassSumToOne',
        r'(Eq. 8) class probabilities of a node sum to one',
        'notation',
    ),
    (
        '003',
        'LIclass',
        r'local increments of a classifier sum to zero over classes (Fig. LIclass)',
        'notation',
    ),
    (
        '003',
        'Eq. 9',
        r'ensemble prediction $\hat y_i$ = mean of the tree predictions',
        'deepforest_interp.adapters.model_output',
    ),
    (
        '003',
        'Eq. 10',
        (
            r'OOB cross-validated prediction $\tilde y_i$ = mean over the trees where'
            r' $i$ is out of bag'
        ),
        'deepforest_interp.forest_floor.oob_contributions',
    ),
    (
        '003',
        'Eq. 11',
        r'prediction = grand mean + mean sum of local increments (LIeq2)',
        'deepforest_interp.tree_contributions.contributions',
    ),
    (
        '003',
        'Eq. 12',
        r'OOB prediction from the OOB trees only (LIeq3)',
        'deepforest_interp.forest_floor.oob_contributions',
    ),
    (
        '003',
        'Eq. 13',
        (
            r'feature contributions $F_{il}$ over all trees (in bag), the scale of new'
            r' rows'
        ),
        'deepforest_interp.forest_floor.heldout_contributions',
    ),
    (
        '003',
        'Eq. 14',
        (
            r'OOB cross-validated feature contributions $\tilde F_{il}$ incl. the'
            r' bootstrap increment (FCoob)'
        ),
        'deepforest_interp.forest_floor.oob_contributions',
    ),
    (
        '003',
        'Eq. 15',
        r'OOB prediction = bias + bootstrap + $\sum_l \tilde F_{il}$',
        None,
    ),
    (
        '003',
        'Eq. 16',
        r'prediction = bias + bootstrap increment + $\sum_l F_{il}$',
        'deepforest_interp.forest_floor.heldout_contributions',
    ),
    (
        '003',
        'Eq. 17',
        r'goodness-of-visualization: leave-one-out $R^2$ of a kNN fit',
        'deepforest_interp.forest_floor.goodness_of_visualization',
    ),
    ('004', 'Eq. 1', r'Gini impurity', 'notation'),
    ('004', 'Eq. 2', r'random-forest prediction = mean of the trees', 'notation'),
    (
        '004',
        'Eq. 3',
        r'node importance = weighted Gini decrease',
        'deepforest_interp.importance.impurity_reductions',
    ),
    (
        '004',
        'Eq. 4',
        r'Gini decrease of a split',
        'deepforest_interp.importance.impurity_reductions',
    ),
    (
        '004',
        'Eq. 5',
        r'Gini importance of a feature, summed over nodes and trees',
        'deepforest_interp.importance.mdi',
    ),
    (
        '004',
        'Eq. 6',
        r'SSFI node importance $\frac{1}{1+\alpha^{-d}}\,|s - f|$ on the decision path',
        None,
    ),
    ('004', 'Eq. 7', r'SSFI of a sample: sum over its paths and trees', None),
    ('004', 'Algorithm 1', r'leave-one-out SSFI protocol', None),
    (
        '004',
        'Eq. 8',
        r'$R^2$ as the squared correlation of predictions and targets',
        'notation',
    ),
    ('004', 'Eq. 9', r'accuracy', 'notation'),
]

MODULE_SEED = {
    'core': '000',
    'rows': '000',
    'explanation': '000',
    'nodes': '000',
    'adapters': '000',
    'walkers': '000',
    'datasets': '000',
    'tree_contributions': '000',
    'importance': '000',
    'cascade': '000',
    'estimation': '000',
    'calibration': '000',
    'intersection_trees': '001',
    'alc_hidf': '001',
    'hidf': '001',
    'forest_floor': '003',
    'forest_floor_plots': '003',
    'single_sample': '004',
}

_TOKEN = (
    r'\(|\)|\bpaper\b|\bseed (\d{3})\b|`([^`]+)`|'
    r'\b(Eq|Eqs|Algorithm|Alg|Proposition|Prop|Definition)\.?\s*\(?(\d+)\)?'
    r'(?:\s*[-\u2013]\s*\(?(\d+)\)?)?'
)  # compiled on first use (import stays cheap)
_KIND = {
    'Eq': 'Eq.',
    'Eqs': 'Eq.',
    'Algorithm': 'Algorithm',
    'Alg': 'Algorithm',
    'Proposition': 'Proposition',
    'Prop': 'Proposition',
    'Definition': 'Definition',
}


def parse_tags(
    doc: str,  # a docstring
    # what `paper` means in this module (None: `paper` tags are skipped)
    seed: str | None = None,
) -> list:  # [(seed, label, span)] with span = number of items the tag's range covers
    "Items cited in `doc` by `(paper ...)` / `(seed NNN ...)` tags, ranges expanded."
    out, stack = [], []  # stack of (depth, seed) contexts opened by a tag
    depth = 0
    named = {
        l.split('^')[0].split('_')[0]: l
        for s, l, *_ in ITEMS
        if s in ('002', '003') and not l.startswith('Eq')
    }
    for m in re.finditer(_TOKEN, doc or ''):
        tok = m.group(0)
        if tok == '(':
            depth += 1
            continue
        if tok == ')':
            while stack and stack[-1][0] >= depth:
                stack.pop()
            depth = max(depth - 1, 0)
            continue
        if tok == 'paper':
            if seed:
                stack.append((depth, seed))
            continue
        if m.group(1):
            stack.append((depth, m.group(1)))
            continue
        if not stack:
            continue
        ctx = stack[-1][1]
        if m.group(2):  # a back-quoted formula name
            exact = {l for s_, l, *_ in ITEMS if s_ == ctx}
            lab = (
                m.group(2)
                if m.group(2) in exact
                else named.get(m.group(2).split('^')[0].split('_')[0])
            )
            if lab and any(s == ctx and l == lab for s, l, *_ in ITEMS):
                out.append((ctx, lab, 1))
            continue
        kind, a, b = _KIND[m.group(3)], int(m.group(4)), int(m.group(5) or m.group(4))
        if kind != 'Eq.':
            b = a
        for n in range(a, max(a, b) + 1):
            out.append((ctx, f'{kind} {n}', b - a + 1))
    return out


def _root() -> Path:
    "The checkout holding nbs/ and tests/ (this file is its tools/derivations.py)."
    return Path(__file__).resolve().parents[1]


def _symbols() -> dict:
    "{dotted symbol: (module short name, notebook stem, docstring)} for every public exported symbol."
    # the notebook comes from the generated module's header ("File to edit:
    # ../nbs/02_tree_contributions.ipynb")
    from deepforest_interp._modidx import d

    out = {}
    for mod, syms in d['syms'].items():
        short = mod.rsplit('.', 1)[1]
        try:
            m = importlib.import_module(mod)
        except Exception:
            continue
        head = Path(m.__file__).read_text(errors='replace')[:3000]
        src = re.search(r'File to edit: \.\./\S*?([^/\s]+)\.ipynb', head)
        nb = src.group(1) if src else ''
        for sym in syms:
            name = sym[len(mod) + 1 :]
            if any(p.startswith('_') for p in name.split('.')):
                continue
            obj = m
            try:
                for p in name.split('.'):
                    obj = getattr(obj, p)
            except AttributeError:
                continue
            doc = (
                inspect.getdoc(obj)
                if inspect.isroutine(obj)
                or inspect.isclass(obj)
                or isinstance(obj, property)
                else None
            )
            out[sym] = (short, nb, doc or '')
    return out


# patterns, compiled (and cached by `re`) on first use
_DEF = r'(?m)^(?:def|class)\s+([A-Za-z]\w*)'
_TAG = r'\\tag\{\s*(\d+)\s*\}'
_EXPORT = r'(?m)^\s*#\s*\|\s*export'


def _notebooks() -> dict:
    "{notebook stem: (module short name or None, cells)} for the notebooks in nbs/ (empty when not in a checkout)."
    out = {}
    for p in sorted((_root() / 'nbs').glob('*.ipynb')):
        if p.name.startswith(('_', '.')):
            continue
        cells = json.loads(p.read_text()).get('cells', [])
        src = [''.join(c.get('source', '')) for c in cells]
        m = re.search(r'#\s*\|\s*default_exp\s+(\S+)', src[0]) if src else None
        out[p.stem] = (m.group(1).split('.')[-1] if m else None, cells)
    return out


def rhythm_tags() -> list:
    "[(seed, label, dotted symbol)] from `\\tag{N}` cells directly above an exported definition."
    out = []
    for stem, (mod, cells) in _notebooks().items():
        seed = MODULE_SEED.get(mod)
        if not seed:
            continue
        for a, b in zip(cells, cells[1:]):
            if a['cell_type'] != 'markdown' or b['cell_type'] != 'code':
                continue
            src = ''.join(b['source'])
            if not re.search(_EXPORT, src):
                continue
            names = [n for n in re.findall(_DEF, src)]
            for n in re.findall(_TAG, ''.join(a['source'])):
                for name in names[:1]:
                    out.append((seed, f'Eq. {n}', f'deepforest_interp.{mod}.{name}'))
    return out


_CHECK = r'(?m)^[ \t]*#[ \t]*check:[ \t]*(.+)$'


def find_checks() -> dict:
    "{(seed, label): [place, ...]} of every notebook cell and test function tagged `# check: seed NNN <label>`."
    out = {}

    def add(text, place):
        for tag in re.findall(_CHECK, text):
            for seed, label, _ in parse_tags(f'({tag})'):
                out.setdefault((seed, label), [])
                if place not in out[(seed, label)]:
                    out[(seed, label)].append(place)

    for stem, (_, cells) in _notebooks().items():
        if stem == 'derivations':
            continue
        for c in cells:
            if c['cell_type'] == 'code':
                add(''.join(c['source']), f'nbs/{stem}.ipynb#{c.get("id", "")}')
    for p in sorted((_root() / 'tests').glob('test_*.py')):
        if p.name == 'test_derivations.py':
            continue
        # a tag just above a test (before its decorators) belongs to it
        fn, pending = None, []
        for line in p.read_text().splitlines():
            m = re.match(r'(?:async\s+)?def\s+(\w+)', line)
            if m:
                fn = m.group(1) if m.group(1).startswith('test') else None
                if fn:
                    [add(t, f'tests/{p.name}::{fn}') for t in pending]
                pending = []
            elif re.match(r'#', line) and re.search(_CHECK, line):
                pending.append(line.strip())
                fn = None
            elif re.match(r'[^\s#@)\]]', line):
                fn, pending = None, []
            elif fn and re.search(_CHECK, line):
                add(line.strip(), f'tests/{p.name}::{fn}')
    return out


def derivation_index(
    # also return the list of problems (unplaced or unchecked items, unknown tags)
    with_report: bool = False,
    # seed, label, title, symbol, notebook, checks: one row per numbered item of the
    # seeds
) -> pd.DataFrame:
    """The derivation index:

    every numbered item of seeds 000-004, its implementing symbol, notebook and tagged
    checks."""
    syms = _symbols()
    cands, unknown = {}, []
    known = {(s, l) for s, l, *_ in ITEMS}
    for sym, (mod, nb, doc) in syms.items():
        for pos, (seed, label, span) in enumerate(
            parse_tags(doc, MODULE_SEED.get(mod))
        ):
            if (seed, label) in known:
                cands.setdefault((seed, label), []).append((span, pos > 0, sym))
            else:
                unknown.append(
                    f'{sym} cites seed {seed} {label}, which is not a numbered item of'
                    ' that seed'
                )
    rhythm = {}
    for seed, label, sym in rhythm_tags():
        if (seed, label) in known and sym in syms:
            rhythm.setdefault((seed, label), sym)
    checks, rows, problems = find_checks(), [], list(dict.fromkeys(unknown))
    problems += [
        f'a check tag cites seed {s} {l}, which is not a numbered item'
        for s, l in checks
        if (s, l) not in known
    ]
    short = {}
    for sym in syms:
        short.setdefault(sym.rsplit('.', 1)[1], sym)
    for seed, label, title, fallback in ITEMS:
        # the symbol moved to another module
        if fallback and fallback != 'notation' and fallback not in syms:
            fallback = short.get(fallback.rsplit('.', 1)[1], fallback)
        c = cands.get((seed, label))
        if c:
            symbol = min(
                c,
                key=lambda t: (
                    t[0],
                    t[1],
                    t[2].endswith('_reference'),
                    t[2].rsplit('.', 1)[1].startswith('plot_'),
                    t[2] != fallback,
                ),
            )[2]
        elif fallback:
            symbol = fallback
        elif (seed, label) in rhythm:
            symbol = rhythm[(seed, label)]
        else:
            symbol = ''
            problems.append(
                f'seed {seed} {label} ({title}): no docstring tag, no \\tag cell above'
                ' an export, no fallback'
            )
        nb = syms[symbol][1] if symbol in syms else ''
        found = checks.get((seed, label), [])
        if symbol and symbol != 'notation' and not found:
            problems.append(
                f'seed {seed} {label} ({title}): no cell or test tagged `# check: seed'
                f' {seed} {label}`'
            )
        rows.append(
            dict(
                seed=seed,
                label=label,
                title=title,
                symbol=symbol,
                notebook=nb,
                checks='; '.join(found),
            )
        )
    df = pd.DataFrame(
        rows, columns=['seed', 'label', 'title', 'symbol', 'notebook', 'checks']
    )
    return (df, problems) if with_report else df


def resolve_symbol(symbol: str):
    "Import a dotted path such as 'deepforest_interp.core.Explanation.output' (the longest importable module first)."
    if not isinstance(symbol, str) or not symbol:
        raise TypeError(
            'symbol must be a non-empty dotted path string, got'
            f' {type(symbol).__name__} {symbol!r}'
        )
    parts = symbol.split('.')
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            try:
                obj = getattr(obj, p)
            except AttributeError:
                raise ImportError(
                    f'cannot import {symbol}: {".".join(parts[:i])} has no {p!r}'
                ) from None
        return obj
    raise ImportError(f'cannot import {symbol}')


def _equation_pages() -> dict:
    "{(seed, 'Eq. N'): notebook stem} for the first notebook of a seed whose markdown numbers Eq. N with `\\tag{N}`."
    out = {}
    for stem, (mod, cells) in _notebooks().items():
        seed = MODULE_SEED.get(mod)
        if not seed:
            continue
        for c in cells:
            if c['cell_type'] == 'markdown':
                for n in re.findall(_TAG, ''.join(c['source'])):
                    out.setdefault((seed, f'Eq. {n}'), stem)
    return out


def derivation_index_markdown(df: pd.DataFrame | None = None) -> str:
    "The index as markdown tables, one per seed, linking labels to equations, symbols to code and checks to cells."
    df = derivation_index() if df is None else df
    names = {
        '000': (
            'He, Lyu and Jiang (2023): interpreting deep forest (feature contribution,'
            ' MDI)'
        ),
        '001': 'Chen, Lyu and Jiang (2021): hiDF, high-order interactions',
        '002': 'mlcourse.ai: feature importance (named formulas)',
        '003': 'Welling et al. (2016): forest floor',
        '004': 'Gatto et al. (2019): single sample feature importance (SSFI)',
    }
    eqs = _equation_pages()

    def a(href, text):
        return f'<a href="{href}">{text}</a>'

    def place(p):
        if p.startswith('nbs/'):
            stem, cid = p[4:].split('.ipynb#')
            return a(f'{stem}.html#check-{cid}', stem)
        return f'<code>{p.split("/", 1)[1]}</code>'

    out = []
    for seed, g in df.groupby('seed', sort=True):
        out += [
            f'### {names.get(seed, "")}',
            '',
            '| item | what | implemented by | checked in |',
            '|---|---|---|---|',
        ]
        for r in g.itertuples():
            lab = (
                a(f'{eqs[(seed, r.label)]}.html#eq-{r.label[4:]}', r.label)
                if (seed, r.label) in eqs
                else r.label
            )
            name = r.symbol.split('.', 2)[-1]
            sym = {'': '*not placed*', 'notation': '*notation*'}.get(r.symbol) or (
                a(f'{r.notebook}.html#def-{name.split(".")[0]}', f'<code>{name}</code>')
                if r.notebook
                else f'<code>{name}</code>'
            )
            checks = ', '.join(place(p) for p in r.checks.split('; ') if p) or (
                '' if r.symbol == 'notation' else '**none**'
            )
            out.append(f'| {lab} | {r.title.replace("|", "/")} | {sym} | {checks} |')
        out.append('')
    return '\n'.join(out)


_OWN_TAG = r'\\tag\{\s*([A-Z][A-Za-z]?\d*)\s*\}'

# Where the derivations beyond the seeds come from (the notebook's own references name them in full).
BEYOND_SOURCES = {
    '01c_boosting': "gradient boosting read as a sum of trees (Friedman 2001; the libraries' own formats)",
    '02b_tree_shap': 'Shapley (1953); Lundberg, Erion and Lee (2018); Lundberg et al. (2020)',
    '02d_orderings': 'Saabas (2014) and Shapley values as orderings; Lundberg, Erion and Lee (2018)',
    '03b_joint_contributions': 'joint contributions along decision paths (this course)',
    '03c_mdi_plus': 'Agarwal et al. (2023): MDI+',
    '07b_alc_hidf': 'Chen, Lyu and Jiang (2021): ALC features, derived here in full',
}


def beyond_seeds_index() -> pd.DataFrame:
    """The equations the course derives beyond the five seeds (tags with a letter, `\\tag{S1}`): one row per tag with
    the notebook that numbers it, the public functions of that notebook's module whose docstrings cite it
    (`Eq. S2`, `Eq. (S5)-(S6)`, `Eq. B1-B3`), the notebook cells that run them and the tests that call them."""
    syms = _symbols()
    nbs = _notebooks()
    tests = {
        p.name: p.read_text()
        for p in sorted((_root() / 'tests').glob('test_*.py'))
        if p.name != 'test_derivations.py'
    }
    cite = r'Eq\.?\s*\(?([A-Z])(\d+)\)?(?:\s*[-\u2013]\s*\(?[A-Z]?(\d+)\)?)?'
    rows = []
    for stem, (mod, cells) in nbs.items():
        if not mod:
            continue
        labels = []
        for c in cells:
            if c['cell_type'] == 'markdown':
                labels += [
                    t
                    for t in re.findall(_OWN_TAG, ''.join(c['source']))
                    if t not in labels
                ]
        if not labels:
            continue
        cited = {}
        for sym, (m, nb, doc) in syms.items():
            if m != mod or sym.count('.') > 2:  # functions and classes, not methods
                continue
            for letter, lo, hi in re.findall(cite, doc or ''):
                for n in range(int(lo), int(hi or lo) + 1):
                    cited.setdefault(f'{letter}{n}', []).append(sym)
        runs = [
            ''.join(c['source'])
            for c in cells
            if c['cell_type'] == 'code' and not re.search(_EXPORT, ''.join(c['source']))
        ]
        for t in labels:
            impl = list(dict.fromkeys(cited.get(t, [])))
            names = [x.rsplit('.', 1)[1] for x in impl]
            rows.append(
                dict(
                    notebook=stem,
                    label=t,
                    symbols='; '.join(impl),
                    run_in_notebook=any(
                        re.search(rf'\b{n}\(', r) for n in names for r in runs
                    )
                    or any(re.search(rf'Eq\.?\s*\(?{t}\)?(?!\d)', r) for r in runs),
                    tests='; '.join(
                        f
                        for f, txt in tests.items()
                        if any(re.search(rf'\b{n}\b', txt) for n in names)
                    ),
                )
            )
    return pd.DataFrame(
        rows, columns=['notebook', 'label', 'symbols', 'run_in_notebook', 'tests']
    )


def beyond_seeds_markdown(df: pd.DataFrame | None = None) -> str:
    "The beyond-the-seeds index as a markdown table: label, source, the functions citing it, where they are run."
    df = beyond_seeds_index() if df is None else df
    out = [
        '### Beyond the seeds',
        '',
        'Equations the course derives itself, numbered with a letter (`S1`, `O2`, ...) in the notebook that derives'
        ' them; the functions are those whose docstrings cite the equation, checked in the notebook cells that run them'
        ' and in the tests that call them. An equation no function cites is a step of a derivation.',
        '',
        '| equation | notebook (source) | implemented by | checked in |',
        '|---|---|---|---|',
    ]
    for r in df.itertuples():
        impl = ', '.join(
            f'<a href="{r.notebook}.html#def-{n}"><code>{n}</code></a>'
            for n in (x.rsplit('.', 1)[1] for x in r.symbols.split('; ') if x)
        )
        where = (
            [f'<a href="{r.notebook}.html">{r.notebook}</a>']
            if r.run_in_notebook
            else []
        ) + [f'<code>{t}</code>' for t in r.tests.split('; ') if t]
        src = BEYOND_SOURCES.get(r.notebook, '')
        out.append(
            f'| <a href="{r.notebook}.html#eq-{r.label}">{r.label}</a> | <a href="{r.notebook}.html">{r.notebook}</a>'
            f' ({src}) | {impl or "*derivation step*"} | {", ".join(where) or ("**none**" if impl else "")} |'
        )
    return '\n'.join(out) + '\n'


def show_derivation_index():
    "Display the index as markdown (in a notebook, and as the page of the course site)."
    from IPython.display import Markdown, display

    display(Markdown(derivation_index_markdown() + '\n' + beyond_seeds_markdown()))
