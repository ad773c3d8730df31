"Deep-forest identities (seed 000 Sec. 5-6) on hypothesis-generated cascades: local accuracy for every calibration and layer,\nEq. 20 at every node, sample weights, the per-model cache. Worked examples (fast == reference, Prop. 1 in its literal\nform against scikit-learn's impurity MDI) live in nbs/06_calibration.ipynb."

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.calibration import (
    deep_forest_contributions,
    deep_forest_mdi,
    deep_forest_local_mdi,
    cascade_pass,
    calibrated_table,
    CALIBRATIONS,
    partial_additive_calibration,
    additive_calibration,
    multiplicative_calibration,
)
from deepforest_interp.estimation import (
    inbag_rows,
    node_sums,
)
from deepforest_interp.importance import encode_target
from deepforest_interp.core import inbag_counts
from deepforest_interp.nodes import tree_arrays

HSET = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
CALS = ['multiplicative', 'additive', 'partial']


def _data(seed, n, K, C):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, K)).round(2)
    if C:
        y = (X[:, 0] * C).astype(int) % C
        y[rng.uniform(size=n) < 0.2] = rng.integers(0, C, n)[rng.uniform(size=n) < 0.2][
            :1
        ]
        y[: C * 3] = np.repeat(np.arange(C), 3)
    else:
        y = np.sin(4 * X[:, 0]) + X[:, -1] + 0.1 * rng.normal(size=n)
    return X, y, rng.uniform(size=(15, K))


def _fit(seed, n, K, C, depth, scheme):
    X, y, Xn = _data(seed, n, K, C)
    Est = CascadeForestClassifier if C else CascadeForestRegressor
    m = Est(
        n_forests=2,
        n_estimators=4,
        max_depth=depth,
        max_layers=3,
        n_tolerant_rounds=3,
        fold_scheme=scheme,
        random_state=seed,
    ).fit(X, y)
    return m, X, y, Xn


def _out(m, X, layer):
    return (
        m.predict_proba(X, layer=layer)
        if hasattr(m, 'classes_')
        else m.predict(X, layer=layer)
    )


@HSET
@given(
    seed=st.integers(0, 9999),
    n=st.integers(40, 90),
    K=st.integers(1, 4),
    C=st.sampled_from([0, 2, 3]),
    depth=st.sampled_from([2, 4, None]),
    scheme=st.sampled_from(['per_layer', 'fixed']),
)
def test_local_accuracy_every_layer_and_calibration(seed, n, K, C, depth, scheme):
    m, X, y, Xn = _fit(seed, n, K, C, depth, scheme)
    for cal in CALS:
        for l, e in enumerate(
            deep_forest_contributions(
                m, Xn, calibration=cal, all_layers=True
            ).layers.values()
        ):
            np.testing.assert_allclose(e.output, _out(m, Xn, l), atol=1e-9)
            assert np.isfinite(e.values).all()
        for l, e in enumerate(
            deep_forest_contributions(
                m, X, calibration=cal, oof=True, all_layers=True
            ).layers.values()
        ):
            oof = m.oof_outputs_[l].mean(1)
            np.testing.assert_allclose(e.output, oof if C else oof[:, 0], atol=1e-9)


@HSET
@given(seed=st.integers(0, 9999), C=st.sampled_from([0, 3]), cal=st.sampled_from(CALS))
def test_eq20_at_every_node(seed, C, cal):
    "Sum over features of every node's cumulative table == the node's value minus the root value (Eq. 20 chained)."
    m, X, y, Xn = _fit(seed, 70, 3, C, 4, 'per_layer')
    res = cascade_pass(m, calibration=cal)
    K = m.n_features_in_
    Cc = C or 1
    method = CALIBRATIONS[cal]
    for l in range(1, m.n_layers_):
        Ztr = np.ascontiguousarray(m.training_input(l), dtype=np.float32)
        prev = res[l - 1].train
        for f, folds in enumerate(m.layers_[l]):
            for (tr, va), fm in zip(m.folds_[l], folds):
                counts = inbag_counts(fm, len(tr))
                for t, tree in enumerate(fm.estimators_):
                    ta = tree_arrays(tree)
                    rows, w = inbag_rows(fm, t, tr, counts)
                    S = node_sums(ta, tree.apply(Ztr[rows]), w, prev[rows])
                    table = calibrated_table(ta, S, K, Cc, method)
                    np.testing.assert_allclose(
                        table.sum(1), ta.value - ta.value[0], atol=1e-10
                    )


