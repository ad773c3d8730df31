"""Every numbered item of the papers against its *definition*, computed here from scratch and compared with the library.

Each test recomputes an equation from first principles (rows in a node found with scikit-learn's `decision_path`,
means and impurities computed from `y`, permutations redone by hand, ...) or against an external oracle
(scikit-learn's own predictions and impurities, treeinterpreter), never by calling the function under test twice. The
`# check: seed NNN <label>` lines are read by the derivation index (nbs/derivations.ipynb): each one is a claim that
the test below it asserts that item. Models are small so the whole file runs in a few seconds.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from deepforest_interp.core import inbag_counts
from deepforest_interp.adapters import model_output
from deepforest_interp.tree_contributions import contributions
from deepforest_interp.importance import (
    mdi,
    mdi_tree,
    impurity_reductions,
    mdi_covariance,
    oob_permutation_importance,
)
from deepforest_interp.calibration import (
    multiplicative_calibration,
    additive_calibration,
    partial_additive_calibration,
    deep_forest_contributions,
    deep_forest_mdi,
)
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.calibration import cascade_pass
from deepforest_interp.estimation import inbag_rows, estimated_increments, node_sums
from deepforest_interp.nodes import tree_arrays
from deepforest_interp.forest_floor import (
    oob_contributions,
    heldout_contributions,
    goodness_of_visualization,
)
from deepforest_interp.datasets import make_sin_cos, make_linear_sum

HSET = settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _data(seed, n=120, K=4, C=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, K)).round(2)
    if C:
        y = (
            ((X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n)) * C)
            .astype(int)
            .clip(0, C - 1)
        )
    else:
        y = np.sin(4 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.2 * rng.normal(size=n)
    return X, y


def _values(e):
    "Contributions as (n, K, C) and bias as (n, C), whatever the output convention."
    v, b = np.asarray(e.values), np.asarray(e.bias)
    if v.ndim == 2:
        v = v[..., None]
    b = np.broadcast_to(b.reshape(len(v), -1), (len(v), v.shape[2]))
    return v, b


def _tree_value(tree):
    "Node predictions (n_nodes, C): class frequencies for classifiers, means for regressors."
    v = tree.tree_.value[:, 0, :]
    return v / v.sum(1, keepdims=True) if hasattr(tree, 'classes_') else v


def _path_contributions(tree, X):
    "Brute force: walk every row's decision path, adding v(child) - v(parent) to the parent's split feature."
    X32 = np.asarray(X, dtype=np.float32)
    path = tree.decision_path(X32).toarray().astype(bool)
    t, v = tree.tree_, _tree_value(tree)
    out = np.zeros((len(X32), tree.n_features_in_, v.shape[1]))
    for i in range(len(X32)):
        nodes = np.flatnonzero(
            path[i]
        )  # node ids increase along a path (depth-first numbering)
        for parent, child in zip(nodes[:-1], nodes[1:]):
            out[i, t.feature[parent]] += v[child] - v[parent]
    return out, v[0]


# check: seed 000 Eq. 2, Eq. 3, Eq. 4
# check: seed 003 `LIdef`
@HSET
@given(
    seed=st.integers(0, 9999),
    C=st.sampled_from([0, 2, 3]),
    depth=st.sampled_from([1, 3, None]),
)
def test_tree_path_increments(seed, C, depth):
    "One tree: prediction = root value + increments along the path (Eq. 2), grouped by split feature (Eq. 3-4)."
    X, y = _data(seed, C=C)
    tree = (DecisionTreeClassifier if C else DecisionTreeRegressor)(
        max_depth=depth, random_state=seed
    ).fit(X, y)
    brute, root = _path_contributions(tree, X)
    pred = tree.predict_proba(X) if C else tree.predict(X)[:, None]
    np.testing.assert_allclose(
        root + brute.sum(1), pred, atol=1e-12
    )  # Eq. 2 / 3, vs scikit-learn
    v, b = _values(contributions(tree, X))
    np.testing.assert_allclose(v, brute, atol=1e-12)  # Eq. 4, feature by feature
    np.testing.assert_allclose(b, np.broadcast_to(root, b.shape), atol=1e-12)


# check: seed 000 Eq. 5, Eq. 6, Eq. 11, Eq. 12
# check: seed 003 Eq. 9, Eq. 11
@HSET
@given(seed=st.integers(0, 9999), C=st.sampled_from([0, 2, 3]))
def test_forest_average_and_additivity(seed, C):
    """Forest contributions are the mean of the trees' (Eq. 6); bias + sum equals scikit-learn's own prediction (Eq. 5,
    11-12 per class; seed 003 Eq. 9: the ensemble prediction is the mean of the tree predictions, Eq. 11 / LIeq2)."""
    X, y = _data(seed, C=C)
    rf = (RandomForestClassifier if C else RandomForestRegressor)(
        n_estimators=7, max_depth=5, random_state=seed
    ).fit(X, y)
    per_tree = [_path_contributions(t, X) for t in rf.estimators_]
    brute = np.mean([p for p, _ in per_tree], axis=0)
    root = np.mean([r for _, r in per_tree], axis=0)
    v, b = _values(contributions(rf, X))
    np.testing.assert_allclose(v, brute, atol=1e-12)
    pred = rf.predict_proba(X) if C else rf.predict(X)[:, None]
    np.testing.assert_allclose(b + v.sum(1), pred, atol=1e-12)
    np.testing.assert_allclose(root + brute.sum(1), pred, atol=1e-12)
    tree_mean = np.mean(
        [t.predict_proba(X) if C else t.predict(X)[:, None] for t in rf.estimators_],
        axis=0,
    )
    np.testing.assert_allclose(
        np.asarray(model_output(rf, X)).reshape(pred.shape), tree_mean, atol=1e-12
    )


def test_treeinterpreter_oracle():
    "The original implementation of Saabas' decomposition gives the same numbers (external oracle)."
    ti = pytest.importorskip('treeinterpreter.treeinterpreter')
    X, y = _data(3, C=3)
    rf = RandomForestClassifier(n_estimators=5, max_depth=4, random_state=0).fit(X, y)
    pred, bias, contrib = ti.predict(rf, X)
    v, b = _values(contributions(rf, X))
    np.testing.assert_allclose(v, contrib, atol=1e-12)
    np.testing.assert_allclose(b, bias, atol=1e-12)


def _node_weights(tree, X, w):
    "(n_nodes,) sum of the row weights w in every node, and the (rows x nodes) membership, from decision_path."
    path = tree.decision_path(np.asarray(X, dtype=np.float32)).toarray().astype(bool)
    return path, (path * w[:, None]).sum(0)


# check: seed 000 Eq. 7, Eq. 8, Eq. 9, Eq. 10
# check: seed 002 `RI_i^(t)`, `FI_j^(t)`, `FI_j`
# check: seed 004 Eq. 3, Eq. 4, Eq. 5
@HSET
@given(seed=st.integers(0, 9999), C=st.sampled_from([0, 2, 3]), boot=st.booleans())
def test_impurity_and_mdi_from_y(seed, C, boot):
    """Eq. 9 from y: each node's impurity is the weighted variance of y (regression) or the Gini index of its class
    frequencies (classification, seed 004 Eq. 1 / 3) over the rows the tree was grown on (bootstrap counts as
    weights); Eq. 8 its weighted decrease (seed 002's RI, seed 004 Eq. 4); Eq. 7 / 10 MDI per tree and forest; seed
    002's FI (scikit-learn's normalised importances) and seed 004 Eq. 5."""
    X, y = _data(seed, C=C)
    rf = (RandomForestClassifier if C else RandomForestRegressor)(
        n_estimators=4, max_depth=4, bootstrap=boot, random_state=seed
    ).fit(X, y)
    counts = inbag_counts(rf, len(y)) if boot else np.ones((4, len(y)))
    Y = np.eye(C)[y] if C else y[:, None]
    per_tree = []
    for m, tree in enumerate(rf.estimators_):
        path, n_t = _node_weights(tree, X, counts[m])
        mu = (
            (path * counts[m][:, None]).T @ Y / n_t[:, None]
        )  # node means / frequencies
        if C:
            imp = 1 - (mu**2).sum(1)  # Gini
        else:
            imp = np.array(
                [
                    (counts[m] * path[:, t] * (y - mu[t, 0]) ** 2).sum() / n_t[t]
                    for t in range(len(n_t))
                ]
            )
        np.testing.assert_allclose(
            imp, tree.tree_.impurity, atol=1e-10
        )  # Eq. 9 vs scikit-learn
        t = tree.tree_
        inner = np.flatnonzero(t.children_left >= 0)
        dec = (
            n_t[inner] * imp[inner]
            - n_t[t.children_left[inner]] * imp[t.children_left[inner]]
            - n_t[t.children_right[inner]] * imp[t.children_right[inner]]
        ) / n_t[0]  # Eq. 8, weighted by n(t)/n
        np.testing.assert_allclose(
            impurity_reductions(tree)['RI'].to_numpy(), dec, atol=1e-10
        )
        mdi_k = np.bincount(
            t.feature[inner], weights=dec, minlength=X.shape[1]
        )  # Eq. 7
        np.testing.assert_allclose(mdi_tree(tree), mdi_k, atol=1e-10)
        np.testing.assert_allclose(
            mdi_k / mdi_k.sum() if mdi_k.sum() > 0 else mdi_k,
            tree.feature_importances_,
            atol=1e-10,
        )
        per_tree.append(mdi_k)
    np.testing.assert_allclose(
        mdi(rf).to_numpy(), np.mean(per_tree, 0), atol=1e-10
    )  # Eq. 10
    np.testing.assert_allclose(
        mdi(rf, normalize=True).to_numpy(), rf.feature_importances_, atol=1e-10
    )


# check: seed 000 Eq. 13, Eq. 14
@HSET
@given(seed=st.integers(0, 9999), C=st.sampled_from([0, 3]))
def test_mdi_is_the_covariance_of_contributions_with_y(seed, C):
    """Eq. 13-14: on the rows a tree was grown on (bootstrap counts as weights), sum_i w_i f_k(x_i) (y_i - ybar) / n
    equals the tree's impurity MDI; the forest's is the mean. Computed here from per-tree path contributions."""
    X, y = _data(seed, C=C)
    rf = (RandomForestClassifier if C else RandomForestRegressor)(
        n_estimators=4, max_depth=5, random_state=seed
    ).fit(X, y)
    counts = inbag_counts(rf, len(y))
    Y = np.eye(C)[y] if C else y[:, None]
    cov = []
    for m, tree in enumerate(rf.estimators_):
        f, _ = _path_contributions(tree, X)  # (n, K, C)
        w = counts[m]
        Yc = Y - (w @ Y) / w.sum()
        cov.append(np.einsum('i,ikc,ic->k', w, f, Yc) / w.sum())
        np.testing.assert_allclose(
            cov[-1], mdi_tree(tree), atol=1e-10
        )  # Eq. 13, one tree
    np.testing.assert_allclose(
        np.mean(cov, 0), mdi(rf).to_numpy(), atol=1e-10
    )  # Eq. 14, the forest
    np.testing.assert_allclose(
        np.asarray(mdi_covariance(rf, X, y)), mdi(rf).to_numpy(), atol=1e-10
    )


# check: seed 000 Eq. 23, Eq. 24, Eq. 25, Eq. 26, Eq. 19, Eq. 20
@HSET
@given(seed=st.integers(0, 9999), K=st.integers(2, 7))
def test_calibration_maps_by_their_formulas(seed, K):
    "The three maps written out from the paper's formulas; each restores the node's increment (Eq. 20)."
    rng = np.random.default_rng(seed)
    est = rng.normal(size=K)
    dmu = float(rng.normal())
    tot = est.sum()
    mult = est * dmu / tot  # Eq. 23
    add = est + np.abs(est) / np.abs(est).sum() * (dmu - tot)  # Eq. 24
    S = np.sign(est) == np.sign(dmu)  # Eq. 25
    part = est.copy()
    if S.any():
        part[S] = est[S] * (1 + (dmu - tot) / est[S].sum())  # Eq. 26
    np.testing.assert_allclose(
        multiplicative_calibration(est, dmu), mult, rtol=1e-10, atol=1e-12
    )
    np.testing.assert_allclose(
        additive_calibration(est, dmu), add, rtol=1e-10, atol=1e-12
    )
    if S.any():
        np.testing.assert_allclose(
            partial_additive_calibration(est, dmu), part, rtol=1e-10, atol=1e-12
        )
    for g in (
        multiplicative_calibration,
        additive_calibration,
        partial_additive_calibration,
    ):
        assert g(est, dmu).sum() == pytest.approx(dmu, abs=1e-12)  # Eq. 19-20


def _cascade(C, seed=0, **kw):
    X, y = _data(seed, n=90, K=3, C=C)
    Est = CascadeForestClassifier if C else CascadeForestRegressor
    m = Est(
        n_forests=2,
        n_estimators=4,
        max_depth=4,
        max_layers=3,
        n_tolerant_rounds=3,
        random_state=seed,
        **kw,
    ).fit(X, y)
    return m, X, y


# check: seed 000 Eq. 15, Eq. 16, Eq. 17, Eq. 18
@pytest.mark.parametrize('C', [0, 3])
def test_estimation_step_by_hand(C):
    """Layer 1 of a cascade, tree by tree, node by node, from the rows: the node's in-bag rows (found with
    decision_path on the layer's input, weighted by their bootstrap counts) give the true increment as a difference of
    label means (Eq. 18, equal to the tree's own value); for a split on a new feature (class column c of forest F) the
    estimate attributed to original feature k is the difference of the node means of F's layer-0 contributions
    f_{F,k} of those rows (Eq. 15-16), and the per-feature estimates add up to the estimate of the whole (Eq. 17)."""
    m, X, y = next(
        r for r in (_cascade(C, seed) for seed in range(20)) if r[0].n_layers_ >= 2
    )  # a deep one
    K, Cc = X.shape[1], C or 1
    Y = np.eye(C)[y] if C else y[:, None]
    prev = np.asarray(
        cascade_pass(m, calibration='partial', layer=1)[0].train
    )  # (n, n_forests, K, C), OOF
    Z = m.training_input(1)
    n_checked = 0
    for forest in m.layers_[1]:
        for (tr, va), fm in zip(m.folds_[1], forest):
            for t, tree in enumerate(fm.estimators_):
                rows, w = inbag_rows(fm, t, tr)
                path = (
                    tree.decision_path(np.asarray(Z[rows], dtype=np.float32))
                    .toarray()
                    .astype(bool)
                )
                n_t = (path * w[:, None]).sum(0)
                mean = lambda A: (
                    np.einsum('rt,r,r...->t...', path, w, A)
                    / n_t.reshape((-1,) + (1,) * (A.ndim - 1))
                )
                mu = mean(Y[rows])  # node label means
                np.testing.assert_allclose(
                    mu, _tree_value(tree), atol=1e-10
                )  # Eq. 18: value = mean of labels
                fbar = mean(prev[rows])  # (n_nodes, n_forests, K, C)
                ta = tree_arrays(tree)
                est = estimated_increments(
                    ta,
                    node_sums(
                        ta,
                        tree.apply(np.asarray(Z[rows], dtype=np.float32)),
                        w,
                        prev[rows],
                    ),
                    K,
                    Cc,
                )
                tt = tree.tree_
                for p_ in np.flatnonzero(tt.children_left >= 0):
                    if tt.feature[p_] < K:
                        continue
                    F = (tt.feature[p_] - K) // Cc
                    for ch in (tt.children_left[p_], tt.children_right[p_]):
                        brute = fbar[ch, F] - fbar[p_, F]  # Eq. 16, (K, C)
                        np.testing.assert_allclose(est[ch], brute, atol=1e-10)
                        np.testing.assert_allclose(
                            est[ch].sum(0),
                            (fbar[ch, F] - fbar[p_, F]).sum(0),
                            atol=1e-10,
                        )  # Eq. 17
                        n_checked += 1
    assert n_checked > 0  # some tree split on a new feature


# check: seed 000 Eq. 29, Eq. 30, Eq. 27, Eq. 28, Eq. 21, Eq. 22, Algorithm 1
@pytest.mark.parametrize('C', [0, 3])
@pytest.mark.parametrize('calibration', ['multiplicative', 'additive', 'partial'])
def test_deep_forest_decomposition_equals_the_layer_output(C, calibration):
    """Algorithm 1 end to end: on new rows, every layer's contributions of the ORIGINAL features add up (with the bias)
    to that layer's own output as the cascade computes it (Eq. 29; Eq. 21-22 per tree, 27-28 per forest, 30 per layer
    by averaging): the oracle is the cascade's public predict / predict_proba, not the explainer."""
    m, X, y = _cascade(C)
    Xn = np.random.default_rng(1).uniform(size=(25, 3))
    for l, e in enumerate(
        deep_forest_contributions(
            m, Xn, calibration=calibration, all_layers=True
        ).layers.values()
    ):
        v, b = _values(e)
        assert v.shape[1] == 3
        out = m.predict_proba(Xn, layer=l) if C else m.predict(Xn, layer=l)[:, None]
        np.testing.assert_allclose(b + v.sum(1), out, atol=1e-9)


