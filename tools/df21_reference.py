"""Pure-numpy reference for DF21 deep forests (the `deepforest` package, LAMDA-NJU).

Two halves, see tools/DF21_FORMAT.md for the format they rely on:

- `export_df21(model)`: run where `deepforest` is installed (the DF21 env, numpy 1.x);
  reads a fitted `CascadeForestClassifier` / `CascadeForestRegressor` and returns a
  plain dict: numpy arrays plus `export['meta']`, a JSON-able dict.
- `predict_from_export(export, X)`: needs numpy only (1.x or 2.x), never imports
  `deepforest`; reproduces `predict_proba` (classifier) or `predict` (regressor).

`save_export` / `load_export` store an export (and any extra arrays) in one
compressed `.npz` without pickles; `layer_inputs`, `apply_tree` and `bootstrap_mask`
expose the intermediate steps for interpretation code.
"""

import json

import numpy as np

FORMAT = 'deepforest_interp.df21_export'
FORMAT_VERSION = 1
MAX_INT32 = np.iinfo(np.int32).max

ARRAY_KEYS = (
    'bin_thresholds',
    'bin_offsets',
    'tree_node_offsets',
    'tree_leaf_offsets',
    'tree_seed',
    'node_feature',
    'node_threshold',
    'node_children',
    'leaf_value',
)


# ----------------------------------------------------------------------------------
# Export (needs a live DF21 model; imports nothing from deepforest itself)
# ----------------------------------------------------------------------------------


def _json_scalar(v):
    return v.item() if isinstance(v, np.generic) else v


def _tree_seeds(forest_seed, n_trees):
    """The `random_state` DF21's forest gives each tree (see `bootstrap_mask`)."""
    if forest_seed is None:
        return np.full(n_trees, -1, dtype=np.int64)
    rng = np.random.RandomState(forest_seed)
    return np.array([rng.randint(MAX_INT32) for _ in range(n_trees)], dtype=np.int64)


def _df21_forest_trees(forest, is_classifier):
    """Per-tree arrays of a forest from `deepforest.forest` (the 'custom' backend)."""
    trees = []
    for feat, thr, ch, val in zip(
        forest.features, forest.thresholds, forest.childrens, forest.values
    ):
        val = np.asarray(val, dtype=np.float64)
        if val.ndim == 1:
            val = val[:, None]
        trees.append(
            (
                np.ascontiguousarray(feat, dtype=np.int32),
                np.ascontiguousarray(thr, dtype=np.uint8),
                np.ascontiguousarray(ch, dtype=np.int32).reshape(-1, 2),
                np.ascontiguousarray(val),
            )
        )
    return trees


def _sklearn_stores_fractions():
    """scikit-learn >= 1.4 stores class fractions in tree_.value (counts before)."""
    import sklearn

    major, minor = (int(v) for v in sklearn.__version__.split('.')[:2])
    return (major, minor) >= (1, 4)


def _sklearn_forest_trees(forest, is_classifier):
    """Convert the trees of a scikit-learn forest (backend='sklearn') to DF21's layout.

    Internal nodes and leaves get separate ids in sklearn's node order; a child
    that is a leaf is stored as -leaf_id. Inputs are uint8 bins, so sklearn's
    float threshold t (x <= t) becomes floor(t). Classifier leaves hold the class
    fractions sklearn's tree `predict_proba` returns.
    """
    trees = []
    for est in forest.estimators_:
        t = est.tree_
        left, right = t.children_left, t.children_right
        internal = left != -1
        node_ids = np.cumsum(internal) - 1
        leaf_ids = np.cumsum(~internal) - 1

        def child(c):
            return np.where(internal[c], node_ids[c], -leaf_ids[c])

        idx = np.nonzero(internal)[0]
        feat = t.feature[idx].astype(np.int32)
        thr = np.floor(t.threshold[idx]).astype(np.uint8)
        ch = np.stack([child(left[idx]), child(right[idx])], axis=1).astype(np.int32)
        val = t.value[~internal]
        if is_classifier:
            val = val[:, 0, : forest.n_classes_].astype(np.float64)
            if not _sklearn_stores_fractions():  # older sklearn normalised at predict
                norm = val.sum(axis=1)[:, None]
                norm[norm == 0.0] = 1.0
                val = val / norm
        else:
            val = val[:, :, 0].astype(np.float64)
        trees.append((feat, thr, np.ascontiguousarray(ch), np.ascontiguousarray(val)))
    return trees


