"""The explorers' precomputed numbers obey the equations they show (issue 19): tree paths (seed 000 Eq. 2-6), Algorithm 1
step by step (Eq. 15-30), forest-floor panels (seed 003 Eq. 17); and their HTML is self-contained."""

import json, re
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)
from sklearn.tree import DecisionTreeRegressor
from deepforest_interp import explore_path, explore_deep_forest, explore_forest_floor
from deepforest_interp.tree_contributions import contributions, tree_path_data, Explorer
from deepforest_interp.adapters import model_output
from deepforest_interp.calibration import (
    deep_forest_contributions,
    deep_forest_steps_data,
)
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.datasets import make_three_class, make_sin_cos
from deepforest_interp.forest_floor import (
    oob_contributions,
    goodness_of_visualization,
    feature_colors,
)
from deepforest_interp.forest_floor_plots import forest_floor_data, _hex_colors

RNG = np.random.default_rng(0)
X5 = pd.DataFrame(RNG.normal(size=(150, 4)), columns=['a', 'b', 'c', 'd'])
Y5 = X5.a * X5.b + X5.c + 0.1 * RNG.normal(size=150)


def _check_path(d, model, X, o):
    "Every row: bias + increments along every drawn path = that tree's output; the running forest average ends at Eq. 6."
    e = contributions(model, X)
    V = e.values if e.values.ndim == 3 else e.values[..., None]
    out = np.asarray(model_output(model, X), float).reshape(len(X), -1)
    for i, r in enumerate(d['rows']):
        for t, tr in enumerate(d['trees']):
            v = np.array([tr['nodes'][str(n)][2] for n in r['paths'][t]])
            assert abs(
                v[0] + np.diff(v).sum() - r['expected']['tree'][t]
            ) <= 1e-9 * max(1, abs(v[-1]))
            for a, b in zip(
                r['paths'][t][:-1], r['paths'][t][1:]
            ):  # the path follows the split rule
                f, thr, *_, left, right = tr['nodes'][str(a)]
                assert b == (
                    left if float(np.float32(r['x'][f])) <= thr else right
                )  # sklearn: float32 x vs float64 threshold
        np.testing.assert_allclose(
            r['cum'][-1], V[i, :, o], rtol=1e-5, atol=1e-9 * max(1, np.abs(V).max())
        )
        np.testing.assert_allclose(r['contrib'], V[i, :, o], rtol=1e-11, atol=1e-12)
        assert abs(r['bias'] + sum(r['contrib']) - out[i, o]) <= 1e-9 * max(
            1, abs(out[i, o])
        )
        assert r['expected']['output'] == pytest.approx(out[i, o], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(
    'model, output, o',
    [
        (RandomForestRegressor(n_estimators=12, max_depth=6, random_state=0), None, 0),
        (
            ExtraTreesRegressor(n_estimators=40, max_depth=4, random_state=0),
            None,
            0,
        ),  # > 30 trees: log-spaced checkpoints
        (DecisionTreeRegressor(max_depth=5, random_state=0), None, 0),
        (RandomForestClassifier(n_estimators=8, max_depth=5, random_state=0), 1, 1),
        (
            GradientBoostingRegressor(n_estimators=15, max_depth=3, random_state=0),
            None,
            0,
        ),
        (GradientBoostingClassifier(n_estimators=6, max_depth=2, random_state=0), 2, 2),
    ],
)
def test_path_explorer_sums(model, output, o):
    y = Y5 if not hasattr(model, 'predict_proba') else np.digitize(Y5, [-0.5, 0.5])
    model.fit(X5, y)
    d = tree_path_data(model, X5, rows=40, trees=4, output=output)
    assert len(d['rows']) == 40 and len(d['trees']) == min(4, len(d['trees']))
    assert d['checkpoints'][-1] == d['n_trees'] and len(d['checkpoints']) <= 31
    _check_path(d, model, X5.iloc[:40], o)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    depth=st.sampled_from([None, 1, 3]),
    n_trees=st.integers(1, 8),
    classify=st.booleans(),
)
def test_path_explorer_hypothesis(seed, depth, n_trees, classify):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 3)).round(1)
    y = rng.integers(0, 3, 60) if classify else X[:, 0] * X[:, 1] + rng.normal(size=60)
    M = (RandomForestClassifier if classify else RandomForestRegressor)(
        n_estimators=n_trees, max_depth=depth, random_state=seed
    ).fit(X, y)
    rows = sorted(rng.choice(60, 10, replace=False).tolist())
    d = tree_path_data(M, X, rows=rows, trees=list(range(n_trees)))
    assert d['row_ids'] == rows
    _check_path(d, M, X[rows], 2 if classify else 0)


