"""A node's link to Redis (``tuolaji.server.redis_link``) and the names of node processes, on a real
``redis-server`` of the test's own (issue 48)."""

from __future__ import annotations

import asyncio
import functools

from tests.cluster.conftest import RedisProcess
from tuolaji.server.bus import incarnation_of, new_incarnation, node_of
from tuolaji.server.redis_link import RedisLink


async def test_after_redis_restarted_the_pooled_connections_are_opened_anew(redis_server: RedisProcess) -> None:
    """Redis restarting closes every pooled connection; the next calls get fresh ones instead of
    failing one stale connection at a time (each failure had the node take Redis for down)."""
    link = RedisLink(redis_server.url)
    link.up = True  # as the node's listener sets it once Redis answered
    keys = [f"k{n}" for n in range(8)]

    async def each(command: str) -> None:  # as many calls at once as the pool has connections
        await asyncio.gather(*(link.call(functools.partial(link.redis.execute_command, command, key)) for key in keys))

    try:
        await each("INCR")
        await asyncio.to_thread(redis_server.kill)  # the node goes on meanwhile, as nodes do
        await asyncio.to_thread(redis_server.start)
        for _ in range(3):
            await each("INCR")
        assert link.up
        assert await link.redis.mget(keys) == ["3"] * 8
    finally:
        await link.close()


def test_a_node_restarted_under_its_name_is_another_process() -> None:
    """Client ids are ``NODE.BOOT.N``: a node restarted under the same name never gives a connection
    an id one of its earlier process had (other nodes' tables may still send to that one)."""
    first, second = new_incarnation("n1"), new_incarnation("n1")
    assert first != second and node_of(first) == node_of(second) == "n1"
    client = f"{first}.7"
    assert (node_of(client), incarnation_of(client)) == ("n1", first)
