"`make sync-check` (tools/sync_check.py) on scratch copies of the project: what a student's edit and a hand edit do."

import json, shutil, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / 'tools' / 'sync_check.py'


@pytest.fixture(scope='module')
def project(tmp_path_factory):
    "A scratch copy of the files sync-check looks at."
    dst = tmp_path_factory.mktemp('proj')
    shutil.copy2(ROOT / 'settings.ini', dst / 'settings.ini')
    shutil.copy2(
        ROOT / 'ruff.toml', dst / 'ruff.toml'
    )  # how `make export` formats the library
    ign = shutil.ignore_patterns('__pycache__', '.ipynb_checkpoints', '_proc')
    shutil.copytree(ROOT / 'nbs', dst / 'nbs', ignore=ign)
    shutil.copytree(ROOT / 'deepforest_interp', dst / 'deepforest_interp', ignore=ign)
    return dst


def _copy(project, tmp_path):
    dst = tmp_path / 'p'
    shutil.copytree(project, dst)
    return dst


def _run(root):
    return subprocess.run(
        [sys.executable, str(CHECK), str(root)], capture_output=True, text=True
    )


def test_in_sync_copy_passes(project, tmp_path):
    r = _run(_copy(project, tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr


def test_student_markdown_cell_passes(project, tmp_path):
    "An uncommitted edit that keeps the library in sync (a new markdown cell, in nbdev_clean's format) passes."
    root = _copy(project, tmp_path)
    p = root / 'nbs' / '02_tree_contributions.ipynb'
    nb = json.loads(p.read_text())
    nb['cells'].insert(
        2,
        {
            'cell_type': 'markdown',
            'id': 'student1',
            'metadata': {},
            'source': ['My note: the bias is the root mean.'],
        },
    )
    p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    subprocess.run(
        [str(Path(sys.executable).with_name('nbdev_clean')), '--fname', str(p)],
        cwd=root,
        check=True,
    )
    r = _run(root)
    assert r.returncode == 0, r.stdout + r.stderr


def test_hand_edit_of_generated_module_fails(project, tmp_path):
    "A hand edit of a generated module fails, names the file and says how to fix it; the edit is left in place."
    root = _copy(project, tmp_path)
    p = root / 'deepforest_interp' / 'core.py'
    p.write_text(p.read_text() + '\nHAND_EDIT = 1\n')
    r = _run(root)
    assert r.returncode == 1
    assert (
        'deepforest_interp/core.py' in r.stdout
        and 'move the edit into the notebook' in r.stdout
    )
    assert (
        'HAND_EDIT = 1' in p.read_text()
    )  # the check never overwrites the student's work


def test_unexported_notebook_edit_fails(project, tmp_path):
    "An exported cell changed in the notebook but not exported: the generated module is named."
    root = _copy(project, tmp_path)
    p = root / 'nbs' / '00_core.ipynb'
    nb = json.loads(p.read_text())
    nb['cells'].append(
        {
            'cell_type': 'code',
            'execution_count': None,
            'id': 'student2',
            'metadata': {},
            'outputs': [],
            'source': ['#| export\n', 'NEW_CONSTANT = 2'],
        }
    )
    p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    r = _run(root)
    assert r.returncode == 1 and 'deepforest_interp/core.py' in r.stdout, r.stdout


def test_notebook_over_budget_fails(project, tmp_path):
    root = _copy(project, tmp_path)
    p = root / 'nbs' / '00_core.ipynb'
    nb = json.loads(p.read_text())
    code = next(c for c in nb['cells'] if c['cell_type'] == 'code' and not c['outputs'])
    code['outputs'] = [
        {'name': 'stdout', 'output_type': 'stream', 'text': ['x' * (3 * 2**20)]}
    ]
    p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    r = _run(root)
    assert (
        r.returncode == 1 and '00_core.ipynb is 3.' in r.stdout and '> 2 MB' in r.stdout
    ), r.stdout


def test_site_staging(tmp_path):
    "tools/build_site.py's staging: hidden cells dropped, directives stripped, solutions folded, display math split."
    sys.path.insert(0, str(ROOT / 'tools'))
    import build_site

    cells = [
        {
            'cell_type': 'code',
            'id': 'a',
            'metadata': {},
            'outputs': [],
            'execution_count': None,
            'source': '#| default_exp x',
        },
        {
            'cell_type': 'markdown',
            'id': 'b',
            'metadata': {},
            'source': '# Title\n> summary',
        },
        {
            'cell_type': 'code',
            'id': 'c',
            'metadata': {},
            'outputs': [],
            'execution_count': None,
            'source': '#| hide\nfrom fastcore.test import *',
        },
        {
            'cell_type': 'code',
            'id': 'd',
            'metadata': {},
            'outputs': [],
            'execution_count': None,
            'source': '#| export\ndef f(x): return x',
        },
        {
            'cell_type': 'markdown',
            'id': 'e',
            'metadata': {},
            'source': 'The sum: $$ a = b \\tag{3} $$ and `$$ not math $$`.\n$$ \\begin{cases}1\\\\2\\end{cases} \\tag{4} $$',
        },
        {
            'cell_type': 'markdown',
            'id': 'f',
            'metadata': {},
            'source': '### Exercise 1: check Eq. 3',
        },
        {
            'cell_type': 'code',
            'id': 'g',
            'metadata': {},
            'outputs': [],
            'execution_count': None,
            'source': '# Solution\nassert f(1) == 1',
        },
    ]
    src, dst = tmp_path / 'n.ipynb', tmp_path / 'out.ipynb'
    src.write_text(
        json.dumps({'cells': cells, 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5})
    )
    build_site.stage_notebook(src, dst, note=True)
    out = json.loads(dst.read_text())['cells']
    anchors = {
        out[i + 1]['id']: c['source']
        for i, c in enumerate(out[:-1])
        if c['id'].startswith('anchor')
    }
    assert (
        'id="def-f"' in anchors['d']
        and 'id="eq-3"' in anchors['e']
        and 'id="eq-4"' in anchors['e']
    )  # index links land here
    out = [c for c in out if not c['id'].startswith('anchor')]
    assert (
        'Download this notebook' in out[1]['source']
        and '_static/notebooks/out.ipynb' in out[1]['source']
    )
    ids = [c['id'] for c in out]
    assert ids == [
        'b',
        'siteder',
        'd',
        'e',
        'f',
        'g',
    ]  # default_exp and hide cells dropped
    assert out[2]['source'] == 'def f(x): return x'  # directive stripped
    md = out[3]['source']
    assert (
        '\n\n$$ a = b \\tag{3} $$\n\n' in md and '`$$ not math $$`' in md
    )  # display block; code span untouched
    assert (
        '\\begin{equation}' in md and '\\tag{4}' in md
    )  # multi-line tagged -> amsmath block
    assert out[5]['metadata']['tags'] == ['hide-cell']
    assert out[5]['metadata']['mystnb']['code_prompt_show'] == 'Show solution'
    assert 'derivations.ipynb' in out[1]['source']


def test_store_outputs_cleans_and_refuses_machine_paths(tmp_path):
    "Executed experiment notebooks go back to nbs/ without stderr or papermill metadata; a machine path is refused."
    sys.path.insert(0, str(ROOT / 'tools'))
    import store_outputs

    cell = lambda outs, tags=(): {
        'cell_type': 'code',
        'id': 'c',
        'metadata': {'tags': list(tags), 'papermill': {}},
        'execution_count': 1,
        'source': 'x',
        'outputs': outs,
    }
    ok = {
        'cells': [
            cell([], ['injected-parameters']),
            cell(
                [
                    {'output_type': 'stream', 'name': 'stderr', 'text': '100%|##| 3/3'},
                    {'output_type': 'stream', 'name': 'stdout', 'text': 'AUC 0.98\n'},
                ]
            ),
        ],
        'metadata': {'papermill': {'duration': 1.0}},
        'nbformat': 4,
        'nbformat_minor': 5,
    }
    src, dst = tmp_path / 'in.ipynb', tmp_path / 'out.ipynb'
    src.write_text(json.dumps(ok))
    assert store_outputs.store(src, dst) == []
    nb = json.loads(dst.read_text())
    assert len(nb['cells']) == 1 and nb['cells'][0]['outputs'] == [
        ok['cells'][1]['outputs'][1]
    ]
    assert (
        'papermill' not in nb['metadata']
        and 'papermill' not in nb['cells'][0]['metadata']
    )
    for leak in [
        "PosixPath('figures/a.png')",
        '/tmp/dfi_figs/a.png',
        str(ROOT / 'figures'),
    ]:
        bad = {
            **ok,
            'cells': [
                cell([{'output_type': 'execute_result', 'data': {'text/plain': leak}}])
            ],
        }
        src.write_text(json.dumps(bad))
        dst.unlink(missing_ok=True)
        assert store_outputs.store(src, dst) and not dst.exists()


def test_store_outputs_drops_run_specific_outputs(tmp_path):
    "Widget views (tqdm.notebook), the widget state and transient display ids are dropped; a memory address is refused."
    sys.path.insert(0, str(ROOT / 'tools'))
    import store_outputs

    bar = {
        'output_type': 'display_data',
        'metadata': {},
        'data': {
            'application/vnd.jupyter.widget-view+json': {'model_id': 'f00d'},
            'text/plain': 'HBox()',
        },
    }
    fig = {
        'output_type': 'display_data',
        'metadata': {},
        'data': {'text/plain': '<Figure size 10x10>'},
        'transient': {'display_id': 'a1b2'},
    }
    nb = {
        'cells': [
            {
                'cell_type': 'code',
                'id': 'c',
                'metadata': {},
                'execution_count': 1,
                'source': 'x',
                'outputs': [bar, fig],
            }
        ],
        'metadata': {'widgets': {'state': {'f00d': {}}}},
        'nbformat': 4,
        'nbformat_minor': 5,
    }
    src, dst = tmp_path / 'in.ipynb', tmp_path / 'out.ipynb'
    src.write_text(json.dumps(nb))
    assert store_outputs.store(src, dst) == []
    out = json.loads(dst.read_text())
    assert out['cells'][0]['outputs'] == [
        {k: v for k, v in fig.items() if k != 'transient'}
    ]
    assert 'widgets' not in out['metadata']
    nb['cells'][0]['outputs'] = [
        {
            'output_type': 'execute_result',
            'metadata': {},
            'execution_count': 1,
            'data': {'text/plain': '<matplotlib.lines.Line2D at 0x7f3a2c1b9d10>'},
        }
    ]
    src.write_text(json.dumps(nb))
    dst.unlink()
    assert store_outputs.store(src, dst) and not dst.exists()


def test_results_claims_table_fits_and_titles_read_plainly():
    "The results page's claims table has five columns (verdict before statistic, nothing lost); titles: no backticks, hiDF kept."
    sys.path.insert(0, str(ROOT / 'tools'))
    from build_site import fit_claims_table, page_title, pages

    md = (
        'intro\n\n| seed | claim | where | paper | ours | statistic | verdict |\n|---|---|---|---|---|---|---|\n'
        '| 000 | a claim | Table 3 | 0.82 | 0.78 \\| 0.80 | p = 0.1 | partly: no significant difference |\n'
        '| 001 | b | Sec. 2 | x | y | p = 0.01 | reproduced |\n\nafter\n'
    )
    out = fit_claims_table(md)
    assert '| claim | paper | ours | verdict | statistic |' in out
    assert (
        '| a claim <br>*seed 000, Table 3* | 0.82 | 0.78 \\| 0.80 | **partly**: no significant difference | p = 0.1 |'
        in out
    )
    assert '| b <br>*seed 001, Sec. 2* | x | y | **reproduced** | p = 0.01 |' in out
    assert out.startswith('intro') and out.rstrip().endswith('after')
    assert '<div class="claims-table">' in out and out.count('| 00') == 0
    assert (
        page_title('07b_alc_hidf', 'hiDF: ALC features') == '07b · hiDF: ALC features'
    )
    assert (
        page_title('11_x', 'Experiment: MDI on `sim`') == '11 · Experiment: MDI on sim'
    )
    assert page_title('02_x', 'tree contributions') == '02 · Tree contributions'
    concept = pages()[0][1]
    order = [s.split('_')[0] for s in concept]
    assert order.index('02d') < order.index('02c') and order.index('03c') < order.index(
        '03b'
    )


def test_student_path_follows_the_sidebar():
    "The landing page's student path visits the concept pages in the sidebar's order, from its first page."
    import ast, re

    sys.path.insert(0, str(ROOT / 'tools'))
    from build_site import pages

    src = ''.join(
        ''.join(c['source'])
        for c in json.loads((ROOT / 'nbs' / 'index.ipynb').read_text())['cells']
    )
    path = ast.literal_eval(re.search(r'FIRST = (\[.*?\])', src, re.S).group(1))
    path += ast.literal_eval(re.search(r'THEN = (\[.*?\])', src, re.S).group(1))
    sidebar = [s.split('_')[0] for s in pages()[0][1]]
    assert path[0] == sidebar[0], (path[0], sidebar[0])
    pos = [sidebar.index(p) for p in path]
    assert pos == sorted(pos), (path, sidebar)