@HSET
@given(
    K=st.integers(1, 8),
    C=st.integers(1, 4),
    seed=st.integers(0, 9999),
    cal=st.sampled_from(CALS),
)
def test_calibration_maps_eq20_and_finite(K, C, seed, cal):
    rng = np.random.default_rng(seed)
    est = rng.normal(size=(K, C)) * (rng.uniform(size=(K, C)) < 0.6)
    if rng.uniform() < 0.2:
        est[:] = 0
    dmu = rng.normal(size=C) * (rng.uniform(size=C) < 0.7)
    g = {
        'multiplicative': multiplicative_calibration,
        'additive': additive_calibration,
        'partial': partial_additive_calibration,
    }[cal]
    out = g(est, dmu)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out.sum(0), dmu, atol=1e-12)
    if (
        cal == 'partial'
    ):  # no sign flips whenever S(t) is non-empty (the fallback is Eq. 24, which may flip)
        for c in range(C):
            s = np.sign(dmu[c])
            if s != 0 and np.any(np.sign(est[:, c]) == s):
                assert (out[:, c] * est[:, c] >= 0).all()


def test_local_mdi_and_errors():
    m, X, y, Xn = _fit(1, 90, 3, 3, 4, 'per_layer')
    lm = deep_forest_local_mdi(m, X, y)
    assert (
        lm.shape == (3, 3)
        and list(lm.columns) == list(m.classes_)
        and np.isfinite(lm.to_numpy()).all()
    )
    with pytest.raises(ValueError, match='unknown calibration'):
        deep_forest_contributions(m, Xn, calibration='x')
    with pytest.raises(ValueError, match='out of range'):
        deep_forest_contributions(m, Xn, layer=9)
    with pytest.raises(ValueError, match='training data'):
        deep_forest_contributions(m, Xn, oof=True)
    with pytest.raises(TypeError, match='CascadeForest'):
        deep_forest_mdi(object(), X, y)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 9999), C=st.sampled_from([0, 2, 3]))
def test_sample_weight_identities(seed, C):
    "Weighted fits: in-bag weights reproduce every tree's node weights; contributions stay exact, new rows and OOF."
    X, y, Xn = _data(seed, 70, 3, C)
    w = np.random.default_rng(seed).uniform(0.1, 3.0, len(y))
    Est = CascadeForestClassifier if C else CascadeForestRegressor
    m = Est(
        n_forests=2,
        n_estimators=3,
        max_depth=4,
        max_layers=3,
        n_tolerant_rounds=3,
        random_state=seed,
    ).fit(X, y, sample_weight=w)
    for l in range(m.n_layers_):
        for f, forest in enumerate(m.layers_[l]):
            for (tr, va), fm in zip(m.folds_[l], forest):
                counts = inbag_counts(fm, len(tr))
                for t, tree in enumerate(fm.estimators_):
                    rows, wt = inbag_rows(fm, t, tr, counts, w)
                    assert wt.sum() == pytest.approx(
                        tree.tree_.weighted_n_node_samples[0], rel=1e-12
                    )
    for cal in CALS:
        e = deep_forest_contributions(m, Xn, calibration=cal)
        np.testing.assert_allclose(e.output, _out(m, Xn, None), atol=1e-9)
        e = deep_forest_contributions(m, X, calibration=cal, oof=True)
        oof = m.oof_outputs_[-1].mean(1)
        np.testing.assert_allclose(e.output, oof if C else oof[:, 0], atol=1e-9)


