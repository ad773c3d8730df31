"Bad-input table: the experiments module (runner, claims, timings) (issue 11 §3)."

from _bad_input_common import Bad, Edge
from deepforest_interp.experiments import (
    run_repetitions,
    write_claims,
    execution_backend,
    task_key,
)


def _rep(rep):
    return {'x': rep / 7}


def _not_dict(rep):
    return [rep]


def _backend(s):
    with execution_backend(s):
        pass


BAD = [
    Bad(
        'run_repetitions/fn',
        lambda: run_repetitions(3, [dict(rep=0)], slug='a', store=False),
        TypeError,
        'fn must be callable',
    ),
    Bad(
        'run_repetitions/tasks-dict',
        lambda: run_repetitions(_rep, dict(rep=0), slug='a', store=False),
        TypeError,
        'tasks must be a list',
    ),
    Bad(
        'run_repetitions/task-type',
        lambda: run_repetitions(_rep, [3], slug='a', store=False),
        TypeError,
        'tasks[0] must be a dict',
    ),
    Bad(
        'run_repetitions/task-value',
        lambda: run_repetitions(_rep, [dict(rep=object())], slug='a', store=False),
        TypeError,
        "tasks[0]['rep']",
    ),
    Bad(
        'run_repetitions/duplicate',
        lambda: run_repetitions(
            _rep, [dict(rep=0), dict(rep=0)], slug='a', store=False
        ),
        ValueError,
        'distinct',
    ),
    Bad(
        'run_repetitions/slug',
        lambda: run_repetitions(_rep, [dict(rep=0)], slug='../x', store=False),
        ValueError,
        'slug',
    ),
    Bad(
        'run_repetitions/n_jobs',
        lambda: run_repetitions(_rep, [dict(rep=0)], slug='a', n_jobs=0, store=False),
        ValueError,
        'n_jobs',
    ),
    Bad(
        'run_repetitions/result',
        lambda: run_repetitions(_not_dict, [dict(rep=0)], slug='a', store=False),
        TypeError,
        'fn must return a dict',
    ),
    Bad(
        'execution_backend/type',
        lambda: _backend(8786),
        TypeError,
        'scheduler must be a str',
    ),
    Bad(
        'write_claims/verdict',
        lambda: write_claims(
            'x',
            [dict(seed='0', claim='c', where='w', paper='p', ours='o', verdict='yes')],
        ),
        ValueError,
        'verdict',
    ),
]
EDGE = [
    Edge(
        'run_repetitions/empty',
        lambda: len(run_repetitions(_rep, [], slug='a', store=False)),
        lambda n: n == 0,
    ),
    Edge(
        'task_key/version',
        lambda: (task_key('a', {'rep': 1}), task_key('a', {'rep': 1}, version='2')),
        lambda k: k[0] != k[1] and k[0].startswith('1-'),
    ),
]

# ---- round two (issue 16 §9) ----------------------------------------------------------------------------------------
import os, tempfile
import pandas as pd
from deepforest_interp.experiments import (
    write_results,
    md_table,
    save_figure,
    write_timings,
)

os.environ.setdefault('DFI_FIGURES', tempfile.mkdtemp(prefix='dfi_bad_input_'))
BAD += [
    Bad(
        'write_results/slug-slash',
        lambda: write_results('a/b', 'x'),
        ValueError,
        'slug must be a non-empty file-name part',
    ),
    Bad(
        'write_results/slug-int',
        lambda: write_results(3, 'x'),
        TypeError,
        'slug must be a string',
    ),
    Bad(
        'write_results/markdown',
        lambda: write_results('a', None),
        TypeError,
        'markdown must be a string',
    ),
    Bad('write_claims/slug-dotdot', lambda: write_claims('..', []), ValueError, 'slug'),
    Bad(
        'write_timings/slug-slash',
        lambda: write_timings('x/y', ['1 s']),
        ValueError,
        'slug',
    ),
    Bad(
        'md_table/dict',
        lambda: md_table({'a': [1]}),
        TypeError,
        'df must be a pandas DataFrame',
    ),
    Bad(
        'save_figure/name-int',
        lambda: save_figure(
            __import__('matplotlib.figure', fromlist=['x']).Figure(), 3
        ),
        TypeError,
        'name must be a string',
    ),
    Bad(
        'save_figure/not-figure',
        lambda: save_figure('fig', 'a'),
        TypeError,
        'fig must be a matplotlib Figure',
    ),
    Bad(
        'task_key/list', lambda: task_key('a', [1, 2]), TypeError, 'task must be a dict'
    ),
    Bad('task_key/slug-slash', lambda: task_key('a/b', {}), ValueError, 'slug'),
]
EDGE += [
    Edge(
        'md_table/series',
        lambda: md_table(pd.Series([1.0, 2.0], name='v')),
        lambda s: s.startswith('| v |'),
    )
]
