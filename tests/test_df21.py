"""DF21 models as the library's cascades (notebook 06b, `deepforest_interp.df21`): on every fixture of tests/data/df21 the
built cascade's forward pass is DF21's output bit for bit, and bias + sum of contributions is that output to 1e-9 for
every calibration, on the training rows and on held-out rows (out of bag on the training rows with oof=True); MDI(DF) is
finite; the refusals say what to do; a built cascade pickles; and the library's own cascades are explained exactly as
before the engine learned explain weights. The real-data fixture (tests/data/df21/real, DF21's scikit-learn backend on
the full breast cancer data) adds the same identity, DF21's own importances from the rebuilt trees, and the
bootstrap counts; deep_forest_explain, prepare_explanations, the step-through and the forest-floor plots take DF21
cascades with and without the predictor."""

import pickle
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from deepforest_interp import estimation
from deepforest_interp.calibration import deep_forest_contributions, deep_forest_mdi
from deepforest_interp.cascade import CascadeForestClassifier, CascadeForestRegressor
from deepforest_interp.datasets import make_three_class
from deepforest_interp.df21 import from_df21, load_export

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / 'tests' / 'data' / 'df21'
FIXTURES = sorted(DATA.glob('*.npz'))
CALIBRATIONS = ('partial', 'additive', 'multiplicative')


def _total(e):
    s = e.bias + e.values.sum(1)
    return s[:, None] if s.ndim == 1 else s


def _out(m, X):
    return m.predict_proba(X) if hasattr(m, 'predict_proba') else m.predict(X)[:, None]


@pytest.fixture(scope='module', params=FIXTURES, ids=lambda p: p.stem)
def built(request):
    export, data, _ = load_export(request.param)
    return from_df21(export, data['X_train'], data['y_train']), data, request.param.stem


def test_six_fixtures():
    assert len(FIXTURES) == 6


def test_kind(built):
    m, data, name = built
    want = (
        CascadeForestRegressor
        if name.startswith('diabetes')
        else CascadeForestClassifier
    )
    assert isinstance(m, want)
    assert m.n_layers_ == 3 + name.endswith('predictor')
    assert m.df21_leaf_error_ <= 1e-12


@pytest.mark.parametrize('part', ['train', 'test'])
def test_forward_pass_is_df21(built, part):
    m, data, _ = built
    np.testing.assert_array_equal(_out(m, data[f'X_{part}']), data[f'out_{part}'])


@pytest.mark.parametrize('calibration', CALIBRATIONS)
@pytest.mark.parametrize('part', ['train', 'test'])
def test_identity(built, part, calibration):
    m, data, _ = built
    e = deep_forest_contributions(m, data[f'X_{part}'], calibration=calibration)
    assert np.abs(_total(e) - data[f'out_{part}']).max() <= 1e-9


def test_out_of_bag_identity(built):
    "oof=True: the training rows are explained by the trees they are out of bag for, as DF21's class vectors are."
    m, data, _ = built
    X = data['X_train']
    e = deep_forest_contributions(m, X, oof=True)
    oob = m.oof_outputs_[-1].copy()
    for f in range(
        oob.shape[1]
    ):  # rows in every tree's bag: the forest's in-sample output
        nan = np.isnan(oob[:, f]).any(1)
        if nan.any():
            oob[nan, f] = m._fold_mean(m.training_input(-1)[nan], m.n_layers_ - 1, f)
    assert np.abs(_total(e) - oob.mean(1)).max() <= 1e-9


def test_mdi_finite(built):
    m, data, _ = built
    for imp in (
        deep_forest_mdi(m, data['X_train'], data['y_train']),
        deep_forest_mdi(m, data['X_test'], data['y_test'], oof=False),
    ):
        assert np.isfinite(imp.values).all() and len(imp) == data['X_train'].shape[1]


def test_in_sample_pass_and_predictor_copies():
    export, data, _ = load_export(DATA / 'wine_predictor.npz')
    m = from_df21(
        export,
        data['X_train'],
        data['y_train'],
        train_pass='in_sample',
        predictor_copies=None,
    )
    assert len(m.layers_[-1]) == m.n_forests
    e = deep_forest_contributions(m, data['X_test'])
    assert np.abs(_total(e) - data['out_test']).max() <= 1e-9


