"Bad-input table: core validation helpers and the Explanation object (issue 11 §3)."
import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.tree import DecisionTreeRegressor
from _bad_input_common import Bad, Edge
from deepforest_interp.core import (check_int, check_n_jobs, check_X, check_y, tree_arrays, Explanation, check_model,
                                    inbag_counts, oob_mask)

_rng = np.random.default_rng(0)
X = _rng.normal(size=(40, 3)); y = (X[:, 0] > 0).astype(int)
rf = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
e = Explanation(np.zeros((4, 3)), np.zeros(4), ['a', 'b', 'c'])

BAD = [
    Bad('check_n_jobs/str', lambda: check_n_jobs('two'), TypeError, 'n_jobs must be an int'),
    Bad('check_n_jobs/zero', lambda: check_n_jobs(0), ValueError, 'non-zero'),
    Bad('check_int/bool', lambda: check_int(True, 'depth'), TypeError, 'depth must be an int'),
    Bad('check_X/sparse-too-large', lambda: check_X(sp.csr_matrix((10**6, 10**4))), ValueError, 'sparse matrix of shape'),
    Bad('check_X/ragged', lambda: check_X([[1, 2], [3]]), ValueError, 'ragged'),
    Bad('check_X/strings', lambda: check_X([['a', 'b']]), TypeError, 'strings'),
    Bad('check_X/duplicate-columns', lambda: check_X(pd.DataFrame([[1, 2]], columns=['a', 'a'])), ValueError, 'duplicate column'),
    Bad('check_X/nan', lambda: check_X(np.array([[np.nan, 1.0]])), ValueError, 'NaN'),
    Bad('check_X/inf', lambda: check_X(np.array([[np.inf, 1.0]])), ValueError, 'infinite'),
    Bad('check_X/3-D', lambda: check_X(np.zeros((2, 2, 2))), ValueError, '2-D'),
    Bad('check_X/empty', lambda: check_X(np.zeros((0, 3))), ValueError, 'no rows'),
    Bad('check_X/wrong-width', lambda: check_X(X[:, :2], rf), ValueError, 'fitted with 3'),
    Bad('check_X/wrong-names', lambda: check_X(pd.DataFrame(X, columns=list('abc')),
                                                RandomForestClassifier(n_estimators=2).fit(pd.DataFrame(X, columns=list('xyz')), y)),
        ValueError, 'differ from the fitted feature names'),
    Bad('check_y/None', lambda: check_y(np.array([1, None, 0], dtype=object), 3), ValueError, 'missing values'),
    Bad('check_y/nan-object', lambda: check_y(np.array(['a', np.nan], dtype=object), 2), ValueError, 'missing values'),
    Bad('check_y/nan-float', lambda: check_y(np.array([1.0, np.nan]), 2), ValueError, 'NaN'),
    Bad('check_y/wrong-length', lambda: check_y(y[:5], 40), ValueError, 'has 5 rows'),
    Bad('check_y/ragged', lambda: check_y([[1, 2], [3]], 2), ValueError, 'rectangular'),
    Bad('check_model/unfitted', lambda: check_model(RandomForestClassifier()), ValueError, 'not fitted'),
    Bad('check_model/wrong-type', lambda: check_model(object()), TypeError, 'unsupported model type'),
    Bad('tree_arrays/forest', lambda: tree_arrays(rf), TypeError, 'one fitted tree'),
    Bad('tree_arrays/unfitted', lambda: tree_arrays(DecisionTreeRegressor()), ValueError, 'not fitted'),
    Bad('tree_arrays/object', lambda: tree_arrays(object()), TypeError, 'fitted sklearn decision tree'),
    Bad('Explanation/out-of-range', lambda: e[10], ValueError, 'out of range'),
    Bad('Explanation/bad-key', lambda: e['a'], (TypeError, ValueError), 'rows'),
    Bad('Explanation/bad-bias', lambda: Explanation(np.zeros((2, 3)), np.zeros(3), ['a', 'b', 'c']), ValueError, 'bias has shape'),
    Bad('Explanation/names', lambda: Explanation(np.zeros((2, 3)), np.zeros(2), ['a']), ValueError, 'feature names'),
    Bad('inbag_counts/wrong-rows', lambda: inbag_counts(rf, 10), ValueError, 'fitted on 40'),
    Bad('oob_mask/no-bootstrap', lambda: oob_mask(RandomForestRegressor(n_estimators=2, bootstrap=False).fit(X, X[:, 0])),
        ValueError, 'bootstrap=False'),
]
EDGE = [
    Edge('check_n_jobs/-1', lambda: check_n_jobs(-1), lambda out: out == -1),
    Edge('check_X/sparse', lambda: check_X(sp.csr_matrix(X), rf), lambda out: np.array_equal(out[0], X)),
    Edge('check_X/one-row', lambda: check_X(X[0]), lambda out: out[0].shape == (1, 3)),
    Edge('check_y/column', lambda: check_y(y[:, None], 40), lambda out: out.shape == (40, 1)),
    Edge('Explanation/negative-index', lambda: e[-1], lambda out: len(out) == 1),
]
