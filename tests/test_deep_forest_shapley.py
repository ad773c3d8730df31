"""Deep forests explained with Shapley values (notebook 06c, `deepforest_interp.cascade_shapley`): additivity to the
cascade's output (Eq. D4) on fixed and hypothesis-generated cascades, layer 0 against shap's own TreeSHAP, the
redistribution identities (Eq. D3, D5) and bad input named."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import RandomForestClassifier

import deepforest_interp as dfi
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.calibration import deep_forest_contributions
from deepforest_interp.cascade_shapley import (
    block_credit,
    deep_forest_shapley,
    forest_shapley,
    redistribute,
)

HSET = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _data(seed, n=150, K=4, C=3):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        rng.uniform(size=(n, K)).round(2), columns=[f'f{k}' for k in range(K)]
    )
    s = X.f0 + 0.5 * X.f1 + 0.3 * rng.normal(size=n)
    if C:
        y = pd.Series(np.digitize(s, np.quantile(s, np.linspace(0, 1, C + 1)[1:-1])))
    else:
        y = pd.Series(
            np.sin(4 * X.f0) + X.f1 * X.iloc[:, -1] + 0.1 * rng.normal(size=n)
        )
    return X, y


@pytest.fixture(scope='module')
def clf():
    X, y = _data(0)
    m = CascadeForestClassifier(
        n_estimators=8, max_depth=4, max_layers=3, n_tolerant_rounds=3, random_state=0
    ).fit(X, y)
    return m, X


@pytest.fixture(scope='module')
def reg():
    X, y = _data(1, C=0)
    m = CascadeForestRegressor(
        n_estimators=8, max_depth=4, max_layers=3, n_tolerant_rounds=3, random_state=1
    ).fit(X, y)
    return m, X


@pytest.mark.parametrize('calibration', ['partial', 'additive', 'multiplicative'])
def test_additive_to_the_cascade_output(clf, reg, calibration):
    m, X = clf
    e = deep_forest_shapley(m, X.iloc[:40], calibration=calibration)
    assert np.abs(e.bias + e.values.sum(1) - m.predict_proba(X.iloc[:40])).max() < 1e-9
    assert e.values.shape == (40, 4, 3) and e.info['calibration'] == calibration
    m, X = reg
    e = deep_forest_shapley(m, X.iloc[:40], calibration=calibration)
    assert np.abs(e.bias + e.values.sum(1) - m.predict(X.iloc[:40])).max() < 1e-9
    assert e.values.shape == (40, 4) and e.output_names is None


def test_every_layer_is_additive(clf):
    m, X = clf
    for l in range(m.n_layers_):
        e = deep_forest_shapley(m, X.iloc[:20], layer=l)
        assert (
            np.abs(e.bias + e.values.sum(1) - m.predict_proba(X.iloc[:20], l)).max()
            < 1e-9
        )
        assert e.info['layer'] == l and len(e.info['block_share']) == l + 1
        assert e.info['block_share'][0] == 0.0


def test_layer0_is_shaps_treeshap(clf):
    "Layer 0 against an independent oracle: shap's TreeExplainer on every fold model, averaged."
    shap = pytest.importorskip('shap')
    m, X = clf
    rows = X.iloc[:15]
    e = deep_forest_shapley(m, rows, layer=0)
    ref = np.zeros((15, 4, 3))
    for G in range(m.n_forests):
        for fm in m.layers_[0][G]:
            v = shap.TreeExplainer(
                fm, feature_perturbation='tree_path_dependent'
            ).shap_values(rows.to_numpy(np.float32), check_additivity=False)
            ref += np.asarray(v).reshape(15, 4, 3) / (
                m.n_forests * len(m.layers_[0][G])
            )
    assert np.abs(e.values - ref).max() < 1e-6


def test_forest_values_add_up_to_forest_output(clf):
    m, X = clf
    rows = X.iloc[:10]
    Zs = m.layer_inputs(rows)
    for l in range(m.n_layers_):
        for G in range(m.n_forests):
            v, b = forest_shapley(m, Zs[l], l, G)
            assert np.abs(b + v.sum(1) - m.forest_output(rows, l, G)).max() < 1e-9


def test_redistribution_identities():
    rng = np.random.default_rng(3)
    psi, cr = rng.normal(size=(6, 3, 5, 2)), rng.normal(size=(6, 3, 2))
    for cal in ('partial', 'additive', 'multiplicative'):
        assert np.allclose(
            redistribute(psi, cr, cal).sum(1), cr.sum(1), atol=1e-12
        )  # Eq. D3
    # Eq. D5: a forest linear in the block gets the chain rule a * Psi with the multiplicative map
    assert np.allclose(
        redistribute(psi, 1.7 * psi.sum(2), 'multiplicative'), 1.7 * psi.sum(1)
    )
    v = rng.normal(size=(4, 5 + 3 * 2, 2))
    bc = block_credit(v, 5, 3)
    assert bc.shape == (4, 3, 2) and np.allclose(bc.sum(1), v[:, 5:].sum(1))


def test_same_output_as_algorithm1(clf):
    "Both attributions explain the same number: bias + values agree row by row."
    m, X = clf
    ep, es = (
        deep_forest_contributions(m, X.iloc[:30]),
        deep_forest_shapley(m, X.iloc[:30]),
    )
    assert (
        np.abs((ep.bias + ep.values.sum(1)) - (es.bias + es.values.sum(1))).max() < 1e-9
    )


def test_package_root():
    assert dfi.deep_forest_shapley is deep_forest_shapley


@HSET
@given(
    seed=st.integers(0, 10_000),
    C=st.sampled_from([0, 2, 3]),
    K=st.integers(2, 5),
    layers=st.integers(1, 3),
    cal=st.sampled_from(['partial', 'additive', 'multiplicative']),
)
def test_generated_cascades_are_additive(seed, C, K, layers, cal):
    X, y = _data(seed, n=90, K=K, C=C)
    cls = CascadeForestClassifier if C else CascadeForestRegressor
    m = cls(
        n_forests=2,
        n_estimators=3,
        max_depth=3,
        max_layers=layers,
        n_tolerant_rounds=layers,
        random_state=seed,
    ).fit(X, y)
    rows = X.iloc[:12]
    e = deep_forest_shapley(m, rows, calibration=cal)
    out = m.predict_proba(rows) if C else m.predict(rows)
    assert np.isfinite(e.values).all() and np.isfinite(e.bias).all()
    assert np.abs(e.bias + e.values.sum(1) - out).max() <= 1e-9 * max(
        1.0, np.abs(out).max()
    )


BAD = [
    (
        'calibration None',
        lambda m, X: deep_forest_shapley(m, X, calibration=None),
        ValueError,
        'calibration',
    ),
    (
        'calibration name',
        lambda m, X: deep_forest_shapley(m, X, calibration='none'),
        ValueError,
        'calibration',
    ),
    (
        'layer out of range',
        lambda m, X: deep_forest_shapley(m, X, layer=7),
        ValueError,
        'layer',
    ),
    (
        'layer type',
        lambda m, X: deep_forest_shapley(m, X, layer=1.5),
        TypeError,
        'layer',
    ),
    (
        'check_additivity',
        lambda m, X: deep_forest_shapley(m, X, check_additivity='yes'),
        TypeError,
        'check_additivity',
    ),
    ('n_jobs', lambda m, X: deep_forest_shapley(m, X, n_jobs=0), ValueError, 'n_jobs'),
    (
        'X width',
        lambda m, X: deep_forest_shapley(m, X.iloc[:, :2]),
        ValueError,
        'feature',
    ),
    (
        'not a cascade',
        lambda m, X: deep_forest_shapley(RandomForestClassifier(), X),
        TypeError,
        'model',
    ),
    (
        'forest index',
        lambda m, X: forest_shapley(m, X.to_numpy(), 0, 9),
        ValueError,
        'forest',
    ),
    ('Z width', lambda m, X: forest_shapley(m, X.to_numpy(), 1, 0), ValueError, 'Z'),
    (
        'values shape',
        lambda m, X: block_credit(np.zeros((2, 7, 3)), 4, 2),
        ValueError,
        'values',
    ),
    (
        'n_features',
        lambda m, X: block_credit(np.zeros((2, 10, 3)), 0, 2),
        ValueError,
        'n_features',
    ),
    (
        'credit shape',
        lambda m, X: redistribute(np.zeros((2, 2, 4, 3)), np.zeros((2, 1, 3))),
        ValueError,
        'credit',
    ),
    (
        'redistribute calibration',
        lambda m, X: redistribute(np.zeros((2, 2, 4, 3)), np.zeros((2, 2, 3)), 'x'),
        ValueError,
        'calibration',
    ),
]


@pytest.mark.parametrize('case', BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_named(clf, case):
    _, call, exc, fragment = case
    m, X = clf
    with pytest.raises(exc) as info:
        call(m, X.iloc[:5])
    assert fragment.lower() in str(info.value).lower(), str(info.value)