# check: seed 000 Eq. 31, Proposition 1, Eq. 32, Eq. 33
@pytest.mark.parametrize('C', [0, 3])
@pytest.mark.parametrize('oof', [True, False])
def test_proposition_1_on_the_exported_mdi_df(C, oof):
    """Proposition 1 / Eq. 32 on the exported `deep_forest_mdi`: the MDI(DF) of the K original features sums to the
    explained layer's covariance MDI over all its K + K' input features, averaged over the layer's forests. The right
    side is recomputed here from the fold models' own (plain, uncalibrated) contributions on the layer's input:
    out of fold (oof=True: row i by the fold model that did not see it, on the out-of-fold input), or in sample."""
    m, X, y = _cascade(C)
    Y = np.eye(C)[y] if C else y[:, None]
    Yc = Y - Y.mean(0)
    L = m.n_layers_ - 1
    left = float(
        np.asarray(deep_forest_mdi(m, X, y, oof=oof, layer=L)).sum()
    )  # Eq. 31 summed over k
    Z = m.layer_input(X, L, oof=oof)
    rights = []
    for forest in m.layers_[L]:
        if oof:
            v = np.zeros((len(y), Z.shape[1], Y.shape[1]))
            for (tr, va), fm in zip(m.folds_[L], forest):
                v[va] = _values(contributions(fm, Z[va]))[0]
        else:
            v = np.mean(
                [_values(contributions(fm, Z))[0] for fm in forest], axis=0
            )  # (n, K+K', C), all fold models
        rights.append(np.einsum('ikc,ic->', v, Yc) / len(y))
    assert left == pytest.approx(np.mean(rights), rel=1e-9, abs=1e-12)


