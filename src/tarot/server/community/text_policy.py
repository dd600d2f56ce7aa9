"""One policy for every text a client makes the server keep or show (a guest's or an account's
name, an event's name, a chat message): what is refused, and the look-alike key of names.

A text is NFC, on one line, its spaces collapsed; it may not hold a control, format (bidi,
zero-width, but for the joiner inside an emoji), surrogate, private-use or unassigned character,
nor one that renders as nothing (a Hangul filler, a blank Braille pattern), nor a run of stacked
combining marks; it must show something. A name must also hold a visible letter or digit.
Refusals are ``ValueError``s, which the websocket answers as ``bad_message`` and the API as
``422``: a NUL never reaches PostgreSQL.

Names that look alike are one name: ``skeleton`` is the name's confusable skeleton (Unicode
TS #39, from the Unicode confusables data through ``disarm``) of its case-folded form, with
``i`` and ``l`` one letter (a capital I and a small l are drawn alike in many fonts)."""

from __future__ import annotations

import unicodedata

import disarm

NAME_MAX = 24
MARKS_MAX = 2  # combining marks on one letter (Vietnamese stacks two); more is "zalgo" text
ID_PATTERN = r"^[A-Za-z0-9._-]{1,32}$"  # a player's id as the server makes them (hex, bot-…)
# disarm's key schema the stored skeletons were made with: another one means re-keying them
SKELETON_SCHEMA = 10
ZWJ = "\u200d"
# What renders as nothing once ``typed`` has refused control and format characters and made every
# space (no-break ones too) a plain one: the Hangul fillers and the blank Braille pattern, the
# letters and symbols whose skeleton disarm makes empty (test_names checks every code point
# against disarm). A set, not disarm per character: ~10 µs a character, 3 ms a chat message.
BLANK = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def _selector(ch: str) -> bool:
    """A variation selector (an emoji's presentation, an ideograph's variant)."""
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def typed(text: str, what: str = "a name") -> str:
    """A name as typed to look an account up (signing in, a profile, an invitation, a friend):
    NFC, spaces collapsed, only control and format characters refused (a NUL is an error in
    PostgreSQL), so that the names kept from before ``name``'s rules are still found."""
    text = unicodedata.normalize("NFC", text)
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if (cat[0] == "C" or cat in ("Zl", "Zp")) and not _emoji_joiner(text, i):
            raise ValueError(f"{what} cannot hold control or invisible characters")
    return " ".join(text.split())


def _emoji_joiner(text: str, i: int) -> bool:
    """A zero-width joiner that makes one emoji of two (👨‍👩‍👧, 🏳️‍🌈: a pictograph, its skin tone
    or its presentation selector before it, a pictograph after it): what phones send."""
    if text[i] != ZWJ or not 0 < i < len(text) - 1:
        return False
    before, after = text[i - 1], text[i + 1]
    return (unicodedata.category(before) in ("So", "Sk") or _selector(before)) and \
        unicodedata.category(after) == "So"


def plain(text: str, max_len: int, what: str = "a text", breaks: bool = False) -> str:
    """``text`` as kept (NFC, spaces collapsed), or ``ValueError`` saying what is wrong.
    ``breaks``: line breaks and tabs become spaces (a chat message pasted from several lines),
    not refused as in a name."""
    text = typed(" ".join(text.split()) if breaks else text, what)
    if not 1 <= len(text) <= max_len:
        raise ValueError(f"{what} has 1 to {max_len} characters")
    marks, shown = 0, False
    for i, ch in enumerate(text):
        if ch == ZWJ:  # (inside an emoji: ``typed`` let no other through)
            continue
        if _selector(ch):  # an emoji's presentation: only after something shown
            if i == 0 or unicodedata.category(text[i - 1])[0] == "M":
                raise ValueError(f"{what} cannot hold invisible characters")
            continue
        if unicodedata.category(ch)[0] == "M":
            marks += 1
            if i == 0 or marks > MARKS_MAX:
                raise ValueError(f"{what} cannot start with or stack combining marks")
            continue
        marks = 0
        if ch in BLANK:
            raise ValueError(f"{what} cannot hold invisible characters")
        shown = shown or ch != " "
    if not shown:
        raise ValueError(f"{what} cannot be blank")
    return text


def name(text: str) -> str:
    """A player's name as kept (``plain``, at most ``NAME_MAX``), with a visible letter or digit."""
    text = plain(text, NAME_MAX, "a name")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise ValueError("a name needs a letter or a digit")
    return text


def skeleton(text: str) -> str:
    """The key that names which look alike share (any case, look-alike letters and digits)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return disarm.skeleton_key(folded, digit_policy="tr39").replace("i", "l")[:80]

