"""The database's tables (SQLAlchemy 2 declarative rows). The schema is created and upgraded by
Alembic (``migrations``); a change here comes with a migration.

Players are guests (a token, any name), accounts (a unique name and a password) or bots' accounts
(``bot``: the kind, rated on the same ladder as people). Chips and XP are balances whose every
change is a ``LedgerRow``; ratings are one ``RatingRow`` per player and player count."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(40))
    created: Mapped[float]
    # An account's: its name folded (unique: "Alice" and "ALICE" are one name), its password's
    # argon2 hash; None for a guest.
    name_key: Mapped[str | None] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    # An account's (or a bot's) name's look-alike key (``text_policy.skeleton``): a new name may
    # not share it; not unique, as names kept from before it may.
    skeleton: Mapped[str | None] = mapped_column(String(80), index=True)
    bot: Mapped[str | None] = mapped_column(String(40))  # a bot's account: its kind and budget
    chips: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    xp: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    renamed: Mapped[float | None] = mapped_column(Float)  # the last change of an account's name
    topped_up: Mapped[str | None] = mapped_column(String(10))  # the day of the last daily top-up
    prefs: Mapped[str | None] = mapped_column(String(200))  # an account's display options (JSON)


class SessionRow(Base):
    """A signed-in browser: the cookie holds the token, the database its hash."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[float]


class RatingRow(Base):
    """A player's openskill (Plackett–Luce) rating at one player count."""

    __tablename__ = "ratings"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    games: Mapped[int]


class LedgerRow(Base):
    """One change of a player's chips or XP, with its reason and its game (if any)."""

    __tablename__ = "ledger"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # welcome, top_up, stake, pot, refund, xp
    chips: Mapped[int]
    xp: Mapped[int]
    created: Mapped[float]


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    host: Mapped[str | None] = mapped_column(String(32))
    invite: Mapped[str | None] = mapped_column(String(32))  # a private table's link secret
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting, playing, finished, closed
    version: Mapped[int] = mapped_column(BigInteger)  # epochs of 2**32 (table_state.EPOCH)
    # Which claim of the table is its owner's (cluster): writes of an older one are refused.
    owner_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created: Mapped[float]
    updated: Mapped[float]


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int]
    players: Mapped[int]
    deals: Mapped[int]
    first_dealer: Mapped[int]
    status: Mapped[str] = mapped_column(String(16))  # playing, finished, abandoned, cancelled
    totals: Mapped[list[int]] = mapped_column(JSON)
    started: Mapped[float]
    finished: Mapped[float | None]
    # A competitive game counts (ratings, chips, XP) unless two people seated share an address.
    competitive: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    counted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    stake: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class GamePlayerRow(Base):
    """Who played a competitive game at each seat, and what it brought them."""

    __tablename__ = "game_players"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    left: Mapped[bool] = mapped_column(Boolean, default=False)  # left before the end: ranked last
    rank: Mapped[int | None]
    chips: Mapped[int | None]  # the game's change of chips, stake included
    xp: Mapped[int | None]
    ordinal_before: Mapped[float | None]
    ordinal_after: Mapped[float | None]


class DealRow(Base):
    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int]
    dealer: Mapped[int]
    seed: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))  # playing, done
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # tarot-deal/1, once done
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class ReviewRow(Base):
    """The expert's review of a done deal (issue 35): asked for by an account, worked out in the
    background by a process's review worker (``players.review_runner``), then kept and shown to
    everyone who may see the deal."""

    __tablename__ = "reviews"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id"), unique=True)
    requested_by: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    requested: Mapped[float]  # the clock's time
    status: Mapped[str] = mapped_column(String(16), index=True)  # queued, running, done, failed
    done: Mapped[int] = mapped_column(Integer, default=0)  # decisions reviewed so far
    total: Mapped[int] = mapped_column(Integer, default=0)
    claimed: Mapped[float | None]  # when a worker last reported on it (a stale one is taken again)
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # DealReview.to_dict(), once done


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("deal_id", "index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id"), index=True)
    index: Mapped[int]
    table_version: Mapped[int] = mapped_column(BigInteger)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    by: Mapped[str] = mapped_column(String(16))  # player, bot, timeout, away
    created: Mapped[float]