# check: seed 000 Eq. 34, Eq. 35
def test_generators_follow_their_formulas():
    X, y = make_sin_cos(300, random_state=0)
    np.testing.assert_allclose(
        y, np.sin(2 * np.pi * X.x1) + np.cos(2 * np.pi * X.x2), atol=1e-12
    )  # Eq. 34
    X, y = make_linear_sum(300, n_features=6, random_state=0)
    np.testing.assert_allclose(y, X.to_numpy() @ np.arange(1, 7), atol=1e-12)  # Eq. 35


# check: seed 002 `PI^(t)`, `PI`, `z_j`
def test_oob_permutation_importance_by_hand():
    """seed 002: PI^(t)(X_j) = accuracy on tree t's OOB rows minus accuracy after permuting X_j among them; PI the
    mean over trees; z_j = PI / (sd / sqrt(ntree)). Redone here with the same permutations (same RandomState stream)."""
    X, y = _data(5, n=150, C=3)
    rf = RandomForestClassifier(n_estimators=6, max_depth=4, random_state=0).fit(X, y)
    r = oob_permutation_importance(rf, X, y, random_state=7)
    rng = np.random.RandomState(7)
    oob = inbag_counts(rf, len(y)) == 0
    imp = np.zeros((X.shape[1], 6))
    X32 = X.astype(np.float32)
    for m, tree in enumerate(rf.estimators_):
        rows = np.flatnonzero(oob[m])
        acc = lambda Z: np.mean(rf.classes_[tree.predict(Z).astype(int)] == y[rows])
        base = acc(X32[rows])
        for j in np.unique(tree.tree_.feature[tree.tree_.feature >= 0]):
            Z = X32[rows].copy()
            Z[:, j] = X32[rows][rng.permutation(len(rows)), j]
            imp[j, m] = base - acc(Z)
    np.testing.assert_allclose(r.importances, imp, atol=1e-12)
    pi, sd = imp.mean(1), imp.std(1, ddof=1)
    np.testing.assert_allclose(r.importances_mean.to_numpy(), pi, atol=1e-12)
    z = np.where(sd > 0, pi / np.where(sd > 0, sd, 1) * np.sqrt(6), 0)
    np.testing.assert_allclose(r.z_scores.to_numpy(), z, atol=1e-9)


