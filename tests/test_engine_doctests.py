"""The examples in the engine's docstrings (``>>>``) run and give what they show: the docs live
with the code (issue 20). A failing example prints its expected and actual output above."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tarot.engine

MODULES = sorted(f"tarot.engine.{m.name}" for m in pkgutil.iter_modules(tarot.engine.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_main_entry_points_have_examples() -> None:
    """Card.parse, Deal.legal_actions, ecart_options, apply and CardSet each show an example."""
    from tarot.engine import Card, CardSet, Deal

    for thing in (Card.parse, Deal.legal_actions, Deal.ecart_options, Deal.apply, CardSet):
        assert thing.__doc__ and ">>>" in thing.__doc__, thing