def test_cache_is_dropped_on_refit():
    m, X, y, Xn = _fit(3, 60, 3, 2, 3, 'per_layer')
    a = deep_forest_contributions(m, X, oof=True).values
    m.set_params(random_state=4).fit(X, y)
    b = deep_forest_contributions(m, X, oof=True)
    np.testing.assert_allclose(b.output, m.oof_outputs_[-1].mean(1), atol=1e-9)
    assert a.shape != b.values.shape or not np.allclose(a, b.values)


def test_cached_training_arrays_are_read_only():
    "cascade_pass hands out the per-model cache's arrays read-only: mutating a returned array cannot change a later result."
    m, X, y, Xn = _fit(5, 70, 3, 2, 4, 'per_layer')
    before = deep_forest_contributions(m, X, oof=True).values.copy()
    res = cascade_pass(m)
    for r in res:
        assert not r.train.flags.writeable and not r.train_bias.flags.writeable
        with pytest.raises(ValueError, match='read-only'):
            r.train *= 0
    with pytest.raises(ValueError, match='read-only'):
        cascade_pass(m, Xn)[-1].train[:] = 1
    np.testing.assert_array_equal(
        deep_forest_contributions(m, X, oof=True).values, before
    )
    e = deep_forest_contributions(m, Xn)  # the arrays of new rows are the caller's own
    e.values[:] = 0
    np.testing.assert_allclose(
        deep_forest_contributions(m, Xn).output, m.predict_proba(Xn), atol=1e-9
    )


def test_held_out_rows_need_oof_false():
    m, X, y, Xn = _fit(6, 60, 3, 2, 3, 'per_layer')
    with pytest.raises(ValueError, match='oof=False'):
        deep_forest_mdi(m, Xn, y[: len(Xn)])
    assert np.isfinite(deep_forest_mdi(m, Xn, y[: len(Xn)], oof=False).to_numpy()).all()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 9999), C=st.sampled_from([0, 2, 3]), oof=st.booleans())
def test_deep_forest_mdi_per_tree_terms(seed, C, oof):
    "return_std=True: each tree's term by brute force (readable Algorithm 1 table, its rows); their mean is MDI(DF)."
    from deepforest_interp.estimation import _node_table

    m, X, y, Xn = _fit(seed, 60, 3, C, 3, 'per_layer')
    Xr, yr = (X, y) if oof else (Xn, y[: len(Xn)])
    s = deep_forest_mdi(m, Xr, yr, oof=oof)
    b = deep_forest_mdi(m, Xr, yr, oof=oof, return_std=True)
    np.testing.assert_allclose(
        b.importances.to_numpy().mean(1), s.to_numpy(), rtol=0, atol=1e-12
    )
    np.testing.assert_array_equal(b.importances_mean.to_numpy(), s.to_numpy())
    np.testing.assert_allclose(
        b.importances_std.to_numpy(), b.importances.to_numpy().std(1), atol=1e-15
    )
    assert list(b.importances.index) == list(
        s.index
    ) and b.importances.columns.names == ['forest', 'fold', 'tree']
    L, K, Cc = m.n_layers_ - 1, m.n_features_in_, C or 1
    Y = encode_target(m, yr)
    Yc = Y - Y.mean(0)
    n, J = len(Y), len(m.folds_[L])
    prev = cascade_pass(m, layer=L - 1)[-1].train if L else None
    Ztr = np.ascontiguousarray(m.training_input(L), dtype=np.float32)
    Zr = (
        Ztr if oof else np.ascontiguousarray(m.layer_inputs(Xn, L)[L], dtype=np.float32)
    )
    for f, folds in enumerate(m.layers_[L]):
        for j, ((tr, va), fm) in enumerate(zip(m.folds_[L], folds)):
            R = va if oof else np.arange(len(Zr))
            for t, tree in enumerate(fm.estimators_):
                ta = tree_arrays(tree)
                rows, w = inbag_rows(fm, t, tr)
                S = node_sums(ta, tree.apply(Ztr[rows]), w, prev[rows]) if L else None
                v = _node_table(ta, K, Cc, S, partial_additive_calibration)[
                    tree.apply(Zr[R])
                ]  # (rows, K, C)
                term = np.einsum('ikc,ic->k', v, Yc[R]) * (J if oof else 1) / n
                np.testing.assert_allclose(
                    b.importances[(f, j, t)].to_numpy(), term, rtol=0, atol=1e-12
                )


