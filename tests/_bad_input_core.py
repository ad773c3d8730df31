"Bad-input table: core validation helpers and the Explanation object (issue 11 §3)."

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.tree import DecisionTreeRegressor
from _bad_input_common import Bad, Edge
from deepforest_interp.core import (
    check_int,
    check_n_jobs,
    check_y,
    check_model,
    inbag_counts,
    oob_mask,
)
from deepforest_interp.rows import check_X
from deepforest_interp.explanation import Explanation
from deepforest_interp.nodes import tree_arrays

_rng = np.random.default_rng(0)
X = _rng.normal(size=(40, 3))
y = (X[:, 0] > 0).astype(int)
rf = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
e = Explanation(np.zeros((4, 3)), np.zeros(4), ['a', 'b', 'c'])

BAD = [
    Bad(
        'check_n_jobs/str',
        lambda: check_n_jobs('two'),
        TypeError,
        'n_jobs must be an int',
    ),
    Bad('check_n_jobs/zero', lambda: check_n_jobs(0), ValueError, 'non-zero'),
    Bad(
        'check_int/bool',
        lambda: check_int(True, 'depth'),
        TypeError,
        'depth must be an int',
    ),
    Bad(
        'check_X/sparse-too-large',
        lambda: check_X(sp.csr_matrix((10**6, 10**4))),
        ValueError,
        'sparse matrix of shape',
    ),
    Bad('check_X/ragged', lambda: check_X([[1, 2], [3]]), ValueError, 'ragged'),
    Bad('check_X/strings', lambda: check_X([['a', 'b']]), TypeError, 'strings'),
    Bad(
        'check_X/duplicate-columns',
        lambda: check_X(pd.DataFrame([[1, 2]], columns=['a', 'a'])),
        ValueError,
        'duplicate column',
    ),
    Bad('check_X/nan', lambda: check_X(np.array([[np.nan, 1.0]])), ValueError, 'NaN'),
    Bad(
        'check_X/inf',
        lambda: check_X(np.array([[np.inf, 1.0]])),
        ValueError,
        'infinite',
    ),
    Bad('check_X/3-D', lambda: check_X(np.zeros((2, 2, 2))), ValueError, '2-D'),
    Bad('check_X/empty', lambda: check_X(np.zeros((0, 3))), ValueError, 'no rows'),
    Bad(
        'check_X/wrong-width',
        lambda: check_X(X[:, :2], rf),
        ValueError,
        'fitted with 3',
    ),
    Bad(
        'check_X/wrong-names',
        lambda: check_X(
            pd.DataFrame(X, columns=list('abc')),
            RandomForestClassifier(n_estimators=2).fit(
                pd.DataFrame(X, columns=list('xyz')), y
            ),
        ),
        ValueError,
        "missing ['x', 'y', 'z'], unexpected ['a', 'b', 'c']",
    ),
    Bad(
        'check_y/None',
        lambda: check_y(np.array([1, None, 0], dtype=object), 3),
        ValueError,
        'missing values',
    ),
    Bad(
        'check_y/nan-object',
        lambda: check_y(np.array(['a', np.nan], dtype=object), 2),
        ValueError,
        'missing values',
    ),
    Bad(
        'check_y/nan-float',
        lambda: check_y(np.array([1.0, np.nan]), 2),
        ValueError,
        'NaN',
    ),
    Bad('check_y/wrong-length', lambda: check_y(y[:5], 40), ValueError, 'has 5 rows'),
    Bad('check_y/ragged', lambda: check_y([[1, 2], [3]], 2), ValueError, 'rectangular'),
    Bad(
        'check_model/unfitted',
        lambda: check_model(RandomForestClassifier()),
        ValueError,
        'not fitted',
    ),
    Bad(
        'check_model/wrong-type',
        lambda: check_model(object()),
        TypeError,
        'unsupported model type',
    ),
    Bad('tree_arrays/forest', lambda: tree_arrays(rf), TypeError, 'one fitted tree'),
    Bad(
        'tree_arrays/unfitted',
        lambda: tree_arrays(DecisionTreeRegressor()),
        ValueError,
        'not fitted',
    ),
    Bad(
        'tree_arrays/object',
        lambda: tree_arrays(object()),
        TypeError,
        'fitted sklearn decision tree',
    ),
    Bad('Explanation/out-of-range', lambda: e[10], ValueError, 'out of range'),
    Bad('Explanation/bad-key', lambda: e['a'], (TypeError, ValueError), 'rows'),
    Bad(
        'Explanation/bad-bias',
        lambda: Explanation(np.zeros((2, 3)), np.zeros(3), ['a', 'b', 'c']),
        ValueError,
        'bias has shape',
    ),
    Bad(
        'Explanation/names',
        lambda: Explanation(np.zeros((2, 3)), np.zeros(2), ['a']),
        ValueError,
        'feature names',
    ),
    Bad(
        'inbag_counts/wrong-rows',
        lambda: inbag_counts(rf, 10),
        ValueError,
        'fitted on 40',
    ),
    Bad(
        'oob_mask/no-bootstrap',
        lambda: oob_mask(
            RandomForestRegressor(n_estimators=2, bootstrap=False).fit(X, X[:, 0])
        ),
        ValueError,
        'bootstrap=False',
    ),
]
EDGE = [
    Edge('check_n_jobs/-1', lambda: check_n_jobs(-1), lambda out: out == -1),
    Edge(
        'check_X/sparse',
        lambda: check_X(sp.csr_matrix(X), rf),
        lambda out: np.array_equal(out[0], X),
    ),
    Edge('check_X/one-row', lambda: check_X(X[0]), lambda out: out[0].shape == (1, 3)),
    Edge(
        'check_y/column',
        lambda: check_y(y[:, None], 40),
        lambda out: out.shape == (40, 1),
    ),
    Edge('Explanation/negative-index', lambda: e[-1], lambda out: len(out) == 1),
]

