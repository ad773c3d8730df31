"Property tests of deepforest_interp.hidf: ALC features (Eq. 3), credit shares (D1-D2) and the identity (D3) of hidf_contributions on generated models."

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from deepforest_interp.intersection_trees import Interaction
from deepforest_interp.hidf import (
    alc_features,
    alc_shares,
    credit_alc,
    HiDFClassifier,
    hidf_contributions,
)

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
signed_rule = st.dictionaries(
    st.integers(1, 6).flatmap(lambda j: st.sampled_from([j, -j])),
    st.floats(-3, 3, allow_nan=False),
    max_size=6,
)


def _interaction(d):
    return Interaction(tuple(d), tuple(d.values()))


# check: seed 001 Eq. 3
@SETTINGS
@given(seed=st.integers(0, 10_000), inters=st.lists(signed_rule, max_size=5))
def test_alc_features_are_eq3_finite_and_nonnegative(seed, inters):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(50, 6)) * 10
    w = rng.uniform(size=6)
    I = [_interaction(d) for d in inters]
    R = alc_features(X, I, w)
    assert R.shape == (50, len(I)) and np.isfinite(R).all() and (R >= 0).all()
    for k, Ik in enumerate(I):
        z = sum(
            s * w[j] * (X[:, j] - t)
            for j, s, t in zip(Ik.features, Ik.signs, Ik.thresholds)
        )
        assert np.allclose(R[:, k], np.maximum(z, 0), atol=1e-9)
        if Ik.order == len(Ik):  # one condition per feature: every term >= 0 where the
            assert (
                (z[Ik.mask(X)] >= -1e-9).all() if len(Ik) else True
            )  # rule holds, so the ReLU is linear there


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    d=signed_rule.filter(len),
    scale=st.sampled_from([1e-8, 1.0, 1e8]),
)
def test_alc_shares_sum_to_one_and_are_finite(seed, d, scale):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 6)) * scale
    X[:5] = 0.0  # rows on the thresholds 0 ...
    I = _interaction(d)
    w = rng.uniform(size=6) * rng.integers(
        0, 2, size=6
    )  # ... and zero weights: all terms 0
    P, cols = alc_shares(X, I, w)
    assert cols == sorted(set(I.features)) and np.isfinite(P).all()
    assert np.allclose(P.sum(1), 1, atol=1e-9)
    on = alc_features(X, [I], w)[:, 0] > 0
    off = ~on & np.isclose(P, 1 / len(cols)).all(1)
    assert (on | off).all()  # off rows: an even split


@pytest.mark.filterwarnings('ignore')
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    pipeline=st.sampled_from(['paper', 'cascade']),
    C=st.integers(2, 3),
    calibration=st.sampled_from(['partial', 'additive', 'multiplicative']),
)
def test_contributions_add_up_on_every_layer(seed, pipeline, C, calibration):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, 5))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int) + (C == 3) * (X[:, 2] > 1)
    m = HiDFClassifier(
        pipeline=pipeline,
        n_estimators=6,
        n_forests=2,
        n_bootstrap=3,
        n_estimators_bootstrap=5,
        intersection_depth=2,
        max_layers=3,
        stability_threshold=0.3,
        random_state=seed,
    ).fit(X, y)
    Xn = rng.normal(size=(40, 5))
    es = list(
        hidf_contributions(
            m, Xn, calibration=calibration, all_layers=True
        ).layers.values()
    )
    outs = (
        [m.predict_proba(Xn)]
        if pipeline == 'paper'
        else [m.cascade_.predict_proba(Xn, layer=l) for l in range(m.n_layers_)]
    )
    assert len(es) == len(outs)
    for e, p in zip(es, outs):  # Eq. (D3) on every layer
        assert (
            e.values.shape == (40, 5, len(m.classes_)) and np.isfinite(e.values).all()
        )
        assert np.abs(e.output - p).max() <= 1e-9