def test_deep_forest_mdi_return_std_bad_input():
    m, X, y, Xn = _fit(8, 60, 3, 2, 3, 'per_layer')
    with pytest.raises(TypeError, match='return_std'):
        deep_forest_mdi(m, X, y, return_std=1)
    with pytest.raises(ValueError, match='all_layers'):
        deep_forest_mdi(m, X, y, return_std=True, all_layers=True)
    with pytest.raises(ValueError, match='use oof=False for new rows'):
        deep_forest_mdi(m, Xn, y[: len(Xn)], return_std=True)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 9999),
    C=st.sampled_from([0, 3]),
    cal=st.sampled_from(CALS + [None]),
    last=st.booleans(),
)
def test_prepare_explanations(seed, C, cal, last):
    "prepare_explanations fills what a first call shares; the first call after it adds nothing and is bit-identical."
    from deepforest_interp.estimation import _CACHES
    from deepforest_interp.calibration import prepare_explanations, _tree_bytes
    from deepforest_interp.calibration import TABLE_CACHE_FLOOR

    m, X, y, Xn = _fit(seed, 70, 3, C, 4, 'per_layer')
    layer = None if last else 0
    cold = deep_forest_contributions(m, Xn, calibration=cal, layer=layer)
    _CACHES.pop(m, None)
    assert prepare_explanations(m, calibration=cal, layer=layer) is m
    keys = {k for k in _CACHES[m][1] if isinstance(k, tuple)}
    L = m.n_layers_ - 1 if last else 0
    assert {k[2] for k in keys if k[0] == 'train'} == set(range(L))
    e = deep_forest_contributions(m, Xn, calibration=cal, layer=layer)
    np.testing.assert_array_equal(e.values, cold.values)
    np.testing.assert_array_equal(e.bias, cold.bias)
    assert {k for k in _CACHES[m][1] if isinstance(k, tuple)} == keys
    assert _CACHES[m][1]['table bytes'] <= max(
        _tree_bytes(m.layers_), TABLE_CACHE_FLOOR
    )
    with pytest.raises(ValueError, match='unknown calibration'):
        prepare_explanations(m, calibration='bogus')
    with pytest.raises(TypeError, match='CascadeForest'):
        prepare_explanations(object())


def test_table_cache_within_the_budget():
    "The leaf tables kept per model never exceed the budget: the larger of the model's own tree bytes and TABLE_CACHE_FLOOR (TABLE_CACHE_BYTES=None), or TABLE_CACHE_BYTES."
    import deepforest_interp.calibration as cal
    from deepforest_interp.estimation import _CACHES
    from deepforest_interp.calibration import _tree_bytes, TABLE_CACHE_FLOOR

    m, X, y, Xn = _fit(7, 80, 4, 3, None, 'per_layer')
    deep_forest_contributions(m, Xn, all_layers=True, verbose=0)
    cache = _CACHES[m][1]
    assert cache['table bytes'] <= max(_tree_bytes(m.layers_), TABLE_CACHE_FLOOR)
    old, cal.TABLE_CACHE_BYTES = (
        cal.TABLE_CACHE_BYTES,
        5000,
    )  # a tight budget is kept too
    try:
        _CACHES.pop(m)
        tight = deep_forest_contributions(m, Xn)
        assert _CACHES[m][1]['table bytes'] <= 5000
    finally:
        cal.TABLE_CACHE_BYTES = old
    np.testing.assert_allclose(
        tight.values, deep_forest_contributions(m, Xn).values, rtol=0, atol=1e-12
    )
    if m.n_layers_ > 1:
        assert (
            cache['table bytes'] > 0
        )  # later layers split on previous outputs: tables kept
    a = deep_forest_contributions(m, Xn, all_layers=True)  # warm: the same numbers
    _CACHES.pop(m)
    b = deep_forest_contributions(m, Xn, all_layers=True)
    for ea, eb in zip(a.layers.values(), b.layers.values()):
        np.testing.assert_array_equal(ea.values, eb.values)


