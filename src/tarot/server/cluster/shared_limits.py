"""Limits held across the nodes of a cluster (docs/scaling.md): ``TableQuota``'s (the tables a
player, or an address, may have open and create in a minute, wherever each was created) and
``LoginLimits``' (``SharedLoginLimits``: sign-in attempts per name and per address).

Each node keeps its own ``TableQuota`` too (it answers at once, and alone without Redis); in a
cluster a creation must also pass ``SharedQuota.reserve``, one Lua script that counts and
records in one step, so two nodes creating at once never both pass the same look. A player's
open tables are a sorted set of table ids (scored by when each was reserved); a table counts
while a live node owns it, or for ``UNDER_WAY_MS`` after its reservation (it is being stored),
and leaves when it finishes or closes (``forget``), or when its node dies and nobody resumes it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from ..clock import SYSTEM, Clock
from ..limits import ADDRESS_FACTOR, CREATES_PER_MINUTE, OPEN_TABLES_PER_PLAYER, LoginLimits, Refusal

if TYPE_CHECKING:
    from .node import Cluster

log = logging.getLogger("tarot.server")

LOGIN_WAIT = 2.0  # seconds a sign-in waits for Redis before this node's own limits answer
UNDER_WAY_MS = 30_000  # a reserved table counts this long before it must have an owner
KEEP_MS = 86_400_000  # the sets of a player nobody has heard of for a day are dropped

# KEYS: pairs (open set, recent set), the player's then the address's. ARGV: prefix, table id,
# now in ms, open tables allowed, creations a minute allowed, the address's factor, KEEP_MS,
# UNDER_WAY_MS. Returns {0} when reserved; {1, pair, held} over the open tables; {2, pair, ms to
# wait} over the creations a minute.
_RESERVE = """
local prefix, tid, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
for i = 1, #KEYS, 2 do
  local factor = 1
  if i > 1 then factor = tonumber(ARGV[6]) end
  local held = 0
  local open = redis.call('ZRANGE', KEYS[i], 0, -1, 'WITHSCORES')
  for j = 1, #open, 2 do
    local owner = redis.call('GET', prefix .. 'owner:' .. open[j])
    if (owner and redis.call('EXISTS', prefix .. 'node:' .. owner) == 1)
        or tonumber(open[j + 1]) > now - tonumber(ARGV[8]) then
      held = held + 1
    else
      redis.call('ZREM', KEYS[i], open[j])
    end
  end
  if held >= tonumber(ARGV[4]) * factor then return {1, (i + 1) / 2, held} end
  redis.call('ZREMRANGEBYSCORE', KEYS[i + 1], '-inf', now - 60000)
  if redis.call('ZCARD', KEYS[i + 1]) >= tonumber(ARGV[5]) * factor then
    local oldest = redis.call('ZRANGE', KEYS[i + 1], 0, 0, 'WITHSCORES')
    return {2, (i + 1) / 2, 60000 - (now - tonumber(oldest[2]))}
  end
end
local opened = {}
for i = 1, #KEYS, 2 do
  redis.call('ZADD', KEYS[i], now, tid)
  redis.call('ZADD', KEYS[i + 1], now, tid)
  redis.call('PEXPIRE', KEYS[i], ARGV[7])
  redis.call('PEXPIRE', KEYS[i + 1], 60000)
  table.insert(opened, KEYS[i])
end
redis.call('SET', prefix .. 'quota-of:' .. tid, table.concat(opened, ' '), 'PX', ARGV[7])
return {0}
"""
# KEYS[1]: the table's ``quota-of`` key (its open sets); ARGV[1]: the table id.
_FORGET = """
local sets = redis.call('GET', KEYS[1])
if sets then
  for key in string.gmatch(sets, '%S+') do redis.call('ZREM', key, ARGV[1]) end
  redis.call('DEL', KEYS[1])
