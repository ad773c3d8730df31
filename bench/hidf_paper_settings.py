"""Table II of Chen, Lyu and Jiang (2021) at the paper's hiDF settings and an equal tree budget, on the subsampled
protocol of notebook 14 (at most 4,000 training rows, a new stratified subsample per repetition; at most 5,000 test
rows): hiDF = `HiDFClassifier.paper()` (Sec. III-B: 500-tree random forests, B = 10, gRIT depth 5, at most 10 layers)
whose final random forest has as many trees as our gcForest predicts with per layer, against that gcForest, on the
same rows of every repetition, computed by one code version. The tree budget is equal per final layer only: gcForest
predicts with 6,000 trees per kept layer. `--methods "gcForest (one layer; equal whole-model budget)"` adds gcForest cut
to one layer, 6,000 trees in all, as hiDF.

    nice -n 5 python bench/hidf_paper_settings.py [--data Adult,Bank] [--reps 5] [--methods ...]

Every (data set, repetition, method) is one task of `run_repetitions` (slug 'hidf_paper_settings', stored under
figures/reps/hidf_paper_settings/), so an interrupted run resumes where it stopped. One thread per task (n_jobs=1).

Both sides at the papers' settings: hiDF as Sec. III-B of Chen, Lyu and Jiang (2021); gcForest "as default", i.e.
Zhou and Feng's cascade: 4 forests per layer (2 random forests, 2 completely random forests; ours: extra-trees) of 500
trees, class vectors from 3-fold cross-fitting. Our gcForest keeps each forest's 3 fold models and predicts with their mean,
so it predicts with 4 × 3 × 500 = 6,000 trees per layer. The equal tree budget gives hiDF's final predictor (Algorithm
2's one random forest, 500 trees in the paper) those 6,000 trees; hiDF's scored structures keep the paper's one
500-tree forest, cross-fitted on 3 folds (1,500 trees per structure), and its front layers keep no trees at all.
"""

import argparse, time
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from deepforest_interp.cascade import CascadeForestClassifier
from deepforest_interp.datasets import (
    load_adult,
    load_bank_marketing,
    load_statlog_satellite,
    load_crowdsourced_mapping,
)
from deepforest_interp.experiments import run_repetitions
from deepforest_interp.hidf import HiDFClassifier, PAPER_SETTINGS

SLUG, VERSION = 'hidf_paper_settings', '2'
LOADERS = {
    'Adult': load_adult,
    'Bank': load_bank_marketing,
    'Satimage': load_statlog_satellite,
    'Crowdsourced Mapping': load_crowdsourced_mapping,
}
MAX_TRAIN, MAX_TEST = 4000, 5000  # notebook 14's subsampled protocol
GCF_FORESTS, GCF_FOLDS, GCF_TREES = 4, 3, 500  # Zhou and Feng's gcForest
BUDGET = GCF_FORESTS * GCF_FOLDS * GCF_TREES  # trees gcForest predicts with per layer
METHODS = ['hiDF (paper settings)', 'gcForest (equal budget)']
# the equal WHOLE-MODEL budget: gcForest cut to its first layer predicts with 4 x 3 x 500 = 6,000 trees, as many as hiDF
# predicts with in all (its front layers keep no trees); the per-layer budget above lets gcForest predict with one
# 6,000-tree set per kept layer
ONE_LAYER = 'gcForest (one layer; equal whole-model budget)'


def get_data(name, rep, max_train=MAX_TRAIN, max_test=MAX_TEST):
    "Training / test rows of repetition `rep`, as notebook 14's `get_data` (Bank: a new seeded split; a stratified training subsample)."
    Xa, Xb, ya, yb = (
        LOADERS[name](random_state=rep) if name == 'Bank' else LOADERS[name]()
    )
    Xa, Xb = Xa.astype(float), Xb.astype(float)  # the loaders integer-code categories
    if max_train and len(Xa) > max_train:
        Xa, _, ya, _ = train_test_split(
            Xa, ya, train_size=max_train, stratify=ya, random_state=rep
        )
    if max_test and len(Xb) > max_test:
        Xb, _, yb, _ = train_test_split(
            Xb, yb, train_size=max_test, stratify=yb, random_state=0
        )
    return Xa, Xb, ya, yb


