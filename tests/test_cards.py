from __future__ import annotations

import pytest

from tarot.engine import (
    CARDS,
    EXCUSE,
    PETIT,
    T21,
    Card,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
    sort_for_display,
)
from tarot.engine.cards import FULL_DECK, HALF_POINTS, KINGS, OUDLERS, TRUMPS, half_points


def test_78_cards_round_trip_through_the_r1_notation() -> None:
    codes = [str(c) for c in CARDS]
    assert len(set(codes)) == 78
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) == card  # the repr round-trips
    assert codes[:14] == ["1S", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "NS", "QS", "KS"]
    assert {"KH", "QD", "NC", "JS", "10H", "T1", "T21", "EX"} <= set(codes)


@pytest.mark.parametrize("text", ["", "KX", "T0", "T22", "11S", "0H", "EXX", "K"])
def test_unknown_cards_are_refused_citing_r1(text: str) -> None:
    with pytest.raises(ValueError, match="R1"):
        Card.parse(text)


def test_points_and_oudlers() -> None:
    assert Card.parse("KH").points == 4.5
    assert Card.parse("QS").points == 3.5
    assert Card.parse("NC").points == 2.5
    assert Card.parse("JD").points == 1.5
    assert Card.parse("10D").points == 0.5
    assert Card.parse("T20").points == 0.5
    assert [c for c in CARDS if c.is_oudler] == [PETIT, T21, EXCUSE]
    assert sum(c.points for c in CARDS) == 91  # R3
    assert half_points(FULL_DECK) == 182
    assert half_points(KINGS | OUDLERS) == 7 * 9
    assert all(half_points(1 << c) == HALF_POINTS[c] for c in range(78))


def test_masks() -> None:
    assert TRUMPS.bit_count() == 21 and not TRUMPS & (1 << 77)
    hand = parse_cards("KH T21 EX 3S")
    assert cards_of(mask_of(hand)) == sorted(hand)
    assert format_cards(mask_of(hand)) == "3S KH T21 EX"
    with pytest.raises(ValueError, match="twice"):
        mask_of(["KH", "KH"])


def test_display_order_is_trumps_high_first_then_excuse_then_suits_kings_first() -> None:
    hand = parse_cards("3S KH T1 EX KS T21 QH 1C")
    assert format_cards(sort_for_display(hand)) == "T21 T1 EX KS 3S KH QH 1C"


def test_card_properties() -> None:
    kh = Card.parse("KH")
    assert kh.suit is not None and kh.suit.letter == "H" and kh.rank == 14 and not kh.is_trump
    assert Card.parse("T7").rank == 7 and Card.parse("T7").is_trump and Card.parse("T7").suit is None
    assert EXCUSE.is_excuse and not EXCUSE.is_trump and EXCUSE.rank == 0
    assert f"{kh}" == "KH" and f"{kh:>4}" == "  KH"
