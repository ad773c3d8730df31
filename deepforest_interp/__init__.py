"""deepforest_interp: explainable deep forests and random forests.

The package root re-exports the public API of every module (each module is generated from one notebook in nbs/).
"""
__version__ = "0.1.0"

from .core import *
from .datasets import *
from .contributions import *
from .importance import *
from .cascade import *
from .estimation import *
from .calibration import *
from .forest_floor import *
from .forest_floor_plots import *
from .ssfi import *
from .grit import *
from .hidf import *
from .experiments import *
from .derivations import *
