"""Prose never quotes a result it does not compute: every decimal number in an experiment notebook's markdown cells
appears in that notebook's code (a paper's value, a setting) or in its stored outputs (a computed result). A number
typed into the prose from an earlier run fails here once the run's output changes."""

import json, pathlib, re
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
NUMBER = re.compile(r'(?<![\w.\-/])\d+\.\d+(?!\w|\.\d)')
SECTION = re.compile(r'(?:Sec\.|Section|Sections|Eq\.|Eqs\.|Table|Fig\.)\s+(\d+\.\d+)')


def _texts(nb):
    md, rest = [], []
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'markdown':
            md.append(src)
            continue
        rest.append(src)
        for o in c.get('outputs', []):
            rest.append(''.join(o.get('text', '')))
            rest += [
                ''.join(v) for k, v in o.get('data', {}).items() if k.startswith('text')
            ]
    return md, '\n'.join(rest)


@pytest.mark.parametrize(
    'path', sorted((ROOT / 'nbs').glob('1[0-9]*.ipynb')), ids=lambda p: p.stem
)
def test_prose_numbers_are_computed_or_declared(path):
    md, rest = _texts(json.loads(path.read_text(encoding='utf-8')))
    typed = []
    for text in md:
        refs = set(SECTION.findall(text))  # "Sec. 7.1" is a reference, not a number
        typed += [x for x in NUMBER.findall(text) if x not in refs and x not in rest]
    assert not typed, (
        f'{path.name}: numbers in prose that no code or output of the page produces: {typed}'
    )


def test_the_check_catches_a_typed_number():
    nb = {
        'cells': [
            {
                'cell_type': 'markdown',
                'source': ['As Sec. 7.1 says, the mean is 0.823.'],
            },
            {
                'cell_type': 'code',
                'source': ['m = x.mean()'],
                'outputs': [{'text': ['0.817']}],
            },
        ]
    }
    md, rest = _texts(nb)
    refs = set(SECTION.findall(md[0]))
    assert [x for x in NUMBER.findall(md[0]) if x not in refs and x not in rest] == [
        '0.823'
    ]
