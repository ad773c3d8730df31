"""`make readme`: README.md from nbs/index.ipynb without quarto (`--check`: exit 1 when README.md is not what the
notebook renders to; `make test` runs it through tests/test_readme.py).

Markdown cells verbatim, code cells fenced, `#| hide` cells dropped, `#| echo: false` cells replaced by their stored
markdown output, the `> summary` quote mark removed, and links to
notebooks (`[x](derivations.ipynb)`, relative to nbs/) rewritten relative to the repository root.
"""

import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = '<!-- generated from nbs/index.ipynb by make readme: edit the notebook, not this file -->\n'


def render() -> str:
    "The README text nbs/index.ipynb renders to."
    nb = json.loads((ROOT / 'nbs' / 'index.ipynb').read_text())
    out = []
    for c in nb['cells']:
        s = ''.join(c['source'])
        if s.startswith('#| hide'):
            continue
        if c['cell_type'] == 'code' and re.match(
            r'#\s*\|\s*echo:\s*false', s
        ):  # a computed table: its stored output
            md = [
                ''.join(o['data']['text/markdown'])
                for o in c.get('outputs', [])
                if 'text/markdown' in o.get('data', {})
            ]
            if md:
                out.append(md[0])
            continue
        out.append(s if c['cell_type'] == 'markdown' else '```python\n' + s + '\n```')
    txt = '\n\n'.join(out).replace('> ', '', 1) + '\n'
    txt = re.sub(r'\]\(([\w.-]+\.ipynb(?:#[^)]*)?)\)', r'](nbs/\1)', txt)
    txt = txt.replace(
        '](../figures/', '](figures/'
    )  # links out of nbs/ to the repository's files
    return HEADER + txt


if __name__ == '__main__':
    text, path = render(), ROOT / 'README.md'
    if '--check' in sys.argv:
        if path.read_text() != text:
            sys.exit(
                'README.md is out of date with nbs/index.ipynb: run `make readme` (after re-running the index)'
            )
    else:
        path.write_text(text)
