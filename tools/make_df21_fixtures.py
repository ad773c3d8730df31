"""Fit small DF21 deep forests and store them as test fixtures in tests/data/df21/.

Run in the DF21 environment (see tools/df21_env.sh), from the repository root:

    /work/df21env/bin/python tools/make_df21_fixtures.py [--out tests/data/df21]
        [--pickle-dir DIR]

For each data set it fits a `CascadeForestClassifier` / `CascadeForestRegressor`
with use_predictor=False and with use_predictor=True (fixed random_state, n_jobs=1:
DF21 sums tree outputs across threads in any order when n_jobs > 1), and writes
one `<name>.npz` (numpy's compressed npz, no pickles; read it with
`tools/df21_reference.py:load_export`) holding:

- `export.*`: the export of the fitted model (`export_df21`, format in
  tools/DF21_FORMAT.md), `export.meta` being a JSON string;
- `X_train`, `y_train` (the exact training matrix, rows in fit order: needed to
  rebuild the training inputs and bootstrap samples), `X_test`, `y_test`;
- `out_train`, `out_test`: DF21's own `predict_proba` (classifier) or `predict`
  (regressor, shape (n, 1)) on those rows;
- `info`: JSON with the data set, its source and licence, the split, the model
  parameters and the versions of deep-forest-py310, numpy, scikit-learn, scipy, Python.

It then checks every model: the export against DF21's outputs, the rebuilt
out-of-bag training outputs against those DF21 stored, and the leaf values
against the in-bag training rows; then a few variants that are checked but
not stored (backend='sklearn', partial_mode, n_jobs=2, bin_type='interval',
multi-output regression, no random_state). With --pickle-dir it also dumps one
fitted model with joblib, for the numpy 2 loading test.

`--real` makes only the real-data fixture `real/breast_cancer_sklearn.npz` (all 569
rows, an 80/20 split; DF21's defaults but for n_trees=50 and max_layers=5, with
backend='sklearn' so that DF21 reports feature importances). Besides the arrays above
it stores `df21_importances_<l>`, DF21's `get_layer_feature_importances(l)` for every
layer l, and `feature_names`. It lives in a subfolder so that the six small fixtures
stay the `*.npz` of tests/data/df21.

Data sets (all bundled with scikit-learn, distributed under its BSD-3-Clause
licence; no download):

- breast_cancer: UCI Wisconsin Diagnostic Breast Cancer (Wolberg, Street,
  Mangasarian, 1995), 569 rows, 30 features, binary target.
- wine: UCI Wine recognition data (Forina et al.), 178 rows, 13 features,
  3 classes.
- diabetes: Efron, Hastie, Johnstone and Tibshirani (2004), Least Angle
  Regression, 442 rows, 10 standardised features, continuous target.
"""

import argparse
import json
import os
import platform
import sys
import warnings
from importlib.metadata import version
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from df21_reference import (
    export_df21,
    leaf_value_check,
    load_export,
    predict_from_export,
    save_export,
    training_inputs,
)

import sklearn
import scipy
from sklearn.datasets import load_breast_cancer, load_diabetes, load_wine
from sklearn.model_selection import train_test_split
from deepforest import CascadeForestClassifier, CascadeForestRegressor

SOURCES = {
    'breast_cancer': (
        load_breast_cancer,
        'UCI Wisconsin Diagnostic Breast Cancer, via sklearn.datasets.load_breast_cancer',
    ),
    'wine': (load_wine, 'UCI Wine recognition data, via sklearn.datasets.load_wine'),
    'diabetes': (
        load_diabetes,
        'Efron et al. (2004) diabetes data, via sklearn.datasets.load_diabetes',
    ),
}
LICENCE = 'distributed with scikit-learn under the BSD-3-Clause licence'

# name -> (data set, is classifier, train rows, test rows, model parameters);
# random_state chosen so that three layers are kept: breast_cancer improves at
# every layer, wine and diabetes keep a last layer that did not improve (DF21
# keeps it when max_layers is reached during the tolerance rounds).
SMALL = dict(n_bins=32, n_estimators=2, max_depth=4, max_layers=3, n_jobs=1)
MODELS = {
    'breast_cancer': (
        'breast_cancer',
        True,
        240,
        60,
        dict(SMALL, n_trees=10, random_state=0),
    ),
    'wine': ('wine', True, 120, 40, dict(SMALL, n_trees=10, random_state=6)),
    'diabetes': ('diabetes', False, 300, 60, dict(SMALL, n_trees=20, random_state=3)),
}


def load_split(dataset, is_clf, n_train, n_test):
    X, y = SOURCES[dataset][0](return_X_y=True)
    return train_test_split(
        X,
        y,
        train_size=n_train,
        test_size=n_test,
        random_state=0,
        stratify=y if is_clf else None,
    )


def df21_output(model, X):
    return (
        model.predict_proba(X) if hasattr(model, 'predict_proba') else model.predict(X)
    )


