"""The DF21 fixtures (tests/data/df21, made by tools/make_df21_fixtures.py in a separate DF21 environment) are complete:
the plain-numpy reading of a DF21 model (tools/df21_reference.py, written from tools/DF21_FORMAT.md) reproduces DF21's
own predict_proba / predict on the training and held-out rows, and its leaf values from the in-bag training rows."""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import df21_reference as ref  # noqa: E402

FIXTURES = sorted((ROOT / 'tests' / 'data' / 'df21').glob('*.npz'))


def test_fixtures_present_and_small():
    names = {p.stem for p in FIXTURES}
    assert names == {
        f'{d}_{k}'
        for d in ('breast_cancer', 'wine', 'diabetes')
        for k in ('cascade', 'predictor')
    }
    assert sum(p.stat().st_size for p in FIXTURES) < 400_000  # kilobytes, not megabytes


@pytest.mark.parametrize('path', FIXTURES, ids=lambda p: p.stem)
def test_reference_reproduces_df21(path):
    export, data, info = ref.load_export(path)
    meta = export['meta']
    for rows, want in (('X_train', 'out_train'), ('X_test', 'out_test')):
        got = ref.predict_from_export(export, data[rows])
        assert got.shape == data[want].shape
        np.testing.assert_array_equal(
            got, data[want]
        )  # bit for bit: the same sums in the same order
    assert meta['use_predictor'] == path.stem.endswith('predictor')
    assert ref.leaf_value_check(export, data['X_train'], data['y_train']) == 0.0


def test_reference_notices_a_changed_model():
    "A test that can fail: splits moved to another bin change the outputs."
    export, data, _ = ref.load_export(FIXTURES[0])
    thr = export['node_threshold'].copy()
    export['node_threshold'] = thr
    before = ref.predict_from_export(export, data['X_test'])
    thr[: len(thr) // 2] = 0  # half of the splits send every non-minimal bin right
    after = ref.predict_from_export(export, data['X_test'])
    assert np.abs(after - before).max() > 0
