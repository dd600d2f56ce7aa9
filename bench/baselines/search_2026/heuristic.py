"""A sound club player in rules of thumb: fast (well under a millisecond a decision).

Bidding and écart come from ``evaluation``; card play reads the view through ``Knowledge``
(cards played, voids, trump ceilings, known partner) and follows the advice of docs/strategy.md:
the attack draws trumps and brings the Petit home, the defence hunts the Petit, loads points on
a partner who wins, saves its own Petit, and signals the FFT way.
"""

from __future__ import annotations

from tarot.bots.base import Bot
from tarot.engine import Action, Bid, Call, Chelem, Contract, Ecart, Play, Poignee, View
from tarot.engine.cards import (
    ABOVE,
    CARDS,
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS,
    PETIT,
    PLAIN,
    SUIT_MASKS,
    TRUMPS,
    cards_of,
    mask_of,
)

from .evaluation import THRESHOLDS, call_choice, contract_for, ecart_choice, hand_points
from .knowledge import Knowledge, best_index, knowledge_of, lead_mask_of

# A seat still to play is taken to hold the led plain suit (so it cannot overtrump a ruff) when
# it has not shown a void there and at least this many cards of the suit per such seat are unseen.
FOLLOW_FACTOR = 2


def low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def cheapest(mask: int) -> int:
    """The card worth least (points, then rank); the Petit and the Excuse last."""
    return min(cards_of(mask), key=lambda c: (c in (PETIT, EXCUSE), HALF_POINTS[c], c % 14 if c < 56 else c))


def richest(mask: int) -> int:
    """The card worth most, keeping oudlers out (they are never given away)."""
    plain = mask & ~(TRUMPS | EXCUSE_BIT)
    pool = plain or mask & ~((1 << PETIT) | (1 << 76) | EXCUSE_BIT) or mask
    return max(cards_of(pool), key=lambda c: (HALF_POINTS[c], -c))


def beats(card: int, best: int, lead: int) -> bool:
    """Would ``card`` win over the current best card ``best`` of a trick led in ``lead``?"""
    if card == EXCUSE:
        return False
    if card >= 56:
        return best < 56 or card > best
    return best < 56 and bool((1 << card) & lead) and card > best


