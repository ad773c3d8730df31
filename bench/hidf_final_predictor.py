"""hiDF's final predictor (issue 22): which forests to refit on the best structure, chosen on training rows only.

For each data set, the default `HiDFClassifier(random_state=0)` is fitted on all training rows; its representation
[X, ALC features] of those rows is then given to each candidate final predictor, scored by 3-fold stratified
cross-validation on the training rows (the test rows are never read), and refitted on all training rows to measure its
pickled size. Candidates: the structure's own four forests (random forest, extra-trees, alternating; 50 trees each:
`final_estimator='layer'`), one random forest and one extra-trees of 50 trees, one random forest of 100 trees (the
default `final_estimator='rf'`) or 200 trees. The default gcForest's size on the same rows is in notebook 14.

    nice -n 5 python bench/hidf_final_predictor.py [--data Satimage,Crowdsourced,Bank,Adult]
"""

import argparse, io, pickle
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier, ExtraTreesClassifier
from sklearn.model_selection import StratifiedKFold
from hidf_targets import get_data, LOADERS
from deepforest_interp.hidf import HiDFClassifier

CANDIDATES = {  # name -> [(forest class, trees)]
    "4 forests x 50 ('layer')": [
        (RandomForestClassifier, 50),
        (ExtraTreesClassifier, 50),
    ]
    * 2,
    'RF 50 + ERF 50': [(RandomForestClassifier, 50), (ExtraTreesClassifier, 50)],
    "RF 100 ('rf', default)": [(RandomForestClassifier, 100)],
    'RF 200': [(RandomForestClassifier, 200)],
}


def fit_forests(spec, Z, y, seed=1):
    return [
        cls(n_estimators=n, max_features='sqrt', random_state=seed + i, n_jobs=1).fit(
            Z, y
        )
        for i, (cls, n) in enumerate(spec)
    ]


def proba(forests, Z):
    "Mean over all trees (forests weighted by their tree counts), as HiDFClassifier.predict_proba."
    n = sum(len(f.estimators_) for f in forests)
    return sum(f.predict_proba(Z) * len(f.estimators_) for f in forests) / n


def compare(name):
    Xa, _, ya, _ = get_data(name, 0)  # training rows only
    Z = HiDFClassifier(random_state=0, n_jobs=1).fit(Xa, ya).representation(Xa)
    rows = []
    for cand, spec in CANDIDATES.items():
        acc = []
        for tr, va in StratifiedKFold(3, shuffle=True, random_state=0).split(Z, ya):
            fs = fit_forests(spec, Z[tr], ya[tr])
            acc.append(np.mean(fs[0].classes_[proba(fs, Z[va]).argmax(1)] == ya[va]))
        buf = io.BytesIO()
        pickle.dump(fit_forests(spec, Z, ya), buf, protocol=pickle.HIGHEST_PROTOCOL)
        rows.append(
            dict(
                data=name,
                final_predictor=cand,
                cv_accuracy=100 * np.mean(acc),
                size_MB=buf.getbuffer().nbytes / 2**20,
            )
        )
        print(rows[-1], flush=True)
    return rows


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default='Satimage,Crowdsourced,Bank,Adult')
    a = ap.parse_args()
    unknown = [d for d in a.data.split(',') if d not in LOADERS]
    if unknown:
        raise SystemExit(f'unknown data sets {unknown}; known: {list(LOADERS)}')
    res = pd.DataFrame([r for d in a.data.split(',') for r in compare(d)])
    print(res.round(2).to_string(index=False))
