"""Scenario tests: hand-made deals, positions reached from records or actions, exact legal sets.

Every expected figure below is worked out by hand from docs/rules.md (the derivation is in the
comments); the engine is never used to produce an expectation. Only the cards that matter are
written in each test: ``layout`` deals the remaining cards deterministically (card-index order:
spades, hearts, diamonds, clubs low to high, then T1…T21, then EX; the chien first, then the
seats in order).
"""

from __future__ import annotations

from typing import Any

import pytest

from tarot.engine import (
    CARDS,
    Annulment,
    Bid,
    Call,
    Chelem,
    Contract,
    Deal,
    DealRecord,
    Ecart,
    IllegalAction,
    Phase,
    Play,
    Poignee,
    PoigneeSize,
    RecordError,
    Side,
    parse_cards,
    replay_result,
)

SIZES = {3: (24, 6), 4: (18, 6), 5: (15, 3)}

# --- helpers -----------------------------------------------------------------------------


def cs(text: str) -> set[str]:
    """A set of card codes, written ``"KH T21 EX"``."""
    return {str(c) for c in parse_cards(text)}


def trumps(low: int, high: int) -> str:
    """``"Tlow … Thigh"``."""
    return " ".join(f"T{n}" for n in range(low, high + 1))


def layout(players: int, hands: dict[int, str] | None = None,
           chien: str = "") -> tuple[list[list[str]], list[str]]:
    """Hands and chien holding the given cards, the rest dealt in card-index order."""
    hand_size, chien_size = SIZES[players]
    spec = {s: [str(c) for c in parse_cards(t)] for s, t in (hands or {}).items()}
    chien_cards = [str(c) for c in parse_cards(chien)]
    used = [c for h in spec.values() for c in h] + chien_cards
    assert len(used) == len(set(used)), "a card is written twice in the test"
    rest = [str(c) for c in CARDS if str(c) not in set(used)]
    need = chien_size - len(chien_cards)
    assert need >= 0
    chien_cards += rest[:need]
    rest = rest[need:]
    out = []
    for seat in range(players):
        h = spec.get(seat, [])
        need = hand_size - len(h)
        assert need >= 0, f"seat {seat} is given too many cards"
        out.append(h + rest[:need])
        rest = rest[need:]
    assert not rest
    return out, chien_cards


def acts(text: str) -> list[dict[str, Any]]:
    """Record actions from ``"0 bid garde; 0 ecart 1S 2S …; 0 chelem; 1 poignee T1 …; 0 play KH"``."""
    out: list[dict[str, Any]] = []
    for part in text.replace("\n", ";").split(";"):
        words = part.split()
        if not words:
            continue
        seat, kind, *rest = words
        value: Any
        if kind in ("ecart", "poignee"):
            value = rest
        elif kind == "chelem":
            value = not rest or rest[0] == "true"
        else:
            (value,) = rest
        out.append({"seat": int(seat), kind: value})
    return out


def record(players: int, dealer: int, hands: dict[int, str] | None = None, chien: str = "",
           actions: str = "") -> dict[str, Any]:
    h, c = layout(players, hands, chien)
    return {"format": "tarot-deal/1", "players": players, "dealer": dealer, "hands": h,
            "chien": c, "actions": acts(actions)}


def reach(players: int, dealer: int, hands: dict[int, str] | None = None, chien: str = "",
          actions: str = "") -> Deal:
    """The position after ``actions``, replayed from a ``tarot-deal/1`` record."""
    return DealRecord.from_dict(record(players, dealer, hands, chien, actions)).replay(complete=False)


def new_deal(players: int, dealer: int, hands: dict[int, str] | None = None, chien: str = "") -> Deal:
    h, c = layout(players, hands, chien)
    deal = Deal(players, dealer, h, c)
    assert deal.phase is Phase.BIDDING, "the layout made an unintended petit sec"
    return deal


def legal(deal: Deal) -> set[str]:
    """The legal cards, checked to agree with legal_actions()."""
    cards = {str(c) for c in deal.legal_plays()}
    from_actions = {str(a.card) for a in deal.legal_actions() if isinstance(a, Play)}
    assert cards == from_actions
    assert all(a.seat == deal.turn for a in deal.legal_actions())
    return cards


def hand(deal: Deal, seat: int) -> set[str]:
    return {str(c) for c in deal.hand(seat)}


def snapshot(deal: Deal) -> list[Any]:
    return ([deal.view(s).to_dict() for s in range(deal.players)] + [deal.view(-1).to_dict()]
            + [deal.phase, deal.turn, list(deal.hands), list(deal.actions)])


def refused(deal: Deal, action: Any, rule: str | tuple[str, ...]) -> IllegalAction:
    """``action`` raises IllegalAction citing ``rule`` and changes nothing."""
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(action)
    rules = (rule,) if isinstance(rule, str) else rule
    assert info.value.rule in rules, str(info.value)
    assert str(info.value).startswith(info.value.rule + ":")
    assert snapshot(deal) == before
    return info.value


def play(deal: Deal, cards: str) -> None:
    """Play these cards in turn, each by the seat to play."""
    for card in cards.split():
        deal.apply(Play(deal.turn, card))  # type: ignore[arg-type]


def autoplay(deal: Deal, script: dict[int, str] | None = None, keep: str = "") -> None:
    """Play to the end: each seat first plays its scripted cards in order, then its lowest legal
    card, avoiding the ``keep`` cards while it can."""
    queues = {s: t.split() for s, t in (script or {}).items()}
    kept = cs(keep) if keep else set()
    while deal.phase is Phase.PLAY:
        seat = deal.turn
        assert seat is not None
        queue = queues.get(seat)
        if queue:
            card = queue.pop(0)
        else:
            options = [str(c) for c in deal.legal_plays()]
            card = ([c for c in options if c not in kept] or options)[0]
        deal.apply(Play(seat, card))
    assert not any(queues.values()), f"scripted cards not played: {queues}"


def scores(deal: Deal) -> list[int]:
    return list(deal.result().scores)


# --- R15/R16: following, trumping, overtrumping, undertrumping -------------------------------

# Seat 0 (garde sans, so no écart) leads; seats 1-3 are written in full.
P_SEAT1 = "2H 9H KH T3 T10 EX 1S 4S 7S 10S 1D 3D 5D 7D 9D 2C 4C 6C"
P_SEAT2 = "T4 T8 T16 2S 3S 5S 6S 2D 4D 6D 8D 10D 1C 3C 5C 7C 8C 9C"  # no heart
P_SEAT3 = "T6 T7 T12 T13 8S 9S JS NS QS KS JD ND QD KD 10C JC NC QC"  # no heart
P_BIDS = "0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass; 0 chelem false"


def play_position(actions: str = "") -> Deal:
    return reach(4, 3, {0: "5H T9", 1: P_SEAT1, 2: P_SEAT2, 3: P_SEAT3},
                 actions=P_BIDS + ";" + actions)