# check: seed 003 Eq. 10, Eq. 12, Eq. 14, Eq. 15
@pytest.mark.parametrize('C', [0, 3])
def test_oob_contributions_by_hand(C):
    """seed 003: the OOB prediction is the mean over the trees where row i is out of bag (Eq. 10 / 12); the OOB
    contributions average those trees' path contributions (Eq. 14), feature 0 (bootstrap) is the OOB trees' mean root
    value minus the training mean, and bias + bootstrap + sum equals the OOB prediction (Eq. 15)."""
    X, y = _data(2, n=80, C=C)
    rf = (RandomForestClassifier if C else RandomForestRegressor)(
        n_estimators=25, max_depth=4, random_state=0
    ).fit(X, y)
    e = oob_contributions(rf, X, y)
    v, b = _values(e)
    boot = np.asarray(e.bootstrap).reshape(len(y), -1)
    oob = inbag_counts(rf, len(y)) == 0
    per_tree = [_path_contributions(t, X) for t in rf.estimators_]
    preds = np.array(
        [t.predict_proba(X) if C else t.predict(X)[:, None] for t in rf.estimators_]
    )
    mu0 = np.eye(C)[y].mean(0) if C else np.array([y.mean()])
    for i in range(len(y)):
        J = np.flatnonzero(oob[:, i])
        np.testing.assert_allclose(
            v[i], np.mean([per_tree[j][0][i] for j in J], 0), atol=1e-12
        )  # Eq. 14
        np.testing.assert_allclose(
            boot[i], np.mean([per_tree[j][1] for j in J], 0) - mu0, atol=1e-12
        )
        np.testing.assert_allclose(
            b[i] + boot[i] + v[i].sum(0), preds[J, i].mean(0), atol=1e-12
        )  # Eq. 10, 12, 15
    if not C:
        np.testing.assert_allclose(
            b[:, 0] + boot[:, 0] + v[..., 0].sum(1), rf.oob_prediction_, atol=1e-12
        ) if hasattr(rf, 'oob_prediction_') else None


