"""`make site`: the static HTML course in _site/ (Sphinx + MyST-NB, the engine of Jupyter Book 1), never re-executing.

1. Stage the notebooks into _cache/site_src/ in teaching order: index, the concept notebooks 00-09, the experiment
   notebooks (the executed copy in _out/ from `make reproduce` when present, else the stored one), the derivation index.
   Staging drops `#| hide` / `#| default_exp` cells, strips the other `#|` directive lines, collapses exercise
   solutions (code cells whose first line is `# Solution`) behind a "Show solution" toggle, and puts a link to the
   derivation index under the title of each notebook that implements equations.
2. `sphinx-build` with site/conf.py into _site/.
3. Copy MathJax 2.7 from the PyPI wheel `jupyter-server-mathjax` into _site/_static/mathjax (no CDN).
4. Refuse a page that loads a script or stylesheet over http(s).
"""

import json, re, shutil, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS, SRC, OUT = ROOT / 'nbs', ROOT / '_cache' / 'site_src', ROOT / '_site'
BUILD = (
    ROOT / '_cache' / 'site_build'
)  # myst-nb writes jupyter_execute/ next to Sphinx's output folder
DIRECTIVE = re.compile(r'^\s*#\s*\|\s*([\w-]+)\s*:?\s*(.*)$')
DROP = {'hide', 'default_exp'}
SOLUTION = re.compile(r'^\s*# Solution\s*$')
DERIV_NOTE = (
    '<div class="derivation-note">\n\nWhere each equation of this notebook is implemented and where it is '
    'checked: see the [derivation index](derivations.ipynb).\n\n</div>'
)
DISPLAY_MATH = re.compile(r'[ \t]*\n?[ \t]*\$\$(.+?)\$\$[ \t]*\n?', re.S)
REMOVE_MIME = ('application/vnd.jupyter.widget-view+json',)


# The concept pages in the order of the landing page's student path (nbs/index.ipynb): 02d (what an explanation means)
# before 02c (its plots), and 03c (MDI+, a debiased MDI) before 03b (joint contributions, which lead to interactions)
TEACHING_ORDER = ['02', '02b', '02d', '02c', '03', '03c', '03b']


def teaching_key(stem: str):
    "Sort key of a concept page: its number, with the pages of TEACHING_ORDER in that order among themselves."
    num = stem.split('_', 1)[0]
    if num in TEACHING_ORDER:
        return (TEACHING_ORDER[0], TEACHING_ORDER.index(num), stem)
    return (num, 0, stem)


def pages():
    "(section caption, [notebook stems]) in teaching order."
    stems = sorted(
        p.stem for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.'))
    )
    concept = sorted(
        (
            s
            for s in stems
            if re.match(r'0\d', s) and 'experiments' not in s and not s.startswith('00')
        ),
        key=teaching_key,
    )
    exper = [s for s in stems if 'experiments' in s]
    first = [s for s in ['derivations'] if s in stems] + [
        s for s in stems if s.startswith('00')
    ]  # the index first; the core notebooks (00, 00a-00e) are the appendix
    rest = first + [s for s in stems if s not in concept + exper + first + ['index']]
    return [
        ('Concepts: one derivation per notebook', concept),
        ("Experiments: the papers' figures and tables", exper + [RESULTS]),
        ('Reference', rest),
    ]


RESULTS = 'results'  # the claims table and every experiment's results, a page built from figures/results.md
FIGURES = ROOT / 'figures'


def page_title(stem: str, title: str) -> str:
    "The numbered, capitalised title of a page in the sidebar and on the page: '02 · Tree feature contributions'."
    # no literal backticks in the sidebar; a name spelled with a small first letter (hiDF, gRIT) keeps it
    title = title.strip().replace('`', '')
    first = title.split(' ', 1)[0].rstrip(':,')
    if first.islower():
        title = title[:1].upper() + title[1:]
    num = re.match(r'(\d\d[a-z]?)_', stem)
    return f'{num.group(1)} · {title}' if num else title


