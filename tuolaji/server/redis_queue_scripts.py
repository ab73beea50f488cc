"""The Lua scripts of the quick-match queue in Redis (``tuolaji.server.redis_queue``): each is one
atomic step, so two nodes never take one entry twice. Texts of entries and matches are compared
whole (their codecs are canonical): a step on an entry that changed meanwhile does nothing and says so.

Keys (``tj:qm:`` …): ``entries`` (hash: entry id → text), ``where`` (hash: account → its entry's id,
or ``m:`` and its match's id), ``pairs`` (hash: partner code → entry id), ``match:{id}`` (the match's
text), ``answers:{id}`` (hash: account → the client it answered from), ``due`` (sorted set: match id
→ its deadline, 0 once declined), ``closing`` (sorted set: match id → until when a node ends it) and
``closer`` (hash: match id → that node's token).
"""

from __future__ import annotations

from typing import Final

PUT: Final = """
for i = 4, #ARGV do
  local where = redis.call('HGET', KEYS[2], ARGV[i])
  if where then return where end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
for i = 4, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[3], ARGV[3], ARGV[1]) end
return false
"""
"""KEYS entries where pairs; ARGV id text code accounts…: add the entry, or the first account's place."""

SWAP: Final = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
for i = 5, #ARGV do
  local where = redis.call('HGET', KEYS[2], ARGV[i])
  if where and where ~= ARGV[1] then return where end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
for i = 5, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
if ARGV[4] ~= '' then redis.call('HDEL', KEYS[3], ARGV[4]) end
return 1
"""
"""KEYS entries where pairs; ARGV id old new code accounts…: replace an unchanged entry (0: it
changed), claiming ``accounts`` for it (another place of one: that place) and dropping ``code``."""

REMOVE: Final = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
for i = 4, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[i]) end
end
if ARGV[3] ~= '' then redis.call('HDEL', KEYS[3], ARGV[3]) end
return 1
"""
"""KEYS entries where pairs; ARGV id old code accounts…: remove an unchanged entry (0: it changed)."""

TAKE: Final = """
local n = tonumber(ARGV[4])
for i = 0, n - 1 do
  if redis.call('HGET', KEYS[1], ARGV[5 + 2 * i]) ~= ARGV[6 + 2 * i] then return 0 end
end
local ref = 'm:' .. ARGV[1]
for i = 0, n - 1 do redis.call('HDEL', KEYS[1], ARGV[5 + 2 * i]) end
for i = 5 + 2 * n, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ref) end
redis.call('SET', KEYS[4], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1
"""
"""KEYS entries where due match; ARGV id deadline text n (entry-id entry-text)×n accounts…: move
every entry into the match if none changed (1), else nothing (0)."""

ANSWER: Final = """
if redis.call('HGET', KEYS[1], ARGV[2]) ~= 'm:' .. ARGV[1] then return false end
local due = redis.call('ZSCORE', KEYS[3], ARGV[1])
if not due or tonumber(due) < tonumber(ARGV[5]) then return false end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if redis.call('HLEN', KEYS[2]) < tonumber(ARGV[4]) then return 1 end
local text = redis.call('GET', KEYS[4])
local answers = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[4], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
for i = 1, #answers, 2 do redis.call('HDEL', KEYS[1], answers[i]) end
return {text, answers}
"""
"""KEYS where answers due match; ARGV id account client people now: record the answer (1: others
still to answer); the last one ends the match: its text and every answer; false: no such match now."""

DECLINE: Final = """
local n = 0
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    n = n + 1
  end
end
if n > 0 then
  if redis.call('ZSCORE', KEYS[3], ARGV[2]) then redis.call('ZADD', KEYS[3], 0, ARGV[2]) end
  if redis.call('ZSCORE', KEYS[4], ARGV[2]) then
    redis.call('ZADD', KEYS[4], 0, ARGV[2])
    redis.call('HSET', KEYS[5], ARGV[2], 'declined')
  end
end
return n
"""
"""KEYS where answers due closing closer; ARGV ref id accounts…: these accounts leave the match
(it ends at the next expiry; a node ending it already must read it again)."""

CLAIM: Final = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
local closing = redis.call('ZSCORE', KEYS[2], ARGV[1])
if due and tonumber(due) < tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
elseif not (closing and tonumber(closing) < tonumber(ARGV[2])) then
  return false
end
local text = redis.call('GET', KEYS[4])
if not text then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
return {text, redis.call('HGETALL', KEYS[5])}
"""
"""KEYS due closing closer match answers; ARGV id now until token: this node ends a match whose time
ran out (or whose last closer did not finish by its ``until``): its text and answers."""

COMMIT: Final = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return false end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3], KEYS[4])
local i = 5
local back = {}
for _ = 1, tonumber(ARGV[4]) do
  local id, text, k = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local here = true
  for j = i + 3, i + 2 + k do
    if redis.call('HGET', KEYS[6], ARGV[j]) ~= ARGV[3] then here = false end
  end
  if here then
    redis.call('HSET', KEYS[5], id, text)
    for j = i + 3, i + 2 + k do redis.call('HSET', KEYS[6], ARGV[j], id) end
    back[#back + 1] = id
  end
  i = i + 3 + k
end
for j = i, #ARGV do
  if redis.call('HGET', KEYS[6], ARGV[j]) == ARGV[3] then redis.call('HDEL', KEYS[6], ARGV[j]) end
end
return back
"""
"""KEYS closing closer match answers entries where; ARGV id token ref n (entry-id text k accounts×k)×n
accounts…: end the match this node claimed: the given entries go back (those whose people are all
still in the match), every other account of the match leaves the queue; the ids put back (false: the
match changed since the claim, nothing done)."""

REQUEUE: Final = """
local i = 1
while i <= #ARGV do
  local id, text, k = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local free = true
  for j = i + 3, i + 2 + k do
    if redis.call('HEXISTS', KEYS[2], ARGV[j]) == 1 then free = false end
  end
  if free then
    redis.call('HSET', KEYS[1], id, text)
    for j = i + 3, i + 2 + k do redis.call('HSET', KEYS[2], ARGV[j], id) end
  end
  i = i + 3 + k
end
return 1
"""
"""KEYS entries where; ARGV (entry-id text k accounts×k)…: put entries back whose accounts are in no place."""
