"Bad-input table: gRIT rule sets and interactions (issue 16 §6), see tests/test_bad_input.py."

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier
from _bad_input_common import Bad, Edge
from deepforest_interp.intersection_trees import (
    Interaction,
    leaf_rules,
    sample_forest_rules,
    intersect,
    grit,
    grit_forest,
    stability_scores,
    plot_stability,
)

_rng = np.random.default_rng(7)
X = _rng.uniform(size=(80, 4))
y = ((X[:, 0] > 0.5) & (X[:, 1] > 0.3)).astype(int)
tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
rf = RandomForestClassifier(n_estimators=4, max_depth=3, random_state=0).fit(X, y)
R = leaf_rules(tree)
I = Interaction((-1, 2), (0.5, 0.3))

BAD = [
    Bad('RuleSet[n]', lambda: R[len(R)], ValueError, 'out of range'),
    Bad('RuleSet[-n-1]', lambda: R[-len(R) - 1], ValueError, 'out of range'),
    Bad('RuleSet[1.5]', lambda: R[1.5], TypeError, 'rule index must be an int'),
    Bad(
        'RuleSet.take/out-of-range',
        lambda: R.take([0, len(R)]),
        ValueError,
        'out of range',
    ),
    Bad(
        'RuleSet.take/too-negative',
        lambda: R.take([-len(R) - 1]),
        ValueError,
        'out of range',
    ),
    Bad('RuleSet.take/float', lambda: R.take([0.5]), TypeError, 'integer rule indices'),
    Bad(
        'RuleSet.satisfies/width',
        lambda: R.satisfies(X[:, :2]),
        ValueError,
        'rules refer to 4',
    ),
    Bad(
        'leaf_rules/float-node',
        lambda: leaf_rules(tree, nodes=[1.5]),
        TypeError,
        'integer node ids',
    ),
    Bad(
        'leaf_rules/node-out-of-range',
        lambda: leaf_rules(tree, nodes=[10**6]),
        ValueError,
        'node ids must lie',
    ),
    Bad(
        'leaf_rules/nodes-forest',
        lambda: leaf_rules(rf, nodes=[1]),
        ValueError,
        'single tree',
    ),
    Bad(
        'leaf_rules/conditions',
        lambda: leaf_rules(tree, conditions='some'),
        ValueError,
        'conditions',
    ),
    Bad(
        'leaf_rules/wrong-model',
        lambda: leaf_rules(object()),
        TypeError,
        'unsupported model',
    ),
    Bad(
        'intersect/tuple',
        lambda: intersect((-1, 2), I),
        TypeError,
        'a must be an Interaction',
    ),
    Bad(
        'intersect/none',
        lambda: intersect(I, None),
        TypeError,
        'b must be an Interaction',
    ),
    Bad(
        'Interaction/zero',
        lambda: Interaction((0,), (1.0,)),
        ValueError,
        '0 is not a valid index',
    ),
    Bad(
        'Interaction/inf-threshold',
        lambda: Interaction((1,), (np.inf,)),
        ValueError,
        'finite',
    ),
    Bad(
        'Interaction.mask/width',
        lambda: I.mask(X[:, :1]),
        ValueError,
        'X has 1 columns',
    ),
    Bad(
        'sample_forest_rules/size-float',
        lambda: sample_forest_rules(rf, X, 2.5),
        TypeError,
        'size must be an int',
    ),
    Bad(
        'sample_forest_rules/size-zero',
        lambda: sample_forest_rules(rf, X, 0),
        ValueError,
        'size must be >= 1',
    ),
    Bad('grit/not-ruleset', lambda: grit([I]), TypeError, 'rules must be a RuleSet'),
    Bad(
        'grit/weights-shape',
        lambda: grit(R, weights=[1.0]),
        ValueError,
        'weights must have shape',
    ),
    Bad('grit/n_trees', lambda: grit(R, n_trees=0), ValueError, 'n_trees must be >= 1'),
    Bad(
        'grit/depth-float',
        lambda: grit(R, depth=2.0),
        TypeError,
        'depth must be an int',
    ),
    Bad(
        'grit_forest/X-width',
        lambda: grit_forest(rf, X[:, :3], n_trees=2, depth=2),
        ValueError,
        'fitted with 4',
    ),
    Bad(
        'stability_scores/n_bootstrap',
        lambda: stability_scores(X, y, n_bootstrap=0),
        ValueError,
        'n_bootstrap must be >= 1',
    ),
    Bad(
        'plot_stability/top',
        lambda: plot_stability([I], top=0),
        ValueError,
        'top must be >= 1',
    ),
]
EDGE = [
    Edge(
        'RuleSet[-1]', lambda: R[-1], lambda out: out == R[len(R) - 1] and len(out) > 0
    ),  # not an empty interaction
    Edge(
        'RuleSet.take/negative',
        lambda: R.take([-1, 0]),
        lambda out: out[0] == R[-1] and out[1] == R[0],
    ),
    Edge('RuleSet.take/empty', lambda: R.take([]), lambda out: len(out) == 0),
    Edge(
        'leaf_rules/numpy-int-nodes',
        lambda: leaf_rules(tree, nodes=np.array([0, 1], np.int32)),
        lambda out: len(out) == 2 and len(out[0]) == 0,
    ),
    Edge(
        'intersect/disjoint',
        lambda: intersect(I, Interaction((3,), (0.1,))),
        lambda out: len(out) == 0,
    ),
]

# ---- fresh adversarial pass (issue 16, last item) -------------------------------------------------------------------
BAD += [
    Bad(
        'Interaction/str-index',
        lambda: Interaction(('a',), (1.0,)),
        TypeError,
        'signed must hold integer',
    ),
    Bad(
        'Interaction/str-threshold',
        lambda: Interaction((1,), ('a',)),
        TypeError,
        'thresholds must be numeric',
    ),
    Bad(
        'Interaction.label/too-few-names',
        lambda: Interaction((3,), (0.5,)).label(['a']),
        ValueError,
        'feature_names has 1 names',
    ),
    Bad(
        'Interaction.describe/digits',
        lambda: I.describe(digits='a'),
        TypeError,
        'digits must be an int',
    ),
    Bad(
        'plot_stability/too-few-names',
        lambda: plot_stability(
            [Interaction((1, 3), (0.0, 0.0), prevalence=0.5)], feature_names=['a']
        ),
        ValueError,
        'feature_names has 1 names',
    ),
    Bad(
        'grit/weights-str',
        lambda: grit(R, weights=['a'] * len(R)),
        TypeError,
        'weights must be numeric',
    ),
]