end
return 1
"""


class SharedQuota:
    """The tables each player and each address has open, and created in the last minute, over
    every node of the cluster."""

    def __init__(self, cluster: Cluster, open_at_once: int = OPEN_TABLES_PER_PLAYER,
                 per_minute: int = CREATES_PER_MINUTE, clock: Clock = SYSTEM) -> None:
        self.cluster = cluster
        self.clock = clock  # (its wall time: the nodes' shared reference)
        self.open_at_once = open_at_once
        self.per_minute = per_minute
        self._reserve = cluster.redis.register_script(_RESERVE)
        self._forget = cluster.redis.register_script(_FORGET)

    async def reserve(self, tid: str, player: str, address: str) -> Refusal | None:
        """Count table ``tid`` as ``player``'s (and ``address``'s) from now on, or say why not."""
        whose = [f"p:{player}"] + ([f"a:{address}"] if address else [])
        keys = [self.cluster.key(kind, who) for who in whose for kind in ("quota-open", "quota-recent")]
        answer = await self._reserve(keys=keys, args=[
            self.cluster.prefix, tid, int(self.clock.wall() * 1000), self.open_at_once, self.per_minute,
            ADDRESS_FACTOR, KEEP_MS, UNDER_WAY_MS])
        verdict = [int(x) for x in answer]
        if verdict[0] == 0:
            return None
        by_address = verdict[1] == 2
        if verdict[0] == 1:
            return Refusal(f"{verdict[2]} open tables were created from your address: close some first"
                           if by_address else
                           f"you already host {verdict[2]} open tables (at most {self.open_at_once})", None)
        limit = self.per_minute * (ADDRESS_FACTOR if by_address else 1)
        return Refusal(f"at most {limit} new tables a minute: wait a little", round(verdict[2] / 1000, 1))

    async def forget(self, tid: str) -> None:
        """Table ``tid`` finished or closed: it no longer counts."""
        await self._forget(keys=[self.cluster.key("quota-of", tid)], args=[tid])


# Sign-in attempts as ``LoginLimits``'s token buckets, held in Redis. KEYS: the name's bucket,
# the address's (hashes: tokens, last, blocked). ARGV: now in ms, then for each key its burst,
# its rate (tokens a ms) and its cooldown (ms). Returns 0 when the attempt may go on, else the
# ms to wait: a key still cut off is told so without taking a token; otherwise every key takes
# one, and an empty one is cut off for its cooldown.
_LOGIN = """
local now = tonumber(ARGV[1])
local wait = 0
for i = 1, #KEYS do
  local blocked = tonumber(redis.call('HGET', KEYS[i], 'blocked') or '0')
  if blocked - now > wait then wait = blocked - now end
end
if wait > 0 then return math.ceil(wait) end
for i = 1, #KEYS do
  local burst, rate, cooldown = tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1])
  local b = redis.call('HMGET', KEYS[i], 'tokens', 'last')
  local tokens = burst
  if b[1] then tokens = math.min(burst, tonumber(b[1]) + (now - tonumber(b[2])) * rate) end
  local blocked = 0
  if tokens < 1 then
    blocked = now + cooldown
    if cooldown > wait then wait = cooldown end
  else
    tokens = tokens - 1
  end
  redis.call('HSET', KEYS[i], 'tokens', tostring(tokens), 'last', tostring(now), 'blocked', tostring(blocked))
  redis.call('PEXPIRE', KEYS[i], math.ceil(burst / rate + cooldown))
end
return math.ceil(wait)
"""


class SharedLoginLimits:
    """``LoginLimits`` over every node of a cluster: the attempts on a name, and from an address,
    counted in Redis (with N nodes an attacker would otherwise get N times the guesses). When
    Redis cannot be reached, or does not answer within ``wait`` seconds, this node's own
    ``LoginLimits`` answer (logged): sign-in stays possible, and still limited, as on a site
    without Redis."""

    def __init__(self, cluster: Cluster, local: LoginLimits | None = None, clock: Clock = SYSTEM) -> None:
        self.cluster = cluster
        self.clock = clock
        self.local = local or LoginLimits(clock=clock)
        self._take = cluster.redis.register_script(_LOGIN)
        self.wait = LOGIN_WAIT

    async def take(self, key: str, address: str) -> float:
        """0 if this attempt may go on, else the seconds to wait."""
        args: list[float] = [int(self.clock.wall() * 1000)]
        for b in (self.local.names, self.local.addresses):
            args += [b.burst, b.rate / 1000, b.cooldown * 1000]
        try:
            async with asyncio.timeout(self.wait):
                ms = await self._take(keys=[self.cluster.key("login-name", key),
                                            self.cluster.key("login-address", address)], args=args)
        except (RedisError, OSError) as e:  # (OSError: TimeoutError too)
            log.warning("cluster: sign-in limits kept here alone (Redis: %r)", e)
            return self.local.take(key, address)
        return int(ms) / 1000
