"""French Tarot by the FFT rules: engine, records, command line."""

__version__ = "0.1.0"