def test_layout_of_play_position() -> None:
    deal = play_position()
    assert deal.phase is Phase.PLAY and deal.turn == 0
    # the chien took 1H 3H 4H 6H 7H 8H; seat 0 got the rest
    assert hand(deal, 0) == cs("5H T9 10H JH NH QH KC T1 T2 T5 T11 T14 T15 T17 T18 T19 T20 T21")
    assert hand(deal, 1) == cs(P_SEAT1)


def test_follow_suit_without_obligation_to_go_higher() -> None:
    deal = play_position("0 play 5H")
    assert deal.turn == 1
    assert legal(deal) == cs("2H 9H KH EX")  # any heart, or the Excuse
    err = refused(deal, Play(1, "T10"), "R15")
    assert "follow" in str(err)
    refused(deal, Play(1, "4S"), "R15")
    deal.apply(Play(1, "2H"))  # lower than the 5H led: allowed
    assert deal.turn == 2


def test_trump_when_void_any_trump_if_none_in_trick() -> None:
    deal = play_position("0 play 5H; 1 play 2H")
    assert legal(deal) == cs("T4 T8 T16")
    err = refused(deal, Play(2, "2S"), "R15")
    assert str(err) == "R15: must play a trump"  # no trump in the trick yet: any trump will do
    refused(deal, Play(2, "1C"), "R15")


def test_overtrump_when_possible() -> None:
    deal = play_position("0 play 5H; 1 play 2H; 2 play T8")
    assert legal(deal) == cs("T12 T13")
    err = refused(deal, Play(3, "T6"), "R15")
    assert "T8" in str(err)
    assert str(err) == "R15: must play a trump higher than T8"
    refused(deal, Play(3, "8S"), "R15")
    deal.apply(Play(3, "T12"))
    assert deal.tricks[-1].winner == 3  # R16: the highest trump wins
    assert deal.turn == 3


def test_undertrump_when_no_higher_trump() -> None:
    deal = play_position("0 play 5H; 1 play 2H; 2 play T16")
    assert legal(deal) == cs("T6 T7 T12 T13")  # pisser: any trump
    err = refused(deal, Play(3, "KS"), "R15")
    assert str(err) == "R15: must play a trump"  # none higher than T16: any trump (pisser)
    deal.apply(Play(3, "T6"))
    assert deal.tricks[-1].winner == 2


def test_trump_led_must_overtrump_if_possible() -> None:
    deal = play_position("0 play T9")
    assert legal(deal) == cs("T10 EX")
    refused(deal, Play(1, "T3"), "R15")
    refused(deal, Play(1, "2H"), "R15")
    deal.apply(Play(1, "T10"))
    assert legal(deal) == cs("T16")  # higher than T10
    refused(deal, Play(2, "T8"), "R15")
    deal.apply(Play(2, "T16"))
    assert legal(deal) == cs("T6 T7 T12 T13")  # nothing beats T16: any trump
    refused(deal, Play(3, "KD"), "R15")
    deal.apply(Play(3, "T7"))
    assert deal.tricks[-1].winner == 2


def test_unknown_or_absent_card_and_wrong_seat() -> None:
    deal = play_position()
    refused(deal, Play(0, "2H"), "R15")  # seat 1 holds it
    refused(deal, Play(1, "2H"), "R4")  # seat 0 is to play
    refused(deal, Play(7, "5H"), "R4")  # no such seat


# Excuse scenarios: seat 0 holds EX; seat 3 has neither hearts nor trumps.
Q_SEAT1 = "T5 5H 7H 10S JS NS QS KS 10D JD ND QD KD 1C 2C 3C 4C 5C"
Q_SEAT2 = "2H KH T1 T2 T3 T4 T9 T10 T11 6C 7C 8C 9C 10C JC NC QC KC"
Q_SEAT3 = "1S 2S 3S 4S 5S 6S 7S 8S 9S 1D 2D 3D 4D 5D 6D 7D 8D 9D"


def excuse_position(actions: str = "") -> Deal:
    return reach(4, 3, {0: "EX", 1: Q_SEAT1, 2: Q_SEAT2, 3: Q_SEAT3}, actions=P_BIDS + ";" + actions)


def test_excuse_led_next_card_sets_the_suit() -> None:
    deal = excuse_position("0 play EX")
    assert legal(deal) == cs(Q_SEAT1)  # nothing is led yet: any card
    deal.apply(Play(1, "5H"))
    assert legal(deal) == cs("2H KH")  # hearts are now led
    refused(deal, Play(2, "T9"), "R15")
    deal.apply(Play(2, "2H"))
    assert legal(deal) == cs(Q_SEAT3)  # neither hearts nor trumps: any card
    deal.apply(Play(3, "1S"))
    trick = deal.tricks[-1]
    assert [str(c) for c in trick.cards] == ["EX", "5H", "2H", "1S"]
    assert trick.winner == 1  # R16: the Excuse never wins; the highest heart does
    assert deal.turn == 1


def test_excuse_led_then_trump_sets_trumps() -> None:
    deal = excuse_position("0 play EX; 1 play T5")
    assert legal(deal) == cs("T9 T10 T11")  # must overtrump T5
    refused(deal, Play(2, "2H"), "R15")
    refused(deal, Play(2, "T3"), "R15")


def test_trump_led_nothing_higher_or_no_trump() -> None:
    deal = excuse_position("0 play T21")
    assert legal(deal) == cs("T5")
    deal.apply(Play(1, "T5"))
    assert legal(deal) == cs("T1 T2 T3 T4 T9 T10 T11")  # cannot beat T21: any trump
    deal.apply(Play(2, "T1"))
    assert legal(deal) == cs(Q_SEAT3)  # no trump: any card


def test_excuse_may_always_be_played() -> None:
    # seat 1 holds EX with hearts (follow) and with trumps (trump led): EX is legal both times
    assert "EX" in legal(play_position("0 play 5H"))
    assert "EX" in legal(play_position("0 play T9"))
    deal = play_position("0 play 5H")
    deal.apply(Play(1, "EX"))
    assert deal.turn == 2


# --- R7: bidding, R6: petit sec ------------------------------------------------------------


def bids(deal: Deal) -> set[str]:
    return {a.contract.name_text if a.contract else "pass" for a in deal.legal_actions()
            if isinstance(a, Bid)}


def test_bidding_only_higher_bids_one_round() -> None:
    deal = new_deal(4, 1)
    assert deal.phase is Phase.BIDDING and deal.turn == 2  # the seat after the dealer speaks first
    assert bids(deal) == {"pass", "prise", "garde", "garde_sans", "garde_contre"}
    refused(deal, Bid(3, Contract.PRISE), ("R4", "R7"))  # out of turn
    deal.apply(Bid(2, Contract.GARDE))
    assert deal.turn == 3
    assert bids(deal) == {"pass", "garde_sans", "garde_contre"}
    refused(deal, Bid(3, Contract.PRISE), "R7")
    refused(deal, Bid(3, Contract.GARDE), "R7")  # equal is not higher
    deal.apply(Bid(3, None))
    deal.apply(Bid(0, Contract.GARDE_SANS))
    assert bids(deal) == {"pass", "garde_contre"}
    deal.apply(Bid(1, None))
    # everyone spoke once: bidding is over
    assert deal.phase is Phase.ANNOUNCE
    assert deal.taker == 0 and deal.contract is Contract.GARDE_SANS
    refused(deal, Bid(2, Contract.GARDE_CONTRE), "R7")


