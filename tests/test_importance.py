"MDI == covariance of contributions with the label (seed 000 Eq. 13-14) on many random forests."
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor, ExtraTreesClassifier, ExtraTreesRegressor
from deepforest_interp.importance import mdi, mdi_covariance, mdi_oob, local_mdi, oob_permutation_importance, encode_target
from deepforest_interp.contributions import contributions

HSET = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(30, 150), K=st.integers(1, 6), C=st.integers(2, 4),
       depth=st.sampled_from([None, 2, 5]), et=st.booleans(), boot=st.booleans(), clf=st.booleans())
def test_mdi_equals_inbag_covariance(seed, n, K, C, depth, et, boot, clf):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)).round(2)
    if clf:
        y = rng.integers(0, C, n); y[:C] = np.arange(C)
        cls = ExtraTreesClassifier if et else RandomForestClassifier
    else:
        y = X[:, 0] + rng.normal(size=n); cls = ExtraTreesRegressor if et else RandomForestRegressor
    m = cls(n_estimators=6, max_depth=depth, bootstrap=boot, random_state=seed).fit(X, y)
    np.testing.assert_allclose(mdi_covariance(m, X, y, inbag=True), mdi(m), atol=1e-9, rtol=0)
    assert np.allclose(mdi(m, normalize=True), m.feature_importances_, atol=1e-12)

def test_held_out_covariance_is_centred():
    rng = np.random.default_rng(0); X = rng.normal(size=(300, 3)); y = X[:, 0] + rng.normal(size=300)
    m = RandomForestRegressor(n_estimators=20, random_state=0).fit(X[:200], y[:200])
    e = contributions(m, X[200:])
    ref = ((e.values - e.values.mean(0)) * (y[200:] - y[200:].mean())[:, None]).mean(0)
    np.testing.assert_allclose(mdi_covariance(m, X[200:], y[200:], inbag=False), ref, atol=1e-12)
    np.testing.assert_allclose(mdi_covariance(m, X[200:], y[200:] + 100.0, inbag=False),
                               mdi_covariance(m, X[200:], y[200:], inbag=False), atol=1e-9)

def test_mdi_oob_debiases_noise():
    rng = np.random.default_rng(0); n = 500
    X = np.c_[rng.integers(0, 2, n), rng.normal(size=(n, 3))]
    y = (rng.uniform(size=n) < 0.25 + 0.5 * X[:, 0]).astype(int)
    m = RandomForestClassifier(n_estimators=100, random_state=0).fit(X, y)
    mo = mdi_oob(m, X, y)
    assert np.argmax(mo) == 0 and np.abs(mo[1:]).max() < 0.5 * mo[0]
    assert np.argmax(mdi(m)) != 0            # the in-sample bias this measure removes

def test_local_mdi_adds_up():
    rng = np.random.default_rng(3); X = rng.uniform(size=(200, 4)); y = (X[:, 0] > .5).astype(int) + (X[:, 1] > .5)
    m = RandomForestClassifier(n_estimators=30, random_state=0).fit(X, y)
    lm = local_mdi(m, X, y).to_numpy(); pi = np.bincount(y) / len(y)
    e = contributions(m, X)
    np.testing.assert_allclose(pi @ lm, np.einsum('ikc,ic->k', e.values, encode_target(m, y)) / len(y), atol=1e-12)

def test_oob_permutation_z_finite_and_zero_for_unused():
    rng = np.random.default_rng(0); X = np.c_[rng.normal(size=(150, 2)), np.zeros(150)]; y = (X[:, 0] > 0).astype(int)
    m = RandomForestClassifier(n_estimators=30, random_state=0).fit(X, y)
    r = oob_permutation_importance(m, X, y, random_state=0)
    assert np.isfinite(r.z_scores).all() and r.z_scores[2] == 0 and r.importances_mean[2] == 0
    assert r.importances_mean[0] > r.importances_mean[1]

def test_errors():
    X = np.random.default_rng(0).normal(size=(50, 3)); y = (X[:, 0] > 0).astype(int)
    m = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match='NaN'): mdi_covariance(m, np.where(X > 1, np.nan, X), y)
    with pytest.raises(ValueError, match='fitted with 3'): mdi_oob(m, X[:, :2], y)
    with pytest.raises(ValueError, match='has 10 rows'): mdi_covariance(m, X, y[:10])
    with pytest.raises(TypeError, match='unsupported model'): mdi(object())
