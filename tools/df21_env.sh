#!/usr/bin/env bash
# Build a separate virtual environment with DF21 (LAMDA-NJU's deep forest, as the
# maintained fork `deep-forest-py310` 0.1.9 on PyPI), outside the repository:
#
#   bash tools/df21_env.sh /path/to/venv        # default: /work/df21env
#
# The project's own env (numpy 2, recent scikit-learn) cannot run DF21: 0.1.9 calls
# np.percentile(interpolation=...) (gone in numpy 2.4) and
# check_array(force_all_finite=...) (gone in scikit-learn 1.8), and pins
# scikit-learn < 1.6. Here: numpy < 2, scikit-learn < 1.6.
# Used by tools/make_df21_fixtures.py; tools/DF21_FORMAT.md describes the models.
# Last run: Python 3.11.7, numpy 1.26.4, scikit-learn 1.5.2, scipy 1.17.1,
# joblib 1.6.0, Cython 3.0.12, setuptools 65.5.0; the build takes about a minute.
set -euo pipefail

VENV="${1:-/work/df21env}"
PYTHON="${PYTHON:-python3.11}"   # python3.10 works too (the fork supports 3.10+)

"$PYTHON" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)

# Runtime deps with DF21's pins, plus the build deps of its sdist (Cython 3.0.x,
# setuptools < 70). There is no wheel on PyPI: pip compiles the Cython sources.
"${PIP[@]}" install "numpy<2" "scikit-learn<1.6" scipy joblib \
    "setuptools<70" wheel "Cython>=3.0,<3.1"

# --no-build-isolation: compile against the numpy installed above (the sdist's
# isolated build would fetch numpy 2 and oldest-supported-numpy for the build);
# --no-cache-dir: never reuse a wheel cached from a build against another numpy;
# --no-deps: the deps are already there.
"${PIP[@]}" install --no-build-isolation --no-deps --no-cache-dir \
    "deep-forest-py310==0.1.9"

"${PIP[@]}" check

# Smoke test: import, fit a small classifier and regressor, predict.
"$VENV/bin/python" - <<'EOF'
import warnings

import numpy as np
import sklearn
from sklearn.datasets import load_diabetes, load_iris
from deepforest import CascadeForestClassifier, CascadeForestRegressor

warnings.simplefilter('ignore')
kw = dict(n_bins=32, n_estimators=2, max_layers=2, max_depth=4, random_state=0, verbose=0)
X, y = load_iris(return_X_y=True)
clf = CascadeForestClassifier(n_trees=10, **kw)
clf.fit(X, y)  # DF21's fit returns None, not self
proba = clf.predict_proba(X)
assert proba.shape == (150, 3) and np.allclose(proba.sum(axis=1), 1)
X, y = load_diabetes(return_X_y=True)
reg = CascadeForestRegressor(n_trees=30, **kw)  # fewer: rows without OOB tree, NaN error
reg.fit(X, y)
assert reg.predict(X).shape == (442, 1)
print('DF21 ok: numpy', np.__version__, 'scikit-learn', sklearn.__version__,
      '| accuracy', (clf.predict(load_iris().data) == load_iris().target).mean())
EOF
