# The native core has the pure core's interface (the parity test holds them equal).
from .core import DealCore as DealCore