def _forest_trees(forest, is_classifier):
    if hasattr(forest, 'features') and hasattr(forest, 'childrens'):
        return _df21_forest_trees(forest, is_classifier)
    if hasattr(forest, 'estimators_') and hasattr(forest.estimators_[0], 'tree_'):
        return _sklearn_forest_trees(forest, is_classifier)
    raise NotImplementedError(
        f'cannot export a forest of type {type(forest).__name__}: only the forests of '
        "DF21's 'custom' and 'sklearn' backends are supported"
    )


def export_df21(model):
    """Extract everything `predict_from_export` needs from a fitted DF21 model.

    Returns a dict: `meta` (JSON-able) and the numpy arrays named in ARRAY_KEYS.
    Raises NotImplementedError for custom estimators (`set_estimator`) and for
    predictors other than DF21's built-in 'forest'.
    """
    if not getattr(model, 'is_fitted_', False):
        raise ValueError('the DF21 model is not fitted')
    if hasattr(model, 'use_custom_estimator'):
        raise NotImplementedError('custom cascade estimators (set_estimator)')
    is_clf = hasattr(model, 'predict_proba')
    n_layers = int(model.n_layers_)
    n_features = int(model.n_features_)
    n_outputs = int(model.n_outputs_)
    n_aug = int(model.n_aug_features_)
    buffer = model.buffer_

    def load(est):  # partial_mode keeps paths to joblib files instead of objects
        return buffer.load_estimator(est) if isinstance(est, str) else est

    # binners: binner_0 (raw X), binner_l for l >= 1 (output of layer l-1),
    # binner_{n_layers} (output of the last layer, fed to the predictor)
    n_binners = n_layers + (1 if model.use_predictor else 0)
    binners_meta, thr_parts, offsets = [], [], [0]
    for b in range(n_binners):
        binner = model.binners_[f'binner_{b}']
        cols = [np.asarray(t, dtype=np.float64) for t in binner.bin_thresholds_]
        binners_meta.append(
            {
                'key': f'binner_{b}',
                'n_columns': len(cols),
                'column_offset': len(offsets) - 1,
                'missing_bin': int(binner.missing_values_bin_idx_),
                'n_bins_non_missing': [int(v) for v in binner.n_bins_non_missing_],
            }
        )
        for c in cols:
            thr_parts.append(c)
            offsets.append(offsets[-1] + c.size)

    forests_meta, trees = [], []

    def add_forest(key, layer, position, kind, forest, forest_seed):
        ts = _forest_trees(forest, is_clf)
        # bootstrap seeds follow DF21's own forests; sklearn's forests draw differently
        if not hasattr(forest, 'childrens'):
            forest_seed = None
        seeds = _tree_seeds(forest_seed, len(ts))
        forests_meta.append(
            {
                'key': key,
                'layer': layer,
                'position': position,
                'type': kind,
                'class': type(forest).__module__ + '.' + type(forest).__name__,
                'n_trees': len(ts),
                'tree_offset': len(trees),
                'random_state': forest_seed,
            }
        )
        trees.extend(zip(ts, seeds))

    layers_meta = []
    for l in range(n_layers):
        layer = model.layers_[f'layer_{l}']
        keys = list(layer.estimators_)
        for pos, key in enumerate(keys):
            est = load(layer.estimators_[key])
            rs = getattr(est.estimator_, 'random_state', None)
            rs = int(rs) if isinstance(rs, (int, np.integer)) else None
            add_forest(key, l, pos, key.split('-')[-1], est.estimator_, rs)
        layers_meta.append(
            {
                'key': f'layer_{l}',
                'estimator_keys': keys,
                'n_input_columns': n_features + (n_aug if l > 0 else 0),
                'val_performance': float(layer.val_performance_),
            }
        )

    predictor_name = None
    if model.use_predictor:
        predictor_name = model.predictor
        if predictor_name != 'forest':
            raise NotImplementedError(f'predictor={predictor_name!r}')
        pred = buffer.load_predictor(model.predictor_)
        rs = getattr(pred, 'random_state', None)
        rs = int(rs) if isinstance(rs, (int, np.integer)) else None
        add_forest('predictor', n_layers, 0, 'rf', pred, rs)

    node_off, leaf_off = [0], [0]
    for (feat, thr, ch, val), _ in trees:
        node_off.append(node_off[-1] + feat.size)
        leaf_off.append(leaf_off[-1] + val.shape[0])

    classes = None
    if is_clf:
        enc = getattr(model, 'label_encoder_', None)
        classes = (
            [_json_scalar(c) for c in enc.classes_.tolist()]
            if enc is not None
            else list(range(n_outputs))
        )
    params = {
        k: _json_scalar(v)
        for k, v in model.get_params().items()
        if isinstance(v, (bool, int, float, str, type(None), np.generic))
    }
    # DF21 writes the predictor's effective settings into this dict during fit
    predictor_kwargs = {
        k: _json_scalar(v)
        for k, v in (getattr(model, 'predictor_kwargs', None) or {}).items()
        if isinstance(v, (bool, int, float, str, type(None), np.generic))
    }
    meta = {
        'format': FORMAT,
        'format_version': FORMAT_VERSION,
        'estimator': type(model).__name__,
        'is_classifier': is_clf,
        'n_features': n_features,
        'n_outputs': n_outputs,
        'n_layers': n_layers,
        'n_estimators': int(model.n_estimators),
        'n_forests_per_layer': n_aug // n_outputs,
        'n_aug_features': n_aug,
        'use_predictor': bool(model.use_predictor),
        'predictor': predictor_name,
        'backend': model.backend,
        'classes': classes,
        'params': params,
        'predictor_kwargs': predictor_kwargs if model.use_predictor else None,
        'binners': binners_meta,
        'layers': layers_meta,
        'forests': forests_meta,
    }
    cat = lambda parts, dtype, shape: (
        np.concatenate(parts).astype(dtype) if parts else np.zeros(shape, dtype)
    )
    return {
        'meta': meta,
        'bin_thresholds': cat(thr_parts, np.float64, (0,)),
        'bin_offsets': np.asarray(offsets, dtype=np.int64),
        'tree_node_offsets': np.asarray(node_off, dtype=np.int64),
        'tree_leaf_offsets': np.asarray(leaf_off, dtype=np.int64),
        'tree_seed': np.asarray([s for _, s in trees], dtype=np.int64),
        'node_feature': cat([t[0] for t, _ in trees], np.int32, (0,)),
        'node_threshold': cat([t[1] for t, _ in trees], np.uint8, (0,)),
        'node_children': cat([t[2] for t, _ in trees], np.int32, (0, 2)).reshape(-1, 2),
        'leaf_value': cat([t[3] for t, _ in trees], np.float64, (0, n_outputs)),
    }