def make_model(method, rep):
    "A fresh model of `method` for repetition `rep`, one thread."
    if method == 'hiDF (paper settings)':
        return HiDFClassifier.paper(
            n_estimators_final=BUDGET, random_state=rep, n_jobs=1
        )
    if method == 'gcForest (equal budget)':
        return CascadeForestClassifier(
            n_forests=GCF_FORESTS,
            n_estimators=GCF_TREES,
            n_folds=GCF_FOLDS,
            random_state=rep,
            n_jobs=1,
            prepare_explanations=False,  # gcForest as trained in the paper
        )
    if method == ONE_LAYER:
        return CascadeForestClassifier(
            n_forests=GCF_FORESTS,
            n_estimators=GCF_TREES,
            n_folds=GCF_FOLDS,
            max_layers=1,
            random_state=rep,
            n_jobs=1,
            prepare_explanations=False,  # gcForest as trained in the paper
        )
    raise ValueError(f'unknown method {method!r}; known: {METHODS + [ONE_LAYER]}')


def repetition(data, method, rep, max_train, max_test):
    "Fit one model on repetition `rep`'s rows: test accuracy (%), seconds, layers, trees, ALC interactions kept."
    Xa, Xb, ya, yb = get_data(data, rep, max_train, max_test)
    m = make_model(method, rep)
    t, c = time.perf_counter(), time.process_time()
    m.fit(Xa, ya)
    fit_s, fit_cpu_s = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    pred = m.predict(Xb)
    pred_s, pred_cpu_s = time.perf_counter() - t, time.process_time() - c
    out = dict(
        accuracy=100 * float(np.mean(pred == np.asarray(yb))),
        fit_s=fit_s,
        fit_cpu_s=fit_cpu_s,
        predict_s=pred_s,
        predict_cpu_s=pred_cpu_s,
        n_train=len(Xa),
        n_test=len(Xb),
        oof=100 * float(max(m.validation_scores_)),
        layers_grown=len(m.validation_scores_),  # scored structures / cascade layers
    )
    if isinstance(m, HiDFClassifier):
        used = m.layers_[: m.best_layer_]  # the ALC layers the final forest reads
        out.update(
            layers_kept=int(m.best_layer_),  # ALC layers in front of the final forest
            alc=len(m.feature_names_out_) - m.n_features_in_,  # interactions kept
            alc_per_layer=[len(L.interactions) for L in used],
            found_per_search=[len(L.interactions) for L in m.layers_],
            final_trees=int(sum(len(f.estimators_) for f in m.forests_)),
            trees_kept=int(
                sum(len(f.estimators_) for f in m.forests_)
            ),  # front layers: none
            stop=m.stop_reason_,
        )
    else:
        best = m.layers_[m.best_layer_]
        out.update(
            layers_kept=int(m.n_layers_),
            final_trees=int(sum(len(f.estimators_) for fs in best for f in fs)),
            # every kept layer predicts: the trees of layers 0..best
            trees_kept=int(
                sum(
                    len(f.estimators_)
                    for lay in m.layers_[: m.n_layers_]
                    for fs in lay
                    for f in fs
                )
            ),
        )
    return out


def tasks(data=None, reps=5, methods=None, first_rep=0):
    "One task per (data set, repetition, method), in the order they are run."
    return [
        dict(data=d, method=m, rep=r, max_train=MAX_TRAIN, max_test=MAX_TEST)
        for r in range(first_rep, reps)
        for d in data or list(LOADERS)
        for m in methods or METHODS
    ]


def run_tasks(data=None, reps=5, methods=None, first_rep=0, verbose=True):
    "Run (or read back) the tasks; stored under figures/reps/hidf_paper_settings/."
    return run_repetitions(
        repetition,
        tasks(data, reps, methods, first_rep),
        slug=SLUG,
        version=VERSION,
        verbose=verbose,
    )


assert PAPER_SETTINGS['n_forests'] == 1 and PAPER_SETTINGS['n_estimators'] == GCF_TREES

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=','.join(LOADERS))
    ap.add_argument('--methods', default=','.join(METHODS))
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--first-rep', type=int, default=0)
    a = ap.parse_args()
    res = run_tasks(
        a.data.split(','), a.reps, a.methods.split(','), a.first_rep, verbose=True
    )
    pd.set_option('display.width', 200)
    print(
        res.groupby(['data', 'method'], sort=False)[
            ['accuracy', 'fit_s', 'layers_grown', 'final_trees']
        ].agg(['mean', 'std', 'size'])
    )
