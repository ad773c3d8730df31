"""`make outputs`: re-execute the concept notebooks (00-09b), the derivation index and index in place, top to bottom.

Each notebook runs in a fresh Jupyter kernel (nbclient) with nbs/ as the working directory, so nbs/matplotlibrc
applies: figures are PNGs at a modest dpi. Cells that nbdev_test skips (`#| eval: false`, the settings.ini tst_flags
such as `#| notest` / `#| slow`, and the closing `nbdev_export()` cell) are not run and keep no output. Outputs are
deterministic as long as the notebooks seed their randomness (PYTHONHASHSEED=0 is set as well); figures that a notebook
saves go to a temporary DFI_FIGURES folder, not figures/. The Makefile runs nbdev_clean and the size budget after.

Usage: python tools/outputs.py [--nbs DIR] [NOTEBOOK ...]   (default: nbs/0*.ipynb, nbs/derivations.ipynb, nbs/index.ipynb)
"""

import argparse, os, re, sys, tempfile, time
from configparser import ConfigParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_TAG = 'skip-execution'
DIRECTIVE = re.compile(r'^\s*#\s*\|\s*([\w-]+)\s*:?\s*(.*)$')


def _skip(src: str, flags: set) -> bool:
    "Would nbdev_test skip this cell?"
    for line in src.split('\n'):
        m = DIRECTIVE.match(line)
        if not m:
            break
        name, arg = m.group(1), m.group(2).strip().lower()
        if name in flags or (name == 'eval' and arg.startswith('false')):
            return True
    return 'nbdev_export()' in src and len(src) < 80


def default_notebooks(nbs: Path) -> list:
    nbs_ = sorted(p for p in nbs.glob('0*.ipynb'))
    return nbs_ + [
        p for p in (nbs / 'derivations.ipynb', nbs / 'index.ipynb') if p.exists()
    ]


def execute(path: Path, flags: set, timeout: int = 1800) -> float:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    skipped = []
    for c in nb.cells:
        if c.cell_type != 'code':
            continue
        c.outputs, c.execution_count = [], None
        if _skip(c.source, flags):
            c.metadata.setdefault('tags', []).append(SKIP_TAG)
            skipped.append(c)
    t0 = time.time()
    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name='python3',
        allow_errors=False,
        skip_cells_with_tag=SKIP_TAG,
        resources={'metadata': {'path': str(path.parent)}},
    ).execute()
    for c in skipped:
        c.metadata['tags'].remove(SKIP_TAG)
        if not c.metadata['tags']:
            del c.metadata['tags']
    nbformat.write(nb, path)
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nbs', default=str(ROOT / 'nbs'))
    ap.add_argument('notebooks', nargs='*')
    a = ap.parse_args()
    nbs = Path(a.nbs).resolve()
    cfg = ConfigParser(delimiters=['='])
    cfg.read(ROOT / 'settings.ini')
    flags = set(cfg['DEFAULT'].get('tst_flags', 'notest').split())
    paths = [Path(p).resolve() for p in a.notebooks] or default_notebooks(nbs)
    os.environ.update(
        PYTHONHASHSEED='0', PYDEVD_DISABLE_FILE_VALIDATION='1', DFI_COMPILE_NOTICE='off'
    )
    os.environ.pop('MPLBACKEND', None)  # the kernel's inline backend makes the PNGs
    os.environ.pop('IN_TEST', None)
    failed = []
    with tempfile.TemporaryDirectory(prefix='dfi_outputs_figs_') as figs:
        os.environ['DFI_FIGURES'] = figs
        for p in paths:
            try:
                dt = execute(p, flags)
                print(
                    f'{p.name:40s} {dt:6.1f} s  {p.stat().st_size / 2**10:7.0f} KB',
                    flush=True,
                )
            except Exception as e:  # report every failing notebook, then fail
                failed.append(p.name)
                print(
                    f'{p.name:40s} FAILED: {str(e).strip().splitlines()[-1][:300] if str(e).strip() else e!r}',
                    flush=True,
                )
    if failed:
        sys.exit(
            f'make outputs: {len(failed)} notebook(s) failed: {", ".join(failed)} (left unchanged)'
        )


if __name__ == '__main__':
    main()
