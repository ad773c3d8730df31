"Property tests of deepforest_interp.intersection_trees: rules of leaves (Eq. 1), gRIT against a literal Algorithm 1, stability (Eq. 2), ERF."

import warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import RandomForestClassifier, ExtraTreesClassifier
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks
from deepforest_interp.intersection_trees import (
    Interaction,
    leaf_rules,
    sample_forest_rules,
    intersect,
    grit,
    stability_scores,
    EnrichedRandomForestClassifier,
    _grit_core,
    _rit_layout,
)

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@parametrize_with_checks(
    [
        EnrichedRandomForestClassifier(n_estimators=3, random_state=0),
        EnrichedRandomForestClassifier(
            n_estimators=3, feature_sampling='subsets', random_state=0
        ),
    ]
)
def test_sklearn_conformance(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        check(estimator)


def _data(seed, n=80, p=4, C=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)).round(2)  # ties between rows are allowed
    y = rng.integers(C, size=n)
    return X, y


# check: seed 001 Eq. 1
@SETTINGS
@given(seed=st.integers(0, 10_000), depth=st.integers(1, 8), regression=st.booleans())
def test_leaf_rule_is_satisfied_by_exactly_the_rows_of_the_leaf(
    seed, depth, regression
):
    X, y = _data(seed)
    tree = (
        DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(
            X, y.astype(float)
        )
        if regression
        else DecisionTreeClassifier(max_depth=depth, random_state=seed).fit(X, y)
    )
    in_leaf = tree.apply(X)[:, None] == leaf_rules(tree).node[None, :]
    assert np.array_equal(leaf_rules(tree).satisfies(X), in_leaf)
    first = leaf_rules(tree, conditions='first')
    assert (first.satisfies(X) | ~in_leaf).all()  # leaf => its 'first' rule
    # every node: the premise of reaching it
    nodes = leaf_rules(tree, nodes=np.arange(tree.tree_.node_count))
    assert np.array_equal(
        nodes.satisfies(X), tree.decision_path(X).toarray().astype(bool)
    )


@SETTINGS
@given(seed=st.integers(0, 10_000))
def test_forest_rules_per_tree(seed):
    X, y = _data(seed, n=60)
    rf = ExtraTreesClassifier(n_estimators=3, max_depth=4, random_state=seed).fit(X, y)
    rules = leaf_rules(rf)
    leaves = rf.apply(X)
    for m in range(3):
        sel = np.flatnonzero(rules.tree == m)
        assert np.array_equal(
            rules.take(sel).satisfies(X), leaves[:, [m]] == rules.node[sel][None, :]
        )
    sampled = sample_forest_rules(rf, X, 30, conditions='all', random_state=seed)
    key = {(t, n): i for i, (t, n) in enumerate(zip(rules.tree, rules.node))}
    for r in range(30):
        assert sampled[r] == rules[key[(sampled.tree[r], sampled.node[r])]]


signed_rule = st.dictionaries(
    st.integers(1, 6).flatmap(lambda j: st.sampled_from([j, -j])),
    st.floats(-3, 3, allow_nan=False),
    max_size=6,
)


def _interaction(d):
    return Interaction(tuple(d), tuple(d.values()))


@SETTINGS
@given(a=signed_rule, b=signed_rule, c=signed_rule)
def test_intersection_is_a_subset_implied_by_both(a, b, c):
    A, B, C = _interaction(a), _interaction(b), _interaction(c)
    AB = intersect(A, B)
    assert set(AB.signed) == set(A.signed) & set(B.signed)
    assert AB == intersect(B, A) and intersect(A, A) == A
    assert intersect(AB, C) == intersect(A, intersect(B, C))
    X = np.random.default_rng(0).normal(size=(200, 6)) * 2
    assert (AB.mask(X) >= A.mask(X)).all() and (AB.mask(X) >= B.mask(X)).all()


