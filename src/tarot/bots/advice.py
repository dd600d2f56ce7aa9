"""The expert's advice to a seat (the site's hint button, issue 19): the move the search bot
would make, and why, in a few figures a page can say in one line: over how many sampled deals it
scored best, by how much, and the next best move. The bids, the écart, the poignée and the cards
are the search's own decisions (by simulation); the call and the chelem are the club rules'."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from tarot.engine import Action, Bid, Ecart, Play, View, action_to_dict
from tarot.engine.cards import CARDS, cards_of, mask_of

from .announce_search import decide_poignee
from .bidding import MIN_WORLDS as MIN_BID_WORLDS
from .bidding import estimate_bids
from .ecart_search import search_ecart
from .heuristic import HeuristicBot
from .knowledge import knowledge_of
from .search import MIN_WORLDS, SearchBot


@dataclass(frozen=True)
class Advice:
    action: Action
    # only (the one legal move), rules (the club rules), bidding, ecart, poignee (show it), search
    # (the card play), search_hide_poignee (the card, and the poignée the seat may show does not pay)
    why: str
    worlds: int = 0  # sampled deals it was scored over
    mean: float | None = None  # the seat's mean score with it (a poignée: what its prime adds)
    runner_up: Action | None = None  # the next best move, and its mean
    runner_up_mean: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": action_to_dict(self.action), "why": self.why, "worlds": self.worlds,
                "mean": None if self.mean is None else round(self.mean, 1),
                "next": None if self.runner_up is None else action_to_dict(self.runner_up),
                "next_mean": None if self.runner_up_mean is None else round(self.runner_up_mean, 1)}


def _runner_up(means: dict[Any, float], best: Any) -> Any | None:
    """The best of the others, when its mean is not above ``best``'s (the écart keeps the club
    rules' choice unless another is clearly better: a close one is not shown as better)."""
    others = {m: x for m, x in means.items() if m != best and x <= means[best]}
    return max(others, key=lambda m: others[m]) if others else None


def advise(view: View, seed: int, think: float) -> Advice:
    """What the expert (``SearchBot`` with ``think`` seconds) advises the seat of ``view``."""
    if view.ecart_options is None and len(view.legal) == 1:
        return Advice(view.legal[0], "only")
    expert = SearchBot(seed, think=think)
    advice: Advice | None = None
    if view.ecart_options is not None:
        advice = _ecart(view, expert)
    elif view.phase == "bidding":
        advice = _bid(view, expert)
    elif view.phase == "play":
        shown = _poignee(view, expert)
        if isinstance(shown, Advice):
            advice = shown
        elif shown != "unknown":
            advice = _card(view, expert)
            if advice is not None and shown == "hide":
                advice = replace(advice, why="search_hide_poignee")
    return advice if advice is not None else Advice(HeuristicBot(seed).act(view), "rules")


def _bid(view: View, expert: SearchBot) -> Advice | None:
    seat = view.seat
    est = estimate_bids(view, expert.rng, expert.bid_budget, expert.deadline(), expert.bid_costs)
    if est.worlds < MIN_BID_WORLDS:
        return None
    best = est.best()
    second = _runner_up(est.means, best)
    return Advice(Bid(seat, best), "bidding", est.worlds, est.means[best],
                  None if second is None else Bid(seat, second),
                  None if second is None else est.means[second])


def _ecart(view: View, expert: SearchBot) -> Advice | None:
    """The search's écart (``ecart_search.search_ecart``) with its figures; None (the club rules)
    when it had one candidate only or too few worlds."""
    found = search_ecart(view, expert.rng, expert.opening_budget())
    if found is None:
        return None
    best, est = found
    if est is None:
        return None
    means = {c: est.mean(c) for c in est.scores}
    second = _runner_up(means, best)
    return Advice(Ecart(view.seat, cards_of(best)), "ecart", est.worlds, means[best],
                  None if second is None else Ecart(view.seat, cards_of(second)),
                  None if second is None else means[second])


def _poignee(view: View, expert: SearchBot) -> Advice | Literal["none", "hide", "unknown"]:
    """The search's poignée (``announce_search.decide_poignee``): show it (its advice); "none"
    when there is none to show, "hide" when its prime does not pay (the card is advised either
    way); "unknown" when too few worlds were found (the club rules decide)."""
    if view.poignee_options is None:
        return "none"
    decided, gain, worlds = decide_poignee(view, expert.rng, expert.card_budget())
    if decided is False:
        return "unknown"
    if decided is None:
        return "hide"
    return Advice(decided, "poignee", worlds, gain)


def _card(view: View, expert: SearchBot) -> Advice | None:
    seat = view.seat
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    means, worlds = expert.card_means(view, knowledge_of(view), mask_of(plays))
    if worlds < MIN_WORLDS:
        return None
    card = max(means, key=lambda c: (means[c], -c))  # (the search's own choice)
    other = _runner_up(means, card)
    return Advice(Play(seat, CARDS[card]), "search", worlds, means[card],
                  None if other is None else Play(seat, CARDS[other]),
                  None if other is None else means[other])