def test_all_pass_annuls_the_deal() -> None:
    deal = reach(4, 0, actions="1 bid pass; 2 bid pass; 3 bid pass; 0 bid pass")
    assert deal.phase is Phase.DONE and deal.turn is None
    assert deal.legal_actions() == []
    res = deal.result()
    assert res.annulled is Annulment.ALL_PASS and res.score is None
    # docs/records.md: an annulled deal scores 0 for every seat
    assert res.to_dict()["annulled"] == "all_pass" and res.to_dict()["scores"] == [0, 0, 0, 0]
    refused(deal, Bid(1, Contract.PRISE), "R7")


SEC_HAND = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD ND QD KD 1C 2C 3C"


def test_petit_sec_annuls_before_bidding() -> None:
    h, c = layout(4, {2: "T1 " + SEC_HAND})
    deal = Deal(4, 0, h, c)
    assert deal.phase is Phase.DONE and deal.turn is None
    assert deal.legal_actions() == []
    res = deal.result()
    assert res.annulled is Annulment.PETIT_SEC and res.petit_sec_seat == 2
    refused(deal, Bid(1, Contract.PRISE), "R6")
    # the same from a record
    rec = record(4, 0, {2: "T1 " + SEC_HAND})
    assert replay_result(DealRecord.from_dict(rec))["annulled"] == "petit_sec"


@pytest.mark.parametrize("extra", ["EX", "T2"])
def test_petit_with_excuse_or_trump_is_not_sec(extra: str) -> None:
    h, c = layout(4, {2: f"T1 {extra} " + SEC_HAND.rsplit(" ", 1)[0]})
    deal = Deal(4, 0, h, c)
    assert deal.phase is Phase.BIDDING and deal.annulled is None


# --- R8, R9: calling a card, first lead (5 players) ---------------------------------------------


def calls(deal: Deal) -> set[str]:
    return {str(a.card) for a in deal.legal_actions() if isinstance(a, Call)}


CALL_BIDS = "0 bid prise; 1 bid pass; 2 bid pass; 3 bid pass; 4 bid pass"


@pytest.mark.parametrize(("held", "callable_"), [
    ("KS KH QS QH", "KS KH KD KC"),
    ("KS KH KD KC QS", "KS KH KD KC QS QH QD QC"),
    ("KS KH KD KC QS QH QD QC NS", "KS KH KD KC QS QH QD QC NS NH ND NC"),
    ("KS KH KD KC QS QH QD QC NS NH ND NC",
     "KS KH KD KC QS QH QD QC NS NH ND NC JS JH JD JC"),
])
def test_call_kings_then_queens_knights_jacks(held: str, callable_: str) -> None:
    deal = reach(5, 4, {0: held}, actions=CALL_BIDS)
    assert deal.phase is Phase.CALL and deal.turn == 0
    assert calls(deal) == cs(callable_)
    for card in ("QH", "NS", "JD", "10S", "T21", "EX"):
        if card not in cs(callable_):
            refused(deal, Call(0, card), "R8")
    refused(deal, Call(1, "KH"), "R8")  # only the taker calls


def test_call_phase_hides_the_chien_then_shows_it() -> None:
    deal = reach(5, 4, actions=CALL_BIDS)
    assert all(deal.view(s).chien is None for s in range(5))
    deal.apply(Call(0, "KC"))
    assert deal.phase is Phase.ECART
    assert all(set(map(str, deal.view(s).chien or ())) == cs("1S 2S 3S") for s in range(5))


def test_call_only_at_five_players() -> None:
    deal = reach(4, 3, actions="0 bid prise; 1 bid pass; 2 bid pass; 3 bid pass")
    assert deal.phase is Phase.ECART
    refused(deal, Call(0, "KH"), "R8")


R9_HAND = "3H 7H QH 2S 5S 2D 9D 10D 1C 4C 8C JC T21 T6 EX"
R9_BIDS = "0 bid pass; 1 bid pass; 2 bid garde_sans; 3 bid pass; 4 bid pass; 2 call KH; 2 chelem false"


@pytest.mark.parametrize(("seat0", "forbidden"), [
    (R9_HAND, "3H 7H QH"),  # seat 0 is a defender
    (R9_HAND.replace("QH", "KH"), "3H 7H"),  # seat 0 holds the called card: it may lead it
])
def test_first_lead_not_in_called_suit(seat0: str, forbidden: str) -> None:
    deal = reach(5, 4, {0: seat0}, actions=R9_BIDS)
    assert deal.phase is Phase.PLAY and deal.turn == 0
    assert legal(deal) == cs(seat0) - cs(forbidden)
    err = refused(deal, Play(0, "3H"), "R9")
    assert "KH" in str(err)
    # not on later tricks: seat 0 wins the first trick with T21 and may then lead hearts
    play(deal, "T21")
    for _ in range(4):
        deal.apply(Play(deal.turn, deal.legal_plays()[0]))  # type: ignore[arg-type]
    assert deal.tricks[0].winner == 0 and deal.turn == 0
    assert legal(deal) == hand(deal, 0)
    deal.apply(Play(0, "3H"))


def test_self_call_taker_alone_scores_four_s() -> None:
    # 5 players, dealer 4. Seat 0 holds T8…T21 and KH, bids prise and calls KH: alone (R8).
    # The chien 1S 2S 3S is the only discardable part (KH is a king): the écart is forced.
    deal = reach(5, 4, {0: trumps(8, 21) + " KH"}, "1S 2S 3S", CALL_BIDS + "; 0 call KH")
    assert deal.partner is None
    opts = deal.ecart_options()
    assert opts is not None and set(map(str, opts.allowed)) == cs("1S 2S 3S") and opts.trumps_needed == 0
    refused(deal, Ecart(0, "1S 2S KH"), "R11")
    deal.apply(Ecart(0, "1S 2S 3S"))
    deal.apply(Chelem(0, False))
    # Seat 0 leads T21…T8 then KH. The defenders' 7 trumps (T1…T7) fall on trump leads, so T1
    # goes to the attack; the defender holding EX plays it at once: the defence never wins a
    # trick, so EX counts 4 for it (R17) and the attack has 91 - 4 = 87 with T1, T21.
    ex_seat = next(s for s in range(5) if "EX" in hand(deal, s))
    autoplay(deal, {0: " ".join(f"T{n}" for n in range(21, 7, -1)) + " KH", ex_seat: "EX"})
    s = deal.result().score
    assert s is not None
    assert s.partner is None and s.oudlers == 2 and s.points == 87 and s.made and s.margin == 46
    assert s.chelem is Side.ATTACK and not s.chelem_announced and s.petit_au_bout is None
    # prise: (25 + 46) × 1 + 200 (chelem not announced) = 271; alone: taker 4S
    assert scores(deal) == [1084, -271, -271, -271, -271]


