"""`estimation._forest_pass` as it was before fold forests could carry `explain_weights_` (commit 4a4203a), kept to
check that the library's own K-fold cascades are explained bit for bit as before; it carries the node-sum kernel of
that engine (one forest at a time, every node). Executed in a copy of the namespace of `deepforest_interp.estimation`
by tests/test_df21.py; not imported on its own."""

# ruff: noqa: F821

import numba


@numba.njit(cache=False, nogil=True)
def _node_sums_nb(n_nodes, parent, leaf, rows, w, P2):
    "The engine's node-sum kernel before `_split_sums`: S[t] over every node, one forest's block P2 at a time."
    D = P2.shape[1]
    S = np.zeros((n_nodes, D))
    for r in range(leaf.shape[0]):  # rows into their leaves ...
        lf, i, wr = leaf[r], rows[r], w[r]
        for d in range(D):
            S[lf, d] += wr * P2[i, d]
    for node in range(n_nodes - 1, 0, -1):  # ... then children into parents
        p = parent[node]
        for d in range(D):
            S[p, d] += S[node, d]
    return S


def _forest_pass(
    layer,
    l,
    f,
    Ztr,
    Znew,
    Pb,
    C,
    node_table,
    want_train,
    cache,
    tag,
    keep,
    budget,
    bar,
    walk,
    W=None,
):
    """Forest f of one layer: OOF contributions of the training rows (if `want_train`)
    and those of the new rows `Znew`;
    with `W` (rows x C) also every tree's contributions dotted with W over the rows it
    explains, (J, M, K).
    """
    K, n, J = layer.n_features, len(Ztr), len(layer.folds)
    tr_v = np.zeros((n, K * C)) if want_train else None
    tr_b = np.zeros((n, C)) if want_train else None
    nw_v = None if Znew is None else np.zeros((len(Znew), K * C))
    nw_b = np.zeros(C)
    dots = (
        None
        if W is None
        else np.zeros((J, max(len(fm.estimators_) for fm in layer.forests[f]), K))
    )
    W = None if W is None else np.ascontiguousarray(W, dtype=float)
    for j, (tr, va) in enumerate(layer.folds):
        fm = layer.forests[f][j]
        trees = fm.estimators_
        M = len(trees)
        counts = None
        drawn = False
        Zva = np.ascontiguousarray(Ztr[va]) if want_train else None
        fold_v = np.zeros((len(va), K * C)) if want_train else None
        fold_n = None if Znew is None else np.zeros_like(nw_v)
        roots = np.zeros(C)
        Zd, Wd = (
            (None, None)
            if W is None
            else (Znew, W)
            if Znew is not None
            else (Zva, np.ascontiguousarray(W[va]))
        )
        # the fold forest's NodeTable (kept for layer 0, which every call walks whole; a
        # later layer's is read per call, as its trees are), and the outputs its class
        # columns are (a fold that missed a class writes fewer)
        # trees that never split on a previous output: their contributions are the
        # increments along each row's path (Algorithm 1 line 7), one walk for all of them
        own = np.array(
            [walk and (Pb is None or t.tree_.feature.max() < K) for t in trees], bool
        )
        D = getattr(fm, 'n_classes_', 1)  # outputs of the fold forest's trees
        # the outputs its class columns are (a fold that missed a class writes fewer)
        colmap = slice(None) if D == C else fm.classes_.astype(np.intp)
        # the fold forest's NodeTable: kept for layer 0 and for the explained layer (the
        # layers every call walks), read for this pass elsewhere; None until needed
        nt = model_nodes(fm, cache=l == 0 or keep) if own.any() else None
        if own.any():
            tw = own.astype(float)  # the walked trees; the others are tabled below
            if want_train:
                v = walk_paths(nt, Zva, tree_weights=tw, n_jobs=1)[:, :K]
                fold_v.reshape(len(va), K, C)[..., colmap] += v
            if Znew is not None:
                v = walk_paths(nt, Znew, tree_weights=tw, n_jobs=1)[:, :K]
                fold_n.reshape(len(Znew), K, C)[..., colmap] += v
            if W is not None:
                rw = np.repeat(tw[:, None], len(Zd), axis=1)
                d = walk_dot(nt, Zd, Wd[:, colmap], rw, n_jobs=1)  # (M, K', D)
                dots[j, :M] += d[:, :K].sum(-1)
            roots[colmap] += tw @ nt.root_value
        for m, tree in enumerate(trees):
            if own[m]:
                continue
            t = tree.tree_
            key = ('table', tag, l, f, j, m)
            hit = None if cache is None else cache.get(key)
            if hit is None:
                if nt is None:
                    nt = model_nodes(fm, cache=l == 0 or keep)
                nodes = _fold_tree(nt, m, colmap, C)
                S = None
                g = (
                    np.flatnonzero(
                        np.bincount((nodes.feature[nodes.feature >= K] - K) // C)
                    )
                    if Pb is not None
                    else ()
                )
                if len(g):  # the tree splits on these previous forests' outputs
                    if counts is None:
                        counts, drawn = _bootstrap_counts(
                            fm, len(tr), layer.sample_weight is not None
                        )  # all ones without bootstrap
                    rows, w = _inbag(fm, m, tr, counts, layer.sample_weight)
                    # the in-bag rows only (the held-out fold is routed below)
                    leaf = t.apply(Ztr[rows])
                    # not scikit-learn's draw: take its public one
                    if drawn and not _counts_fit(t, leaf, w):
                        counts, drawn = inbag_counts(fm, len(tr)), False
                        rows, w = _inbag(fm, m, tr, counts, layer.sample_weight)
                        leaf = t.apply(Ztr[rows])
                    # node sums of the forests split on only; Eq. (16) reads no other
                    # forest's sums, so the rest is left unset
                    S = np.empty((nodes.n_nodes, len(Pb), K * C))
                    for gg in g:
                        S[:, gg] = _node_sums_nb(
                            nodes.n_nodes, nodes.parent, leaf, rows, w, Pb[gg]
                        )
                    S = S.reshape(nodes.n_nodes, -1, K, C)
                table = node_table(nodes, S, K, C)
                leaves = np.flatnonzero(nodes.left < 0)
                pos = np.zeros(nodes.n_nodes, np.int32)
                pos[leaves] = np.arange(len(leaves))
                hit = (
                    pos,
                    np.ascontiguousarray(table.reshape(nodes.n_nodes, K * C)[leaves]),
                    nodes.value[0].copy(),
                )
                if keep and cache is not None:
                    _keep_table(cache, key, hit, budget)
            pos, tab, root = hit
            lv = pos[t.apply(Zva)] if want_train else None
            ln = None if Znew is None else pos[t.apply(Znew)]
            if want_train:
                _K._gather_add(fold_v, lv, tab)
            if Znew is not None:
                _K._gather_add(fold_n, ln, tab)
            if W is not None:
                _K._leaf_dot(dots[j, m], ln if Znew is not None else lv, Wd, tab, C)
            roots += root
        if want_train:
            tr_v[va] = fold_v / M
            tr_b[va] = roots / M
        if Znew is not None:
            nw_v += fold_n / (M * J)
            nw_b += roots / (M * J)
        if bar is not None:
            bar.update(M)
    return (
        None if tr_v is None else tr_v.reshape(n, K, C),
        tr_b,
        None if Znew is None else nw_v.reshape(-1, K, C),
        None if Znew is None else np.tile(nw_b, (len(Znew), 1)),
        dots,
    )
