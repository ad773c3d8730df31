"""Speed of the vectorised hiDF pieces against literal Python versions (prints ratios; not a test).

python bench/hidf.py

The accuracy / size / test-time targets of the default HiDFClassifier against gcForest (issue 22) are in
`bench/hidf_targets.py` (resumable repetitions stored under figures/reps/hidf_bench/).
"""

import time
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from deepforest_interp.nodes import tree_arrays
from deepforest_interp.datasets import make_hidf_sphere
from deepforest_interp.intersection_trees import (
    Interaction,
    intersect,
    leaf_rules,
    sample_forest_rules,
    _grit_core,
    _rit_layout,
)


def naive_leaf_rules(forest):
    "One Python walk per leaf, conditions merged in a dict (the exact 'all' rule)."
    out = []
    for t in forest.estimators_:
        ta = tree_arrays(t)
        for leaf in np.flatnonzero(ta.is_leaf):
            conds, c = {}, leaf
            while ta.parent[c] >= 0:
                p = ta.parent[c]
                j = int(ta.feature[p]) + 1
                s = -j if ta.left[p] == c else j
                t_ = float(ta.threshold[p])
                conds[s] = (
                    t_
                    if s not in conds
                    else (min(conds[s], t_) if s < 0 else max(conds[s], t_))
                )
                c = p
            out.append(Interaction(tuple(conds), tuple(conds.values())))
    return out


def naive_grit(rules, L, D, n_child):
    J = sum(n_child**d for d in range(D))
    found = {}
    for l in range(L):
        T = [rules[l * J]]
        for k in range(1, J):
            T.append(intersect(rules[l * J + k], T[(k - 1) // n_child]))
        for node in T[J - n_child ** (D - 1) :]:
            if len(node):
                found.setdefault(node.signed, set()).add(l)
    return found


def timeit(f, reps=3):
    best = np.inf
    for _ in range(reps):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


if __name__ == '__main__':
    X, y = make_hidf_sphere(n_samples=3000, n_noise=100, random_state=0)
    rf = RandomForestClassifier(50, random_state=0, n_jobs=2).fit(X, y)
    n_leaves = sum(int((e.tree_.children_left < 0).sum()) for e in rf.estimators_)
    a, b = timeit(lambda: leaf_rules(rf)), timeit(lambda: naive_leaf_rules(rf), reps=1)
    fast = leaf_rules(rf)
    assert [fast[i] for i in range(0, len(fast), 97)] == naive_leaf_rules(rf)[::97]
    print(
        f'leaf_rules, {n_leaves} leaves of 50 trees: vectorised {a:.3f} s, per-leaf Python {b:.3f} s, ratio {b / a:.1f}x'
    )
    L, D, nc = 20, 5, 2
    J, _ = _rit_layout(D, nc)
    rules = sample_forest_rules(rf, X, L * J, random_state=0)
    a = timeit(lambda: _grit_core(rules, L, D, nc, 'loosest'))
    objs = [rules[i] for i in range(len(rules))]
    b = timeit(lambda: naive_grit(objs, L, D, nc), reps=1)
    print(
        f'gRIT core, L={L} D={D} n_child={nc}: vectorised {a * 1e3:.1f} ms, literal Python {b * 1e3:.1f} ms, '
        f'ratio {b / a:.1f}x'
    )