def test_called_card_in_chien_and_forced_trump_ecart() -> None:
    # Seat 0 holds T8…T21 KH, calls KS which is in the chien: alone, known to all.
    deal = reach(5, 4, {0: trumps(8, 21) + " KH"}, "KS 1C 2C",
                 "0 bid garde; 1 bid pass; 2 bid pass; 3 bid pass; 4 bid pass; 0 call KS")
    assert deal.partner is None
    assert all(deal.view(s).partner == 0 for s in range(5))  # everyone knows the taker is alone
    assert all(set(map(str, deal.view(s).chien or ())) == cs("KS 1C 2C") for s in range(5))
    # With the chien: T8…T21 KH KS 1C 2C. Only 1C 2C may go: one trump is needed (R11).
    opts = deal.ecart_options()
    assert opts is not None and opts.size == 3 and opts.trumps_needed == 1
    assert set(map(str, opts.allowed)) == cs("1C 2C " + trumps(8, 20))
    refused(deal, Ecart(0, "1C 2C KS"), "R11")  # a king, and the called card
    refused(deal, Ecart(0, "1C T8 T9"), "R11")  # two trumps where one is needed
    refused(deal, Ecart(0, "1C 2C T21"), "R11")  # an oudler
    cache: dict[object, object] = {}  # the server's path (view_parts), from before the écart on
    assert deal.view_parts(range(5), 1, cache)[0]["ecart_trumps"] == []
    deal.apply(Ecart(0, "1C 2C T8"))
    for s in range(5):
        assert [str(c) for c in deal.view(s).ecart_trumps] == ["T8"]
    assert set(map(str, deal.view(0).ecart or ())) == cs("1C 2C T8")
    assert all(deal.view(s).ecart is None for s in range(1, 5))
    assert deal.view_parts(range(5), 1, cache)[0]["ecart_trumps"] == ["T8"]
    deal.apply(Chelem(0, False))
    assert deal.view_parts(range(5), 1, cache)[0]["ecart_trumps"] == ["T8"]  # kept from the first card
    ex_seat = next(s for s in range(5) if "EX" in hand(deal, s))
    autoplay(deal, {0: " ".join(f"T{n}" for n in range(21, 8, -1)) + " KH KS", ex_seat: "EX"})
    assert deal.view_parts(range(5), 1, cache)[0]["ecart_trumps"] == ["T8"]
    s = deal.result().score
    assert s is not None
    # every card but EX (counting 4 for the defence, R17) to the attack: 87, T1 and T21
    assert s.partner is None and s.points == 87 and s.oudlers == 2 and s.chelem is Side.ATTACK
    # garde: (25 + 46) × 2 + 200 = 342; alone: 4S
    assert scores(deal) == [1368, -342, -342, -342, -342]


# --- R10, R11: the écart ---------------------------------------------------------------------------

ECART_HAND = "KS KH T1 T21 EX T5 T9 T14 3S 4S 8S JH NH QD 10D 2C 5C 9C"
ECART_CHIEN = "KD 1H 6H 7D T2 1C"


def test_ecart_exact_allowed_set_and_refusals() -> None:
    deal = reach(4, 3, {0: ECART_HAND}, ECART_CHIEN, "0 bid prise; 1 bid pass; 2 bid pass; 3 bid pass")
    assert deal.phase is Phase.ECART and deal.turn == 0
    assert deal.legal_actions() == []
    for s in range(4):  # R10: the chien is shown to everyone
        assert set(map(str, deal.view(s).chien or ())) == cs(ECART_CHIEN)
    assert hand(deal, 0) == cs(ECART_HAND) | cs(ECART_CHIEN)
    opts = deal.ecart_options()
    assert opts is not None and opts.seat == 0 and opts.size == 6 and opts.trumps_needed == 0
    assert set(map(str, opts.allowed)) == cs("3S 4S 8S JH NH QD 10D 2C 5C 9C 1H 6H 7D 1C")
    refused(deal, Ecart(0, "3S 4S 8S JH NH KS"), "R11")  # king
    refused(deal, Ecart(0, "3S 4S 8S JH NH KD"), "R11")  # king from the chien
    refused(deal, Ecart(0, "3S 4S 8S JH NH EX"), "R11")  # oudler
    refused(deal, Ecart(0, "3S 4S 8S JH NH T1"), "R11")
    refused(deal, Ecart(0, "3S 4S 8S JH NH T5"), "R11")  # a trump when not needed
    refused(deal, Ecart(0, "3S 4S 8S JH NH"), "R10")  # five cards
    refused(deal, Ecart(0, "3S 4S 8S JH NH QD 10D"), "R10")  # seven
    refused(deal, Ecart(0, "3S 4S 8S JH NH 2S"), "R10")  # 2S is not the taker's
    refused(deal, Ecart(1, "3S 4S 8S JH NH QD"), "R10")  # only the taker
    refused(deal, Play(0, "3S"), "R15")  # no card before the écart
    deal.apply(Ecart(0, "3S 4S 1H 6H 7D 1C"))
    assert deal.phase is Phase.ANNOUNCE
    assert len(deal.hand(0)) == 18
    assert set(map(str, deal.view(0).ecart or ())) == cs("3S 4S 1H 6H 7D 1C")
    for s in (1, 2, 3):
        v = deal.view(s)
        assert v.ecart is None and v.ecart_trumps == ()
        assert not cs("3S 4S 1H 6H 7D 1C") & set(map(str, v.to_dict()["hand"]))
    assert deal.view(-1).ecart is None


FORCED_HAND = "KS KH KD KC T1 T21 EX " + trumps(2, 10) + " 2S 3S"
FORCED_CHIEN = "T11 T12 T13 T14 4S 5S"
FORCED_BIDS = "0 bid garde; 1 bid pass; 2 bid pass; 3 bid pass"


def test_forced_trump_ecart_public_trumps() -> None:
    deal = reach(4, 3, {0: FORCED_HAND}, FORCED_CHIEN, FORCED_BIDS)
    # 24 cards, only 2S 3S 4S 5S discardable without trumps: exactly 2 trumps are needed
    opts = deal.ecart_options()
    assert opts is not None and opts.trumps_needed == 2
    assert set(map(str, opts.allowed)) == cs("2S 3S 4S 5S " + trumps(2, 14))
    refused(deal, Ecart(0, "2S 3S 4S T2 T3 T4"), "R11")  # three trumps
    refused(deal, Ecart(0, "2S 3S 4S 5S T2 T21"), "R11")  # an oudler
    refused(deal, Ecart(0, "2S 3S 4S 5S T2 EX"), "R11")
    refused(deal, Ecart(0, "2S 3S 4S 5S T2 KS"), "R11")
    deal.apply(Ecart(0, "2S 3S 4S 5S T13 T14"))
    for s in (-1, 0, 1, 2, 3):  # R11: discarded trumps are shown to everyone
        assert set(map(str, deal.view(s).ecart_trumps)) == cs("T13 T14")
    assert set(map(str, deal.view(0).ecart or ())) == cs("2S 3S 4S 5S T13 T14")
    assert all(deal.view(s).ecart is None for s in (1, 2, 3))


