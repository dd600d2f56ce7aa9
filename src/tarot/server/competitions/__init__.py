"""The daily challenge and duplicate tournaments ("events" in the public API)."""