def fit(is_clf, params, X, y):
    cls = CascadeForestClassifier if is_clf else CascadeForestRegressor
    # a fresh dict: DF21 fills predictor_kwargs in place, and its default {} is
    # shared by every model of the class (the next model would reuse those settings)
    model = cls(verbose=0, predictor_kwargs={}, **params)
    with warnings.catch_warnings():
        # few trees: some rows get no out-of-bag tree (DF21 warns, the row is NaN)
        warnings.simplefilter('ignore', UserWarning)
        warnings.simplefilter('ignore', RuntimeWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        model.fit(X, y)  # DF21's fit returns None
    return model


def versions():
    return {
        'deep-forest-py310': version('deep-forest-py310'),
        'numpy': np.__version__,
        'scikit-learn': sklearn.__version__,
        'scipy': scipy.__version__,
        'python': platform.python_version(),
    }


def oob_difference(model, export, X_train):
    """Max difference between the rebuilt and DF21's stored out-of-bag outputs."""
    _, oobs = training_inputs(export, X_train)
    worst = 0.0
    for l in range(model.n_layers_):
        ests = model.layers_[f'layer_{l}'].estimators_.values()
        stored = np.hstack([e.oob_decision_function_ for e in ests])
        if not np.array_equal(np.isnan(stored), np.isnan(oobs[l])):
            return float('inf')
        worst = max(worst, float(np.nanmax(np.abs(stored - oobs[l]))))
    return worst


def err(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))))