def _weighted_eq16_oracle(m, Xn, w, calibrate):
    """seed 000 Algorithm 1 on a cascade-pipeline hiDF, brute force and independent of the library's engine: every tree's
    in-bag rows (bootstrap counts x sample weights `w`, or the counts alone when they already reproduce the tree's root
    weight), node membership by `decision_path`, Eq. 16 as a difference of weighted node means of the previous layer's
    out-of-fold contributions; new rows averaged over every fold model (Eq. 27-30). Returns, per kept layer, the
    contributions over the layer's own columns (n_new, K_l, C) and the bias (n_new, C)."""
    C = len(m.classes_)
    prev, out = None, []
    for l, lay in enumerate(m.layers_):
        casc, Kp = m.cascade_, lay.n_features_in
        Ztr = casc.training_input(l).astype(np.float32)
        Znew = m.layer_inputs(Xn)[l].astype(np.float32)
        if (
            prev is not None and prev.shape[2] < Kp
        ):  # ALC columns added by this layer: no contribution yet
            prev = np.concatenate(
                [prev, np.zeros(prev.shape[:2] + (Kp - prev.shape[2], C))], axis=2
            )
        F, folds = len(casc.layers_[l]), casc.folds_[l]
        tr_v = np.zeros((len(Ztr), F, Kp, C))
        nw_v = np.zeros((len(Znew), F, Kp, C))
        nw_b = np.zeros(C)
        for f in range(F):
            for j, (tr, va) in enumerate(folds):
                fm = casc.layers_[l][f][j]
                M = len(fm.estimators_)
                for t, (tree, idx) in enumerate(
                    zip(fm.estimators_, fm.estimators_samples_)
                ):
                    tt = tree.tree_
                    value = tt.value[:, 0, :] / tt.value[:, 0, :].sum(1, keepdims=True)
                    counts = np.bincount(idx, minlength=len(tr)).astype(float)
                    wt = counts * (1.0 if w is None else w[tr])
                    if not np.isclose(
                        wt.sum(), tt.weighted_n_node_samples[0], rtol=1e-12
                    ):
                        wt = counts
                    rows, wr = tr[wt > 0], wt[wt > 0]
                    member = (
                        tree.decision_path(Ztr[rows]).toarray().astype(bool)
                    )  # (n_rows, n_nodes)
                    if (
                        w is not None
                    ):  # the in-bag weights are the tree's own node weights, at every node
                        np.testing.assert_allclose(
                            wr @ member, tt.weighted_n_node_samples, rtol=1e-10
                        )
                    table = np.zeros((tt.node_count, Kp, C))
                    for p in range(
                        tt.node_count
                    ):  # a child's id is larger than its parent's
                        if tt.children_left[p] < 0:
                            continue
                        k = tt.feature[p]
                        for ch in (tt.children_left[p], tt.children_right[p]):
                            dmu = value[ch] - value[p]
                            table[ch] = table[p]
                            if k < Kp:
                                table[ch, k] += dmu
                                continue
                            g = (k - Kp) // C
                            mean = lambda node: (
                                np.einsum(
                                    'r,rkc->kc',
                                    wr[member[:, node]],
                                    prev[rows[member[:, node]], g],
                                )
                                / wr[member[:, node]].sum()
                            )
                            table[ch] += calibrate(
                                mean(ch) - mean(p), dmu
                            )  # Eq. 16, then Eq. 19
                    tr_v[va, f] += table[tree.apply(Ztr[va])] / M
                    nw_v[:, f] += table[tree.apply(Znew)] / (M * len(folds))
                    nw_b += value[0] / (M * len(folds) * F)
        prev = tr_v
        out.append((nw_v.mean(1), np.tile(nw_b, (len(Znew), 1))))
    return out


