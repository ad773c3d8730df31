"Property tests of deepforest_interp.hidf: ALC features (Eq. 3), credit shares (D1-D2) and the identity (D3) of hidf_contributions on generated models."
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from deepforest_interp.intersection_trees import Interaction
from deepforest_interp.hidf import alc_features, alc_shares, credit_alc, HiDFClassifier, hidf_contributions

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
signed_rule = st.dictionaries(st.integers(1, 6).flatmap(lambda j: st.sampled_from([j, -j])),
                              st.floats(-3, 3, allow_nan=False), max_size=6)


def _interaction(d):
    return Interaction(tuple(d), tuple(d.values()))


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
        z = sum(s * w[j] * (X[:, j] - t) for j, s, t in zip(Ik.features, Ik.signs, Ik.thresholds))
        assert np.allclose(R[:, k], np.maximum(z, 0), atol=1e-9)
        if Ik.order == len(Ik):                             # one condition per feature: every term >= 0 where the
            assert (z[Ik.mask(X)] >= -1e-9).all() if len(Ik) else True   # rule holds, so the ReLU is linear there



@SETTINGS
@given(seed=st.integers(0, 10_000), d=signed_rule.filter(len), scale=st.sampled_from([1e-8, 1.0, 1e8]))
def test_alc_shares_sum_to_one_and_are_finite(seed, d, scale):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 6)) * scale
    X[:5] = 0.0                                                    # rows on the thresholds 0 ...
    I = _interaction(d); w = rng.uniform(size=6) * rng.integers(0, 2, size=6)   # ... and zero weights: all terms 0
    P, cols = alc_shares(X, I, w)
    assert cols == sorted(set(I.features)) and np.isfinite(P).all()
    assert np.allclose(P.sum(1), 1, atol=1e-9)
    on = alc_features(X, [I], w)[:, 0] > 0
    off = ~on & np.isclose(P, 1 / len(cols)).all(1)
    assert (on | off).all()                                          # off rows: an even split


@pytest.mark.filterwarnings('ignore')
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pipeline=st.sampled_from(['paper', 'cascade']), C=st.integers(2, 3),
       calibration=st.sampled_from(['partial', 'additive', 'multiplicative']))
def test_contributions_add_up_on_every_layer(seed, pipeline, C, calibration):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, 5))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int) + (C == 3) * (X[:, 2] > 1)
    m = HiDFClassifier(pipeline=pipeline, n_estimators=6, n_forests=2, n_bootstrap=3, n_estimators_bootstrap=5,
                       intersection_depth=2, max_layers=3, stability_threshold=0.3, random_state=seed).fit(X, y)
    Xn = rng.normal(size=(40, 5))
    es = hidf_contributions(m, Xn, calibration=calibration, all_layers=True)
    outs = ([m.predict_proba(Xn)] if pipeline == 'paper' else
            [L.cascade.predict_proba(Z) for L, Z in zip(m.layers_, m.layer_inputs(Xn))])
    assert len(es) == len(outs)
    for e, p in zip(es, outs):                                      # Eq. (D3) on every layer
        assert e.values.shape == (40, 5, len(m.classes_)) and np.isfinite(e.values).all()
        assert np.abs(e.output - p).max() <= 1e-9


def test_paper_pipeline_is_the_cascade_loop_and_keeps_only_the_final_forests():
    "Default pipeline: structure 0 is CascadeForestClassifier's first layer (same seed, same out-of-fold score); no front-layer forest is stored."
    from deepforest_interp.cascade import CascadeForestClassifier
    from deepforest_interp.core import MAX_SEED
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 5)); y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)
    kw = dict(n_estimators=8, n_bootstrap=3, n_estimators_bootstrap=5, intersection_depth=2)
    m = HiDFClassifier(max_layers=2, random_state=0, **kw).fit(X, y)
    assert m.pipeline == 'paper' and len(m.forests_) == m.n_forests
    assert all(L.cascade is None for L in m.layers_) and len(m.validation_scores_) == len(m.layers_) + 1
    assert m.best_layer_ == int(np.argmax(m.validation_scores_))
    Z = m.representation(X[:30])
    assert np.allclose(m.predict_proba(X[:30]), np.mean([f.predict_proba(Z) for f in m.forests_], axis=0), atol=1e-12)
    casc_seed = int(np.random.RandomState(0).randint(MAX_SEED))          # the first draw of HiDFClassifier's generator
    c = CascadeForestClassifier(n_estimators=8, max_layers=3, random_state=casc_seed).fit(X, y)   # 3 = its max_layers + 1
    assert m.validation_scores_[0] == c.validation_scores_[0]
