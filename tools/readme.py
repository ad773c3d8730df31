"""`make readme`: README.md from nbs/index.ipynb without quarto.

Markdown cells verbatim, code cells fenced, `#| hide` cells dropped, `#| echo: false` cells replaced by their stored
markdown output, the `> summary` quote mark removed, and links to
notebooks (`[x](derivations.ipynb)`, relative to nbs/) rewritten relative to the repository root.
"""

import json, re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
(ROOT / 'README.md').write_text(
    '<!-- generated from nbs/index.ipynb by make readme: edit the notebook, not this file -->\n'
    + txt
)
