"""French Tarot for research (issue 36; docs/research.md): ``tarot.env.tarot_v0`` is a PettingZoo
AEC environment. Needs the ``research`` extra (``pip install -e '.[research]'``); the engine and
the bots keep no dependency."""
