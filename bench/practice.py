"""Benchmark: the call a practitioner makes, on data sets nobody here wrote, against shap's Saabas mode.

Data (each ships with a pip-installable package; nothing is downloaded at run time):
* penguins: palmerpenguins (344 rows; `island`, `sex` text columns; missing values), species (3 classes);
* fair: statsmodels `fair` (6,366 rows), `affairs > 0` (2 classes), `religious` and `occupation` as categories;
* randhie: statsmodels `randhie` (20,190 rows), regression of `mdvis`;
* big: 1,000,000 x 20 Gaussian regression (200,000 rows with --quick).
Models: a RandomForest (100 trees, min_samples_leaf=5) Pipeline (imputer + one-hot on text columns) or a plain forest
on numeric data, and a HistGradientBoosting model (categories from the frame's dtype where the data has them).

Columns of the table, each the median of `--reps` (default 7) calls after one warm-up, every side on all cores, the
sides called in turn in every round (so that load from other processes hits all of them alike):
* ours     = `contributions(model, X)`: the default call, additivity check included (the first call of a model, made
  in the warm-up, compares every row; later calls the rows with a missing value);
* no check = `contributions(model, X, check_additivity=False)`;
* shap     = `TreeExplainer(final model).shap_values(rows it sees, approximate=True)`, explainer built once outside the
  timer (as our model's trees are read once, by the first call, outside it); for a Pipeline the timed call is the
  pipeline's transform and then shap on its output, the same work as ours (the transform alone is printed);
  shap cannot take an HGB model with category columns (its reading of their splits is wrong, see notebook 01c), so
  that cell says so;
* predict  = the model's own predict_proba / predict on the same rows.
Run: .venv/bin/python bench/practice.py [--quick] [--reps N]   (needs: pip install palmerpenguins statsmodels shap)
"""

import os, sys, time, statistics, warnings
import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import deepforest_interp as dfi
from _timing import interleaved

warnings.filterwarnings('ignore')
quick = '--quick' in sys.argv
reps = int(sys.argv[sys.argv.index('--reps') + 1]) if '--reps' in sys.argv else 7
try:
    import palmerpenguins
    import statsmodels.api as sm
    import shap
except ImportError as err:
    sys.exit(f'bench/practice.py needs palmerpenguins, statsmodels and shap: {err}')


def med(fn, reps=reps):
    fn()  # warm-up
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def data_sets():
    p = palmerpenguins.load_penguins().dropna(subset=['species'])
    yield 'penguins', p.drop(columns='species'), p['species'].astype(str), True
    f = sm.datasets.fair.load_pandas().data
    Xf = f.drop(columns='affairs').astype({'religious': int, 'occupation': int})
    Xf = Xf.astype({'religious': 'category', 'occupation': 'category'})
    yield 'fair', Xf, (f['affairs'] > 0).astype(int), True
    r = sm.datasets.randhie.load_pandas().data
    yield 'randhie', r.drop(columns='mdvis'), r['mdvis'], False
    n = 200_000 if quick else 1_000_000
    rng = np.random.default_rng(0)
    Xb = pd.DataFrame(rng.normal(size=(n, 20)), columns=[f'x{j}' for j in range(20)])
    yield 'big', Xb, Xb.x0 + Xb.x1 * Xb.x2 + 0.1 * rng.normal(size=n), False


def forest(X, clf):
    cats = [c for c in X.columns if isinstance(X[c].dtype, pd.CategoricalDtype)]
    text = [
        c
        for c in X.columns
        if not pd.api.types.is_numeric_dtype(X[c]) and c not in cats
    ]
    rf = (RandomForestClassifier if clf else RandomForestRegressor)(
        100, min_samples_leaf=5, random_state=0, n_jobs=-1
    )
    if not text and not cats and not X.isna().any().any():
        return rf
    num = [c for c in X.columns if c not in text and c not in cats]
    ct = make_column_transformer(
        (
            make_pipeline(
                SimpleImputer(strategy='most_frequent'),
                OneHotEncoder(handle_unknown='ignore'),
            ),
            text + cats,
        ),
        (SimpleImputer(), num),
    )
    return make_pipeline(ct, rf)


def row(name, model_name, model, X):
    final = model[-1] if hasattr(model, 'steps') else model
    rows = model[:-1].transform(X) if hasattr(model, 'steps') else X
    predict = model.predict_proba if hasattr(model, 'predict_proba') else model.predict
    dfi.adapters.clear_node_tables()
    dfi.contributions(
        model, X
    )  # the model's first call: reads its trees, checks every row
    cats = isinstance(X, pd.DataFrame) and any(
        isinstance(t, pd.CategoricalDtype) for t in X.dtypes
    )
    fns = {
        'ours': lambda: dfi.contributions(model, X),
        'plain': lambda: dfi.contributions(model, X, check_additivity=False),
        'own': lambda: predict(X),
    }
    once = (
        len(X) > 50_000
    )  # shap's Saabas on the big data: one timed call, not interleaved
    shap_s = None
    if cats and 'HistGradient' in type(final).__name__:
        shap_s = 'n/a (category columns)'
    else:
        ex = shap.TreeExplainer(final)
        if once:
            shap_s = f'{med(lambda: ex.shap_values(rows, approximate=True), 1) * 1e3:.1f} ms (1 call)'
        elif hasattr(
            model, 'steps'
        ):  # the same work as ours: the transform, then Saabas
            fns['shap'] = lambda: ex.shap_values(
                model[:-1].transform(X), approximate=True
            )
        else:
            fns['shap'] = lambda: ex.shap_values(rows, approximate=True)
    t = interleaved(fns, reps)
    ours, plain, own = t['ours'], t['plain'], t['own']
    if 'shap' in t:
        shap_s = f'{t["shap"] * 1e3:.1f} ms'
    extra = ''
    if hasattr(model, 'steps'):
        extra = f' (the pipeline transform alone: {med(lambda: model[:-1].transform(X)) * 1e3:.1f} ms)'
    print(
        f'| {name} | {model_name} | {len(X):,} | {ours * 1e3:.1f} ms | {plain * 1e3:.1f} ms |'
        f' {shap_s} | {own * 1e3:.1f} ms |{extra}'
    )


print(
    f'load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores; median of {reps}'
)
print(
    '| data | model | rows | ours (default) | ours, no check | shap Saabas | model predict |'
)
print('|---|---|---|---|---|---|---|')
for name, X, y, clf in data_sets():
    rf = forest(X, clf).fit(X, y)
    row(name, 'RandomForest' + (' Pipeline' if hasattr(rf, 'steps') else ''), rf, X)
    hgb = (HistGradientBoostingClassifier if clf else HistGradientBoostingRegressor)(
        max_iter=100, categorical_features='from_dtype', random_state=0
    )
    Xh = X.copy()
    for c in Xh.columns:  # text columns as pandas categories, which HGB encodes itself
        if not pd.api.types.is_numeric_dtype(Xh[c]) and not isinstance(
            Xh[c].dtype, pd.CategoricalDtype
        ):
            Xh[c] = Xh[c].astype('category')
    row(name, 'HistGradientBoosting', hgb.fit(Xh, y), Xh)
print(f'load average after: {os.getloadavg()[0]:.2f}')