# ----------------------------------------------------------------------------------
# Prediction (numpy only)
# ----------------------------------------------------------------------------------


def bin_columns(export, binner_index, X):
    """Map float columns to uint8 bins with binner `binner_index` of the export.

    Bin of x in a column with sorted thresholds t: the smallest i with x <= t[i]
    (len(t) when x exceeds them all), i.e. searchsorted(t, x, 'left'); NaN goes to
    the binner's missing bin (= n_bins).
    """
    b = export['meta']['binners'][binner_index]
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != b['n_columns']:
        raise ValueError(f'binner {binner_index} expects {b["n_columns"]} columns')
    off = export['bin_offsets']
    thr = export['bin_thresholds']
    out = np.empty(X.shape, dtype=np.uint8)
    for j in range(X.shape[1]):
        c = b['column_offset'] + j
        t = thr[off[c] : off[c + 1]]
        x = X[:, j]
        out[:, j] = np.searchsorted(t, x, side='left')
        out[np.isnan(x), j] = b['missing_bin']
    return out


def tree_arrays(export, tree_index):
    """(feature, threshold, children, value) of one tree, as DF21 stores them."""
    n0, n1 = export['tree_node_offsets'][tree_index : tree_index + 2]
    v0, v1 = export['tree_leaf_offsets'][tree_index : tree_index + 2]
    return (
        export['node_feature'][n0:n1],
        export['node_threshold'][n0:n1],
        export['node_children'][n0:n1],
        export['leaf_value'][v0:v1],
    )