def test_called_card_may_not_be_discarded() -> None:
    # seat 0 holds the four kings and calls QH, which comes from the chien
    deal = reach(5, 4, {0: "KS KH KD KC 1S 2S " + trumps(2, 10)}, "QH 3S 4S", CALL_BIDS + "; 0 call QH")
    assert deal.partner is None
    opts = deal.ecart_options()
    assert opts is not None
    assert set(map(str, opts.allowed)) == cs("1S 2S 3S 4S")
    assert opts.trumps_needed == 0
    refused(deal, Ecart(0, "QH 1S 2S"), "R11")
    deal.apply(Ecart(0, "1S 2S 3S"))


# --- R12: garde sans, garde contre ------------------------------------------------------------


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_chien_stays_hidden(contract: str) -> None:
    deal = reach(4, 3, actions=f"0 bid {contract}; 1 bid pass; 2 bid pass; 3 bid pass")
    assert deal.phase is Phase.ANNOUNCE and deal.ecart_options() is None
    assert all(deal.view(s).chien is None for s in (-1, 0, 1, 2, 3))
    assert len(deal.hand(0)) == 18  # the taker did not take the chien
    refused(deal, Ecart(0, deal.hand(0)[:6]), "R10")
    deal.apply(Chelem(0, False))
    autoplay(deal)
    assert all(deal.view(s).chien is None for s in (-1, 0, 1, 2, 3))


# --- R13: chelem announcement ------------------------------------------------------------------


def test_chelem_announcer_leads() -> None:
    deal = reach(4, 3, actions="0 bid pass; 1 bid pass; 2 bid garde_sans; 3 bid pass")
    assert deal.phase is Phase.ANNOUNCE and deal.turn == 2
    assert set(deal.legal_actions()) == {Chelem(2, True), Chelem(2, False)}
    refused(deal, Chelem(0, True), "R13")
    refused(deal, Play(0, deal.hand(0)[0]), "R15")
    declined = deal.copy()
    declined.apply(Chelem(2, False))
    assert declined.phase is Phase.PLAY and declined.turn == 0  # the seat after the dealer
    deal.apply(Chelem(2, True))
    assert deal.phase is Phase.PLAY and deal.turn == 2 and deal.chelem_announced
    assert deal.view(1).chelem_announced
    refused(deal, Chelem(2, True), "R13")  # once, before the first card


def test_chelem_announced_after_ecart_and_record_auto_declines() -> None:
    deal = reach(4, 3, {0: FORCED_HAND}, FORCED_CHIEN, FORCED_BIDS + "; 0 ecart 2S 3S 4S 5S T13 T14")
    assert deal.phase is Phase.ANNOUNCE and deal.turn == 0
    # a record without a chelem action: the replay declines it for the taker
    played = reach(4, 3, {0: FORCED_HAND}, FORCED_CHIEN,
                   FORCED_BIDS + "; 0 ecart 2S 3S 4S 5S T13 T14; 0 play KS")
    assert not played.chelem_announced and played.turn == 1


def test_worked_example_5_chelem_announced_made() -> None:
    # 4 players, garde. Seat 0: T1, T5…T21; the defence has T2 T3 T4 and EX. The écart is the
    # chien (six small spades); seat 0 announces, shows T12…T21 (simple), leads T21…T5 then T1.
    # The defence plays EX at once and never wins a trick: EX counts 4 for it (R17), so the
    # attack has 91 - 4 = 87 with T1 and T21 (target 41, d = 46); T1 wins the last trick.
    # (25 + 46) × 2 + 20 (poignée) + 20 (petit au bout) + 400 = 582; taker 3S.
    deal = reach(4, 3, {0: "T1 " + trumps(5, 21), 1: "T2 T3 T4", 2: "EX"}, "1S 2S 3S 4S 5S 6S",
                 "0 bid garde; 1 bid pass; 2 bid pass; 3 bid pass; 0 ecart 1S 2S 3S 4S 5S 6S; "
                 "0 chelem; 0 poignee " + trumps(12, 21))
    assert deal.turn == 0
    autoplay(deal, {0: " ".join(f"T{n}" for n in range(21, 4, -1)) + " T1", 2: "EX"})
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.made, s.margin) == (87, 2, True, 46)
    assert s.petit_au_bout is Side.ATTACK and s.chelem is Side.ATTACK and s.chelem_announced
    assert s.poignees == (PoigneeSize.SIMPLE,)
    assert scores(deal) == [1746, -582, -582, -582]


def test_chelem_trick_excuse_led_last_and_petit_in_second_to_last() -> None:
    # Garde sans. Seat 0: EX, T1, T6…T21; the defence has T2…T5. Seat 0 announces, leads T21…T6
    # (the defence's trumps fall), T1 (wins trick 17: nobody has a trump) and EX to the last trick:
    # R19, EX wins it. T1 in the second-to-last trick counts au bout (R23).
    # All 91 points (chien included, R12), 3 oudlers: d = 55: (25 + 55) × 4 + 40 + 400 = 760.
    deal = reach(4, 3, {0: "EX T1 " + trumps(6, 21), 1: "T2 T3 T4 T5"},
                 actions="0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass; 0 chelem")
    autoplay(deal, {0: " ".join(f"T{n}" for n in range(21, 5, -1)) + " T1 EX"})
    last = deal.tricks[-1]
    assert str(last.cards[0]) == "EX" and last.winner == 0
    assert deal.tricks[-2].winner == 0 and "T1" in {str(c) for c in deal.tricks[-2].cards}
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.margin) == (91, 3, 55)
    assert s.petit_au_bout is Side.ATTACK and s.chelem is Side.ATTACK
    assert scores(deal) == [2280, -760, -760, -760]


def test_chelem_announced_and_failed() -> None:
    # Garde sans. Seat 0: T5…T21 and 2H, announces, leads T21…T5 then 2H: seat 1 wins the last
    # trick with KH (2H KH 3H 4H = 6 points). The defence's EX, played at once, stays with it
    # (R17, 0.5 given). Attack: 91 - 6 - 4.5 + 0.5 = 81, T1 and T21: d = 40.
    # (25 + 40) × 4 - 200 = 60; taker 3S.
    deal = reach(4, 3, {0: trumps(5, 21) + " 2H", 1: "KH", 2: "EX 3H", 3: "4H"},
                 actions="0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass; 0 chelem")
    autoplay(deal, {0: " ".join(f"T{n}" for n in range(21, 4, -1)) + " 2H", 2: "EX"}, keep="KH 3H 4H")
    assert deal.tricks[-1].winner == 1
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.made, s.margin) == (81, 2, True, 40)
    assert s.chelem is None and s.chelem_announced and s.chelem_prime == -200
    assert scores(deal) == [180, -60, -60, -60]