def notebook_title(path: Path) -> str:
    "The first level-1 heading of a notebook (its stem when there is none)."
    for c in json.loads(path.read_text())['cells']:
        s = ''.join(c['source']).lstrip()
        if c['cell_type'] == 'markdown' and s.startswith('# '):
            return s.split('\n', 1)[0][2:]
    return path.stem


CLAIMS_OF = re.compile(r"write_claims\(\s*['\"]([\w-]+)['\"]")


def claims_summary(nb: dict) -> str:
    "The experiment's claims as a table for the top of its page (empty when the notebook writes none)."
    slugs = []
    for c in nb['cells']:
        if c['cell_type'] == 'code':
            slugs += [
                m for m in CLAIMS_OF.findall(''.join(c['source'])) if m not in slugs
            ]
    rows = [
        r
        for slug in slugs
        if (FIGURES / f'claims_{slug}.json').exists()
        for r in json.loads(
            (FIGURES / f'claims_{slug}.json').read_text(encoding='utf-8')
        )
    ]
    if not rows:
        return ''
    esc = lambda t: str(t).replace('|', '\\|').replace('\n', ' ')
    verdict = lambda v: (
        f'**{esc(v).split(":", 1)[0]}**'
        + (f': {esc(v).split(":", 1)[1].strip()}' if ':' in v else '')
    )
    counts = {}
    for r in rows:
        k = r['verdict'].split(':', 1)[0]
        counts[k] = counts.get(k, 0) + 1
    return (
        '<div class="claims-summary">\n\n**In brief: what the paper claims, and what we find.** '
        + ', '.join(f'{n} {k}' for k, n in counts.items())
        + f' ({len(rows)} claims). The statistic behind every verdict is in the [claims and results]({RESULTS}.md)'
        ' page; the protocol and its code follow below (code folded: "Show code").\n\n'
        '| claim | where | paper | ours | verdict |\n|---|---|---|---|---|\n'
        + '\n'.join(
            f'| {esc(r["claim"])} | {esc(r["where"])} | {esc(r["paper"])} | {esc(r["ours"])} | {verdict(r["verdict"])} |'
            for r in rows
        )
        + '\n\n</div>'
    )


def first_figure(nb: dict):
    "The first output cell holding a PNG (to show the page's figure beside its verdicts), or None."
    for c in nb['cells']:
        for o in c.get('outputs', []) if c['cell_type'] == 'code' else []:
            if 'image/png' in o.get('data', {}):
                return {
                    'cell_type': 'code',
                    'id': 'sitefig',
                    'execution_count': None,
                    'metadata': {'tags': ['remove-input']},
                    'outputs': [o],
                    'source': '',
                }
    return None


def _directives(src: str):
    "(directive names, source without the leading directive lines)."
    lines, names = src.split('\n'), set()
    while lines and DIRECTIVE.match(lines[0]):
        names.add(DIRECTIVE.match(lines[0]).group(1))
        lines.pop(0)
    return names, '\n'.join(lines)


def _display(m) -> str:
    r"""A display equation as its own block; a multi-line one with a \tag as an amsmath block (Sphinx would put it
    in a `split` environment, where MathJax refuses \tag)."""
    body = m.group(1)
    if '\\\\' in body and '\\tag' in body:
        return '\n\n\\begin{equation}\n' + body.strip() + '\n\\end{equation}\n\n'
    return '\n\n$$' + body + '$$\n\n'


CODE = re.compile(r'```.*?```|`[^`\n]*`', re.S)


def _outside_code(text: str, f) -> str:
    "Apply `f` to the markdown outside code fences and inline code spans."
    keep = []
    masked = CODE.sub(
        lambda m: keep.append(m.group(0)) or f'\x00{len(keep) - 1}\x00', text
    )
    return re.sub(r'\x00(\d+)\x00', lambda m: keep[int(m.group(1))], f(masked))


LONG = 30  # code lines: a longer exported definition is folded
TOPLEVEL = re.compile(
    r'^(?:@\w[\w.]*(?:\(.*\))?\s*\n)*(?:async\s+)?(def|class)\s+(\w+)', re.M
)
IMPORT_LINE = re.compile(r'^(?:from\s+\S+\s+)?import\s|^\s|^\)|^#')
CONSTANT = re.compile(r'^[A-Z_][A-Z0-9_]*\s*(?::[^=]+)?=')