# ---- round two (issue 16): shared vocabulary in core ---------------------------------------------------------------
from sklearn.ensemble import RandomForestRegressor as _RFR
from deepforest_interp.core import (
    check_real,
    check_index,
    encode_target,
    model_trees,
    feature_names,
)
from deepforest_interp.nodes import check_training_rows

_yr = X[:, 0] + 0.3 * X[:, 1]
_tiny = _RFR(n_estimators=3, random_state=0).fit(X, _yr * 1e-7)
_mono = _RFR(n_estimators=3, random_state=0, monotonic_cst=[1, 0, 0]).fit(X, _yr)
_perm = np.random.default_rng(5).permutation(40)
BAD += [
    Bad('check_X/complex-array', lambda: check_X(X + 1j), TypeError, 'complex'),
    Bad(
        'check_X/complex-frame',
        lambda: check_X(pd.DataFrame({'a': X[:, 0] + 1j, 'b': X[:, 1]})),
        TypeError,
        'complex-valued columns',
    ),
    Bad(
        'check_real/inf',
        lambda: check_real(np.inf, 'noise', 0),
        ValueError,
        'noise must be a finite number',
    ),
    Bad(
        'check_real/str',
        lambda: check_real('1', 'noise'),
        TypeError,
        'noise must be a real number',
    ),
    Bad(
        'check_index/out-of-range',
        lambda: check_index(3, 3, 'row'),
        ValueError,
        'row 3 is out of range',
    ),
    Bad(
        'check_index/float',
        lambda: check_index(1.0, 3, 'row'),
        TypeError,
        'row must be an int',
    ),
    Bad(
        'encode_target/complex', lambda: encode_target(rf, y + 0j), TypeError, 'complex'
    ),
    Bad(
        'encode_target/unknown-label',
        lambda: encode_target(rf, y + 3),
        ValueError,
        'not fitted on',
    ),
    Bad(
        'model_trees/boosting',
        lambda: model_trees(object()),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'feature_names/no-width',
        lambda: feature_names(object()),
        ValueError,
        'pass n_features',
    ),
    Bad(
        'check_training_rows/tiny-target-permuted',
        lambda: check_training_rows(_tiny, X, (_yr * 1e-7)[_perm]),
        ValueError,
        'not the target',
    ),
    Bad(
        'check_training_rows/monotonic-permuted',
        lambda: check_training_rows(_mono, X, _yr[_perm]),
        ValueError,
        'not the target',
    ),
    Bad(
        'check_training_rows/rows-permuted',
        lambda: check_training_rows(_tiny, X[_perm]),
        ValueError,
        'not the data this forest',
    ),
    Bad(
        'check_training_rows/sample_weight-str',
        lambda: check_training_rows(_tiny, X, _yr, sample_weight=['a'] * 40),
        TypeError,
        'sample_weight must be numeric',
    ),
    Bad(
        'check_n_jobs/float',
        lambda: check_n_jobs(1.5),
        TypeError,
        'n_jobs must be an int',
    ),
]
EDGE += [
    Edge(
        'check_X/not-a-view',
        lambda: (lambda a: (a, check_X(a)[0]))(X.copy()),
        lambda out: not np.shares_memory(out[0], out[1]),
    ),
    Edge(
        'check_training_rows/tiny-target',
        lambda: check_training_rows(_tiny, X, _yr * 1e-7),
        lambda W: np.array_equal(W, inbag_counts(_tiny)),
    ),
    Edge(
        'check_training_rows/monotonic',
        lambda: check_training_rows(_mono, X, _yr),
        lambda W: np.array_equal(W, inbag_counts(_mono)),
    ),
    Edge(
        'check_index/negative', lambda: check_index(-1, 3, 'row'), lambda out: out == 2
    ),
]