def test_excuse_led_last_without_every_trick_loses_it() -> None:
    # Garde sans. Seat 0: 2H EX T6…T21. Trick 1: 2H KH 3H 4H, won by seat 1 (6 points). Seat 0
    # trumps back in and leads its trumps, then EX to the last trick: the attack lost a trick, so
    # no R19; the next card QS sets spades, seat 1 wins, EX goes to the defence (R18):
    # EX QS 5H 6H = 9 points. Attack: 91 - 6 - 9 = 76 with T1 and T21: d = 35 → 60 × 4 = 240.
    deal = reach(4, 3, {0: "2H EX " + trumps(6, 21), 1: "KH QS", 2: "3H 5H", 3: "4H 6H"},
                 actions="0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass; 0 chelem false")
    autoplay(deal, {0: "2H", 1: "KH", 2: "3H", 3: "4H"}, keep="QS 5H 6H")
    assert deal.tricks[0].winner == 1
    last = deal.tricks[-1]
    assert [str(c) for c in last.cards] == ["EX", "QS", "5H", "6H"] and last.winner == 1
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.margin, s.chelem, s.petit_au_bout) == (76, 2, 35, None, None)
    assert scores(deal) == [720, -240, -240, -240]


def test_defence_chelem_garde_contre_excuse_without_trick() -> None:
    # Dealer 0: seat 1 speaks and leads. Seat 1 holds T4…T21 and shows a triple poignée (15);
    # seat 2 holds T1 T2 T3; seat 0 takes garde contre with EX and small cards.
    # The defence wins every trick. The attack's EX, played at once, stays with it and counts 4
    # (R17: its side never wins a trick); the chien counts for the defence (R12).
    # 1 oudler, target 51, 4 points: lost by 47: -(25 + 47) × 6 - 40 (poignée, defence wins)
    # - 200 (defence chelem) = -672; taker 3S.
    deal = reach(4, 0, {1: trumps(4, 21), 2: "T1 T2 T3", 0: "EX"},
                 actions="1 bid pass; 2 bid pass; 3 bid pass; 0 bid garde_contre; 0 chelem false; "
                         "1 poignee " + trumps(7, 21))
    assert deal.turn == 1
    autoplay(deal, {0: "EX"})
    assert all(t.winner != 0 for t in deal.tricks)
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.made, s.margin) == (4, 1, False, 47)
    assert s.chelem is Side.DEFENCE and s.poignees == (PoigneeSize.TRIPLE,)
    assert scores(deal) == [-2016, 672, 672, 672]
    assert all(deal.view(s).chien is None for s in range(4))


# --- R14: poignée ----------------------------------------------------------------------------------


def poignee_position(players: int, seat0: str, chien: str = "") -> Deal:
    passes = "; ".join(f"{s} bid pass" for s in range(1, players))
    if players == 5:
        passes += "; 0 call KC"
    return reach(players, players - 1, {0: seat0}, chien,
                 f"0 bid garde_sans; {passes}; 0 chelem false")


@pytest.mark.parametrize(("players", "held", "sizes"), [
    (3, 14, {"simple": 13}),
    (3, 18, {"simple": 13, "double": 15, "triple": 18}),
    (4, 11, {"simple": 10}),
    (4, 13, {"simple": 10, "double": 13}),
    (4, 15, {"simple": 10, "double": 13, "triple": 15}),
    (5, 9, {"simple": 8}),
    (5, 10, {"simple": 8, "double": 10}),
    (5, 13, {"simple": 8, "double": 10, "triple": 13}),
])
def test_poignee_sizes_per_player_count(players: int, held: int, sizes: dict[str, int]) -> None:
    deal = poignee_position(players, trumps(22 - held, 21))
    assert deal.turn == 0
    opts = deal.poignee_options()
    assert opts is not None
    assert opts.to_dict()["sizes"] == sizes
    assert set(map(str, opts.allowed)) == cs(trumps(22 - held, 21))
    simple = sizes["simple"]
    refused(deal, Poignee(0, trumps(22 - simple + 1, 21)), "R14")  # one short
    if held > simple and simple + 1 not in sizes.values():
        refused(deal, Poignee(0, trumps(22 - simple - 1, 21)), "R14")  # one too many
    refused(deal, Poignee(1, trumps(22 - simple, 21)), "R14")  # not seat 1's turn
    deal.apply(Poignee(0, trumps(22 - simple, 21)))
    assert set(map(str, deal.view(2).poignees[0])) == cs(trumps(22 - simple, 21))  # public
    assert deal.turn == 0 and deal.poignee_options() is None


def test_poignee_only_trumps_of_the_hand_once_before_first_card() -> None:
    deal = poignee_position(4, trumps(11, 21))
    refused(deal, Poignee(0, trumps(13, 21) + " 1S"), "R14")  # not a trump
    refused(deal, Poignee(0, trumps(13, 21) + " T1"), "R14")  # not in the hand
    deal.apply(Poignee(0, trumps(12, 21)))
    refused(deal, Poignee(0, trumps(11, 20)), "R14")  # at most one
    play(deal, "T21")
    for _ in range(3):
        deal.apply(Play(deal.turn, deal.legal_plays()[0]))  # type: ignore[arg-type]
    assert deal.turn == 0
    fresh = poignee_position(4, trumps(11, 21))
    play(fresh, "T21")
    for _ in range(3):
        fresh.apply(Play(fresh.turn, fresh.legal_plays()[0]))  # type: ignore[arg-type]
    assert fresh.turn == 0 and fresh.poignee_options() is None
    refused(fresh, Poignee(0, trumps(11, 20)), "R14")  # after the first card


def test_poignee_with_excuse_must_show_every_trump() -> None:
    nine = poignee_position(4, trumps(13, 21) + " EX")
    opts = nine.poignee_options()
    assert opts is not None and set(map(str, cards_of_mask(opts.must_with_excuse))) == cs(trumps(13, 21))
    nine.apply(Poignee(0, trumps(13, 21) + " EX"))  # 9 trumps + EX = 10: every trump shown
    ten = poignee_position(4, trumps(12, 21) + " EX")
    err = refused(ten, Poignee(0, trumps(13, 21) + " EX"), "R14")  # T12 held back
    assert "T12" in str(err)
    ten.apply(Poignee(0, trumps(12, 21)))


def cards_of_mask(mask: int) -> list[str]:
    return [str(c) for c in CARDS if mask >> int(c) & 1]


def test_taker_may_show_discarded_trumps() -> None:
    deal = reach(4, 3, {0: FORCED_HAND}, FORCED_CHIEN,
                 FORCED_BIDS + "; 0 ecart 2S 3S 4S 5S T13 T14; 0 chelem false")
    # in hand: T1…T12, T21 (13) and EX; shown from the écart: T13 T14
    opts = deal.poignee_options()
    assert opts is not None
    assert set(map(str, opts.allowed)) == cs(trumps(1, 14) + " T21 EX")
    assert opts.to_dict()["sizes"] == {"simple": 10, "double": 13, "triple": 15}
    deal.apply(Poignee(0, trumps(1, 14) + " T21"))  # triple, with both discarded trumps
    assert set(map(str, deal.view(3).poignees[0])) == cs(trumps(1, 14) + " T21")