def fold_reason(names: set, body: str):
    """Why a code cell is folded behind a toggle on the site (None: shown). Teaching code stays visible: the readable
    reference implementation of an equation, worked examples, checks and plots. Folded: an explicit `#| fold`; imports
    (also an import cell that sets a few module-level names); exported module constants;
    internal (`#| exporti`) and private (`_name`) definitions; numba kernels; validation (`check_*`) helpers; the
    experiment pages' report-writing functions."""
    lines = [l for l in body.split('\n') if l.strip()]
    if 'fold' in names:
        return 'implementation'
    if (
        lines
        and all(IMPORT_LINE.match(l) for l in lines)
        and any(l.startswith(('import', 'from')) for l in lines)
    ):
        return 'imports'
    defs = [m.group(2) for m in TOPLEVEL.finditer(body)]
    if (  # a module's import cell that also sets a few module-level names (prange, byte budgets)
        lines
        and not defs
        and lines[0].startswith(('import', 'from'))
        and sum(bool(IMPORT_LINE.match(l)) for l in lines) >= 0.6 * len(lines)
    ):
        return 'imports'
    if (  # exported module constants (settings of the implementation)
        lines
        and not defs
        and names & {'export', 'exports'}
        and all(CONSTANT.match(l) or IMPORT_LINE.match(l) for l in lines)
    ):
        return 'settings'
    if 'exporti' in names and defs:
        return 'implementation'
    if not defs:
        return None
    if re.search(
        r'@\s*(?:numba\.)?(?:njit|jit|vectorize)|\bKERNELS\b|LazyKernels', body
    ):
        return 'compiled kernel'
    if all(d.startswith('_') or d.startswith('check_') for d in defs):
        return 'implementation'
    if all(
        d.startswith(('write_', 'save_', 'fmt_', 'format_', 'report_')) for d in defs
    ):
        return 'report code'
    if (
        names & {'export', 'exports'}
        and len(lines) > LONG
        and not any('reference' in d for d in defs)
    ):
        return f'the implementation of {defs[0]}'  # the fast library version; its reference stays in view
    return None


DOWNLOAD = (
    '<div class="download-notebook"><a href="_static/notebooks/{name}" download="{name}">&#x2B07; Download this '
    'notebook</a> (<code>{name}</code>, with its outputs). To run it: in a clone of the repository, <code>make lab</code> '
    '(installs the package into <code>.venv</code> and opens JupyterLab in <code>nbs/</code>; elsewhere '
    '<code>pip install -e .</code> from the clone). Its stored explorers and figures show without running anything; '
    'JupyterLab may ask you to trust the notebook (File → Trust Notebook) before an explorer runs.</div>'
)


