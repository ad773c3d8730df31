"""hiDF targets (issue 22): accuracy, pickle size and test time of the default HiDFClassifier against our gcForest
(CascadeForestClassifier) on all training rows of the offline Table II data sets; resumable repetitions.

    nice -n 5 python bench/hidf_targets.py [--data Satimage,Crowdsourced] [--methods hiDF,gcForest] [--reps 5]

Every (data set, method, repetition) is one task of `run_repetitions` (slug 'hidf_bench', stored under
figures/reps/hidf_bench/), so an interrupted run resumes where it stopped. Test rows are only scored, never used to
choose anything: the ablations (stability floor, ERF feature sampling) also store the out-of-fold accuracy of the
best structure (`oof`), which is what a choice between them may use. Prints a summary table (mean ± sd, n runs).
"""
import argparse, io, pickle, time
import numpy as np
import pandas as pd
from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.datasets import load_adult, load_bank_marketing, load_statlog_satellite, load_crowdsourced_mapping
from deepforest_interp.experiments import run_repetitions
from deepforest_interp.hidf import HiDFClassifier

LOADERS = {'Adult': load_adult, 'Bank': load_bank_marketing, 'Satimage': load_statlog_satellite,
           'Crowdsourced': load_crowdsourced_mapping}
METHODS = {   # name -> (class, settings)
    'hiDF': (HiDFClassifier, {}),
    'hiDF floor 0.5': (HiDFClassifier, dict(stability_threshold=0.5)),
    'hiDF floor 0.1': (HiDFClassifier, dict(stability_threshold=0.1)),
    'hiDF floor 0 (top-6)': (HiDFClassifier, dict(stability_threshold=0.0)),
    'hiDF ERF subsets': (HiDFClassifier, dict(feature_sampling='subsets')),
    'hiDF (cascade)': (HiDFClassifier, dict(pipeline='cascade')),
    'gcForest': (CascadeForestClassifier, {}),
    'gcForest 1 layer': (CascadeForestClassifier, dict(max_layers=1)),
}


def to_numeric(X):
    "Categorical / object columns to integer codes (trees split on codes), everything as float."
    X = X.copy()
    for c in X.columns:
        if isinstance(X[c].dtype, pd.CategoricalDtype): X[c] = X[c].cat.codes
        elif not pd.api.types.is_numeric_dtype(X[c]): X[c] = pd.factorize(X[c])[0]
    return X.astype(float)


def get_data(name, rep):
    "All training rows and the test rows (official split; Bank: the seeded 80/20 split of repetition `rep`)."
    Xa, Xb, ya, yb = LOADERS[name](random_state=rep) if name == 'Bank' else LOADERS[name]()
    return to_numeric(Xa).to_numpy(), to_numeric(Xb).to_numpy(), np.asarray(ya), np.asarray(yb)


def repetition(data, method, rep):
    "Fit one model on all training rows; test accuracy (%), fit / predict seconds, pickle MB, layers."
    Xa, Xb, ya, yb = get_data(data, rep)
    cls, kw = METHODS[method]
    m = cls(random_state=rep, n_jobs=1, **kw)
    t = time.perf_counter(); m.fit(Xa, ya); fit_s = time.perf_counter() - t
    m.predict(Xb[:50])                                        # warm-up
    t = time.perf_counter(); pred = m.predict(Xb); pred_s = time.perf_counter() - t
    buf = io.BytesIO(); pickle.dump(m, buf, protocol=pickle.HIGHEST_PROTOCOL)
    out = dict(accuracy=100 * float(np.mean(pred == yb)), fit_s=fit_s, predict_s=pred_s,
               pickle_mb=buf.tell() / 2 ** 20, n_train=len(Xa), n_test=len(Xb),
               oof=100 * float(max(m.validation_scores_)), structures_grown=len(m.validation_scores_))
    if isinstance(m, HiDFClassifier):
        out.update(kept_structures=int(m.best_layer_) + 1 if m.pipeline == 'paper' else len(m.layers_),
                   alc=len(m.feature_names_out_) - m.n_features_in_, stop=m.stop_reason_)
    else:
        out.update(kept_structures=int(m.n_layers_))
    return out


def summary(res):
    g = res.groupby(['data', 'method'], sort=False)
    cols = ['accuracy', 'oof', 'pickle_mb', 'predict_s', 'fit_s', 'kept_structures']
    t = g[cols].agg(['mean', 'std']).round(3)
    t['runs'] = g.size()
    return t


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default='Satimage,Crowdsourced')
    ap.add_argument('--methods', default='hiDF,gcForest')
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--first-rep', type=int, default=0)
    a = ap.parse_args()
    tasks = [dict(data=d, method=m, rep=r) for r in range(a.first_rep, a.reps) for d in a.data.split(',')
             for m in a.methods.split(',')]
    res = run_repetitions(repetition, tasks, slug='hidf_bench', verbose=True)
    pd.set_option('display.width', 200)
    print(summary(res))
