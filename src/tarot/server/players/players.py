"""The players' rows: accounts and guests, sessions, chips and XP (a ledger and its balances),
ratings, leaderboards. Plain functions of a SQLAlchemy connection, so that a game's end writes its
ratings, chips and XP in the same transaction as the game itself (``Store.write_all``); reads go
through ``Store.query``.

A balance (``players.chips``, ``players.xp``) only changes with a ledger row (``credit``), so a
player's balance is always the sum of their ledger."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ..community import text_policy
from ..store.schema import GamePlayerRow, GameRow, LedgerRow, PlayerRow, RatingRow, SessionRow
from ..store.store import stamp, today, token_hash
from .ratings import Rating, new_rating

STARTING_CHIPS = 1000  # a new account's balance
DAILY_FLOOR = 500  # once a day, a balance below this is topped up to it: nobody is stuck
GUEST_NAME = "Guest"  # a guest's who gave no name: no account may look like it (it is always a guest's)


class LookAlike(Exception):
    """A new name looks like an account's (its ``text_policy.skeleton`` is taken)."""


class NotEnoughChips(Exception):
    def __init__(self, player_id: str) -> None:
        super().__init__(player_id)
        self.player_id = player_id


# --- accounts ------------------------------------------------------------------------

def by_name(conn: Connection, key: str) -> PlayerRow | None:
    """The account (or bot's account) whose folded name is ``key``."""
    return _one(conn, select(PlayerRow).where(PlayerRow.name_key == key))


def by_id(conn: Connection, pid: str) -> PlayerRow | None:
    return _one(conn, select(PlayerRow).where(PlayerRow.id == pid))


def guest_by_token(conn: Connection, token: str) -> PlayerRow | None:
    """A guest's row from the token its browser keeps (an account's token is never handed out)."""
    return _one(conn, select(PlayerRow).where(PlayerRow.token_hash == token_hash(token),
                                              PlayerRow.name_key.is_(None)))


def look_alike(conn: Connection, skeleton: str, but: str | None = None) -> bool:
    """Whether an account or a bot other than ``but`` has a name that looks like ``skeleton``'s."""
    found = select(PlayerRow.id).where(PlayerRow.skeleton == skeleton)
    if but is not None:
        found = found.where(PlayerRow.id != but)
    return conn.execute(found.limit(1)).first() is not None


def named(conn: Connection, name: str, pid: str | None = None) -> str:
    """``name``'s skeleton, which no other account's may share, nor the guests' ``GUEST_NAME``
    (else ``LookAlike``)."""
    key = text_policy.skeleton(name)
    if key == text_policy.skeleton(GUEST_NAME) or look_alike(conn, key, pid):
        raise LookAlike(name)
    return key


def _one(conn: Connection, stmt: Any) -> PlayerRow | None:
    row = conn.execute(stmt).first()
    return None if row is None else PlayerRow(**row._mapping)


def create_account(conn: Connection, name: str, key: str, password_hash: str,
                   guest_id: str | None = None) -> str:
    """A new account, or the guest ``guest_id`` turned into one (it keeps what it played). Its
    token changes: a guest's browser token no longer opens it, only a session does. Gives the
    player's id; raises ``sqlalchemy.exc.IntegrityError`` if the name is taken, ``LookAlike`` if
    it looks like another account's."""
    now = stamp(conn)
    values = {"name": name, "name_key": key, "skeleton": named(conn, name),
              "password_hash": password_hash, "renamed": now,
              "token_hash": token_hash(secrets.token_urlsafe(24))}
    if guest_id is not None:
        done = conn.execute(update(PlayerRow).where(PlayerRow.id == guest_id, PlayerRow.name_key.is_(None),
                                                    PlayerRow.bot.is_(None)).values(**values))
        if done.rowcount == 1:
            credit(conn, guest_id, None, "welcome", STARTING_CHIPS, 0)
            return guest_id
    pid = secrets.token_hex(8)
    conn.execute(insert(PlayerRow).values(id=pid, created=now, chips=0, xp=0, **values))
    credit(conn, pid, None, "welcome", STARTING_CHIPS, 0)
    return pid


def rename(conn: Connection, pid: str, name: str, key: str) -> None:
    conn.execute(update(PlayerRow).where(PlayerRow.id == pid)
                 .values(name=name, name_key=key, skeleton=named(conn, name, pid), renamed=stamp(conn)))


def prefs_of(conn: Connection, pid: str) -> str | None:
    """An account's display options as stored (JSON), None if it never set them."""
    prefs: str | None = conn.execute(select(PlayerRow.prefs).where(PlayerRow.id == pid)).scalar_one_or_none()
    return prefs


def set_prefs(conn: Connection, pid: str, prefs: str) -> None:
    conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(prefs=prefs))


def bot_identity(kind: str, think: float, playouts: int | None = None) -> tuple[str, str]:
    """A bot's account key and its name on the ladder: a search bot's strength depends on its
    budget (its time to think, or a fixed count of playouts), so each budget is a player of its own."""
    if kind == "search" and playouts is not None:
        return f"search-p{playouts}", f"Search {playouts} playouts"
    if kind == "search":
        return f"search-{think:g}", f"Search {think:g} s"
    return kind, kind.capitalize()


def bot_account(conn: Connection, kind: str, name: str) -> str:
    """The account a bot plays and is rated under (``bot_identity``'s key and name), made the
    first time; its id."""
    pid = f"bot-{kind}"[:32]
    if by_id(conn, pid) is None:
        conn.execute(insert(PlayerRow).values(
            id=pid, token_hash=token_hash(secrets.token_urlsafe(24)), name=name, name_key=name.casefold(),
            skeleton=text_policy.skeleton(name), bot=kind, created=stamp(conn), chips=0, xp=0))
    return pid


