"""hiDF targets and Table II on all rows (issue 22): accuracy, pickle size and test time of the default HiDFClassifier
against our gcForest (CascadeForestClassifier), the baselines of Table II (random forest, extra-trees with 500 trees,
HistGradientBoosting for XGBoost/GBDT, an RBF SVC on standardised inputs), Table III's models grown to 20 layers without
early stopping, and the ablations of hiDF (selection floor,
B, ERF feature sampling, trees per forest, final predictor: the structure's 4 forests instead of one random forest, or a
gcForest cascade on hiDF's representation [X, ALC]), on
all training rows of the offline Table II data sets; resumable repetitions.

    nice -n 5 python bench/hidf_targets.py [--data Satimage,Crowdsourced] [--methods hiDF,gcForest] [--reps 5]

Every (data set, method, repetition) is one task of `run_repetitions` (slug 'hidf_bench', stored under
figures/reps/hidf_bench/), so an interrupted run resumes where it stopped. Test rows are only scored, never used to
choose anything: the ablations (stability floor, ERF feature sampling) also store the out-of-fold accuracy of the
best structure (`oof`), which is what a choice between them may use. Prints a summary table (mean ± sd, n runs).
"""

import argparse, pickle, time
import numpy as np
import pandas as pd
from sklearn.ensemble import (
    RandomForestClassifier,
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.datasets import (
    load_adult,
    load_bank_marketing,
    load_statlog_satellite,
    load_crowdsourced_mapping,
)
from deepforest_interp.experiments import run_repetitions
from deepforest_interp.hidf import HiDFClassifier

LOADERS = {
    'Adult': load_adult,
    'Bank': load_bank_marketing,
    'Satimage': load_statlog_satellite,
    'Crowdsourced': load_crowdsourced_mapping,
}
METHODS = {  # name -> (class, settings); the ablations vary one component of the default hiDF at a time
    'hiDF': (HiDFClassifier, {}),
    'hiDF floor 0.5': (HiDFClassifier, dict(stability_threshold=0.5)),  # selection rule
    'hiDF floor 0.1': (HiDFClassifier, dict(stability_threshold=0.1)),
    'hiDF floor 0 (top-6)': (HiDFClassifier, dict(stability_threshold=0.0)),
    'hiDF B=10': (HiDFClassifier, dict(n_bootstrap=10)),  # bootstrap repetitions B
    'hiDF ERF subsets': (
        HiDFClassifier,
        dict(feature_sampling='subsets'),
    ),  # ERF weighting
    'hiDF 2x trees': (
        HiDFClassifier,
        dict(n_estimators=100, n_estimators_final=200),
    ),  # trees: structures, final
    'hiDF final: 4 forests': (
        HiDFClassifier,
        dict(final_estimator='layer'),
    ),  # final predictor: the layer's forests
    'hiDF + cascade on X+ALC': (
        HiDFClassifier,
        {},
    ),  # final predictor: see repetition()
    'hiDF (cascade)': (HiDFClassifier, dict(pipeline='cascade')),
    'gcForest': (CascadeForestClassifier, {}),
    'gcForest 1 layer': (CascadeForestClassifier, dict(max_layers=1)),
    'Random forest': (RandomForestClassifier, dict(n_estimators=500)),
    'ExtraTrees': (ExtraTreesClassifier, dict(n_estimators=500)),
    'Gradient boosting': (
        HistGradientBoostingClassifier,
        dict(max_iter=500, max_depth=6, early_stopping=False),
    ),
    'SVC': (None, {}),  # RBF SVC on standardised inputs
    # Table III: grown to 20 layers without early stopping (hiDF 'paper': 19 searches = 20 scored structures)
    'gcForest 20 layers': (
        CascadeForestClassifier,
        dict(max_layers=20, n_tolerant_rounds=20),
    ),
    'hiDF 20 layers': (HiDFClassifier, dict(max_layers=19, n_tolerant_rounds=20)),
    'hiDF (cascade) 20 layers': (
        HiDFClassifier,
        dict(pipeline='cascade', max_layers=20, n_tolerant_rounds=20),
    ),
}
FINAL_CASCADE = 'hiDF + cascade on X+ALC'


class _Stacked:
    "The final-predictor ablation: hiDF's representation [X, ALC features] fed to a gcForest cascade (class vectors)."

    def __init__(self, rep):
        self.hidf = HiDFClassifier(random_state=rep, n_jobs=1)
        self.cascade = CascadeForestClassifier(
            random_state=rep, n_jobs=1, prepare_explanations=False
        )

    def fit(self, X, y):
        self.hidf.fit(X, y)
        self.cascade.fit(self.hidf.representation(X), y)
        self.validation_scores_ = self.cascade.validation_scores_
        return self

    def predict(self, X):
        return self.cascade.predict(self.hidf.representation(X))


class _ByteCounter:
    "A file that only counts what is written to it: the pickled size of a model grown to 20 layers, without a copy."

    n = 0

    def write(self, b):
        n = memoryview(b).nbytes
        self.n += n
        return n


def make_model(method, rep):
    "A fresh model of `method` for repetition `rep` (one thread, so that two runs can share the machine)."
    if method == FINAL_CASCADE:
        return _Stacked(rep)
    if method == 'SVC':
        return make_pipeline(StandardScaler(), SVC())
    cls, kw = METHODS[method]
    if cls is HistGradientBoostingClassifier:
        return cls(random_state=rep, **kw)
    return cls(random_state=rep, n_jobs=1, **kw)


def get_data(name, rep):
    "All training rows and the test rows (official split; Bank: the seeded 80/20 split of repetition `rep`)."
    Xa, Xb, ya, yb = (
        LOADERS[name](random_state=rep) if name == 'Bank' else LOADERS[name]()
    )
    # the loaders integer-code every categorical column (trees split on the codes)
    return (
        Xa.to_numpy(dtype=float),
        Xb.to_numpy(dtype=float),
        np.asarray(ya),
        np.asarray(yb),
    )


def repetition(data, method, rep):
    "Fit one model on all training rows; test accuracy (%), fit / predict seconds, pickle MB, layers."
    Xa, Xb, ya, yb = get_data(data, rep)
    m = make_model(method, rep)
    # wall-clock seconds and CPU seconds of this process (all its threads): the CPU time does not count the time the
    # process waits for a core on this shared machine (or is paused while another benchmark times itself)
    t, c = time.perf_counter(), time.process_time()
    m.fit(Xa, ya)
    fit_s, fit_cpu_s = time.perf_counter() - t, time.process_time() - c
    m.predict(Xb[:50])  # warm-up
    t, c = time.perf_counter(), time.process_time()
    pred = m.predict(Xb)
    pred_s, pred_cpu_s = time.perf_counter() - t, time.process_time() - c
    buf = _ByteCounter()
    pickle.dump(m, buf, protocol=pickle.HIGHEST_PROTOCOL)  # the size, without a copy
    out = dict(
        accuracy=100 * float(np.mean(pred == yb)),
        fit_s=fit_s,
        predict_s=pred_s,
        fit_cpu_s=fit_cpu_s,
        predict_cpu_s=pred_cpu_s,
        pickle_mb=buf.n / 2**20,
        n_train=len(Xa),
        n_test=len(Xb),
    )
    if hasattr(m, 'validation_scores_'):
        out.update(
            oof=100 * float(max(m.validation_scores_)),
            structures_grown=len(m.validation_scores_),
        )
    if isinstance(m, _Stacked):
        h = m.hidf
        out.update(
            kept_structures=int(h.best_layer_) + int(m.cascade.n_layers_),
            alc=len(h.feature_names_out_) - h.n_features_in_,
            found=int(sum(h.n_interactions_)),
            stop=h.stop_reason_,
        )
    elif isinstance(
        m, HiDFClassifier
    ):  # alc: ALC features kept in the model; found: stable interactions of all searches
        grown = m.layers_ if m.pipeline == 'paper' else m._grown_layers
        out.update(
            kept_structures=int(m.best_layer_) + 1
            if m.pipeline == 'paper'
            else len(m.layers_),
            alc=len(m.feature_names_out_) - m.n_features_in_,
            found=sum(len(L.interactions) for L in grown),
            stop=m.stop_reason_,
        )
    elif isinstance(m, CascadeForestClassifier):
        out.update(kept_structures=int(m.n_layers_))
    return out


def summary(res):
    g = res.groupby(['data', 'method'], sort=False)
    cols = [
        c
        for c in [
            'accuracy',
            'oof',
            'pickle_mb',
            'predict_s',
            'fit_s',
            'kept_structures',
        ]
        if c in res
    ]
    t = g[cols].agg(['mean', 'std']).round(3)
    t[('runs', '')] = g.size()
    return t


def run_tasks(
    data: list, methods: list, reps: int, first_rep: int = 0, verbose: bool = True
) -> pd.DataFrame:
    "Run (or read back) every (data set, method, repetition) task; stored under figures/reps/hidf_bench/."
    unknown = [m for m in methods if m not in METHODS] + [
        d for d in data if d not in LOADERS
    ]
    if unknown:
        raise ValueError(
            f'unknown data sets or methods: {unknown}; known: {list(LOADERS)}, {list(METHODS)}'
        )
    tasks = [
        dict(data=d, method=m, rep=r)
        for r in range(first_rep, reps)
        for d in data
        for m in methods
    ]
    return run_repetitions(repetition, tasks, slug='hidf_bench', verbose=verbose)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default='Satimage,Crowdsourced')
    ap.add_argument('--methods', default='hiDF,gcForest')
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--first-rep', type=int, default=0)
    a = ap.parse_args()
    res = run_tasks(a.data.split(','), a.methods.split(','), a.reps, a.first_rep)
    pd.set_option('display.width', 200)
    print(summary(res))
