"""`make readme`: README.md from nbs/index.ipynb without quarto.

Markdown cells verbatim, code cells fenced, `#| hide` cells dropped, the `> summary` quote mark removed, and links to
notebooks (`[x](derivations.ipynb)`, relative to nbs/) rewritten relative to the repository root.
"""
import json, re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
nb = json.loads((ROOT / 'nbs' / 'index.ipynb').read_text())
out = []
for c in nb['cells']:
    s = ''.join(c['source'])
    if s.startswith('#| hide'): continue
    out.append(s if c['cell_type'] == 'markdown' else '```python\n' + s + '\n```')
txt = '\n\n'.join(out).replace('> ', '', 1) + '\n'
txt = re.sub(r'\]\(([\w.-]+\.ipynb(?:#[^)]*)?)\)', r'](nbs/\1)', txt)
(ROOT / 'README.md').write_text('<!-- generated from nbs/index.ipynb by make readme: edit the notebook, not this file -->\n'
                                + txt)