def test_defender_shows_poignee_after_taker_plays() -> None:
    # dealer 3, seat 0 leads; seat 1 holds T2…T11 (10 trumps)
    deal = reach(4, 3, {0: "KS", 1: trumps(2, 11)},
                 actions="0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass; 0 chelem false; 0 play KS")
    assert deal.turn == 1
    refused(deal, Poignee(2, deal.hand(2)[:10]), "R14")
    deal.apply(Poignee(1, trumps(2, 11)))
    assert set(map(str, deal.view(0).poignees[1])) == cs(trumps(2, 11))


# --- R21: half points at 3 and 5 players (complete deals) -------------------------------------------


def three_player_deal(diamond: str, excuse_last: bool) -> Deal:
    """3 players, dealer 2, seat 0 takes a prise. Seat 0 holds T15…T21 and EX, seat 1 T8…T14,
    seat 2 T1…T7; apart from the trumps every trick is in one suit."""
    other = "KD" if diamond == "QD" else "QD"
    hands = {
        0: f"{trumps(15, 21)} EX 1S 2S 3S 4S KH 3H 4H 5H {diamond} 3D 4D 5D 3C 4C 5C 6C",
        1: f"{trumps(8, 14)} 5S 6S 7S 8S 9S 6H 7H 8H 9H 6D 7D 8D 9D 7C 8C 9C 10C",
        2: f"{trumps(1, 7)} 10S JS NS QS KS 10H JH NH QH 10D JD ND {other} JC NC QC KC",
    }
    chien = "1H 2H 1D 2D 1C 2C"
    deal = reach(3, 2, hands, chien, f"0 bid prise; 1 bid pass; 2 bid pass; 0 ecart {chien}; 0 chelem false")
    for i in range(7):  # seat 0 leads its trumps and wins every trump trick
        play(deal, f"T{21 - i} T{8 + i} T{1 + i}")
    play(deal, "KH 6H 10H")  # seat 0 wins: 5.5
    play(deal, f"{diamond} 6D 10D")  # seat 0 wins: 4.5 with QD, 5.5 with KD
    play(deal, "3H 7H JH")  # seat 2 wins and leads from now on
    play(deal, f"NH 4H 8H  QH 5H 9H  {other} 3D 7D  ND 4D 8D  JD 5D 9D")
    play(deal, "KC 3C 7C  QC 4C 8C  NC 5C 9C  JC 6C 10C")
    if excuse_last:
        play(deal, "KS 1S 5S  QS 2S 6S  NS 3S 7S  JS 4S 8S  10S EX 9S")
    else:
        play(deal, "KS EX 5S  QS 1S 6S  NS 2S 7S  JS 3S 8S  10S 4S 9S")
    assert deal.phase is Phase.DONE
    return deal


@pytest.mark.parametrize(("diamond", "points", "made", "expected"), [
    # trumps 18.5 + KH trick 5.5 + QD trick 4.5 + écart 3 + EX kept (4.5 - 0.5) = 35.5
    # 3 oudlers (T1 T21 EX): target 36, lost, counts 35 (R21): d = 1 → S = -26, taker 2S
    ("QD", 35.5, False, [-52, 26, 26]),
    # with KD instead of QD: 36.5, made, counts 37: d = 1 → S = 26
    ("KD", 36.5, True, [52, -26, -26]),
])
def test_half_points_three_players(diamond: str, points: float, made: bool, expected: list[int]) -> None:
    deal = three_player_deal(diamond, excuse_last=False)
    assert [t.winner for t in deal.tricks].count(0) == 9
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.target, s.made, s.margin) == (points, 3, 36, made, 1)
    assert s.petit_au_bout is None and s.chelem is None
    assert scores(deal) == expected
    assert deal.result().to_dict()["points"] == points


def test_excuse_in_last_trick_changes_side() -> None:
    # As above (QD) but seat 0 keeps EX for the last trick, won by seat 2: EX goes to the
    # defence (R18). Attack: 18.5 + 5.5 + 4.5 + 3 = 31.5 with T1, T21: target 41, lost,
    # counts 31: d = 10 → S = -35.
    deal = three_player_deal("QD", excuse_last=True)
    assert deal.tricks[-1].winner == 2 and "EX" in {str(c) for c in deal.tricks[-1].cards}
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.made, s.margin) == (31.5, 2, False, 10)
    assert scores(deal) == [-70, 35, 35]


@pytest.mark.parametrize(("kept", "discarded", "points", "expected"), [
    # 40.5 with 2 oudlers: lost, counts 40 (R21): d = 1 → -(25 + 1) × 2 - 30 = -82
    ("JC", "9C", 40.5, [-164, -82, 82, 82, 82]),
    # 41.5: made, counts 42: d = 1 → 52 + 30 = 82
    ("9C", "JC", 41.5, [164, 82, -82, -82, -82]),
])
def test_half_points_five_players_with_partner(kept: str, discarded: str, points: float,
                                               expected: list[int]) -> None:
    # 5 players, dealer 4. Seat 0 takes a garde and calls KH: seat 1 is the partner.
    hands = {
        0: f"{trumps(12, 21)} 1S 2S 3S 4S 5S",
        1: f"{trumps(1, 10)} KH 6S 7S 8S 9S",
        2: "EX 10S JS NS QS KS 1H 2H 3H 4H 5H 6H 7H 8H 9H",
        3: "T11 QH ND JD 1D 2D 3D 4D 5D 6D JH NH QD KD 7D",
        4: f"8D 9D 10D 10H 4C 5C 6C 7C 8C {discarded} 10C {kept} NC QC KC",
    }
    deal = reach(5, 4, hands, "1C 2C 3C",
                 CALL_BIDS.replace("prise", "garde") + "; 0 call KH; 0 ecart 1C 2C 3C; 0 chelem false; "
                 "0 poignee " + trumps(12, 21))  # 10 trumps: a double at 5 players
    assert deal.partner == 1
    assert deal.view(2).partner is None and deal.view(1).partner == 1  # only the partner knows
    # tricks 1-10: seat 0 leads its trumps; seat 1 follows with T10…T1, seat 3 must give T11
    # at once, the others discard (seat 2's EX stays with the defence, R17).
    play(deal, "T21 T10 EX T11 8D")
    discards = [("1H", "QH", "9D"), ("2H", "ND", "10D"), ("3H", "JD", "10H"), ("4H", "1D", "4C"),
                ("5H", "2D", "5C"), ("6H", "3D", "6C"), ("7H", "4D", "7C"), ("8H", "5D", "8C"),
                ("9H", "6D", discarded)]
    for i, (a, b, c) in enumerate(discards):
        play(deal, f"T{20 - i} T{9 - i} {a} {b} {c}")
    assert all(t.winner == 0 for t in deal.tricks)
    # tricks 11-15: spades; seat 2 wins them all
    play(deal, f"1S 6S KS JH 10C  QS NH NC 2S 7S  NS QD QC 3S 8S  JS KD KC 4S 9S  10S 7D {kept} 5S KH")
    assert deal.view(3).partner == 1  # KH was played: public now
    assert [t.winner for t in deal.tricks[10:]] == [2] * 5
    # attack: trumps 18.5, écart 1.5, tricks 1-10 besides trumps 20 (+1 with JC), EX exchange 0.5
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.target, s.margin) == (points, 2, 41, 1)
    assert s.partner == 1 and s.poignees == (PoigneeSize.DOUBLE,)
    assert scores(deal) == expected
    assert sum(scores(deal)) == 0


