"""DF21 reader and exporter for the DF21 environment: a thin script over `deepforest_interp/df21_format.py`.

The reading, exporting and prediction code lives once, in the library module `deepforest_interp.df21_format` (notebook
nbs/06a_df21_format.ipynb), which imports nothing but numpy. This script loads that file by its path, so it
runs where the package is not installed, e.g. the DF21 environment (numpy 1.x; see tools/df21_env.sh):

    import sys; sys.path.insert(0, 'tools')
    import df21_reference as ref
    ref.save_export('model.npz', ref.export_df21(model))   # then, here: from_df21('model.npz', X_train, y_train)

Every public name of the module is re-exported (export_df21, save_export, load_export, predict_from_export,
training_inputs, bootstrap_mask, ...); `check_fixture` and the command line check fixtures written by
tools/make_df21_fixtures.py.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np

_PATH = Path(__file__).resolve().parents[1] / 'deepforest_interp' / 'df21_format.py'
_spec = importlib.util.spec_from_file_location('df21_reference_impl', _PATH)
_impl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_impl)
globals().update(
    {
        k: v
        for k, v in vars(_impl).items()
        if not k.startswith('__') and k not in ('np', 'json', 'os', 'zipfile')
    }
)
# the names this script uses itself
load_export, predict_from_export = _impl.load_export, _impl.predict_from_export
leaf_value_check = _impl.leaf_value_check


def check_fixture(path):
    """Identity errors of a fixture written by tools/make_df21_fixtures.py."""
    export, data, info = load_export(path)
    return {
        'name': info.get('name', str(path)),
        'n_layers': export['meta']['n_layers'],
        'train': float(
            np.max(
                np.abs(predict_from_export(export, data['X_train']) - data['out_train'])
            )
        ),
        'test': float(
            np.max(
                np.abs(predict_from_export(export, data['X_test']) - data['out_test'])
            )
        ),
        'leaf': leaf_value_check(export, data['X_train'], data['y_train']),
    }


if __name__ == '__main__':
    print(f'numpy {np.__version__}')
    print('fixture                   layers  train err  test err   leaf err')
    for p in sys.argv[1:]:
        r = check_fixture(p)
        print(
            f'{r["name"]:25s} {r["n_layers"]:6d}  {r["train"]:9.2e}  {r["test"]:8.2e}  {r["leaf"]:9.2e}'
        )
