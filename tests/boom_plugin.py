"""A plug-in module that fails as it is imported (tests/test_terminal.py)."""

raise RuntimeError("this plug-in is broken")
