"""UFI (Zhou and Hooker 2021, notebook 03) on many random forests: equal to a node-by-node reading of its definition, and
equal to MDI (twice MDI for squared error) when the splits are scored on the in-bag rows themselves."""

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from deepforest_interp import ufi, mdi, mdi_oob
from deepforest_interp.importance import _ufi_tree, fit_weights
from deepforest_interp.core import encode_target, oob_mask

HSET = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _forest(seed, n, K, C, depth, kind, clf, weighted, cw, outputs):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)).round(2)
    sw = rng.uniform(0.1, 3, n) if weighted else None
    if clf:
        y = rng.integers(0, C, n)
        y[:C] = np.arange(C)
        cls = {'rf': RandomForestClassifier, 'et': ExtraTreesClassifier}[kind]
        kw = dict(class_weight=cw)
    else:
        y = X[:, 0] + rng.normal(size=n)
        if outputs > 1:
            y = np.c_[y, X[:, -1] * y]
        cls = {'rf': RandomForestRegressor, 'et': ExtraTreesRegressor}[kind]
        kw = {}
    m = cls(
        n_estimators=6, bootstrap=True, max_depth=depth, random_state=seed, **kw
    ).fit(X, y, sample_weight=sw)
    return m, X, y, sw


def _ufi_by_definition(forest, X, y, sw):
    "Independent reading: for every split node, the rows of each node as sets, H from its formula."
    clf = hasattr(forest, 'classes_')
    Y = encode_target(forest, y).astype(float)
    w = np.ones(len(X)) if sw is None else sw
    oob = oob_mask(forest, len(X))
    total = np.zeros(X.shape[1])
    for m, tree in enumerate(forest.estimators_):
        t = tree.tree_
        reach = tree.decision_path(X).toarray().astype(bool) & oob[m][:, None]
        wn = t.weighted_n_node_samples
        val = t.value[:, :, 0] if not clf else t.value[:, 0, :]

        def H(node):
            r = reach[:, node]
            if not r.any():
                return None
            p = (w[r, None] * Y[r]).sum(0) / w[r].sum()
            if clf:
                return 1 - val[node] @ p
            sq = (w[r, None] * (Y[r] - val[node]) ** 2).sum(0) / w[r].sum()
            return t.impurity[node] + sq.mean()

        for node in np.flatnonzero(t.children_left >= 0):
            l, r = t.children_left[node], t.children_right[node]
            h, hl, hr = H(node), H(l), H(r)
            if hl is not None and hr is not None:
                total[t.feature[node]] += (wn[node] * h - wn[l] * hl - wn[r] * hr) / wn[
                    0
                ]
    return total / len(forest.estimators_)


@HSET
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(40, 150),
    K=st.integers(1, 5),
    C=st.integers(2, 4),
    depth=st.sampled_from([None, 2, 5]),
    kind=st.sampled_from(['rf', 'et']),
    clf=st.booleans(),
    weighted=st.booleans(),
    cw=st.sampled_from([None, 'balanced', 'balanced_subsample']),
    outputs=st.sampled_from([1, 2]),
)
def test_ufi_equals_definition_and_inbag_mdi(
    seed, n, K, C, depth, kind, clf, weighted, cw, outputs
):
    m, X, y, sw = _forest(seed, n, K, C, depth, kind, clf, weighted, cw, outputs)
    got = ufi(m, X, y, sample_weight=sw)
    scale = max(1.0, float(np.abs(got).max()))
    np.testing.assert_allclose(
        got, _ufi_by_definition(m, X, y, sw), atol=1e-9 * scale, rtol=0
    )
    # scored on the in-bag rows with their fit weights, the cross impurity is the tree's own
    W = fit_weights(m, X, y, sw)
    Y = encode_target(m, y).astype(float)
    inbag = np.mean(
        [
            _ufi_tree(t, X[W[j] > 0], Y[W[j] > 0], W[j][W[j] > 0], clf)
            for j, t in enumerate(m.estimators_)
        ],
        0,
    )
    np.testing.assert_allclose(
        inbag, (1 if clf else 2) * mdi(m), atol=1e-9 * scale, rtol=0
    )
    spread = ufi(m, X, y, sample_weight=sw, return_std=True)
    np.testing.assert_allclose(spread.importances_mean, got, atol=0, rtol=0)
    assert np.isfinite(spread.importances_std).all()


def test_ufi_removes_the_cardinality_bias():
    "Noise features of growing cardinality: MDI ranks them by cardinality, UFI keeps them near zero."
    rng = np.random.default_rng(1)
    n = 600
    X = pd.DataFrame(
        {
            'signal': rng.integers(0, 2, n),
            'noise10': rng.integers(0, 10, n),
            'noise50': rng.integers(0, 50, n),
            'noisecont': rng.normal(size=n),
        }
    )
    y = (rng.uniform(size=n) < 0.3 + 0.4 * X.signal).astype(int)
    m = RandomForestClassifier(100, random_state=0).fit(X, y)
    u, d = ufi(m, X, y), mdi(m)
    assert u.idxmax() == 'signal' and d.idxmax() != 'signal'
    assert (u.drop('signal').abs() < 0.01).all()
    assert list(u.index) == list(X.columns)  # names flow
    assert (
        np.corrcoef(u, mdi_oob(m, X, y))[0, 1] > 0.99
    )  # the two debiased MDIs agree here


def test_ufi_pipeline_raw_columns_sum_the_encoded_ones():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({'c': rng.choice(list('abcd'), 300), 'x': rng.normal(size=300)})
    y = (X.x + (X.c == 'a') > 0.5).astype(int)
    pipe = make_pipeline(
        ColumnTransformer([('oh', OneHotEncoder(), ['c'])], remainder='passthrough'),
        RandomForestClassifier(30, random_state=0),
    ).fit(X, y)
    raw = ufi(pipe, X, y)
    enc = ufi(pipe, X, y, level='transformed')
    assert list(raw.index) == ['c', 'x']
    np.testing.assert_allclose(raw['c'], enc.iloc[:4].sum(), atol=1e-12)
    np.testing.assert_allclose(raw['x'], enc.iloc[4], atol=1e-12)