def test_dataframe_names_and_pickle(tmp_path):
    pd = pytest.importorskip('pandas')
    export, data, _ = load_export(DATA / 'diabetes_predictor.npz')
    cols = [f'x{j}' for j in range(data['X_train'].shape[1])]
    path = tmp_path / 'model.npz'
    from deepforest_interp.df21 import save_export

    save_export(path, export)
    m = from_df21(
        str(path), pd.DataFrame(data['X_train'], columns=cols), data['y_train']
    )
    m2 = pickle.loads(pickle.dumps(m))
    e = deep_forest_contributions(m2, pd.DataFrame(data['X_test'], columns=cols))
    assert list(e.feature_names) == cols
    assert np.abs(_total(e) - data['out_test']).max() <= 1e-9
    assert (
        list(
            deep_forest_mdi(
                m2, pd.DataFrame(data['X_train'], columns=cols), data['y_train']
            ).index
        )
        == cols
    )


def _refusals():
    export, data, _ = load_export(DATA / 'breast_cancer_cascade.npz')
    X, y = data['X_train'], data['y_train']
    exr, dr, _ = load_export(DATA / 'diabetes_cascade.npz')
    return [
        (
            'wrong rows',
            lambda: from_df21(export, X, y[::-1]),
            ValueError,
            'not the data',
        ),
        (
            'wrong targets',
            lambda: from_df21(exr, dr['X_train'], dr['y_train'] + 1),
            ValueError,
            'not the data',
        ),
        (
            'columns',
            lambda: from_df21(export, X[:, :5], y),
            ValueError,
            'X_train must be',
        ),
        (
            'labels',
            lambda: from_df21(export, X, y + 7),
            ValueError,
            "not the model's classes",
        ),
        (
            'lengths',
            lambda: from_df21(export, X, y[:-1]),
            ValueError,
            'y_train must hold',
        ),
        (
            'train_pass',
            lambda: from_df21(export, X, y, train_pass='kfold'),
            ValueError,
            'train_pass',
        ),
        (
            'predictor_copies',
            lambda: from_df21(export, X, y, predictor_copies=0),
            ValueError,
            'predictor_copies',
        ),
        (
            'names',
            lambda: from_df21(export, X, y, feature_names=['a']),
            ValueError,
            'feature_names',
        ),
        (
            'not a model',
            lambda: from_df21(object(), X, y),
            TypeError,
            'model_or_export must be',
        ),
        (
            'not an export',
            lambda: from_df21({'x': 1}, X, y),
            ValueError,
            "without 'meta'",
        ),
        (
            'sklearn backend, export without bootstrap seeds',
            lambda: from_df21(
                dict(export, meta=dict(export['meta'], backend='sklearn')), X, y
            ),
            ValueError,
            'export the model again',
        ),
        (
            'no random_state',
            lambda: from_df21(
                dict(export, tree_seed=np.full_like(export['tree_seed'], -1)), X, y
            ),
            ValueError,
            'random_state=<int>',
        ),
        (
            'multi-target',
            lambda: from_df21(
                dict(exr, meta=dict(exr['meta'], n_outputs=2)),
                dr['X_train'],
                dr['y_train'],
            ),
            NotImplementedError,
            'one model per target',
        ),
        (
            'custom estimators',
            lambda: from_df21(
                SimpleNamespace(
                    is_fitted_=True, use_custom_estimator=True, binners_={}, layers_={}
                ),
                X,
                y,
            ),
            NotImplementedError,
            'set_estimator',
        ),
    ]


@pytest.mark.parametrize('case', range(14))
def test_refusals(case):
    name, call, exc, words = _refusals()[case]
    with pytest.raises(exc, match=words.replace('(', r'\(').replace(')', r'\)')):
        call()


def test_refit_refused(built):
    m, data, _ = built
    with pytest.raises(NotImplementedError, match='from_df21'):
        m.fit(data['X_train'], data['y_train'])


