"""Accounts: registering (a guest may become one and keep what it played), signing in and out,
renaming, and the identity a browser's session cookie gives. Passwords are hashed with argon2 off
the event loop and never kept, logged or sent; a wrong password and an unknown name get the same
answer, after the same work."""

from __future__ import annotations

import asyncio
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError

from ..community import text_policy
from ..limits import LoginLimits
from ..store.schema import PlayerRow
from ..store.store import Store
from . import players

if TYPE_CHECKING:
    from ..cluster.shared_limits import SharedLoginLimits

NAME_MAX = text_policy.NAME_MAX
PASSWORD_MIN = 8
PASSWORD_MAX = 200  # argon2 takes any length; a bound keeps a huge body from costing work
RENAME_EVERY = 7 * 86400.0  # an account's name changes at most once a week
SESSION_COOKIE = "tarot_session"


class AccountError(Exception):
    """A refusal for the person: its HTTP status, a stable code and an English message."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.retry_after = retry_after


def clean_name(name: str) -> str:
    """An account's name as kept: ``text_policy.name``'s rules (control and invisible characters
    refused before the spaces are collapsed: a tab or a line break is one too, not a space to fold
    away), its refusal as ``bad_name``."""
    try:
        return text_policy.name(name)
    except ValueError as e:
        raise AccountError(422, "bad_name", str(e)) from None


def name_key(name: str) -> str:
    """Names are unique whatever their case: the key they are unique by."""
    return unicodedata.normalize("NFKC", name).casefold()[:40]


def lookup_key(name: str) -> str | None:
    """The key of the account a typed name may be (``text_policy.typed``); None where no account's
    can be: not looked up (a NUL is an error in PostgreSQL)."""
    try:
        return name_key(text_policy.typed(name)) or None
    except ValueError:
        return None


def _taken() -> AccountError:
    return AccountError(409, "name_taken", "this name is taken, or looks like another player's")


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(422, "bad_password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    bot: bool = False


class Accounts:
    def __init__(self, store: Store, limits: LoginLimits | None = None,
                 shared: SharedLoginLimits | None = None) -> None:
        self.store = store
        self.hasher = PasswordHasher()
        self.limits = limits or LoginLimits(clock=store.clock)
        self.shared = shared  # in a cluster: the sign-in limits of every node, in Redis
        # checked against when the name is unknown, so that the answer takes as long
        self._dummy = self.hasher.hash("not a password of anyone")

    async def register(self, name: str, password: str, guest_token: str | None = None,
                       address: str = "") -> Account:
        """The new account. Counts as a sign-in attempt (``LoginLimits``), before any work: the
        hashing is what a flood of registrations would cost."""
        name = clean_name(name)
        check_password(password)
        key = name_key(name)
        await self._limit(key, address)
        guest = await self.store.query(players.guest_by_token, guest_token) if guest_token else None
        try:
            await self.store.query(players.named, name)  # a taken name: no hashing (the write checks again)
            hashed = await asyncio.to_thread(self.hasher.hash, password)
            pid = await self.store.write(players.create_account, name, key, hashed,
                                         None if guest is None else guest.id)
        except (IntegrityError, players.LookAlike):
            raise _taken() from None
        return Account(pid, name)

    async def sign_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account and a new session's token (the cookie's value)."""
        key = lookup_key(name) or ""  # as it was registered (spaces collapsed); "": same answer
        await self._limit(key, address)
        row = await self.store.query(players.by_name, key) if key else None
        stored = row.password_hash if row is not None and row.password_hash else self._dummy
        good = await asyncio.to_thread(self._verify, stored, password)
        if not good or row is None or not row.password_hash:
            raise AccountError(401, "wrong_password", "wrong name or password")
        token = await self.open_session(Account(row.id, row.name))
        await self.store.write(players.daily_top_up, row.id)
        return Account(row.id, row.name), token

    async def open_session(self, account: Account) -> str:
        """A new session's token (the cookie's value) for ``account``."""
        token: str = await self.store.write(players.open_session, account.id)
        return token

    async def _limit(self, key: str, address: str) -> None:
        shared = self.shared
        wait = await shared.take(key, address) if shared is not None else self.limits.take(key, address)
        if wait:
            raise AccountError(429, "too_many_attempts", f"too many attempts: wait {int(wait) + 1} s",
                               retry_after=round(wait, 1))

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def sign_out(self, token: str) -> Account | None:
        """Close the session of ``token``; whose it was (None: no live session), for its
        websockets to be closed too (``Presence.signed_out``)."""
        account = await self.by_session(token)
        await self.store.write(players.close_session, token)
        return account

    async def by_session(self, token: str | None) -> Account | None:
        if not token or len(token) > 100:
            return None
        row: PlayerRow | None = await self.store.query(players.by_session, token)
        return None if row is None else Account(row.id, row.name)

    async def rename(self, account: Account, name: str) -> Account:
        name = clean_name(name)
        row = await self.store.query(players.by_id, account.id)
        if row is None:
            raise AccountError(404, "no_player", "no such player")
        since = self.store.clock.wall() - (row.renamed or 0.0)
        if since < RENAME_EVERY and name_key(name) != row.name_key:
            days = int((RENAME_EVERY - since) // 86400) + 1
            raise AccountError(429, "rename_later", f"a name can change once a week: wait {days} day(s)",
                               retry_after=round(RENAME_EVERY - since))
        try:
            await self.store.write(players.rename, account.id, name, name_key(name))
        except (IntegrityError, players.LookAlike):
            raise _taken() from None
        return Account(account.id, name)
