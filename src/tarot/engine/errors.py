"""Exceptions. Every refusal is a ValueError whose message starts with the rule it breaks."""

from __future__ import annotations

from collections.abc import Mapping


class IllegalAction(ValueError):
    """An action the rules forbid at this point; the state is left unchanged.

    ``rule`` is the number in docs/rules.md (``"R15"``) and ``reason`` the explanation in English;
    ``str(error)`` is ``"R15: …"``. ``why`` names the reason without words (``"must_follow"``)
    and ``args`` its particulars as card and suit codes (``{"suit": "H"}``), so that a program
    can say it in its user's language.
    """

    def __init__(self, rule: str, reason: str, why: str = "", args: Mapping[str, str] | None = None) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason
        self.why = why
        self.args_ = dict(args or {})


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