def stage_notebook(src: Path, dst: Path, note: bool):
    "Copy one notebook into the site sources, prepared for reading; the original goes to _static/notebooks/."
    (SRC / '_static' / 'notebooks').mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, SRC / '_static' / 'notebooks' / dst.name)
    nb = json.loads(src.read_text())
    experiment = 'experiments_' in dst.stem
    cells, has_title = [], False
    for c in nb['cells']:
        text = ''.join(c['source'])
        if c['cell_type'] == 'code':
            names, body = _directives(text)
            if names & DROP or 'nbdev_export()' in body and len(body) < 60:
                continue
            if not body.strip() and not c.get('outputs'):
                continue
            c['source'] = body
            if names & {'export', 'exports', 'exporti'}:
                c['_export'] = True
            md = {}
            if SOLUTION.match(body.split('\n', 1)[0]):
                md = {
                    'tags': ['hide-cell'],
                    'mystnb': {
                        'code_prompt_show': 'Show solution',
                        'code_prompt_hide': 'Hide solution',
                    },
                }
            elif 'echo' in names and re.search(r'#\s*\|\s*echo:\s*false', text):
                md = {'tags': ['remove-input']}
            elif experiment:  # an experiment page reads as a lesson: results first, protocol code folded
                md = {
                    'tags': ['hide-input'],
                    'mystnb': {
                        'code_prompt_show': 'Show code',
                        'code_prompt_hide': 'Hide code',
                    },
                }
            elif fold_reason(names, body):
                md = {
                    'tags': ['hide-input'],
                    'mystnb': {
                        'code_prompt_show': f'Show {fold_reason(names, body)}',
                        'code_prompt_hide': f'Hide {fold_reason(names, body)}',
                    },
                }
            c['metadata'] = md
            for o in c.get('outputs', []):
                for m in REMOVE_MIME:
                    o.get('data', {}).pop(m, None)
                if 'text/markdown' in o.get(
                    'data', {}
                ):  # show_doc's `---` rules: docutils refuses them in a cell
                    md = o['data']['text/markdown']
                    md = ''.join(md) if isinstance(md, list) else md
                    o['data']['text/markdown'] = re.sub(r'(?m)^---+\s*$', '<hr/>', md)
        elif c['cell_type'] == 'markdown':
            # MyST reads `$$...$$` inside a paragraph as inline math; Jupyter shows it as a display equation.
            c['source'] = _outside_code(
                text, lambda t: DISPLAY_MATH.sub(_display, t)
            ).strip()
        else:
            continue  # raw cells (e.g. skip_exec front matter) are not content
        is_title = (
            not has_title
            and c['cell_type'] == 'markdown'
            and text.lstrip().startswith('# ')
        )
        if is_title and dst.stem != 'index':
            head, _, rest = c['source'].lstrip().partition('\n')
            c['source'] = '# ' + page_title(dst.stem, head[2:]) + '\n' + rest
        later = None  # a title cell that goes on into its first section: the section after the page's lead
        if is_title and re.search(r'(?m)^#{2,6} ', c['source']):
            k = re.search(r'(?m)^#{2,6} ', c['source']).start()
            c['source'], later = c['source'][:k].rstrip(), c['source'][k:]
        cells.append(c)
        if is_title:
            extra = DOWNLOAD.format(name=dst.name) + (
                '\n\n' + DERIV_NOTE if note else ''
            )
            cells.append(
                {
                    'cell_type': 'markdown',
                    'id': 'siteder',
                    'metadata': {},
                    'source': extra,
                }
            )
            summary = claims_summary(nb) if experiment else ''
            if summary:
                cells.append(
                    {
                        'cell_type': 'markdown',
                        'id': 'siteclaims',
                        'metadata': {},
                        'source': summary,
                    }
                )
                fig = first_figure(nb)
                if fig:
                    cells.append(fig)
            if later:
                cells.append(
                    {
                        'cell_type': 'markdown',
                        'id': 'sitelater',
                        'metadata': {},
                        'source': later,
                    }
                )
            has_title = True
    nb['cells'] = _anchored(cells)
    nb.setdefault('metadata', {})['kernelspec'] = {
        'name': 'python3',
        'display_name': 'Python 3',
        'language': 'python',
    }
    dst.write_text(json.dumps(nb, indent=1, ensure_ascii=False))


def _fill_derivations(dst: Path):
    "If derivations.ipynb was committed without outputs, render its table with tools/derivations.py (the cell's output)."
    nb = json.loads(dst.read_text())
    changed = False
    for c in nb['cells']:
        if (
            c['cell_type'] == 'code'
            and not c.get('outputs')
            and 'show_derivation_index()' in c['source']
        ):
            sys.path.insert(0, str(ROOT / 'tools'))
            from derivations import beyond_seeds_markdown, derivation_index_markdown

            c['outputs'] = [
                {
                    'output_type': 'display_data',
                    'metadata': {},
                    'data': {
                        'text/markdown': derivation_index_markdown()
                        + '\n'
                        + beyond_seeds_markdown(),
                        'text/plain': '<index>',
                    },
                }
            ]
            changed = True
    if changed:
        dst.write_text(json.dumps(nb, indent=1, ensure_ascii=False))