def apply_tree(feature, threshold, children, Xb):
    """Leaf id reached by each row of the binned input Xb (uint8).

    Internal node 0 is the root; at node i go left when Xb[:, feature[i]] <=
    threshold[i]; a child c > 0 is internal node c, a child c <= 0 is leaf -c.
    A tree without internal nodes is the single leaf 0.
    """
    n = Xb.shape[0]
    leaf = np.zeros(n, dtype=np.intp)
    if feature.shape[0] == 0:
        return leaf
    node = np.zeros(n, dtype=np.intp)
    rows = np.arange(n)
    while rows.size:
        nd = node[rows]
        go_left = Xb[rows, feature[nd]] <= threshold[nd]
        child = np.where(go_left, children[nd, 0], children[nd, 1])
        done = child <= 0
        leaf[rows[done]] = -child[done]
        node[rows[~done]] = child[~done]
        rows = rows[~done]
    return leaf


def forest_predict(export, forest_index, Xb):
    """Mean of the trees' leaf values, summed in tree order as DF21 does."""
    f = export['meta']['forests'][forest_index]
    out = np.zeros((Xb.shape[0], export['meta']['n_outputs']), dtype=np.float64)
    for t in range(f['tree_offset'], f['tree_offset'] + f['n_trees']):
        feature, threshold, children, value = tree_arrays(export, t)
        out += value[apply_tree(feature, threshold, children, Xb)]
    out /= f['n_trees']
    return out


def _layer_forests(export, layer):
    fs = [i for i, f in enumerate(export['meta']['forests']) if f['layer'] == layer]
    return sorted(fs, key=lambda i: export['meta']['forests'][i]['position'])


def layer_output(export, layer, Xb):
    """Concatenated predictions of the forests of a layer (in estimator-key order)."""
    return np.hstack(
        [forest_predict(export, i, Xb) for i in _layer_forests(export, layer)]
    )


def merge_blocks(out, n_outputs):
    """Average of the per-forest blocks, added left to right then divided."""
    res = np.zeros((out.shape[0], n_outputs), dtype=np.float64)
    count = 0
    for s in range(0, out.shape[1], n_outputs):
        res += out[:, s : s + n_outputs]
        count += 1
    res /= count
    return res


def layer_inputs(export, X):
    """Binned inputs of every cascade layer (and of the predictor), and the outputs.

    Returns (inputs, outputs): inputs[l] is the uint8 matrix layer l sees
    ([binned X] for l = 0, [binned X | binned output of layer l-1] after);
    inputs[n_layers] is the predictor's input when use_predictor is set;
    outputs[l] is the concatenated forest predictions of layer l.
    """
    meta = export['meta']
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != meta['n_features']:
        raise ValueError(f'X must have {meta["n_features"]} columns')
    Xb = bin_columns(export, 0, X)
    inputs, outputs = [Xb], []
    for l in range(meta['n_layers']):
        outputs.append(layer_output(export, l, inputs[l]))
        if l + 1 < meta['n_layers'] or meta['use_predictor']:
            aug = bin_columns(export, l + 1, outputs[l])
            inputs.append(np.hstack([Xb, aug]))
    return inputs, outputs