def test_path_explorer_bad_input():
    m = RandomForestRegressor(n_estimators=3, random_state=0).fit(X5, Y5)
    with pytest.raises(ValueError, match='at most 200'):
        explore_path(m, X5, rows=list(range(150)) * 2)
    with pytest.raises(ValueError, match='rows must be'):
        explore_path(m, X5, rows=[-1])
    with pytest.raises(TypeError, match='rows must be'):
        explore_path(m, X5, rows='all')
    with pytest.raises(ValueError, match='trees must be'):
        explore_path(m, X5, trees=[5])
    with pytest.raises(ValueError, match='at most 20'):
        explore_path(m, X5, trees=30)
    with pytest.raises(ValueError, match='output must be'):
        explore_path(m, X5, output=1)
    with pytest.raises(TypeError, match='unsupported model'):
        explore_path('model', X5)


@pytest.fixture(scope='module')
def cascades():
    Xc, yc = make_three_class(150, n_noise=3, random_state=0)
    clf = CascadeForestClassifier(
        n_estimators=4, max_depth=3, max_layers=3, n_tolerant_rounds=3, random_state=0
    ).fit(Xc, yc)
    Xs, ys = make_sin_cos(150, random_state=0)
    reg = CascadeForestRegressor(
        n_estimators=4, max_depth=3, max_layers=3, n_tolerant_rounds=3, random_state=0
    ).fit(Xs, ys)
    return [
        (clf, make_three_class(40, n_noise=3, random_state=1)[0]),
        (reg, make_sin_cos(40, random_state=1)[0]),
    ]


@pytest.mark.parametrize('calibration', ['partial', 'additive', 'multiplicative'])
def test_deep_forest_steps(cascades, calibration):
    "Walking each path with Algorithm 1 (line 7 or the pass's calibrated estimate) ends at the library's table; the layer sums to its output."
    n_new = 0
    for model, Xn in cascades:
        d = deep_forest_steps_data(model, Xn, rows=15, trees=2, calibration=calibration)
        K = d['K']
        assert d['map_index'] == ['multiplicative', 'additive', 'partial'].index(
            calibration
        )
        assert len(d['layers']) == model.n_layers_
        clf = hasattr(model, 'classes_')
        for l, L in enumerate(d['layers']):
            out = (
                model.predict_proba(Xn, layer=l)[:, -1]
                if clf
                else model.predict(Xn, layer=l)
            )
            e = deep_forest_contributions(model, Xn, calibration=calibration, layer=l)
            V = e.values[..., -1] if clf else e.values
            for i, r in enumerate(d['rows']):
                R = r['layers'][l]
                for t, tr in enumerate(L['trees']):
                    table, p = np.zeros(K), R['paths'][t]
                    for a, b in zip(p[:-1], p[1:]):
                        f, nd = tr['nodes'][str(a)]['f'], tr['nodes'][str(b)]
                        assert (
                            abs(nd['dmu'] - (nd['v'] - tr['nodes'][str(a)]['v']))
                            < 1e-12
                        )
                        if f < K:
                            table[f] += nd['dmu']
                        else:
                            n_new += 1
                            for m in nd['maps']:
                                assert (
                                    abs(sum(m) - nd['dmu']) <= 1e-9
                                )  # Eq. (20), every map
                            table += nd['maps'][d['map_index']]
                    np.testing.assert_allclose(
                        table, R['expected']['table'][t], rtol=1e-9, atol=1e-11
                    )
                    assert (
                        abs(
                            tr['nodes'][str(p[0])]['v']
                            + table.sum()
                            - tr['nodes'][str(p[-1])]['v']
                        )
                        < 1e-9
                    )  # mu(t0) + table = leaf
                np.testing.assert_allclose(R['contrib'], V[i], rtol=1e-11, atol=1e-12)
                assert abs(R['bias'] + sum(R['contrib']) - out[i]) <= 1e-9  # Eq. (29)
    assert n_new > 0  # class-vector splits were met and checked


