"""Random clients at tables of 3, 4 and 5 players under a fake clock (issue 32, step 4; in the
spirit of OpenSpiel's games_sim_test: one harness, random legal and illegal moves).

Each step, one client sends a random table message (join, sit, leave, add or remove a bot, a
move, legal or not, the next deal, a cancel vote, chat, a ping, a dropped connection, a
reconnection with ``since``) or the clock moves on (the grace, the move clock, the pause between
deals and the vote's time run out). After every step, every watcher's state, merged from the
events it received since its last snapshot, must equal what the table would render for its seat
now. When a message is sent, it may hold no card its seat cannot see at that moment; a client's
versions only increase; a reconnecting client's missed events are the very events the others saw.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

pytest.importorskip("fastapi")

from playing import random_action
from tarot.engine import Deal, action_to_dict
from tarot.engine.cards import FULL_DECK, codes_of
from tarot.server import protocol as p
from tarot.server.clock import ManualClock
from tarot.server.hub import Hub
from tarot.server.settings import Settings
from tarot.server.store.store import Store, migrate
from tarot.server.table.actor import Gone, Table
from tarot.server.table.events import KINDS

CARDS = frozenset(codes_of(FULL_DECK))
# How often each step is each thing (a step by a client not at the table is its join).
WEIGHTS = {"act": 45, "clock": 8, "next_deal": 7, "sit": 9, "add_bot": 2, "remove_bot": 2, "new_game": 3,
           "leave": 2, "drop": 4, "cancel_game": 3, "cancel_vote": 8, "chat": 2, "set_options": 2, "ping": 2}
HOSTS = ("add_bot", "remove_bot", "new_game", "set_options")
STEPS = 700  # per table: about 2,100 steps in all, in a few seconds


def cards_in(value: Any) -> set[str]:
    """Every card code in a JSON value."""
    if isinstance(value, str):
        return {value} if value in CARDS else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def without_time(state: dict[str, Any]) -> dict[str, Any]:
    """A state without its countdowns (read when it was sent: the clock may have moved since)."""
    out = {k: v for k, v in state.items() if k != "time_left"}
    for key in ("next_deal", "cancel"):
        if isinstance(out.get(key), dict):
            out[key] = {k: v for k, v in out[key].items() if k != "time_left"}
    return out


class SimClient:
    """A connection as the table sees it, checking each message as it arrives."""

    def __init__(self, i: int, sim: Simulation) -> None:
        self.player_id = f"id-{i}"
        self.name = f"P{i}"
        self.account = False
        self.address = f"10.0.0.{i}"
        self.sim = sim
        self.state: dict[str, Any] | None = None
        self.version = -1  # the last version it saw
        self.sent_cards: set[str] = set()  # the cards of its last move (an error may name them)
        self.wrong: list[str] = []

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(p.encode(message).decode())

    def send_text(self, text: str) -> None:
        try:
            self.receive(orjson.loads(text))
        except AssertionError as e:
            self.wrong.append(f"{self.name}: {text[:400]}: {e}")

    def receive(self, msg: dict[str, Any]) -> None:
        table = self.sim.table
        seat = table.seat_for(self)  # type: ignore[arg-type]
        kind = msg["type"]
        self._check_cards(msg, seat)
        if kind == "event":
            assert msg["version"] > self.version, f"version {msg['version']} after {self.version}"
            assert self.state is not None, "an event before any snapshot"
            self.version = msg["version"]
            self.state = self.state | msg["state"]
            self.sim.seen.setdefault((msg["version"], seat), msg["event"])
        elif kind == "snapshot":
            assert msg["version"] >= self.version
            self.version = msg["version"]
            self.state = msg["state"]
        elif kind == "missed":
            self._check_missed(msg, seat)

    def _check_cards(self, msg: dict[str, Any], seat: int) -> None:
        """No card the seat cannot see now (a finished deal's record and result are everyone's)."""
        if msg["type"] in ("missed", "chat_log"):
            return  # (past events: checked against what the others saw, ``_check_missed``)
        shown = dict(msg)
        state = dict(shown.get("state") or {})
        state.pop("last_result", None)
        shown["state"] = state
        if msg.get("event", {}).get("kind") == "deal_end":
            shown.pop("event")
        view = self.sim.table.render.view_state(seat)["view"]
        allowed = cards_in(view) | (self.sent_cards if msg["type"] == "error" else set())
        leaked = cards_in(shown) - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}"

    def _check_missed(self, msg: dict[str, Any], seat: int) -> None:
        versions = [e["version"] for e in msg["events"]]
        assert versions == list(range(msg["since"] + 1, msg["since"] + 1 + len(versions))), versions
        for e in msg["events"]:
            event = {k: v for k, v in e.items() if k != "version"}
            seen = self.sim.seen.get((e["version"], seat))
            public = self.sim.seen.get((e["version"], -1))
            if seen is not None:  # another connection at this seat saw it
                assert event == seen, (event, seen)
            elif public is not None and not isinstance(event.get("action", {}).get("ecart"), list):
                assert event == public, (event, public)  # (a seat's own écart: its cards are its own)


class Simulation:
    def __init__(self, table: Table, clients: list[SimClient], clock: ManualClock,
                 rng: random.Random) -> None:
        self.table = table
        self.clients = clients
        self.clock = clock
        self.rng = rng
        self.seen: dict[tuple[int, int], dict[str, Any]] = {}  # (version, seat) → the event as sent
        self.kinds: set[str] = set()  # the event kinds sent

    async def settle(self) -> None:
        """Until the table is idle: its queue handled, no automatic move being chosen."""
        table = self.table
        for _ in range(20_000):
            await asyncio.sleep(0)
            if not table.queued and not table.busy and not table.autoplay.tasks:
                await asyncio.sleep(0)
                if not table.queued and not table.busy and not table.autoplay.tasks:
                    return
            if table.autoplay.tasks:
                await asyncio.sleep(0.0002)  # (a bot thinks in a thread)
        raise AssertionError("the table never settled")

    async def step(self) -> None:
        rng, table = self.rng, self.table
        what = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        if what == "clock":
            self.clock.advance(rng.choice((0.5, 3.0, 12.0, 25.0, 31.0)))
            return
        c = rng.choice(self.clients)
        deal = table.deal()
        if what == "act" and deal is not None and deal.turn is not None and rng.random() < 0.7:
            to_move = table.seats[deal.turn].player_id  # often, who is to move
            c = next((x for x in self.clients if x.player_id == to_move), c)
        elif what in HOSTS and rng.random() < 0.7:  # the host's controls: mostly the host's
            c = next((x for x in self.clients if x.player_id == table.host), c)
        if c not in table.watchers:
            since = c.version if c.version >= 0 and rng.random() < 0.8 else None
            await table.deliver(c, p.Join(type="join", table=table.id, since=since))  # type: ignore[arg-type]
            return
        if what == "drop":
            await table.deliver(c, Gone())  # type: ignore[arg-type]  # the connection drops
            return
        await table.deliver(c, self.message(what, c, deal))  # type: ignore[arg-type]

    def message(self, what: str, c: SimClient, deal: Deal | None) -> Any:
        rng, table = self.rng, self.table
        n = len(table.seats)
        seat = table.seat_of(c)  # type: ignore[arg-type]
        if what == "act":
            if deal is not None and deal.turn == seat and rng.random() < 0.9:
                whole = action_to_dict(random_action(deal, rng))
            else:
                whole = {"play": rng.choice(sorted(CARDS))}  # (most likely illegal, or not its turn)
            c.sent_cards = cards_in(whole)
            whole.pop("seat", None)
            return p.Act(type="act", action=whole)
        if what == "set_options":
            options = table.options.model_copy(update={"deals": rng.choice((1, 2))})
            return p.SetOptions(type="set_options", options=options)
        made: dict[str, Any] = {
            "next_deal": lambda: p.NextDeal(type="next_deal"),
            "sit": lambda: p.Sit(type="sit", seat=rng.randrange(n)),
            "add_bot": lambda: p.AddBot(type="add_bot", seat=rng.randrange(n), bot="random"),
            "remove_bot": lambda: p.RemoveBot(type="remove_bot", seat=rng.randrange(n)),
            "new_game": lambda: p.NewGame(type="new_game"),
            "leave": lambda: p.Leave(type="leave"),
            "cancel_game": lambda: p.CancelGame(type="cancel_game"),
            "cancel_vote": lambda: p.CancelVote(type="cancel_vote", accept=rng.random() < 0.7),
            "chat": lambda: p.Chat(type="chat", text="bonjour"),
            "ping": lambda: p.Ping(type="ping"),
        }
        return made[what]()

    def check(self) -> None:
        render = self.table.render
        for c in self.clients:
            assert not c.wrong, c.wrong[:3]
            if c in self.table.watchers:
                assert c.state is not None
                expected = orjson.loads(orjson.dumps(render.state(self.table.seat_for(c))))  # type: ignore[arg-type]
                assert without_time(c.state) == without_time(expected)
        self.kinds |= {e["kind"] for e in self.seen.values()}


async def simulate(tmp_path: Path, players: int, seed: int) -> Simulation:
    url = f"sqlite:///{tmp_path / f'sim{players}.sqlite3'}"
    migrate(url)
    clock = ManualClock()
    store = Store(url, clock)
    settings = Settings(bot_delay=0.0, trick_pause=0.0, next_deal_wait=20.0, grace=30.0)
    hub = Hub(store, settings, chance=random.Random(seed))
    rng = random.Random(seed)
    sim = Simulation(None, [], clock, rng)  # type: ignore[arg-type]
    sim.clients = [SimClient(i, sim) for i in range(players + 2)]
    for c in sim.clients:  # (guests, as a hello makes them: chat lines name their player)
        await store.write(store.save_player, c.player_id, f"token-{c.player_id}", c.name)
    options = p.TableOptions(players=players, deals=2, move_time=20 if players == 4 else None)
    sim.table = await hub.create(sim.clients[0], options)  # type: ignore[arg-type]
    try:
        for _ in range(STEPS):
            await sim.step()
            await sim.settle()
            sim.check()
    finally:
        await hub.close()
        store.close()
    return sim


def test_random_clients_at_tables_of_3_4_and_5_see_exactly_their_seat(tmp_path: Path) -> None:
    kinds: set[str] = set()
    for players in (3, 4, 5):
        sim = asyncio.run(simulate(tmp_path, players, seed=players))
        # each table went through games: started, played, ended
        played = {"game_start", "deal_start", "action", "deal_end", "presence"}
        assert played <= sim.kinds, (players, sim.kinds)
        assert sim.table.games_played >= 1
        kinds |= sim.kinds
    assert kinds == {kind.kind for kind in KINDS}  # every kind of event, at one table or another
