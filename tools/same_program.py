"""Check that a formatting change left the programs the same: syntax trees before and after.

Usage: python tools/same_program.py REV [PATH ...]     (default paths: deepforest_interp nbs tools tests bench)

Every Python file and every notebook under PATH is compared with its version in git revision REV
(e.g. the commit before `ruff format`): `ast.dump(ast.parse(old)) == ast.dump(ast.parse(new))`, which
ignores layout, comments, quotes and parentheses but not names, values, order or docstrings. Notebook
code cells are matched by cell id (IPython magics are turned into Python by IPython first). A file or
cell that is equal only once the whitespace inside docstrings is collapsed is reported as
'docstrings re-wrapped' (what the former unwrap_docstrings tool's step 3 did); anything else as
DIFFERENT, with the first differing statement. Exit 1 if something is DIFFERENT. Files new or deleted
since REV are listed and not compared.
"""

import ast, json, subprocess, sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ['deepforest_interp', 'nbs', 'tools', 'tests', 'bench']


class _NormDoc(ast.NodeTransformer):
    def _doc(self, node):
        self.generic_visit(node)
        b = node.body
        if (
            b
            and isinstance(b[0], ast.Expr)
            and isinstance(b[0].value, ast.Constant)
            and isinstance(b[0].value.value, str)
        ):
            b[0].value.value = ' '.join(b[0].value.value.split())
        return node

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _doc


def _python(src: str, notebook: bool) -> str:
    if notebook and any(l.lstrip().startswith(('%', '!')) for l in src.split('\n')):
        from IPython.core.inputtransformer2 import TransformerManager

        return TransformerManager().transform_cell(src)
    return src


def compare(old: str, new: str, notebook: bool = False) -> str:
    "'same', 'docstrings re-wrapped', or a description of the first difference."
    try:
        t1, t2 = ast.parse(_python(old, notebook)), ast.parse(_python(new, notebook))
    except SyntaxError as e:
        return 'same' if old == new else f'does not parse: {e}'
    if ast.dump(t1) == ast.dump(t2):
        return 'same'
    n1, n2 = _NormDoc().visit(t1), _NormDoc().visit(t2)
    if ast.dump(n1) == ast.dump(n2):
        return 'docstrings re-wrapped'
    for a, b in zip(n1.body, n2.body):
        if ast.dump(a) != ast.dump(b):
            return f'DIFFERENT at line {b.lineno}: {ast.unparse(b).splitlines()[0][:100]!r}'
    return f'DIFFERENT: {len(n1.body)} vs {len(n2.body)} top-level statements'


def _cells(text: str) -> dict:
    nb = json.loads(text)
    return {
        c.get('id', i): ''.join(c['source'])
        for i, c in enumerate(nb['cells'])
        if c['cell_type'] == 'code'
    }


def main(argv) -> int:
    if not argv or argv[0].startswith('-'):
        print(__doc__)
        return 2
    rev, paths = argv[0], argv[1:] or DEFAULT
    files = subprocess.run(
        ['git', 'ls-files', '--', *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    old_files = set(
        subprocess.run(
            ['git', 'ls-tree', '-r', '--name-only', rev, '--', *paths],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    )
    files = [f for f in files if f.endswith(('.py', '.ipynb')) and (ROOT / f).exists()]
    tally, bad = Counter(), []
    for f in files:
        if f not in old_files:
            tally['new since ' + rev] += 1
            continue
        old = subprocess.run(
            ['git', 'show', f'{rev}:{f}'],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        new = (ROOT / f).read_text(encoding='utf-8')
        if f.endswith('.ipynb'):
            c_old, c_new = _cells(old), _cells(new)
            res = [compare(c_old[k], c_new[k], True) for k in c_new if k in c_old]
            if set(c_old) != set(c_new):
                res.append(
                    f'DIFFERENT: code cells added/removed {set(c_old) ^ set(c_new)}'
                )
            worst = next(
                (r for r in res if r.startswith(('DIFFERENT', 'does not'))), None
            ) or ('docstrings re-wrapped' if 'docstrings re-wrapped' in res else 'same')
        else:
            worst = compare(old, new)
        tally[worst.split(':')[0].split(' at ')[0]] += 1
        if worst not in ('same', 'docstrings re-wrapped'):
            bad.append(f'{f}: {worst}')
        elif old != new:
            print(f'{f}: {worst} (text changed)')
    for f in sorted(old_files - set(files)):
        if f.endswith(('.py', '.ipynb')):
            tally['deleted since ' + rev] += 1
    print('; '.join(f'{k}: {v}' for k, v in sorted(tally.items())))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
