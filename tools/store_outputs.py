"""`make reproduce`, last step: store the executed experiment notebooks (_out/1*_experiments_*.ipynb, written by
papermill) back into nbs/ with their outputs, so a reader of the repository or of the site sees every result.

What is stored must be the same on every run (so `make reproduce` leaves git clean) and must not leak the machine:
* stderr streams (tqdm progress bars, warnings) and papermill's per-cell metadata and injected-parameters cell are
  dropped; consecutive stdout streams of a cell are joined into one (the kernel splits them by flush timing); execution counts are cleared by nbdev_clean afterwards;
* so are what a kernel makes up afresh on every run: Jupyter widget views (a tqdm.notebook bar) with the notebook's
  widget state, and the `transient` display ids of outputs;
* an output that shows a memory address (`<... at 0x7f...>`, a value left unsilenced) fails the run like a machine
  path does; values that vary from run to run (timings, rounding noise) are fixed where they are printed: run times
  go to _out/ (write_timings), identity errors print as a bound;
* an output that holds a machine path (the work folder, /tmp, a home folder) or a `PosixPath(...)` repr fails the run,
  naming the notebook and cell: print the file name or end the line with `;` instead.

Usage: python tools/store_outputs.py [NOTEBOOK ...]   (default: every _out/1*_experiments_*.ipynb)
"""

import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDGET = 'application/vnd.jupyter.widget-view+json'
ADDRESS = re.compile(r' at 0x[0-9a-fA-F]{6,}>')
MACHINE = re.compile(
    r'PosixPath\(|(?<![\w.])/(?:tmp|work|root|home|Users|var/folders)/|'
    + re.escape(str(ROOT))
)


def _text(o) -> str:
    if o.get('output_type') == 'stream':
        return ''.join(o.get('text', ''))
    data = o.get('data', {})
    return ''.join(
        ''.join(v) if isinstance(v, list) else str(v)
        for k, v in data.items()
        if k.startswith('text/') or k.endswith('json')
    ) + ''.join(o.get('traceback', []))


def store(src: Path, dst: Path) -> list:
    "Copy one executed notebook into nbs/, cleaned; return the problems found."
    nb = json.loads(src.read_text())
    problems, cells = [], []
    for i, c in enumerate(nb['cells']):
        tags = c.get('metadata', {}).get('tags', [])
        if 'injected-parameters' in tags:
            continue
        c['metadata'] = {
            k: v
            for k, v in c.get('metadata', {}).items()
            if k not in ('papermill', 'execution')
        }
        if c['cell_type'] == 'code':
            outs = []
            for o in c.get('outputs', []):
                if o.get('output_type') == 'stream' and o.get('name') == 'stderr':
                    continue
                if WIDGET in o.get('data', {}):
                    continue
                o.pop('transient', None)
                if o.get('output_type') == 'error':
                    problems.append(
                        f'{src.name} cell {i}: raised {o.get("ename")}: {o.get("evalue", "")[:120]}'
                    )
                t = _text(o)
                m = MACHINE.search(t)
                if m:
                    problems.append(
                        f'{src.name} cell {i}: machine path in an output: ...{t[max(m.start() - 40, 0) : m.end() + 40]!r}'
                    )
                m = ADDRESS.search(t)
                if m:
                    problems.append(
                        f'{src.name} cell {i}: memory address in an output (end the line with `;`): '
                        f'...{t[max(m.start() - 40, 0) : m.end() + 10]!r}'
                    )
                prev = outs[-1] if outs else None
                if (  # how a kernel splits one cell's prints into stream outputs depends on flush timing
                    prev is not None
                    and o.get('output_type') == 'stream'
                    and prev.get('output_type') == 'stream'
                    and prev.get('name') == o.get('name')
                ):
                    joined = ''.join(prev.get('text', '')) + ''.join(o.get('text', ''))
                    # as nbformat writes it: one string per line
                    prev['text'] = joined.splitlines(keepends=True)
                    continue
                outs.append(o)
            c['outputs'] = outs
        cells.append(c)
    nb['cells'] = cells
    nb['metadata'].pop('papermill', None)
    nb['metadata'].pop('widgets', None)
    if not problems:
        dst.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    return problems


def main(argv) -> int:
    srcs = [Path(a) for a in argv] or sorted(
        (ROOT / '_out').glob('1*_experiments_*.ipynb')
    )
    problems = []
    for s in srcs:
        problems += store(s, ROOT / 'nbs' / s.name)
    for p in problems:
        print('store-outputs:', p)
    print(
        f'store-outputs: {len(srcs) - len({p.split()[0] for p in problems})} of {len(srcs)} notebooks stored in nbs/'
    )
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
