"""A package of the multifile theme: relative imports, a module as an attribute."""
from .ops import square
from . import consts

VERSION = 2