@pytest.mark.filterwarnings('ignore')
def test_hidf_contributions_match_a_weighted_eq16_oracle():
    "hidf_contributions on a weighted fit == seed 000 Algorithm 1 with weighted node means (Eq. 16), brute force, to 1e-9."
    from deepforest_interp.calibration import partial_additive_calibration

    rng = np.random.default_rng(7)
    X = rng.normal(size=(120, 4))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)
    w = rng.uniform(0.2, 3.0, len(y))
    m = HiDFClassifier(
        pipeline='cascade',
        n_estimators=4,
        n_forests=2,
        n_bootstrap=2,
        n_estimators_bootstrap=4,
        intersection_depth=2,
        max_layers=3,
        n_tolerant_rounds=3,
        stability_threshold=0.3,
        max_depth=4,
        random_state=0,
    ).fit(X, y, sample_weight=w)
    assert len(m.layers_) >= 2  # a layer that splits on class vectors
    Xn = rng.normal(size=(25, 4))
    K = X.shape[1]
    specs = [(I, L.weights) for L in m.layers_ for I in L.interactions]
    A = m.representation(Xn)
    es = list(hidf_contributions(m, Xn, all_layers=True).layers.values())
    ref = _weighted_eq16_oracle(m, Xn, w, partial_additive_calibration)
    unweighted = _weighted_eq16_oracle(m, Xn, None, partial_additive_calibration)
    gap = 0.0
    for l, (e, (v, b), (v0, _)) in enumerate(zip(es, ref, unweighted)):
        Kp = m.layers_[l].n_features_in
        expect = credit_alc(v, A[:, :Kp], specs[: Kp - K], K)
        np.testing.assert_allclose(
            e.values, expect, atol=1e-9 * max(1.0, np.abs(expect).max())
        )
        np.testing.assert_allclose(e.bias, b, atol=1e-12)
        gap = max(
            gap, np.abs(credit_alc(v0, A[:, :Kp], specs[: Kp - K], K) - expect).max()
        )
    assert (
        gap > 1e-3
    )  # the weights matter: the unweighted node means give other contributions


# check: seed 001 Algorithm 2
def test_paper_pipeline_is_the_cascade_loop_and_keeps_only_the_final_forests():
    "Default pipeline: structure 0 is CascadeForestClassifier's first layer (same seed, same out-of-fold score); no front-layer forest is stored."
    from deepforest_interp.cascade import CascadeForestClassifier
    from deepforest_interp.core import MAX_SEED

    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 5))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)
    kw = dict(
        n_estimators=8, n_bootstrap=3, n_estimators_bootstrap=5, intersection_depth=2
    )
    m = HiDFClassifier(max_layers=2, random_state=0, **kw).fit(X, y)
    from sklearn.ensemble import RandomForestClassifier

    assert (
        m.pipeline == 'paper' and len(m.forests_) == 1
    )  # Algorithm 2's output {RF, S_r}
    assert (
        type(m.forests_[0]) is RandomForestClassifier
        and len(m.forests_[0].estimators_) == m.n_estimators_final
    )
    assert (
        not hasattr(m, 'cascade_') and len(m.validation_scores_) == len(m.layers_) + 1
    )
    assert m.best_layer_ == int(np.argmax(m.validation_scores_))
    Z = m.representation(X[:30])
    assert np.allclose(
        m.predict_proba(X[:30]),
        np.mean([f.predict_proba(Z) for f in m.forests_], axis=0),
        atol=1e-12,
    )
    casc_seed = int(
        np.random.RandomState(0).randint(MAX_SEED)
    )  # the first draw of HiDFClassifier's generator
    c = CascadeForestClassifier(
        n_estimators=8, max_layers=3, random_state=casc_seed
    ).fit(X, y)  # 3 = its max_layers + 1
    assert m.validation_scores_[0] == c.validation_scores_[0]
    # final_estimator='layer': the structure's own forests on the same structures (the search does not see the final)
    m2 = HiDFClassifier(
        max_layers=2, random_state=0, final_estimator='layer', **kw
    ).fit(X, y)
    assert (
        len(m2.forests_) == m2.n_forests
        and m2.validation_scores_ == m.validation_scores_
    )
    np.testing.assert_array_equal(m2.representation(X[:30]), Z)
