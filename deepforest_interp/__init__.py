"""deepforest_interp: explainable deep forests and random forests.

The package root holds what users call: explainers, importances, estimators, plots and data loaders. Everything else
(kernels, validation helpers, experiment and site plumbing) lives in its module, e.g.
``deepforest_interp.adapters.node_table`` or ``deepforest_interp.experiments.run_repetitions``.
Each module is generated from one notebook in nbs/; no module is shadowed by a function of the same name, and a
module named like a call is callable: ``dfi.forest_floor(model, X)`` is ``oob_contributions`` (the forestFloor
workflow), ``dfi.tree_shap(model, X)`` is ``shapley_values`` (``CALLABLE_MODULES``).
"""

__version__ = '0.1.0'

from .explanation import Explanation
from .pipelines import unwrap_pipeline
from .datasets import (
    make_sin_cos,
    make_linear_sum,
    make_three_class,
    make_sim,
    make_forest_floor_toy,
    make_hidf_sphere,
    load_iris,
    load_wine,
    load_breast_cancer,
    load_digits,
    load_diabetes,
    load_keel,
    load_adult,
    load_bank_marketing,
    load_statlog_satellite,
    load_crowdsourced_mapping,
    load_phishing,
    load_bike_sharing,
    list_datasets,
)
from .tree_contributions import (
    contributions,
    contribution_summary,
    plot_contributions,
    explore_path,
)
from .tree_shap import shapley_values, shapley_interactions, ShapleyInteractions
from .explanation_plots import plot_summary, plot_waterfall, plot_dependence
from .joint import (
    JointContributions,
    joint_contributions,
    interaction_strength,
    plot_interaction_strength,
)
from .importance import (
    mdi,
    mdi_covariance,
    mdi_oob,
    ufi,
    local_mdi,
    mda,
    oob_permutation_importance,
    plot_importances,
)
from .stumps import mdi_plus
from .cascade import (
    CascadeForestClassifier,
    CascadeForestRegressor,
    plot_validation_curve,
)
from .calibration import (
    deep_forest_contributions,
    deep_forest_mdi,
    deep_forest_local_mdi,
    deep_forest_explain,
    explore_deep_forest,
    prepare_explanations,
)
from .cascade_shapley import deep_forest_shapley
from .forest_floor import (
    oob_contributions,
    heldout_contributions,
    cv_contributions,
    goodness_of_visualization,
    feature_colors,
    contribution_importance,
    rank_interactions,
)
from .forest_floor_plots import (
    plot_forest_floor,
    plot_two_way,
    plot_aligned,
    plot_simplex,
    plot_simplex_grid,
    explore_forest_floor,
)
from .single_sample import (
    ssfi,
    loo_forest,
    LOOForest,
    ssfi_loo,
    plot_ssfi,
    plot_ssfi_image,
)
from .intersection_trees import (
    Interaction,
    RuleSet,
    leaf_rules,
    grit,
    grit_forest,
    EnrichedRandomForestClassifier,
    stability_scores,
    plot_stability,
)
from .hidf import HiDFClassifier, alc_features, hidf_contributions, hidf_mdi
from .df21 import from_df21

__all__ = [
    # explanations and explainers
    'Explanation',
    'contributions',
    'contribution_summary',
    'shapley_values',
    'shapley_interactions',
    'ShapleyInteractions',
    'joint_contributions',
    'JointContributions',
    'deep_forest_contributions',
    'deep_forest_explain',
    'deep_forest_shapley',
    'prepare_explanations',
    'oob_contributions',
    'heldout_contributions',
    'cv_contributions',
    'unwrap_pipeline',
    'ssfi',
    'ssfi_loo',
    'loo_forest',
    'LOOForest',
    'hidf_contributions',
    # importances
    'mdi',
    'mdi_covariance',
    'mdi_oob',
    'ufi',
    'mdi_plus',
    'local_mdi',
    'mda',
    'oob_permutation_importance',
    'deep_forest_mdi',
    'deep_forest_local_mdi',
    'hidf_mdi',
    'contribution_importance',
    'interaction_strength',
    'rank_interactions',
    'goodness_of_visualization',
    # estimators and rule mining
    'CascadeForestClassifier',
    'CascadeForestRegressor',
    'HiDFClassifier',
    'from_df21',
    'EnrichedRandomForestClassifier',
    'Interaction',
    'RuleSet',
    'leaf_rules',
    'grit',
    'grit_forest',
    'stability_scores',
    'alc_features',
    # plots
    'plot_contributions',
    'plot_importances',
    'plot_summary',
    'plot_waterfall',
    'plot_dependence',
    'plot_validation_curve',
    'plot_forest_floor',
    'plot_two_way',
    'plot_aligned',
    'plot_simplex',
    'plot_simplex_grid',
    'feature_colors',
    'plot_ssfi',
    'plot_ssfi_image',
    'plot_stability',
    'plot_interaction_strength',
    # interactive explorers (HTML + JavaScript: JupyterLab and the offline course site)
    'explore_path',
    'explore_deep_forest',
    'explore_forest_floor',
    # data
    'make_sin_cos',
    'make_linear_sum',
    'make_three_class',
    'make_sim',
    'make_forest_floor_toy',
    'make_hidf_sphere',
    'load_iris',
    'load_wine',
    'load_breast_cancer',
    'load_digits',
    'load_diabetes',
    'load_keel',
    'load_adult',
    'load_bank_marketing',
    'load_statlog_satellite',
    'load_crowdsourced_mapping',
    'load_phishing',
    'load_bike_sharing',
    'list_datasets',
]


# modules named like a function a user would call: `dfi.forest_floor(model, X)` calls it (the
# forestFloor workflow: out-of-bag contributions), `dfi.tree_shap(model, X)` too (exact TreeSHAP),
# while `deepforest_interp.forest_floor` stays the module (its class is a callable subclass of ModuleType)
CALLABLE_MODULES = {'forest_floor': 'oob_contributions', 'tree_shap': 'shapley_values'}


def _callable_modules():
    "Make each module of `CALLABLE_MODULES` callable as the function it names, so no module shadows a call."
    import sys, types

    for mod_name, fn_name in CALLABLE_MODULES.items():
        mod, fn = sys.modules[f'{__name__}.{mod_name}'], globals()[fn_name]

        def __call__(self, *args, _fn=fn, **kwargs):
            return _fn(*args, **kwargs)

        __call__.__doc__ = (
            f'`{mod_name}(...)` is `{fn_name}(...)`: '
            + (fn.__doc__ or '').split('\n')[0]
        )
        mod.__class__ = type(
            f'{mod_name}_module',
            (types.ModuleType,),
            {'__call__': __call__, '__doc__': mod.__doc__},
        )


_callable_modules()


def _document_public():
    "Give every public function the numpy-style docstring `help()` shows, built from the comments beside its parameters (`core.numpy_doc`)."
    import inspect
    from .core import numpy_doc

    for name in __all__:
        obj = globals().get(name)
        if inspect.isfunction(obj):
            obj.__doc__ = numpy_doc(obj)


_document_public()
