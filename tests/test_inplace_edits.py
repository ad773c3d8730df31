"""A fitted model edited in place after a first call (leaves re-estimated, `load_model`, `set_leaf_output`) is read
again: every explainer that reads `node_table` gives the edited model's numbers, as a fresh copy of it does, and
never a failing additivity check (issue 40, item 2). Table-driven: every family x every explainer."""

import copy, functools
import numpy as np
import pytest
from sklearn.ensemble import (
    GradientBoostingRegressor,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
)
from sklearn.tree import DecisionTreeRegressor
from deepforest_interp.adapters import model_output
from deepforest_interp.boosting import boosting_library, _prepare_rows, _raw_output
from deepforest_interp.tree_contributions import contributions, contribution_summary
from deepforest_interp.joint import joint_contributions, interaction_strength
from deepforest_interp.single_sample import ssfi
from deepforest_interp.forest_floor import heldout_contributions

xgb = pytest.importorskip('xgboost')
lgb = pytest.importorskip('lightgbm')

rng = np.random.default_rng(0)
X = rng.normal(size=(150, 4))
y = X[:, 0] + X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=150)
X[::7, 3] = np.nan  # missing values: the rows a later check keeps comparing


def _leaf_edit(tree):
    leaf = np.flatnonzero(tree.tree_.children_left < 0)[:3]
    v = tree.tree_.value  # a view of the tree's own memory
    if v.shape[2] > 1:  # class fractions re-estimated: the classes swapped
        v[leaf] = v[leaf][:, :, ::-1].copy()
    else:
        v[leaf] += 5
    tree.tree_.threshold[0] += 0.3  # and the root's split moved


def _hgb_edit(m):
    nodes = m._predictors[0][0].nodes
    nodes['value'][nodes['is_leaf'].astype(bool)] += 5


def _xgb_edit(m):  # another model's trees loaded into the same Booster object
    other = xgb.XGBRegressor(n_estimators=8, max_depth=3, learning_rate=0.9)
    m.get_booster().load_model(bytearray(other.fit(X, -y).get_booster().save_raw()))


def _lgbm_edit(m):
    b = m.booster_
    b.set_leaf_output(0, 0, b.get_leaf_output(0, 0) + 5)


# family -> (fit, edit in place)
FAMILIES = {
    'tree': (lambda: DecisionTreeRegressor(max_depth=4), lambda m: _leaf_edit(m)),
    'forest': (
        lambda: RandomForestClassifier(8, max_depth=4, random_state=0),
        lambda m: _leaf_edit(m.estimators_[0]),
    ),
    'gb': (
        lambda: GradientBoostingRegressor(n_estimators=8, max_depth=3),
        lambda m: _leaf_edit(m.estimators_[0, 0]),
    ),
    'hgb': (lambda: HistGradientBoostingRegressor(max_iter=8), _hgb_edit),
    'xgboost': (
        lambda: xgb.XGBRegressor(n_estimators=8, max_depth=3, learning_rate=0.5),
        _xgb_edit,
    ),
    'lightgbm': (
        lambda: lgb.LGBMRegressor(n_estimators=8, num_leaves=8, verbose=-1),
        _lgbm_edit,
    ),
}


@functools.cache
def _fitted(family):
    m = FAMILIES[family][0]()
    Xf = np.nan_to_num(X) if family in ('tree', 'forest', 'gb') else X
    return m.fit(Xf, (y > 0) if family == 'forest' else y), Xf


def _own_output(m, Xf):
    lib = boosting_library(m)
    if lib is None:
        return np.asarray(model_output(m, Xf), float).reshape(len(Xf), -1)
    return _raw_output(m, lib, _prepare_rows(m, lib, Xf)[1])


def _sets(jc):
    return np.asarray(jc.output).reshape(len(jc), -1)


# explainer -> (call(model, X), numbers to compare, compare with the model's own output?)
EXPLAINERS = {
    'contributions': (contributions, lambda e: e.output, True),
    'joint_contributions': (joint_contributions, _sets, True),
    'interaction_strength': (interaction_strength, lambda s: s['strength'], False),
    'contribution_summary': (
        lambda m, X: contribution_summary(m, X),
        lambda b: b.mean.to_numpy(),
        False,
    ),
    'ssfi': (lambda m, X: ssfi(m, X), lambda s: s.to_numpy(), False),
    'heldout_contributions': (heldout_contributions, lambda e: e.output, True),
}
SKLEARN_ONLY = {
    'contribution_summary': ('tree', 'forest', 'gb'),
    'ssfi': ('tree', 'forest'),
    'heldout_contributions': ('forest',),
}
CASES = [
    (f, x)
    for f in FAMILIES
    for x in EXPLAINERS
    if x not in SKLEARN_ONLY or f in SKLEARN_ONLY[x]
]


@pytest.mark.parametrize('family,explainer', CASES)
def test_edit_in_place_is_read_again(family, explainer):
    fitted, Xf = _fitted(family)
    m = copy.deepcopy(fitted)
    call, numbers, additive = EXPLAINERS[explainer]
    call(m, Xf)  # first call: the table cached and verified
    FAMILIES[family][1](m)  # edited in place: the same objects
    got = numbers(call(m, Xf))  # the default check: no error, no stale table
    fresh = numbers(call(copy.deepcopy(m), Xf))  # a copy has no cache entry
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(fresh, float))
    if additive:
        out = _own_output(m, Xf)
        np.testing.assert_allclose(np.asarray(got).reshape(out.shape), out, atol=1e-5)