def test_deep_forest_bad_input(cascades):
    model, Xn = cascades[0]
    with pytest.raises(ValueError, match='calibration must be'):
        explore_deep_forest(model, Xn, calibration=None)
    with pytest.raises(ValueError, match='more than 20'):
        explore_deep_forest(model, Xn, trees=8)
    with pytest.raises(ValueError, match='output must be'):
        explore_deep_forest(model, Xn, output=5)
    with pytest.raises(TypeError, match='CascadeForest'):
        explore_deep_forest(RandomForestRegressor(), Xn)
    with pytest.raises(ValueError, match='rows must be'):
        explore_deep_forest(model, Xn, rows=[100])


def test_forest_floor_explorer():
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, size=(300, 3))
    y = X[:, 0] ** 2 + X[:, 1] * X[:, 2]
    rf = RandomForestRegressor(n_estimators=30, max_features=1, random_state=0).fit(
        X, y
    )
    e = oob_contributions(rf, X, y)
    d = forest_floor_data(e, max_rows=120)
    assert (
        len(d['row_ids']) == 120
        and d['row_ids'] == sorted(set(d['row_ids']))
        and d['n_rows'] == 300
    )
    np.testing.assert_allclose(
        d['gov'],
        goodness_of_visualization(e, features=d['panels']).to_numpy(),
        atol=1e-4,
    )
    np.testing.assert_allclose(d['y'], e.values[d['row_ids']], rtol=1e-7)
    np.testing.assert_allclose(d['x'], X[d['row_ids']], rtol=1e-7)
    for j in range(3):
        assert d['colors'][j] == _hex_colors(
            feature_colors(X, [j], max_components=1)[d['row_ids']]
        )
    assert (
        d['gov'][0] > 0.9 > max(d['gov'][1:])
    )  # x0's main effect is fully visible, x1/x2 interact
    ec = oob_contributions(
        RandomForestClassifier(n_estimators=30, random_state=0).fit(
            X, (y > 0.3).astype(int)
        ),
        X,
        (y > 0.3).astype(int),
    )
    dc = forest_floor_data(ec, output=1, features=['x1', 'x0'])
    assert dc['output'] == '1' and [dc['features'][j] for j in dc['panels']] == [
        'x1',
        'x0',
    ]
    with pytest.raises(ValueError, match='several outputs'):
        forest_floor_data(ec)
    with pytest.raises(ValueError, match='max_rows'):
        explore_forest_floor(e, max_rows=0)
    with pytest.raises(ValueError, match='pass X'):
        explore_forest_floor(rf)
    dm = forest_floor_data(rf, X[:50])  # a model: in-sample contributions of X
    np.testing.assert_allclose(dm['y'], contributions(rf, X[:50]).values, rtol=1e-7)


def test_html_is_self_contained_and_deterministic(cascades):
    rf = RandomForestRegressor(n_estimators=5, max_depth=4, random_state=0).fit(X5, Y5)
    model, Xn = cascades[0]
    views = [
        explore_path(rf, X5, rows=10),
        explore_deep_forest(model, Xn, rows=5, trees=1),
        explore_forest_floor(rf, X5, max_rows=50),
    ]
    for ex, kind in zip(views, ['tree-path', 'deep-forest', 'forest-floor']):
        assert isinstance(ex, Explorer) and ex.kind == kind
        h = ex._repr_html_()
        assert (
            f'data-explorer="{kind}"' in h and h == ex.to_html()
        )  # same data, same page (stable id)
        blob = re.search(
            r'<script type="application/json" class="dfx-data">(.*?)</script>', h, re.S
        ).group(1)
        assert json.loads(blob.replace('<\\/', '</')) == json.loads(json.dumps(ex.data))
        assert not re.search(
            r'(src|href)\s*=|https?://(?!www\.w3\.org/2000/svg)', h
        )  # loads nothing, links nowhere