class HeuristicBot(Bot):
    """Rules of thumb for every decision; deterministic (ties broken by card order)."""

    name = "heuristic"

    def act(self, view: View) -> Action:
        seat = view.seat
        if view.ecart_options is not None:
            o = view.ecart_options
            hand = view.hand.mask
            return Ecart(seat, cards_of(ecart_choice(hand, o.size, o.allowed_mask, o.trumps_needed)))
        if view.phase == "bidding":
            return self.bid(view)
        if view.phase == "call":
            calls = [a.card for a in view.legal if isinstance(a, Call)]
            return Call(seat, CARDS[call_choice(view.hand.mask, calls)])
        if view.phase == "announce":
            return Chelem(seat, self.chelem_certain(view))
        poignee = self.poignee(view)
        if poignee is not None:
            return poignee
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return Play(seat, plays[0])
        return Play(seat, CARDS[self.card(view, knowledge_of(view), mask_of(plays))])

    # --- before the play ---------------------------------------------------------

    def bid(self, view: View) -> Bid:
        contract = contract_for(hand_points(view.hand.mask), view.players)
        highest = max((c for _, c in view.bids if c is not None), default=None)
        if contract is None or (highest is not None and contract <= highest):
            return Bid(view.seat, None)
        return Bid(view.seat, contract)

    def chelem_certain(self, view: View) -> bool:
        """Only a hand that wins every trick whatever the others hold: master trumps enough to
        draw every trump out, and plain cards that are all top sequences."""
        hand = view.hand.mask
        mine = hand & TRUMPS
        out = TRUMPS & ~mine & ~(view.ecart.mask if view.ecart is not None else 0)
        if out:
            masters = mine & ABOVE[high(out)]
            if masters.bit_count() < out.bit_count():
                return False
        for s in range(4):
            cards = hand & SUIT_MASKS[s]
            if not cards:
                continue
            top = s * 14 + 13
            for i in range(cards.bit_count()):  # the suit must be K, KQ, KQN…
                if not cards >> (top - i) & 1:
                    return False
        return True

    def poignee(self, view: View) -> Poignee | None:
        """Show a poignée as the taker with a hand worth it: the prime goes to the winners, and
        the defence learns less from a taker than the taker would learn from a defender."""
        opts = view.poignee_options
        if opts is None or view.seat != view.taker or view.contract is None:
            return None
        points = hand_points(view.hand.mask)
        if points < THRESHOLDS[view.players][min(view.contract, Contract.GARDE) - 1] + 6:
            return None
        _, count = opts.sizes[-1]
        # Show plain trumps first: keep the Petit and the Excuse hidden where possible.
        order = sorted(cards_of(opts.allowed_mask), key=lambda c: (c in (PETIT, 76, EXCUSE), c))
        cards = opts.choose(count, order)
        return None if cards is None else Poignee(view.seat, cards)

    # --- card play ---------------------------------------------------------------

    def card(self, view: View, k: Knowledge, legal: int) -> int:
        tricks_left = len(view.hand)
        attack_chelem = view.chelem_announced and view.seat == view.taker
        if legal & EXCUSE_BIT and not attack_chelem and tricks_left <= 2:
            return EXCUSE  # R18: the Excuse is lost if kept for the last trick
        if attack_chelem and legal & EXCUSE_BIT and legal != EXCUSE_BIT:
            legal &= ~EXCUSE_BIT  # R19: keep it to lead the last trick
        if not view.trick:
            return self.lead(view, k, legal)
        return self.follow(view, k, legal)

    def lead(self, view: View, k: Knowledge, legal: int) -> int:
        hand = k.hand
        my_trumps = hand & TRUMPS & legal
        out = k.trumps_out()
        attack = view.taker is not None and view.taker in k.friends()
        foes = k.foes()
        if my_trumps == 1 << PETIT and not out:
            plain = legal & PLAIN  # the Petit is safe: keep it for the end (au bout)
            return self._plain_lead(k, plain, attack) if plain and len(view.hand) > 1 else PETIT
        if attack:
            if my_trumps and out and my_trumps.bit_count() >= out.bit_count():
                top = high(my_trumps)
                if top > high(out):
                    return top  # draw trumps with a master
                small = my_trumps & ~(1 << PETIT)
                if small:
                    return low(small)
            if not out and hand & (1 << PETIT) and legal & (1 << PETIT) and len(view.hand) <= 2:
                return PETIT  # petit au bout
            king = self._master_to_cash(k, legal, foes)
            if king is not None:
                return king
            plain = legal & PLAIN
            if plain:
                return self._plain_lead(k, plain, attack)
            trumps = legal & TRUMPS
            if trumps & ~(1 << PETIT):
                return low(trumps & ~(1 << PETIT)) if out else high(trumps)
            return cheapest(legal)
        # Defence.
        king = self._master_to_cash(k, legal, foes)
        if king is not None:
            return king
        petit_out = not (k.played | hand) >> PETIT & 1
        trumps = legal & TRUMPS & ~(1 << PETIT)
        asked = self._trumps_asked(view, k)
        if trumps and petit_out and (trumps.bit_count() <= 4 or asked):
            # Chasse au Petit; odd asks for trumps (7 or more), even is neutral (signalling).
            parity = 1 if (hand & TRUMPS).bit_count() >= 7 else 0
            fitting = [c for c in cards_of(trumps) if (c - 55) % 2 == parity and c < 70]
            return fitting[0] if fitting else low(trumps)
        signalled = self._signalled_suit(view, k, legal)
        if signalled is not None:
            return signalled
        plain = legal & PLAIN
        if plain:
            return self._plain_lead(k, plain, attack)
        return cheapest(legal)

    def _master_to_cash(self, k: Knowledge, legal: int, foes: set[int]) -> int | None:
        """A master honour (king first) in a suit the foes still follow: cash it now."""
        unseen = k.unseen
        for card in cards_of(legal & PLAIN & KINGS) + cards_of(legal & PLAIN & ~KINGS)[::-1]:
            suit = SUIT_MASKS[card // 14]
            higher = suit & ~((1 << (card + 1)) - 1)
            if higher & ~(k.played | k.hand):
                continue  # not master
            if HALF_POINTS[card] < 5:
                continue
            if any(k.voids[f] & suit for f in foes):
                continue  # a foe would trump it
            if (unseen & suit).bit_count() < len(foes) + 1:
                continue  # the suit is running out: a foe may well be void
            return card
        return None

    def _plain_lead(self, k: Knowledge, plain: int, attack: bool) -> int:
        """A small card of a long suit; a defender leads small from a suit with an honour
        (FFT: an ace to 5 promises a king or queen)."""
        hand = k.hand
        best_suit, best_key = -1, (-1, -1)
        for s in range(4):
            cards = plain & SUIT_MASKS[s]
            if not cards:
                continue
            honour = bool(hand & SUIT_MASKS[s] & (KINGS | KINGS >> 1))
            length = cards.bit_count()
            key = (length + (3 if honour and not attack else 0), -s)
            if key > best_key:
                best_suit, best_key = s, key
        return low(plain & SUIT_MASKS[best_suit])

    def _trumps_asked(self, view: View, k: Knowledge) -> bool:
        """A fellow defender led an odd trump: they ask for trumps."""
        friends = k.friends() - {k.seat}
        return any(t.leader in friends and t.cards[0] != EXCUSE and 56 <= t.cards[0] < 77
                   and (t.cards[0] - 55) % 2 == 1 for t in view.tricks)

    def _signalled_suit(self, view: View, k: Knowledge, legal: int) -> int | None:
        """Return the suit a fellow defender signalled by leading an ace to 5."""
        friends = k.friends() - {k.seat}
        for t in view.tricks:
            lead = t.cards[0]
            if t.leader in friends and lead < 56 and lead % 14 <= 4:
                cards = legal & SUIT_MASKS[lead // 14]
                if cards:
                    return low(cards)
        return None

    def follow(self, view: View, k: Knowledge, legal: int) -> int:
        trick = list(view.trick)
        n = view.players
        leader = view.trick_leader
        assert leader is not None
        pos = len(trick)
        lead = lead_mask_of(trick)
        bi = best_index(trick)
        best = trick[bi] if bi >= 0 else -1
        winner = (leader + bi) % n if bi >= 0 else -1
        friends = k.friends()
        foes = k.foes()
        later = [(leader + j) % n for j in range(pos + 1, n)]
        threats = [s for s in later if s not in friends]
        petit_bit = 1 << PETIT

        if winner in friends and bi >= 0 and not self._can_be_beaten(k, best, lead, threats):
            # Load points on the friend's trick; save our Petit under a friend's trump.
            if legal & petit_bit:
                return PETIT
            plain = legal & ~(TRUMPS | EXCUSE_BIT)
            if plain:
                return richest(plain)
            trumps = legal & TRUMPS
            return low(trumps) if trumps else cheapest(legal)

        winning = sum(1 << c for c in cards_of(legal) if bi < 0 or beats(c, best, lead))
        if winning:
            if not threats:
                # Last to play (or only friends after): the cheapest win; the Petit if it wins.
                if winning & petit_bit:
                    return PETIT
                if winning & PLAIN:
                    return high(winning & PLAIN)  # bank the richest card while it wins
                return low(winning)
            sure = [c for c in cards_of(winning)
                    if not self._can_be_beaten(k, c, lead or _lead_of(c), threats)]
            if sure:
                plain_sure = [c for c in sure if c < 56]
                if plain_sure:
                    return max(plain_sure)  # a master honour: take its points
                return min(c for c in sure if c != PETIT) if any(c != PETIT for c in sure) else PETIT
            points = sum(HALF_POINTS[c] for c in trick)
            if points >= 9 and winning & TRUMPS & ~petit_bit:
                return high(winning & TRUMPS & ~petit_bit & ~(1 << 76)) if winning & TRUMPS & ~petit_bit & ~(
                    1 << 76) else low(winning & TRUMPS & ~petit_bit)
        # Cannot win (or not worth it): give the least; the Excuse spares an honour.
        candidates = legal & ~EXCUSE_BIT
        if not candidates:
            return EXCUSE
        cheap = self._cheapest_discard(k, candidates)
        if legal & EXCUSE_BIT and HALF_POINTS[cheap] >= 5 and winner in foes:
            return EXCUSE
        return cheap

    def _cheapest_discard(self, k: Knowledge, mask: int) -> int:
        trumps = mask & TRUMPS
        if trumps == mask:
            rest = trumps & ~(1 << PETIT)
            return low(rest) if rest else PETIT
        plain = mask & PLAIN
        # Discard from the shortest suit (to make a void), never a master honour if avoidable.
        def key(c: int) -> tuple[int, int, int]:
            suit_len = (k.hand & SUIT_MASKS[c // 14]).bit_count()
            return (HALF_POINTS[c], suit_len, c % 14)
        return min(cards_of(plain), key=key)

    def _can_be_beaten(self, k: Knowledge, card: int, lead: int, threats: list[int]) -> bool:
        """Might one of ``threats`` (seats still to play) beat ``card``?"""
        if not threats:
            return False
        unseen = k.unseen
        higher_trumps = unseen & (ABOVE[card] if card >= 56 else TRUMPS)
        suit_left = (unseen & lead).bit_count() if lead & PLAIN else 0
        for s in threats:
            room = ~k.voids[s]
            if card >= 56:
                if lead & PLAIN and not k.voids[s] & lead and suit_left >= FOLLOW_FACTOR * len(threats):
                    continue  # it very likely holds the led suit, so it must follow it (R15)
                if higher_trumps & room:
                    return True
                continue
            if unseen & lead & ~((1 << (card + 1)) - 1) & room:
                return True  # a higher card of the suit may be there
            suit_left = (unseen & lead).bit_count()
            void_likely = bool(k.voids[s] & lead) or suit_left < len(threats)
            if void_likely and higher_trumps & room:
                return True
        return False


def _lead_of(card: int) -> int:
    return TRUMPS if card >= 56 else SUIT_MASKS[card // 14]
