"""The repetition runner on a dask LocalCluster reproduces the in-process repetitions exactly (issue 9 §1)."""
import sys
import numpy as np, pandas as pd, pytest
from deepforest_interp.experiments import run_repetitions

distributed = pytest.importorskip('distributed')
cloudpickle = pytest.importorskip('cloudpickle')


def _sim_repetition(rep, n_rows, n_trees):
    "A small real repetition of seed 000 Table 3 (sim, random-forest columns): deterministic given its settings."
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.metrics import roc_auc_score
    from deepforest_interp.datasets import make_sim
    from deepforest_interp.importance import mdi, mdi_oob
    X, y, rel = make_sim(n_rows, random_state=rep, return_relevant=True)
    rf = RandomForestClassifier(n_estimators=n_trees, random_state=rep, n_jobs=1).fit(X, y)
    truth = X.columns.isin(rel).astype(int)
    return {'MDI(RF)': roc_auc_score(truth, mdi(rf)), 'MDI-oob(RF)': roc_auc_score(truth, mdi_oob(rf, X, y)),
            'mdi': np.asarray(mdi(rf))}


# workers import this test module neither by name nor from a shared path: ship its functions by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def test_local_cluster_equals_in_process(tmp_path, monkeypatch):
    monkeypatch.setenv('DFI_FIGURES', str(tmp_path / 'figures'))
    monkeypatch.delenv('DASK_SCHEDULER', raising=False)
    tasks = [dict(rep=r, n_rows=300, n_trees=20) for r in range(2)]
    monkeypatch.setenv('DFI_CACHE', str(tmp_path / 'in_process'))
    local = run_repetitions(_sim_repetition, tasks, slug='sim', n_jobs=1, store=True)
    monkeypatch.setenv('DFI_CACHE', str(tmp_path / 'cluster'))            # nothing stored: the cluster computes
    monkeypatch.setenv('DFI_FIGURES', str(tmp_path / 'figures_cluster'))
    remote = run_repetitions(_sim_repetition, tasks, slug='sim', scheduler='local', n_workers=2, store=True)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert len(list((tmp_path / 'cluster' / 'sim').glob('*.json'))) == 2      # stored by the client, per repetition
    assert local['MDI-oob(RF)'].gt(local['MDI(RF)']).all()                  # and the numbers are the real thing


def test_stored_repetitions_resume(tmp_path, monkeypatch):
    "An interrupted run keeps its finished repetitions: a rerun computes only the missing ones."
    monkeypatch.setenv('DFI_FIGURES', str(tmp_path / 'figures')); monkeypatch.setenv('DFI_CACHE', str(tmp_path / 'cache'))
    calls, interrupt = [], [True]

    def rep_fn(rep):
        if rep == 2 and interrupt:
            interrupt.clear(); raise KeyboardInterrupt                                  # simulated interruption at the third repetition
        calls.append(rep)
        return {'x': rep / 3}
    with pytest.raises(KeyboardInterrupt):
        run_repetitions(rep_fn, [dict(rep=r) for r in range(4)], slug='resume', store=True)
    calls.append('restart')
    out = run_repetitions(rep_fn, [dict(rep=r) for r in range(4)], slug='resume', store=True)
    assert calls == [0, 1, 'restart', 2, 3]
    assert out['x'].tolist() == [0, 1 / 3, 2 / 3, 1]
    # a fresh checkout has no _cache/ but the committed figures/reps/ seed it
    monkeypatch.setenv('DFI_CACHE', str(tmp_path / 'fresh'))
    again = run_repetitions(rep_fn, [dict(rep=r) for r in range(4)], slug='resume', store=True)
    assert calls[-1] == 3 and again.equals(out)