def test_library_cascade_unchanged_by_explain_weights(monkeypatch):
    "The engine with explain weights explains a K-fold cascade bit for bit as the engine before them did."
    X, y = make_three_class(200, n_noise=4, random_state=3)
    model = CascadeForestClassifier(
        n_estimators=8, max_depth=4, max_layers=3, random_state=0
    ).fit(X, y)
    X_new = X[:40] + 0.1

    def run():
        estimation._CACHES.clear()
        return (
            deep_forest_contributions(model, X, oof=True),
            deep_forest_contributions(model, X_new),
            deep_forest_mdi(model, X, y, return_std=True),
        )

    now = run()
    ns = dict(estimation.__dict__)  # the old engine, with its own node-sum kernel
    exec(
        compile(
            (DATA / 'forest_pass_before.py').read_text(), 'forest_pass_before', 'exec'
        ),
        ns,
    )
    monkeypatch.setattr(estimation, '_forest_pass', ns['_forest_pass'])
    before = run()
    for a, b in zip(now[:2], before[:2]):
        np.testing.assert_array_equal(a.values, b.values)
        np.testing.assert_array_equal(a.bias, b.bias)
    np.testing.assert_array_equal(now[2].importances_mean, before[2].importances_mean)
    np.testing.assert_array_equal(now[2].importances, before[2].importances)
    assert not any(
        hasattr(fm, 'explain_weights_')
        for lay in model.layers_
        for f in lay
        for fm in f
    )


# --- DF21's scikit-learn backend on real data, and the other entry points --------------------------------------------

REAL = DATA / 'real' / 'breast_cancer_sklearn.npz'


@pytest.fixture(scope='module')
def real():
    export, data, _ = load_export(REAL)
    return from_df21(export, data['X_train'], data['y_train']), data, export


def test_real_fixture_is_sklearn_backend(real):
    m, data, export = real
    assert export['meta']['backend'] == 'sklearn'
    assert {f['bootstrap'] for f in export['meta']['forests']} == {'sklearn'}
    assert m.n_layers_ == 3 and m.df21_leaf_error_ <= 1e-12
    assert REAL.stat().st_size < 1_000_000


@pytest.mark.parametrize('part', ['train', 'test'])
def test_real_identity(real, part):
    m, data, _ = real
    X = data[f'X_{part}']
    np.testing.assert_array_equal(m.predict_proba(X), data[f'out_{part}'])
    for cal in CALIBRATIONS:
        e = deep_forest_contributions(m, X, calibration=cal)
        assert np.abs(_total(e) - data[f'out_{part}']).max() < 1e-9


def test_real_out_of_bag_is_sklearns(real):
    # oof=True: bias + contributions of the training rows = scikit-learn's oob_decision_function_ handed up
    m, data, _ = real
    e = deep_forest_contributions(m, data['X_train'], oof=True)
    assert np.abs(_total(e) - m.oof_outputs_[-1].mean(1)).max() < 1e-9


def test_real_rebuilt_trees_give_df21_importances(real):
    # DF21's get_layer_feature_importances depends on every internal node's impurity and (bootstrap) weight
    m, data, _ = real
    for l in range(m.n_layers_):
        rebuilt = np.mean([f[0].feature_importances_ for f in m.layers_[l]], axis=0)
        np.testing.assert_allclose(rebuilt, data[f'df21_importances_{l}'], atol=1e-12)


def test_real_bags_are_bootstrap_counts(real):
    from deepforest_interp.core import inbag_counts

    m, data, export = real
    fm = m.layers_[1][0][0]
    counts = inbag_counts(fm, len(data['X_train']))
    assert counts.max() > 1  # scikit-learn's bags repeat rows
    np.testing.assert_array_equal(counts, fm.inbag_)
    assert (
        np.array([t.tree_.n_node_samples[0] for t in fm.estimators_])
        == (counts > 0).sum(1)
    ).all()
    np.testing.assert_array_equal(
        [t.tree_.weighted_n_node_samples[0] for t in fm.estimators_], counts.sum(1)
    )