class ChatRow(Base):
    """A chat message, kept with its table and game (``table_id`` None: the lobby's)."""

    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str | None] = mapped_column(String(32), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int]
    audience: Mapped[str] = mapped_column(String(16))  # all, spectators
    text: Mapped[str | None] = mapped_column(String(400))
    phrase: Mapped[str | None] = mapped_column(String(32))
    created: Mapped[float]


class MuteRow(Base):
    """``player_id`` no longer receives ``muted_id``'s chat messages."""

    __tablename__ = "mutes"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    muted_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)


class FriendRow(Base):
    """``player_id`` counts ``friend_id`` among its friends (one way: as one adds a contact)."""

    __tablename__ = "friends"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    friend_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created: Mapped[float]


class ChallengeDayRow(Base):
    """A day's challenge (``challenge``): its deals come from ``secret``, which stays hidden until
    the day is over (then anyone may check every deal, docs/duplicate.md)."""

    __tablename__ = "challenge_days"
    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # YYYY-MM-DD, UTC
    players: Mapped[int]
    deals: Mapped[int]
    secret: Mapped[str] = mapped_column(String(64))
    created: Mapped[float]


class ChallengeEntryRow(Base):
    """One player's play of one deal of a day's challenge: begun once (never dealt again), done
    with the score of its seat when its game ends."""

    __tablename__ = "challenge_entries"
    __table_args__ = (UniqueConstraint("day", "deal", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[str] = mapped_column(ForeignKey("challenge_days.day"), index=True)
    deal: Mapped[int]
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    status: Mapped[str] = mapped_column(String(16))  # playing, done
    score: Mapped[int | None]
    side: Mapped[str | None] = mapped_column(String(16))  # attack, defence, none (all passed)
    contract: Mapped[str | None] = mapped_column(String(16))
    created: Mapped[float]
    finished: Mapped[float | None]


class EventRow(Base):
    """A duplicate event (``events``): its organiser's choices, its state and the secret its deals
    come from (shown once it is over)."""

    __tablename__ = "events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    organiser: Mapped[str] = mapped_column(ForeignKey("players.id"))
    players: Mapped[int]
    deals: Mapped[int]
    starts: Mapped[float]
    access: Mapped[str] = mapped_column(String(16))  # open, invite
    bots: Mapped[bool] = mapped_column(Boolean)
    imposed_taker: Mapped[bool] = mapped_column(Boolean)  # the FFT's form: each deal's contract is set
    status: Mapped[str] = mapped_column(String(16), index=True)  # registering, playing, finished, cancelled
    secret: Mapped[str] = mapped_column(String(64))
    created: Mapped[float]
    finished: Mapped[float | None]


class EventPlayerRow(Base):
    """A player invited to or registered for an event; once it starts, its table and seat; once it
    is over, its percentage and rank."""

    __tablename__ = "event_players"
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    invited: Mapped[bool] = mapped_column(Boolean, default=False)
    registered: Mapped[bool] = mapped_column(Boolean, default=False)
    table_no: Mapped[int | None]
    table_id: Mapped[str | None] = mapped_column(String(32))
    seat: Mapped[int | None]
    percentage: Mapped[float | None] = mapped_column(Float)
    rank: Mapped[int | None]


class EventDealRow(Base):
    """One deal (étui) of an event played at one of its tables: who held each seat (a bot's seat
    by a name of its own) and how it scored."""

    __tablename__ = "event_deals"
    __table_args__ = (UniqueConstraint("event_id", "table_no", "etui"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    table_no: Mapped[int]
    etui: Mapped[int]
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    seats: Mapped[list[str]] = mapped_column(JSON)
    scores: Mapped[list[int]] = mapped_column(JSON)
    taker: Mapped[int | None]
    partner: Mapped[int | None]
    contract: Mapped[str] = mapped_column(String(16))
    created: Mapped[float]