def predict_from_export(export, X):
    """DF21's `predict_proba` (classifier) or `predict` (regressor) from an export.

    Classifier: (n_samples, n_classes), columns in `meta['classes']` order.
    Regressor: (n_samples, n_outputs); DF21 returns a 2-d array even for one output.
    """
    meta = export['meta']
    inputs, outputs = layer_inputs(export, X)
    if meta['use_predictor']:
        return forest_predict(export, len(meta['forests']) - 1, inputs[-1])
    return merge_blocks(outputs[-1], meta['n_outputs'])


def predict_labels(export, X):
    """DF21's classifier `predict`: the class of the largest probability."""
    proba = predict_from_export(export, X)
    return np.asarray(export['meta']['classes'])[np.argmax(proba, axis=1)]


def bootstrap_mask(tree_seed, n_samples):
    """In-bag rows of a DF21 tree: DF21 fits each tree on X[mask] (no duplicates).

    `tree_seed` is `export['tree_seed'][t]` (-1 when the model had no integer
    random_state). Uses numpy's legacy RandomState stream, identical in numpy 1 and 2.
    """
    if tree_seed < 0:
        raise ValueError('the tree seed is unknown (random_state was not an int)')
    idx = np.random.RandomState(int(tree_seed)).randint(0, n_samples, n_samples)
    mask = np.zeros(n_samples, dtype=bool)
    mask[idx] = True
    return mask


def snapshot_layer(export):
    """Layer whose out-of-bag output trained the predictor (DF21's 'snapshot').

    DF21 snapshots the training output of the last layer that improved the
    validation score by `delta`; layers kept after it (max_layers reached during
    the tolerance rounds) do not move it, although at predict time the predictor
    is fed the output of the last kept layer.
    """
    meta = export['meta']
    perf = [layer['val_performance'] for layer in meta['layers']]
    delta = meta['params'].get('delta', 1e-5)
    best, snap = perf[0], 0
    for l in range(1, len(perf)):
        better = (
            perf[l] >= best + delta
            if meta['is_classifier']
            else perf[l] <= best - delta
        )
        if better:
            best, snap = perf[l], l
    return snap


def forest_oob(export, forest_index, Xb):
    """Out-of-bag prediction of a forest on its training input, as DF21 computes it.

    Classifier: summed OOB leaf distributions divided by their row sum; regressor:
    summed OOB leaf values divided by the number of OOB trees. Rows that are in
    the bag of every tree get NaN (0 / 0), as in DF21.
    """
    f = export['meta']['forests'][forest_index]
    n = Xb.shape[0]
    oob = np.zeros((n, export['meta']['n_outputs']), dtype=np.float64)
    count = np.zeros(n)
    for t in range(f['tree_offset'], f['tree_offset'] + f['n_trees']):
        out = ~bootstrap_mask(export['tree_seed'][t], n)
        feature, threshold, children, value = tree_arrays(export, t)
        oob[out] += value[apply_tree(feature, threshold, children, Xb[out])]
        count += out
    with np.errstate(invalid='ignore', divide='ignore'):
        if export['meta']['is_classifier']:
            return oob / oob.sum(axis=1)[:, None]
        return oob / count[:, None]


def training_inputs(export, X_train):
    """Binned inputs each layer (and the predictor) was fitted on.

    X_train must be the exact training matrix (same rows, same order) and the
    model must have had an integer random_state. Returns (inputs, oob_outputs):
    inputs[l] as in `layer_inputs` but built from the out-of-bag outputs
    oob_outputs[l] of layer l-1 (NaN rows go to the missing bin);
    inputs[n_layers], when use_predictor is set, uses the snapshot layer's OOB.
    Each tree t of a forest was then fitted on inputs[l][bootstrap_mask(seed_t)].
    """
    meta = export['meta']
    Xb = bin_columns(export, 0, X_train)
    inputs, oobs = [Xb], []
    for l in range(meta['n_layers']):
        oobs.append(
            np.hstack(
                [forest_oob(export, i, inputs[l]) for i in _layer_forests(export, l)]
            )
        )
        if l + 1 < meta['n_layers']:
            inputs.append(np.hstack([Xb, bin_columns(export, l + 1, oobs[l])]))
    if meta['use_predictor']:
        snap = oobs[snapshot_layer(export)]
        inputs.append(np.hstack([Xb, bin_columns(export, meta['n_layers'], snap)]))
    return inputs, oobs