def test_real_mdi_against_df21(real):
    from scipy.stats import spearmanr

    m, data, _ = real
    mdi = deep_forest_mdi(m, data['X_train'], data['y_train'])
    assert np.isfinite(mdi.values).all()
    rho = spearmanr(mdi.values, data['df21_importances_0']).statistic
    assert rho > 0.9


def test_sklearn_export_without_seeds_is_refused():
    export, data, _ = load_export(REAL)
    forests = [
        {k: v for k, v in f.items() if k != 'bootstrap'}
        for f in export['meta']['forests']
    ]
    bad = dict(export, meta=dict(export['meta'], forests=forests))
    with pytest.raises(ValueError, match='export the model again'):
        from_df21(bad, data['X_train'], data['y_train'])
    bad = dict(export, meta=dict(export['meta'], backend='xgboost'))
    with pytest.raises(NotImplementedError, match="'custom' and 'sklearn'"):
        from_df21(bad, data['X_train'], data['y_train'])


ENTRY = ['wine_cascade', 'wine_predictor', 'diabetes_predictor']


@pytest.fixture(scope='module', params=ENTRY)
def entry(request):
    export, data, _ = load_export(DATA / f'{request.param}.npz')
    return from_df21(export, data['X_train'], data['y_train']), data


def test_deep_forest_explain(entry):
    from deepforest_interp.calibration import deep_forest_explain

    m, data = entry
    ex = deep_forest_explain(m, data['X_test'])
    assert np.abs(_total(ex.new) - data['out_test']).max() < 1e-9
    np.testing.assert_allclose(
        np.asarray(ex.mdi.values),
        deep_forest_mdi(m, data['X_train'], data['y_train']).values,
        atol=1e-12,
    )


def test_prepare_explanations(entry):
    from deepforest_interp.calibration import prepare_explanations

    m, data = entry
    m = pickle.loads(pickle.dumps(m))
    before = deep_forest_contributions(m, data['X_test']).values
    assert prepare_explanations(m) is m
    np.testing.assert_array_equal(
        deep_forest_contributions(m, data['X_test']).values, before
    )


def test_step_through(entry):
    from deepforest_interp.calibration import (
        deep_forest_steps_data,
        explore_deep_forest,
    )

    m, data = entry
    sd = deep_forest_steps_data(m, data['X_test'], rows=4, trees=1)
    # the predictor's layer holds one forest, the others 2 x n_estimators
    assert [len(lay['trees']) for lay in sd['layers']] == [
        len(lay) for lay in m.layers_
    ]
    scale = np.abs(data['out_test']).max()
    for r in sd['rows']:
        for lay in r['layers']:
            assert (
                abs(lay['bias'] + sum(lay['contrib']) - lay['expected']['output'])
                < 1e-6 * scale
            )
    assert (
        type(explore_deep_forest(m, data['X_test'], rows=3, trees=1)).__name__
        == 'Explorer'
    )


def test_forest_floor(entry):
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    from deepforest_interp.forest_floor_plots import (
        explore_forest_floor,
        forest_floor_data,
        plot_forest_floor,
    )

    m, data = entry
    e = deep_forest_contributions(m, data['X_test'])
    out = 1 if m.n_outputs_ > 1 else None
    fig = plot_forest_floor(e, [0, 1], output=out)
    assert len(fig.axes) >= 2
    plt.close(fig)
    assert len(forest_floor_data(e, output=out, features=[0, 1])['panels']) == 2
    assert type(explore_forest_floor(e, output=out)).__name__ == 'Explorer'


def test_declared_inbag_and_weights(real):
    "from_df21 writes no private attribute: the forests declare `inbag_`, the cascade `fold_inbag_` / `fold_explain_weights_`, which Algorithm 1 reads."
    from deepforest_interp.estimation import Algorithm1Layer

    m, data, _ = real
    for l, lay in enumerate(m.layers_):
        a = Algorithm1Layer.from_cascade(m, l)
        for f, (fm,) in enumerate(lay):
            assert not {'_n_samples', '_n_samples_bootstrap'} & set(vars(fm))
            assert a.inbag[f][0] is fm.inbag_
            assert a.explain_weights[f][0].shape == fm.inbag_.shape