# --- records and errors ---------------------------------------------------------------------------

PLAY_RECORD_BIDS = "0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass"


def test_record_play_out_of_turn_reports_action_index() -> None:
    rec = record(4, 3, {0: "5H T9", 1: P_SEAT1, 2: P_SEAT2, 3: P_SEAT3},
                 actions=PLAY_RECORD_BIDS + "; 0 play 5H; 2 play T8")
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay(complete=False)
    assert info.value.action == 5
    assert "R4" in info.value.reason and "seat 1" in info.value.reason
    assert replay_result(DealRecord.from_dict(rec)) == {
        "legal": False, "error": {"action": 5, "reason": info.value.reason}}


def test_record_illegal_card_reports_rule_and_index() -> None:
    rec = record(4, 3, {0: "5H T9", 1: P_SEAT1, 2: P_SEAT2, 3: P_SEAT3},
                 actions=PLAY_RECORD_BIDS + "; 0 play 5H; 1 play T10")
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay(complete=False)
    assert info.value.action == 5 and "R15" in info.value.reason


def test_record_bid_out_of_turn() -> None:
    rec = record(4, 3, actions="1 bid prise")
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay(complete=False)
    assert info.value.action == 0 and "seat 0" in info.value.reason


def test_record_action_after_the_end() -> None:
    rec = record(4, 0, actions="1 bid pass; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid prise")
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay()
    assert info.value.action == 4 and "annulled" in info.value.reason


def test_action_after_a_finished_deal() -> None:
    deal = reach(4, 3, actions="0 bid garde_sans; 1 bid pass; 2 bid pass; 3 bid pass; 0 chelem false")
    autoplay(deal)
    assert deal.is_over
    refused(deal, Play(0, "1S"), ("R15", "R16"))
    refused(deal, Chelem(0, True), ("R13", "R16"))


def test_record_unknown_card_in_action() -> None:
    rec = record(4, 3, actions=PLAY_RECORD_BIDS)
    rec["actions"].append({"seat": 0, "play": "11S"})
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec)
    assert info.value.action == 4 and "11S" in info.value.reason


def test_record_unknown_card_in_hand() -> None:
    rec = record(4, 3)
    rec["hands"][2][0] = "ZZ"
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec)
    assert info.value.action is None and "ZZ" in info.value.reason


def test_record_duplicate_cards() -> None:
    rec = record(4, 3)
    rec["hands"][1][0] = rec["hands"][0][0]  # the same card dealt twice (and one missing)
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay(complete=False)
    assert info.value.action is None and rec["hands"][0][0] in info.value.reason
    assert "twice" in info.value.reason
    rec = record(4, 3)
    rec["chien"][0] = rec["hands"][3][-1]
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay(complete=False)
    assert info.value.action is None and "twice" in info.value.reason


@pytest.mark.parametrize("where", ["hand", "chien"])
def test_record_wrong_sizes(where: str) -> None:
    rec = record(4, 3)
    if where == "hand":
        rec["chien"].append(rec["hands"][2].pop())  # 17 cards, chien 7
    else:
        rec["hands"][2].append(rec["chien"].pop())  # 19 cards, chien 5
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay(complete=False)
    assert info.value.action is None and "R5" in info.value.reason


def test_record_ending_early() -> None:
    rec = record(4, 3, actions=PLAY_RECORD_BIDS)
    with pytest.raises(RecordError) as info:
        DealRecord.from_dict(rec).replay()
    assert info.value.action == 4
    assert DealRecord.from_dict(rec).replay(complete=False).phase is Phase.ANNOUNCE


def test_constructor_refuses_bad_deals() -> None:
    h, c = layout(4)
    with pytest.raises(ValueError, match="twice"):
        Deal(4, 0, [h[0], h[0], h[2], h[3]], c)
    with pytest.raises(ValueError, match="R5"):
        Deal(4, 0, [h[0][:17], h[1], h[2], h[3]], [*c, h[0][17]])
    with pytest.raises(ValueError, match="R5"):
        Deal(4, 0, h[:3], c)
    with pytest.raises(ValueError, match="R4"):
        Deal(4, 4, h, c)


def test_petit_in_last_trick_won_under_r19() -> None:
    # Dealer 0: seat 1 leads every trick. Seat 0 takes a garde contre holding T1…T8 and
    # 1S…5S 1H…5H; seat 1 holds T9…T15, EX and KS…10S, KH…10H; the chien is T16…T21 (defence).
    # Seat 1 leads T15…T9 (seat 0 under-plays T8…T2, keeping T1), then its ten top suit cards
    # (seat 0 follows low), then EX to the last trick: the defence won every trick, so EX wins
    # it (R19), and seat 0's T1 falls in that last trick. R23: the side that wins the last trick
    # with T1 in it earns the petit au bout: the defence, -10 × 6.
    # Attack: nothing (0 points, 0 oudlers, target 56): -(25 + 56) × 6 - 60 - 200 (defence
    # chelem) = -746; taker 3S.
    seat1 = trumps(9, 15) + " EX KS QS NS JS 10S KH QH NH JH 10H"
    deal = reach(4, 0, {0: trumps(1, 8) + " 1S 2S 3S 4S 5S 1H 2H 3H 4H 5H", 1: seat1},
                 trumps(16, 21), "1 bid pass; 2 bid pass; 3 bid pass; 0 bid garde_contre; 0 chelem false")
    lead = " ".join(f"T{n}" for n in range(15, 8, -1)) + " KS QS NS JS 10S KH QH NH JH 10H EX"
    autoplay(deal, {1: lead}, keep="T1")
    last = deal.tricks[-1]
    assert str(last.cards[0]) == "EX" and last.winner == 1 and "T1" in {str(c) for c in last.cards}
    assert all(t.winner == 1 for t in deal.tricks)
    s = deal.result().score
    assert s is not None
    assert (s.points, s.oudlers, s.margin, s.chelem) == (0, 0, 56, Side.DEFENCE)
    assert s.petit_au_bout is Side.DEFENCE
    assert scores(deal) == [-2238, 746, 746, 746]
