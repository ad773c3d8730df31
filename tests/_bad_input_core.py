"Bad-input table: core validation helpers (issue 11 §3). Other areas: tests/_bad_input_<area>.py."
import numpy as np
from _bad_input_common import Bad, Edge
from deepforest_interp.core import check_int, check_n_jobs

BAD = [
    Bad('check_n_jobs/str', lambda: check_n_jobs('two'), TypeError, 'n_jobs must be an int'),
    Bad('check_n_jobs/zero', lambda: check_n_jobs(0), ValueError, 'non-zero'),
    Bad('check_int/bool', lambda: check_int(True, 'depth'), TypeError, 'depth must be an int'),
]
EDGE = [Edge('check_n_jobs/-1', lambda: check_n_jobs(-1), lambda out: out == -1)]