# --- sessions ------------------------------------------------------------------------

def open_session(conn: Connection, pid: str) -> str:
    token = secrets.token_urlsafe(32)
    conn.execute(insert(SessionRow).values(token_hash=token_hash(token), player_id=pid, created=stamp(conn)))
    return token


def close_session(conn: Connection, token: str) -> None:
    conn.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))


SESSION_DAYS = 30  # a session (its cookie) lasts this long after its sign-in


def by_session(conn: Connection, token: str) -> PlayerRow | None:
    """The account of a session not older than ``SESSION_DAYS`` (the cookie's own age is the
    browser's to keep; the server does not trust it)."""
    since = stamp(conn) - SESSION_DAYS * 86400
    return _one(conn, select(PlayerRow).join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .where(SessionRow.token_hash == token_hash(token), SessionRow.created >= since))


# --- chips and XP ----------------------------------------------------------------------

def credit(conn: Connection, pid: str, game_id: int | None, kind: str, chips: int, xp: int) -> None:
    """One ledger row and the balances it changes, together."""
    if chips == 0 and xp == 0:
        return
    conn.execute(insert(LedgerRow).values(player_id=pid, game_id=game_id, kind=kind, chips=chips, xp=xp,
                                          created=stamp(conn)))
    conn.execute(update(PlayerRow).where(PlayerRow.id == pid)
                 .values(chips=PlayerRow.chips + chips, xp=PlayerRow.xp + xp))


def take_stake(conn: Connection, pid: str, game_id: int, stake: int) -> None:
    """A game's stake, only from a balance that holds it (else ``NotEnoughChips``)."""
    if stake == 0:
        return
    done = conn.execute(update(PlayerRow).where(PlayerRow.id == pid, PlayerRow.chips >= stake)
                        .values(chips=PlayerRow.chips - stake))
    if done.rowcount != 1:
        raise NotEnoughChips(pid)
    conn.execute(insert(LedgerRow).values(player_id=pid, game_id=game_id, kind="stake", chips=-stake, xp=0,
                                          created=stamp(conn)))


def daily_top_up(conn: Connection, pid: str) -> int:
    """Once a day, an account's balance below ``DAILY_FLOOR`` is raised to it; the chips given."""
    row = by_id(conn, pid)
    day = today(conn)
    if row is None or row.name_key is None or row.bot is not None or row.topped_up == day:
        return 0
    conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(topped_up=day))
    gift = max(0, DAILY_FLOOR - row.chips)
    credit(conn, pid, None, "top_up", gift, 0)
    return gift


def ledger_sums(conn: Connection, pid: str) -> tuple[int, int]:
    chips, xp = conn.execute(select(func.coalesce(func.sum(LedgerRow.chips), 0),
                                    func.coalesce(func.sum(LedgerRow.xp), 0))
                             .where(LedgerRow.player_id == pid)).one()
    return int(chips), int(xp)


# --- ratings ------------------------------------------------------------------------

def ratings_of(conn: Connection, pids: list[str], players: int) -> list[Rating]:
    found = {r.player_id: Rating(r.mu, r.sigma, r.games) for r in conn.execute(
        select(RatingRow).where(RatingRow.players == players, RatingRow.player_id.in_(pids)))}
    return [found.get(pid, new_rating()) for pid in pids]


def save_ratings(conn: Connection, pids: list[str], players: int, ratings: list[Rating]) -> None:
    for pid, r in zip(pids, ratings, strict=True):
        values = {"mu": r.mu, "sigma": r.sigma, "games": r.games}
        done = conn.execute(update(RatingRow).where(RatingRow.player_id == pid, RatingRow.players == players)
                            .values(**values))
        if done.rowcount == 0:
            conn.execute(insert(RatingRow).values(player_id=pid, players=players, **values))


# --- what the site shows ----------------------------------------------------------------

def profile(conn: Connection, key: str) -> dict[str, Any] | None:
    """``GET /api/players/{name}``: an account's (or a bot's) name, XP, chips, ratings, games."""
    row = by_name(conn, key)
    if row is None:
        return None
    ratings = {str(n): ratings_of(conn, [row.id], n)[0].to_dict() for n in (3, 4, 5)}
    games = conn.execute(select(func.count()).select_from(GamePlayerRow).join(GameRow)
                         .where(GamePlayerRow.player_id == row.id, GameRow.status == "finished",
                                GameRow.counted)).scalar_one()
    return {"name": row.name, "xp": row.xp, "chips": row.chips, "ratings": ratings, "games": int(games),
            "bot": row.bot is not None}


def leaderboard(conn: Connection, players: int, offset: int, limit: int) -> dict[str, Any]:
    """The rated players at ``players`` players, best ordinal (mu − 3σ) first."""
    ordinal = RatingRow.mu - 3 * RatingRow.sigma
    rated = and_(RatingRow.players == players, RatingRow.games > 0)
    total = conn.execute(select(func.count()).select_from(RatingRow).where(rated)).scalar_one()
    rows = conn.execute(select(PlayerRow.name, PlayerRow.bot, PlayerRow.xp, RatingRow.mu, RatingRow.sigma,
                               RatingRow.games)
                        .join(RatingRow, RatingRow.player_id == PlayerRow.id).where(rated)
                        .order_by(ordinal.desc(), PlayerRow.name).offset(offset).limit(limit))
    ranked = [{"rank": offset + i + 1, "name": name, "bot": bot is not None, "xp": xp,
               **Rating(mu, sigma, games).to_dict()}
              for i, (name, bot, xp, mu, sigma, games) in enumerate(rows)]
    return {"players": players, "total": int(total), "offset": offset, "ranking": ranked}