def leaf_value_check(export, X_train, y_train):
    """Max |stored leaf value - value recomputed from the in-bag training rows|.

    Classifier leaves: class proportions of the in-bag rows reaching the leaf;
    regressor leaves: their mean target; inf when a leaf gets no in-bag row. A
    check of `training_inputs` and `bootstrap_mask`.
    """
    meta = export['meta']
    inputs, _ = training_inputs(export, X_train)
    y = np.asarray(y_train)
    if meta['is_classifier']:
        y = np.searchsorted(np.asarray(meta['classes']), y)
        target = np.eye(meta['n_outputs'])[y]
    else:
        target = y.reshape(len(y), -1).astype(np.float64)
    worst = 0.0
    for i, f in enumerate(meta['forests']):
        Xb = inputs[f['layer']]
        for t in range(f['tree_offset'], f['tree_offset'] + f['n_trees']):
            bag = bootstrap_mask(export['tree_seed'][t], Xb.shape[0])
            feature, threshold, children, value = tree_arrays(export, t)
            leaf = apply_tree(feature, threshold, children, Xb[bag])
            sums = np.zeros_like(value)
            np.add.at(sums, leaf, target[bag])
            n = np.bincount(leaf, minlength=value.shape[0])[:, None]
            with np.errstate(invalid='ignore', divide='ignore'):
                if meta['is_classifier']:
                    recomputed = sums / sums.sum(axis=1, keepdims=True)
                else:
                    recomputed = sums / n
            diff = np.abs(recomputed - value)  # NaN: a leaf no in-bag row reaches
            worst = max(worst, float(np.where(np.isnan(diff), np.inf, diff).max()))
    return worst


# ----------------------------------------------------------------------------------
# Storage: one compressed .npz, no pickles
# ----------------------------------------------------------------------------------


def save_export(path, export, extra=None, info=None):
    """Write an export, extra arrays and a JSON-able `info` dict to one .npz."""
    arrays = {f'export.{k}': np.asarray(export[k]) for k in ARRAY_KEYS}
    arrays['export.meta'] = np.array(json.dumps(export['meta']))
    arrays['info'] = np.array(json.dumps(info or {}))
    for k, v in (extra or {}).items():
        arrays[k] = np.asarray(v)
    np.savez_compressed(path, **arrays)


def load_export(path):
    """Read what `save_export` wrote: (export, extra arrays, info)."""
    with np.load(path, allow_pickle=False) as z:
        data = {k: z[k] for k in z.files}
    export = {k: data.pop(f'export.{k}') for k in ARRAY_KEYS}
    export['meta'] = json.loads(str(data.pop('export.meta')))
    info = json.loads(str(data.pop('info')))
    return export, data, info


def check_fixture(path):
    """Identity errors of a fixture written by tools/make_df21_fixtures.py."""
    export, data, info = load_export(path)
    return {
        'name': info.get('name', str(path)),
        'n_layers': export['meta']['n_layers'],
        'train': float(
            np.max(
                np.abs(predict_from_export(export, data['X_train']) - data['out_train'])
            )
        ),
        'test': float(
            np.max(
                np.abs(predict_from_export(export, data['X_test']) - data['out_test'])
            )
        ),
        'leaf': leaf_value_check(export, data['X_train'], data['y_train']),
    }


if __name__ == '__main__':
    import sys

    print(f'numpy {np.__version__}')
    print('fixture                   layers  train err  test err   leaf err')
    for p in sys.argv[1:]:
        r = check_fixture(p)
        print(
            f'{r["name"]:25s} {r["n_layers"]:6d}  {r["train"]:9.2e}  {r["test"]:8.2e}  {r["leaf"]:9.2e}'
        )