CHECK_TAG = re.compile(r'(?m)^[ \t]*#[ \t]*check:')
PUBLIC_DEF = re.compile(r'(?m)^(?:def|class)\s+([A-Za-z]\w*)')
TAG_N = re.compile(r'\\tag\{\s*(\d+|[A-Z][A-Za-z]?\d*)\s*\}')


def _anchored(cells: list) -> list:
    """Anchors the derivation index links to: `eq-N` before the first markdown cell numbering Eq. N, `def-<name>` before
    the exported cell defining a public name, `check-<cell id>` before a cell tagged `# check: ...`."""
    out, seen = [], set()
    for c in cells:
        ids = []
        text = c['source'] if isinstance(c['source'], str) else ''.join(c['source'])
        if c['cell_type'] == 'markdown':
            ids += [f'eq-{n}' for n in TAG_N.findall(text)]
        elif c['cell_type'] == 'code':
            if c.get('_export'):
                ids += [f'def-{n}' for n in PUBLIC_DEF.findall(text)]
            if CHECK_TAG.search(text) and c.get('id'):
                ids.append(f'check-{c["id"]}')
        c.pop('_export', None)
        ids = [i for i in ids if i not in seen]
        seen.update(ids)
        if ids:
            out.append(
                {
                    'cell_type': 'markdown',
                    'id': f'anchor{len(out)}',
                    'metadata': {},
                    'source': ''.join(f'<span id="{i}"></span>' for i in ids),
                }
            )
        out.append(c)
    return out


def stage():
    if SRC.exists():
        shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    shutil.copy2(ROOT / 'site' / 'conf.py', SRC / 'conf.py')
    shutil.copytree(ROOT / 'site' / '_static', SRC / '_static')
    secs = pages()
    tagged = set()
    for p in NBS.glob('*.ipynb'):
        if re.search(r'\\\\tag\{', p.read_text()):
            tagged.add(p.stem)
    for _, stems in secs:
        for s in stems + ['index']:
            if s == RESULTS:
                stage_results()
                continue
            src = ROOT / '_out' / f'{s}.ipynb'
            src = src if 'experiments_' in s and src.exists() else NBS / f'{s}.ipynb'
            stage_notebook(
                src, SRC / f'{s}.ipynb', note=s in tagged and s != 'derivations'
            )
    if (SRC / 'derivations.ipynb').exists():
        _fill_derivations(SRC / 'derivations.ipynb')
    # the navigation: a hidden toctree per section at the end of the home page
    idx = json.loads((SRC / 'index.ipynb').read_text())
    for cap, stems in secs:
        if stems:
            toc = (
                '```{toctree}\n:hidden:\n:caption: '
                + cap
                + '\n\n'
                + '\n'.join(
                    f'{page_title(s, "Claims and results: every verdict with its statistic")} <{s}>'
                    if s == RESULTS
                    else f'{page_title(s, notebook_title(NBS / f"{s}.ipynb"))} <{s}>'
                    for s in stems
                )
                + '\n```'
            )
            idx['cells'].append(
                {
                    'cell_type': 'markdown',
                    'id': f'toc{len(idx["cells"])}',
                    'metadata': {},
                    'source': toc,
                }
            )
    for c in idx['cells']:  # the repository's results file is a page here
        for o in c.get('outputs', []):
            d = o.get('data', {})
            if 'text/markdown' in d:
                t = ''.join(d['text/markdown'])
                d['text/markdown'] = t.replace(
                    '](../figures/results.md)', f']({RESULTS}.md)'
                )
        if c['cell_type'] == 'markdown':
            src_ = ''.join(c['source'])
            c['source'] = src_.replace('](../figures/results.md)', f']({RESULTS}.md)')
    (SRC / 'index.ipynb').write_text(json.dumps(idx, indent=1, ensure_ascii=False))


CLAIMS_HEAD = '| seed | claim | where | paper | ours | statistic | verdict |'