def make(out_dir, pickle_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for base, (dataset, is_clf, n_train, n_test, params) in MODELS.items():
        Xtr, Xte, ytr, yte = load_split(dataset, is_clf, n_train, n_test)
        for use_predictor in (False, True):
            name = f'{base}_{"predictor" if use_predictor else "cascade"}'
            p = dict(params, use_predictor=use_predictor)
            model = fit(is_clf, p, Xtr, ytr)
            export = export_df21(model)
            out_train, out_test = df21_output(model, Xtr), df21_output(model, Xte)
            info = {
                'name': name,
                'dataset': dataset,
                'source': SOURCES[dataset][1],
                'licence': LICENCE,
                'split': (
                    f'sklearn train_test_split(train_size={n_train}, test_size={n_test},'
                    f' random_state=0, stratify={"y" if is_clf else "None"})'
                ),
                'estimator': type(model).__name__,
                'params': p,
                'n_layers': int(model.n_layers_),
                'output': 'predict_proba' if is_clf else 'predict',
                'versions': versions(),
            }
            path = out_dir / f'{name}.npz'
            save_export(
                path,
                export,
                extra=dict(
                    X_train=Xtr,
                    y_train=ytr,
                    X_test=Xte,
                    y_test=yte,
                    out_train=out_train,
                    out_test=out_test,
                ),
                info=info,
            )
            stored, _, _ = load_export(path)  # the check reads back what was written
            rows.append(
                (
                    name,
                    model.n_layers_,
                    err(predict_from_export(stored, Xtr), out_train),
                    err(predict_from_export(stored, Xte), out_test),
                    oob_difference(model, stored, Xtr),
                    leaf_value_check(stored, Xtr, ytr),
                    os.path.getsize(path),
                )
            )
            if pickle_dir is not None and name == 'wine_predictor':
                import joblib

                pickle_dir.mkdir(parents=True, exist_ok=True)
                joblib.dump(model, pickle_dir / f'{name}.joblib')
                np.savez(pickle_dir / f'{name}_expected.npz', X=Xte, out=out_test)
    print(
        'fixture                   layers  train err  test err   oob err   leaf err   bytes'
    )
    for name, nl, e1, e2, e3, e4, size in rows:
        print(
            f'{name:25s} {nl:6d}  {e1:9.2e}  {e2:8.2e}  {e3:8.2e}  {e4:9.2e}  {size:6d}'
        )
    total = sum(r[-1] for r in rows)
    print(f'total size: {total} bytes')
    return rows


# the real-data fixture: DF21's defaults (n_bins=255, n_estimators=2, max_depth=None,
# n_tolerant_rounds=2, use_predictor=False) except n_trees (100) and max_layers (20), which
# keep the stored file under 1 MB; backend='sklearn' gives DF21's own importances.
# random_state=4 keeps three layers (each improving the validation accuracy); with
# seeds 0-11 DF21 keeps 1 to 5 layers on these rows (half the seeds: one layer only)
REAL = dict(backend='sklearn', n_trees=50, max_layers=5, n_jobs=1, random_state=4)


def make_real(out_dir):
    """Fit DF21 on the full breast cancer data and store it with DF21's importances."""
    data = load_breast_cancer()
    Xtr, Xte, ytr, yte = train_test_split(
        data.data, data.target, test_size=0.2, random_state=0, stratify=data.target
    )
    model = fit(True, REAL, Xtr, ytr)
    export = export_df21(model)
    out_train, out_test = df21_output(model, Xtr), df21_output(model, Xte)
    importances = {
        f'df21_importances_{l}': model.get_layer_feature_importances(l)
        for l in range(model.n_layers_)
    }
    info = {
        'name': 'breast_cancer_sklearn',
        'dataset': 'breast_cancer',
        'source': SOURCES['breast_cancer'][1],
        'licence': LICENCE,
        'split': 'sklearn train_test_split(test_size=0.2, random_state=0, stratify=y)',
        'estimator': type(model).__name__,
        'params': REAL,
        'n_layers': int(model.n_layers_),
        'output': 'predict_proba',
        'importances': 'df21_importances_<l> = model.get_layer_feature_importances(l)',
        'versions': versions(),
    }
    (out_dir / 'real').mkdir(parents=True, exist_ok=True)
    path = out_dir / 'real' / 'breast_cancer_sklearn.npz'
    save_export(
        path,
        export,
        extra=dict(
            X_train=Xtr,
            y_train=ytr,
            X_test=Xte,
            y_test=yte,
            out_train=out_train,
            out_test=out_test,
            feature_names=np.asarray(data.feature_names, dtype=str),
            **importances,
        ),
        info=info,
    )
    stored, _, _ = load_export(path)
    print(
        '\nreal data                 layers  train err  test err   oob err   leaf err   bytes'
    )
    print(
        f'{"breast_cancer_sklearn":25s} {model.n_layers_:6d}'
        f'  {err(predict_from_export(stored, Xtr), out_train):9.2e}'
        f'  {err(predict_from_export(stored, Xte), out_test):8.2e}'
        f'  {oob_difference(model, stored, Xtr):8.2e}'
        f'  {leaf_value_check(stored, Xtr, ytr):9.2e}  {os.path.getsize(path):6d}'
    )


def check_variants():
    """Variants checked live but not stored as fixtures."""
    Xtr, Xte, ytr, yte = load_split('wine', True, 120, 40)
    base = MODELS['wine'][4]
    variants = {
        "backend='sklearn'": dict(backend='sklearn'),
        "backend='sklearn', predictor": dict(backend='sklearn', use_predictor=True),
        'partial_mode': dict(partial_mode=True, use_predictor=True),
        'n_jobs=2': dict(n_jobs=2, use_predictor=True),
        "bin_type='interval'": dict(bin_type='interval'),
        'n_bins=255, no random_state': dict(
            n_bins=255, random_state=None, max_depth=None
        ),
        'one layer (max_layers=1), predictor': dict(max_layers=1, use_predictor=True),
    }
    print(
        '\nvariants (wine, not stored)        layers  train err  test err   oob err   leaf err'
    )
    for label, kw in variants.items():
        model = fit(True, dict(base, **kw), Xtr, ytr)
        export = export_df21(model)
        e1 = err(predict_from_export(export, Xtr), df21_output(model, Xtr))
        e2 = err(predict_from_export(export, Xte), df21_output(model, Xte))
        extra = ''
        if 'sklearn' in label:  # the training inputs and bags of scikit-learn's forests
            e3 = oob_difference(model, export, Xtr)
            extra = f'  {e3:8.2e}  {leaf_value_check(export, Xtr, ytr):9.2e}'
        print(f'{label:34s} {model.n_layers_:6d}  {e1:9.2e}  {e2:8.2e}{extra}')
    for kw in (dict(backend='sklearn'), dict(backend='sklearn', use_predictor=True)):
        Xd, yd = load_diabetes(return_X_y=True)
        model = fit(False, dict(MODELS['diabetes'][4], **kw), Xd[:300], yd[:300])
        export = export_df21(model)
        e1 = err(predict_from_export(export, Xd), df21_output(model, Xd))
        e3 = oob_difference(model, export, Xd[:300])
        e4 = leaf_value_check(export, Xd[:300], yd[:300])
        label = 'diabetes, ' + ', '.join(f'{k}={v!r}' for k, v in kw.items())
        print(
            f'{label:34s} {model.n_layers_:6d}  {e1:9.2e}  {"":8s}  {e3:8.2e}  {e4:9.2e}'
        )
    X, y = load_diabetes(return_X_y=True)
    Y = np.c_[y, np.log(y)]
    model = fit(
        False, dict(MODELS['diabetes'][4], n_estimators=1, use_predictor=True), X, Y
    )
    export = export_df21(model)
    e1 = err(predict_from_export(export, X), df21_output(model, X))
    print(f'{"diabetes, 2 outputs, predictor":34s} {model.n_layers_:6d}  {e1:9.2e}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument('--out', type=Path, default=root / 'tests' / 'data' / 'df21')
    parser.add_argument('--pickle-dir', type=Path, default=None)
    parser.add_argument('--no-variants', action='store_true')
    parser.add_argument(
        '--real', action='store_true', help='make only the real-data fixture'
    )
    args = parser.parse_args()
    print(json.dumps(versions()))
    if args.real:
        make_real(args.out)
        return
    make(args.out, args.pickle_dir)
    make_real(args.out)
    if not args.no_variants:
        check_variants()


if __name__ == '__main__':
    main()
