"""Exceptions. Every refusal is a ValueError whose message starts with the rule it breaks."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid at this point; the state is left unchanged.

    ``rule`` is the RULES.md number (``"R15"``) and ``reason`` the human explanation;
    ``str(error)`` is ``"R15: …"``.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class RecordError(ValueError):
    """A record or summary that cannot be read or replayed.

    ``action`` is the index of the offending action in the record, or None when the
    problem is in the record's header (players, hands, chien…).
    """

    def __init__(self, reason: str, action: int | None = None) -> None:
        where = f"action {action}: " if action is not None else ""
        super().__init__(where + reason)
        self.reason = reason
        self.action = action