def fit_claims_table(md: str) -> str:
    """The claims table of results.md in five columns that fit the page's column: seed and place go under the claim, the
    verdict comes before the statistic, and cells wrap (`div.claims-table`, a fixed layout in course.css)."""
    lines, out, i = md.split('\n'), [], 0
    while i < len(lines):
        if lines[i].strip() != CLAIMS_HEAD:
            out.append(lines[i])
            i += 1
            continue
        out += [
            '<div class="claims-table">',
            '',
            '| claim | paper | ours | verdict | statistic |',
            '|---|---|---|---|---|',
        ]
        i += 2  # the header and its rule
        while i < len(lines) and lines[i].startswith('|'):
            cells = [c.strip() for c in re.split(r'(?<!\\)\|', lines[i].strip())[1:-1]]
            seed, claim, where, paper, ours, stat, verdict = cells
            word, _, why = verdict.partition(':')
            verdict = f'**{word}**' + (f': {why.strip()}' if why else '')
            out.append(
                f'| {claim} <br>*seed {seed}, {where}* | {paper} | {ours} | {verdict} | {stat} |'
            )
            i += 1
        out += ['', '</div>']
    return '\n'.join(out)


def stage_results():
    "figures/results.md as a page of the site (its figures copied next to it); a note says where it comes from."
    md = (FIGURES / 'results.md').read_text(encoding='utf-8')
    for png in set(re.findall(r'\]\(([\w.-]+\.png)\)', md)):
        if (FIGURES / png).exists():
            shutil.copy2(FIGURES / png, SRC / png)
    body = fit_claims_table(re.sub(r'^#\s+.*\n', '', md, count=1))
    (SRC / f'{RESULTS}.md').write_text(
        '# Claims and results: every verdict with its statistic\n\n'
        '<div class="derivation-note">\n\nThis page is `figures/results.md` of the repository, written by the experiment '
        'notebooks (`make reproduce`) from their runs: every claim of the five papers that the experiments test, our '
        "numbers beside the paper's, the statistic each verdict rests on and the verdict by the one rule of notebook "
        '09b.\n\n</div>\n\n' + body,
        encoding='utf-8',
    )


def copy_mathjax():
    import jupyter_server_mathjax

    src = Path(jupyter_server_mathjax.__file__).parent / 'static'
    shutil.copytree(
        src,
        OUT / '_static' / 'mathjax',
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns('localization', 'SVG', '*.md'),
    )


def check_offline():
    "Every <script src> and stylesheet <link href> must be local."
    bad = []
    for p in OUT.rglob('*.html'):
        for m in re.finditer(
            r'<(script|link)\b[^>]*?(?:src|href)="(https?:)?//[^"]*"[^>]*>',
            p.read_text(),
        ):
            tag = m.group(0)
            if m.group(1) == 'script' or 'stylesheet' in tag or 'preload' in tag:
                bad.append(f'{p.relative_to(OUT)}: {tag[:160]}')
    return bad


def main():
    global NBS
    if len(sys.argv) > 1:
        NBS = Path(
            sys.argv[1]
        ).resolve()  # another notebook folder (e.g. an executed scratch copy)
    t0 = time.time()
    stage()
    for d in (OUT, BUILD):
        if d.exists():
            shutil.rmtree(d)
    cmd = [
        str(Path(sys.executable).with_name('sphinx-build')),
        '-b',
        'html',
        '-q',
        '-E',
        '-d',
        str(BUILD / 'doctrees'),
        str(SRC),
        str(BUILD / 'html'),
    ]
    r = subprocess.run(cmd)
    if r.returncode:
        sys.exit(f'sphinx-build failed (exit {r.returncode})')
    shutil.move(str(BUILD / 'html'), str(OUT))
    copy_mathjax()
    bad = check_offline()
    if bad:
        sys.exit(
            'pages load scripts/styles from the network:\n  ' + '\n  '.join(bad[:20])
        )
    n = len(list(OUT.glob('*.html')))
    print(
        f'site: {n} pages in {OUT.relative_to(ROOT)}/ in {time.time() - t0:.0f} s; open _site/index.html'
    )


if __name__ == '__main__':
    main()
