"Fast checks of deepforest_interp.datasets: shapes, determinism, label sets, the forest-floor toy correlation."

import numpy as np
import pandas as pd
import pytest

from deepforest_interp import datasets as ds

GENERATORS = {
    ds.make_sin_cos: (300, 2),
    ds.make_linear_sum: (300, 10),
    ds.make_three_class: (300, 102),
    ds.make_sim: (300, 50),
    ds.make_forest_floor_toy: (300, 6),
    ds.make_hidf_sphere: (300, 502),
}


@pytest.mark.parametrize('make', list(GENERATORS), ids=lambda f: f.__name__)
def test_generator_shape_names_determinism(make):
    X, y = make(300, random_state=0)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert X.shape == GENERATORS[make] and len(y) == 300
    assert list(X.columns) == [f'x{k}' for k in range(1, X.shape[1] + 1)]
    X2, y2 = make(300, random_state=0)
    pd.testing.assert_frame_equal(X, X2)
    pd.testing.assert_series_equal(y, y2)
    assert not X.equals(make(300, random_state=1)[0])


@pytest.mark.parametrize('make', list(GENERATORS), ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    'bad, exc',
    [
        (0, ValueError),
        (-3, ValueError),
        (2.5, TypeError),
        ('10', TypeError),
        (True, TypeError),
    ],
)
def test_generator_bad_n_samples(make, bad, exc):
    with pytest.raises(exc, match='n_samples'):
        make(bad)


def test_bad_random_state():
    with pytest.raises(TypeError, match='random_state'):
        ds.make_sin_cos(10, random_state='seed')


def test_label_sets():
    assert set(ds.make_three_class(2000, random_state=0)[1]) == {0, 1, 2}
    assert set(ds.make_hidf_sphere(2000, n_noise=0, random_state=0)[1]) == {0, 1}
    X, y, relevant = ds.make_sim(2000, random_state=0, return_relevant=True)
    assert (
        set(y) == {0, 1}
        and len(relevant) == 5
        and set(relevant) <= {f'x{k}' for k in range(1, 11)}
    )
    assert (X.max() <= np.arange(1, 51)).all() and X.x1.nunique() == 2


def test_three_class_rule():
    X, y = ds.make_three_class(1000, random_state=3)
    expected = np.where(X.x1 < 0.5, 0, np.where(X.x2 > 0.5, 1, 2))
    np.testing.assert_array_equal(y.values, expected)


def test_forest_floor_toy_correlation():
    X, y = ds.make_forest_floor_toy(5000, random_state=0)
    G = X.x1**2 + 0.5 * np.sin(2 * np.pi * X.x2) + X.x3 * X.x4
    assert X.shape == (5000, 6) and X.values.min() >= -1 and X.values.max() <= 1
    assert abs(np.corrcoef(G, y)[0, 1] - 0.75) < 0.02


@pytest.mark.parametrize(
    'loader, shape',
    [
        (ds.load_iris, (150, 4)),
        (ds.load_wine, (178, 13)),
        (ds.load_breast_cancer, (569, 30)),
        (ds.load_digits, (1797, 64)),
        (ds.load_diabetes, (442, 10)),
        (ds.load_bike_sharing, (731, 6)),
    ],
)
def test_bundled_loaders(loader, shape):
    X, y = loader()
    assert X.shape == shape and len(y) == shape[0]


def test_bike_sharing_table5():
    X, y = ds.load_bike_sharing()
    assert list(X.columns) == [
        'Year',
        'isWorkingDay',
        'isClearDay',
        'Temperature',
        'Humidity',
        'WindSpeed',
    ]
    assert y.name == 'count' and int(y.sum()) == 3_292_679
    row = X.loc['2011-12-07']
    assert (
        row.Year,
        row.isClearDay,
        round(row.Temperature),
        round(row.Humidity),
        round(row.WindSpeed),
    ) == (2011, 0, 17, 97, 18)


@pytest.mark.parametrize(
    'name, n_rows',
    [
        ('vehicle', 846),
        ('segment', 2310),
        ('satimage', 6435),
        ('penbased', 10992),
        ('contraceptive', 1473),
    ],
)
def test_keel_row_counts(name, n_rows):
    X, y = ds.load_keel(name)
    assert len(X) == len(y) == n_rows and y.name == 'class'
    assert set(y) <= set(y.attrs['target_names'])


def test_keel_unknown_name():
    with pytest.raises(ValueError, match='valid names'):
        ds.load_keel('phishing')


def test_list_datasets():
    t = ds.list_datasets()
    assert len(t) == 22 and t.name.is_unique
    assert {'name', 'kind', 'n_samples', 'n_features', 'source'} <= set(t.columns)
