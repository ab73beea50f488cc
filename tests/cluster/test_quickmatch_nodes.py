"""快速開始 on three nodes, one PostgreSQL and one Redis (issue 45): people queue through different
nodes and meet at tables on one of them; the queue is Redis's, so a cancel reaches every node and
people queued through a node killed with kill -9 are served by the others."""

from __future__ import annotations

from tests.cluster.conftest import NodeFactory
from tests.server import quickkit


async def test_quick_match_across_three_nodes(nodes: NodeFactory, postgres: str) -> None:
    a, b, c = (nodes(name, *quickkit.SERVER_ARGS) for name in ("a", "b", "c"))
    urls = [a.url, b.url, c.url]
    await quickkit.eight_people_make_two_tables(urls)
    await quickkit.ranks_far_apart_sit_apart(urls, postgres)
    await quickkit.partners_sit_opposite(urls)
    await quickkit.cancel_leaves_every_node(urls)
    await quickkit.one_vanishes_before_the_seats(urls)
    await quickkit.queued_through_a_dead_node_are_served_by_another(urls, a.kill)
    assert b.errors() + c.errors() == []