# check: seed 003 Eq. 13, Eq. 16
def test_heldout_contributions_by_hand():
    "seed 003 Eq. 13 / 16: new rows over all trees; bias mu_0 + bootstrap (mean root - mu_0) + sum = the prediction."
    X, y = _data(4, n=80)
    rf = RandomForestRegressor(n_estimators=9, max_depth=4, random_state=0).fit(X, y)
    Xn = np.random.default_rng(0).uniform(size=(20, 4))
    e = heldout_contributions(rf, Xn, y)
    v, b = _values(e)
    per_tree = [_path_contributions(t, Xn) for t in rf.estimators_]
    np.testing.assert_allclose(v, np.mean([p for p, _ in per_tree], 0), atol=1e-12)
    np.testing.assert_allclose(
        np.asarray(e.bootstrap).reshape(-1),
        np.mean([r for _, r in per_tree]) - y.mean(),
        atol=1e-12,
    )
    np.testing.assert_allclose(
        b[:, 0] + np.asarray(e.bootstrap).reshape(-1) + v[..., 0].sum(1),
        rf.predict(Xn),
        atol=1e-12,
    )


# check: seed 003 Eq. 17
def test_goodness_of_visualization_by_hand():
    """seed 003 Eq. 17: GOV of feature l = squared Pearson correlation between its contributions and their
    leave-one-out kNN prediction from the feature's values. The fit is forestFloor's (kknn): the k nearest other rows
    on the standardised feature, Gaussian kernel weights phi(q d / d_(k+1)) with q = |Phi^-1(1 / (2 (k + 1)))|."""
    from statistics import NormalDist

    rng = np.random.default_rng(6)
    X = rng.uniform(size=(60, 3))  # continuous: no ties in the neighbour order
    y = np.sin(4 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.2 * rng.normal(size=60)
    rf = RandomForestRegressor(n_estimators=30, max_depth=5, random_state=0).fit(X, y)
    e = oob_contributions(rf, X, y)
    k = 4
    gov = goodness_of_visualization(e, k=k)
    v = np.asarray(e.values)
    q = abs(NormalDist().inv_cdf(1 / (2 * (k + 1))))
    for j in range(X.shape[1]):
        z = X[:, j] / X[:, j].std(ddof=1)
        pred = np.empty(len(X))
        for i in range(len(X)):
            d = np.abs(z - z[i])
            d[i] = np.inf
            order = np.argsort(d)[: k + 1]
            u = np.clip(d[order[:k]] / max(d[order[k]], 1e-6), 1e-6, 1 - 1e-6)
            w = np.exp(-0.5 * (q * u) ** 2)
            pred[i] = (w * v[order[:k], j]).sum() / w.sum()
        r = np.corrcoef(pred, v[:, j])[0, 1]
        assert gov.iloc[j] == pytest.approx(r**2, abs=1e-9)