def test_engine_walk_equals_tables():
    "algorithm1_pass: trees without a split on a previous output walked row by row == through their tables (Algorithm 1 line 7)."
    from deepforest_interp.estimation import Algorithm1Layer, algorithm1_pass
    from deepforest_interp.calibration import _compiled_table, CAL_PARTIAL

    for C in (0, 3):
        m, X, y, Xn = _fit(11, 70, 3, C, None, 'per_layer')
        layers = [Algorithm1Layer.from_cascade(m, l) for l in range(m.n_layers_)]
        new = m.layer_inputs(Xn)
        a = algorithm1_pass(layers, _compiled_table(CAL_PARTIAL), m.n_outputs_, new)
        b = algorithm1_pass(
            layers,
            _compiled_table(CAL_PARTIAL),
            m.n_outputs_,
            new,
            walk_plain_trees=False,
        )
        for ra, rb in zip(a, b):
            for k in ('train', 'train_bias', 'new', 'new_bias'):
                np.testing.assert_allclose(ra[k], rb[k], atol=1e-12)


@pytest.mark.parametrize('C', [0, 5])
def test_split_sums_equal_the_reference(C):
    "The engine's node sums (`_split_sums`: only where Eq. 16 reads them, every forest in one pass) give the tree-by-tree reference's contributions and `node_sums` to 1e-12 (bit for bit against the kernel before them: test_df21)."
    from deepforest_interp.estimation import (
        Algorithm1Layer,
        cascade_contributions_reference,
        _K,
    )

    X, y, Xn = _data(5, 150, 4, C)
    Est = CascadeForestClassifier if C else CascadeForestRegressor
    m = Est(n_forests=4, n_estimators=6, max_layers=3, n_tolerant_rounds=3)
    m.set_params(random_state=2).fit(X, y)
    assert m.n_layers_ >= 2
    fast = cascade_pass(m, Xn, calibration='partial')
    ref = cascade_contributions_reference(m, Xn, node_map=partial_additive_calibration)
    for a, b in zip(fast, ref):
        for k in ('train', 'new'):
            np.testing.assert_allclose(a[k], b[k], rtol=0, atol=1e-12)
    lay = Algorithm1Layer.from_cascade(m, 1)
    Cm, K = max(C, 1), m.n_features_in_
    P = np.random.default_rng(0).normal(size=(m.n_forests, len(X), K * Cm))
    checked = 0
    for (tr, _), fm in zip(lay.folds, lay.forests[0]):
        for m_, tree in enumerate(fm.estimators_):
            ta = tree_arrays(tree)
            rows, w = inbag_rows(fm, m_, tr)
            leaf = tree.tree_.apply(np.asarray(lay.train_input, np.float32)[rows])
            S = np.empty((ta.n_nodes, m.n_forests, K * Cm))
            _K._split_sums(ta.parent, ta.feature, leaf, rows, w, P, K, Cm, S)
            for p in np.flatnonzero(ta.feature >= K):
                g = (ta.feature[p] - K) // Cm
                want = node_sums(ta, leaf, w, P[g][rows])
                for t in (p, ta.left[p], ta.right[p]):
                    np.testing.assert_allclose(S[t, g], want[t], rtol=0, atol=1e-12)
                    checked += 1
    assert checked > 0