def _reference_grit(rules, L, D, n_child, collect):
    J = sum(n_child**d for d in range(D))
    found = {}
    for l in range(L):
        T = [rules[l * J]]
        for k in range(1, J):
            T.append(intersect(rules[l * J + k], T[(k - 1) // n_child]))
        for node in T[J - n_child ** (D - 1) :] if collect == 'leaves' else T:
            if len(node):
                found.setdefault(node.signed, set()).add(l)
    return {s: len(ls) / L for s, ls in found.items()}


# check: seed 001 Algorithm 1
@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    L=st.integers(1, 5),
    D=st.integers(1, 4),
    n_child=st.integers(1, 3),
    collect=st.sampled_from(['leaves', 'all']),
)
def test_grit_matches_literal_algorithm_1(seed, L, D, n_child, collect):
    X, y = _data(seed, n=100, p=5)
    rf = RandomForestClassifier(4, max_depth=5, random_state=seed).fit(X, y)
    J, _ = _rit_layout(D, n_child)
    rules = sample_forest_rules(rf, X, L * J, random_state=seed)
    got = _grit_core(rules, L, D, n_child, 'loosest', collect)
    ref = _reference_grit(rules, L, D, n_child, collect)
    assert {I.signed: I.prevalence for I in got} == pytest.approx(ref)
    drawn = [set(rules[r].signed) for r in range(len(rules))]
    for I in got:
        assert 0 < I.prevalence <= 1
        assert any(
            set(I.signed) <= s for s in drawn
        )  # an interaction is a subset of a drawn rule


def test_grit_thresholds_loosest_and_median():
    X, y = _data(1, n=200, p=3)
    rf = RandomForestClassifier(5, max_depth=4, random_state=0).fit(X, y)
    rules = leaf_rules(rf, conditions='first')
    for agg in ['loosest', 'median']:
        out = grit(
            rules,
            weights=np.ones(len(rules)),
            n_trees=10,
            depth=2,
            threshold_agg=agg,
            random_state=0,
        )
        assert out and all(np.isfinite(I.thresholds).all() for I in out)
    with pytest.raises(ValueError, match='threshold_agg'):
        grit(rules, threshold_agg='mean')


# check: seed 001 Eq. 2
def test_stability_is_eq2_and_in_unit_interval():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)
    w = RandomForestClassifier(30, random_state=0).fit(X, y).feature_importances_
    out = stability_scores(
        X,
        y,
        n_bootstrap=4,
        feature_weights=w,
        n_estimators=5,
        depth=3,
        random_state=0,
    )
    runs = out.runs
    assert out and all(0 < I.stability <= 1 and 0 < I.prevalence <= 1 for I in out)
    for I in out:
        assert I.stability == pytest.approx(
            np.mean([any(J.signed == I.signed for J in T) for T in runs])
        )
        assert np.isfinite(I.thresholds).all()
    assert [I.stability for I in out] == sorted(
        (I.stability for I in out), reverse=True
    )
    assert stability_scores(
        X, y, n_bootstrap=2, n_estimators=3, depth=2, random_state=5
    ) == stability_scores(
        X, y, n_bootstrap=2, n_estimators=3, depth=2, random_state=5, n_jobs=2
    )


def test_erf_column_allocation():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 10))
    y = (X[:, 0] > 0).astype(int)
    w = np.r_[5.0, 3.0, np.zeros(3), np.ones(5)]
    erf = EnrichedRandomForestClassifier(
        w, n_estimators=5, column_multiplier=3, random_state=0
    ).fit(X, y)
    c = np.bincount(erf.columns_, minlength=10)
    assert c.sum() == 30 and (c[2:5] == 0).all()
    assert np.all(np.abs(c / 30 - w / w.sum()) < 1 / 30)
    assert (
        np.allclose(erf.feature_importances_.sum(), 1)
        and (erf.feature_importances_[2:5] == 0).all()
    )
    with pytest.raises(ValueError, match='not all zero'):
        EnrichedRandomForestClassifier(np.zeros(10)).fit(X, y)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), p=st.integers(3, 12))
def test_erf_subsets_never_draw_zero_weight_and_follow_weights(seed, p):
    "feature_sampling='subsets': zero-weight columns never reach a tree; heavier columns are drawn more often; rules stay exact."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, p))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    w = rng.uniform(0.1, 1, size=p)
    w[rng.random(p) < 0.3] = 0.0
    w[0] = 5.0
    erf = EnrichedRandomForestClassifier(
        w,
        n_estimators=40,
        max_features=1,
        column_multiplier=1,
        feature_sampling='subsets',
        random_state=seed,
    ).fit(X, y)
    drawn = np.concatenate(erf.tree_columns_)
    assert not np.isin(drawn, np.flatnonzero(w == 0)).any()
    assert np.bincount(drawn, minlength=p)[0] == max(
        np.bincount(drawn, minlength=p)
    )  # w_0 dominates: most draws
    assert (
        (erf.feature_importances_[w == 0] == 0).all()
        and np.isclose(erf.feature_importances_.sum(), 1)
        or erf.feature_importances_.sum() == 0
    )
    P = erf.predict_proba(X)
    assert P.shape == (80, 2) and np.allclose(P.sum(1), 1)
    r = leaf_rules(erf)
    m0 = r.tree == 0  # rules refer to original columns and are exact
    assert (
        r.take(np.flatnonzero(m0)).satisfies(X)
        == (erf.apply(X)[:, [0]] == r.node[m0][None, :])
    ).all()
