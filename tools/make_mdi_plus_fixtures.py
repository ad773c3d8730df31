"""Store imodels' MDI+ on a few fitted forests, as the oracle of notebook 03c (tests/data/mdi_plus/*.npz).

Run in an environment with imodels (3.0.4 here; it also needs `six`, which it does not declare) and the same
scikit-learn as the project, from the repository root:

    python -m venv /tmp/imodels-env && /tmp/imodels-env/bin/pip install imodels==3.0.4 six scikit-learn==1.9.1
    /tmp/imodels-env/bin/python tools/make_mdi_plus_fixtures.py

Each file holds the data (X, y), the forest's settings (JSON), imodels' importances, and the
versions used. The test refits the forest from the settings with the project's scikit-learn: the same version fits
the same trees. imodels' `RandomForestPlus*.fit` refits the forest it is given, so it gets a copy whose `fit` does
nothing: both sides explain the very same trees. The data are drawn here (scikit-learn's make_friedman1 and
make_classification, and the iris data bundled with scikit-learn, BSD-3-Clause).
"""

import copy
import importlib.metadata as md
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import sklearn
from sklearn.base import is_classifier
from sklearn.datasets import load_iris, make_classification, make_friedman1
from sklearn.ensemble import (
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from imodels.importance import RandomForestPlusClassifier, RandomForestPlusRegressor

warnings.filterwarnings(
    'ignore'
)  # imodels: penalty= FutureWarning, lbfgs, log_loss row sums
OUT = Path(sys.argv[1] if len(sys.argv) > 1 else 'tests/data/mdi_plus')
FORESTS = {
    'RandomForestRegressor': RandomForestRegressor,
    'RandomForestClassifier': RandomForestClassifier,
    'ExtraTreesRegressor': ExtraTreesRegressor,
}


def frozen(forest):
    f = copy.copy(forest)
    f.fit = lambda X, y, sample_weight=None: f
    return f


def case(name, X, y, forest, params):
    est = FORESTS[forest](**params).fit(X, y)
    cls = (
        RandomForestPlusClassifier if is_classifier(est) else RandomForestPlusRegressor
    )
    rfp = cls(rf_model=frozen(est))
    rfp.fit(X, y)  # imodels' fit returns None
    scores = rfp.get_mdi_plus_scores(X, y)
    info = dict(
        forest=forest,
        params=params,
        versions={
            p: md.version(p) for p in ('imodels', 'scikit-learn', 'numpy', 'scipy')
        },
        python=sys.version.split()[0],
    )
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        OUT / f'{name}.npz',
        X=X,
        y=y,
        importance=scores['importance'].to_numpy(dtype=float),
        info=np.array(json.dumps(info)),
    )
    print(name, 'stored; sklearn', sklearn.__version__)


Xr, yr = make_friedman1(300, 10, noise=1.0, random_state=0)
case(
    'friedman1_rf',
    Xr,
    yr,
    'RandomForestRegressor',
    dict(n_estimators=20, random_state=0),
)
case(
    'friedman1_rf_msl5',
    Xr,
    yr,
    'RandomForestRegressor',
    dict(n_estimators=15, max_features=1.0, min_samples_leaf=5, random_state=1),
)
case(
    'friedman1_et', Xr, yr, 'ExtraTreesRegressor', dict(n_estimators=10, random_state=2)
)
Xb, yb = make_classification(200, 6, n_informative=3, random_state=0)
case(
    'binary_rf',
    Xb,
    yb,
    'RandomForestClassifier',
    dict(n_estimators=8, max_depth=6, random_state=0),
)
iris = load_iris()
case(
    'iris_rf',
    iris.data,
    iris.target,
    'RandomForestClassifier',
    dict(n_estimators=5, max_depth=4, random_state=0),
)
