"MDI == covariance of contributions with the label (seed 000 Eq. 13-14) on many random, weighted forests."

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from deepforest_interp.importance import (
    mdi,
    mdi_covariance,
    mdi_oob,
    oob_permutation_importance,
)

HSET = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@HSET
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(30, 150),
    K=st.integers(1, 6),
    C=st.integers(2, 4),
    depth=st.sampled_from([None, 2, 5]),
    kind=st.sampled_from(['rf', 'et', 'dt']),
    boot=st.booleans(),
    clf=st.booleans(),
    weighted=st.booleans(),
    cw=st.sampled_from([None, 'balanced', 'balanced_subsample']),
)
def test_mdi_equals_inbag_covariance(
    seed, n, K, C, depth, kind, boot, clf, weighted, cw
):
    "In-bag Eq. (13) == impurity MDI for every tree/forest kind, bootstrap on/off, sample and class weights."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, K)).round(2)
    sw = rng.uniform(0.1, 3, n) if weighted else None
    if clf:
        y = rng.integers(0, C, n)
        y[:C] = np.arange(C)
        cls = {
            'rf': RandomForestClassifier,
            'et': ExtraTreesClassifier,
            'dt': DecisionTreeClassifier,
        }[kind]
        if kind == 'dt' and cw == 'balanced_subsample':
            cw = 'balanced'
        kw = dict(class_weight=cw)
    else:
        y = X[:, 0] + rng.normal(size=n)
        cls = {
            'rf': RandomForestRegressor,
            'et': ExtraTreesRegressor,
            'dt': DecisionTreeRegressor,
        }[kind]
        kw = {}
    if kind != 'dt':
        kw.update(n_estimators=6, bootstrap=boot)
    m = cls(max_depth=depth, random_state=seed, **kw).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(
        mdi_covariance(m, X, y, sample_weight=sw), mdi(m), atol=1e-9, rtol=0
    )
    assert np.allclose(mdi(m, normalize=True), m.feature_importances_, atol=1e-12)


@HSET
@given(seed=st.integers(0, 10_000), n=st.integers(40, 150))
def test_reordered_rows_are_refused(seed, n):
    "A bootstrapped forest's in-bag and OOB measures refuse the training rows in another order."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(int)
    y[:2] = [0, 1]
    m = RandomForestClassifier(n_estimators=5, random_state=seed).fit(X, y)
    perm = rng.permutation(n)
    if (perm == np.arange(n)).all():
        return
    for f in (
        lambda: mdi_covariance(m, X[perm], y[perm]),
        lambda: mdi_oob(m, X[perm], y[perm]),
        lambda: oob_permutation_importance(m, X[perm], y[perm]),
    ):
        with pytest.raises(ValueError, match='training order'):
            f()


@pytest.mark.parametrize('criterion', ['entropy', 'log_loss'])
def test_non_variance_criteria_are_refused(criterion):
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    m = RandomForestClassifier(n_estimators=3, criterion=criterion, random_state=0).fit(
        X, y
    )
    with pytest.raises(ValueError, match='variance impurity'):
        mdi_covariance(m, X, y)
    assert mdi(m).ge(0).all()
