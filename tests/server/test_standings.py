"""``GET /api/leaderboard`` and ``GET /api/accounts/{id}/profile`` on a real server (issue 17): order,
paging, the viewer's own place, no guests, refusals that name the bad input, and a profile's record
per side with its latest hands, each of which replays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx

from tests.live_server import LiveServer
from tests.standings import prepared, store_hand
from tuolaji.room.effects import HandSeat
from tuolaji.store.db import open_database, sqlite_url

NAMES = [f"player{index:02d}" for index in range(45)]
BALANCES = {name: (1000 - 10 * index, 500 + 7 * index) for index, name in enumerate(NAMES)}
"""player00 has the most 積分 and the least silver; player44 the reverse."""
BALANCES["player07"] = BALANCES["player06"]  # a tie: both share eighth place on the 積分 board


async def test_the_leaderboard_pages_and_the_viewers_place(
    tmp_path: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    db_path = tmp_path / "boards.sqlite3"
    data = await prepared(db_path, {**BALANCES, "viewer": (975, 0)})
    server = live_server_factory(db_path=db_path)
    async with httpx.AsyncClient(base_url=server.url) as http:
        first = (await http.get("/api/leaderboard")).json()
        assert (first["by"], first["page"], first["pages"], first["page_size"], first["next_page"]) == (
            "points",
            1,
            5,
            20,
            2,
        )
        assert first["me"] is None
        names = [entry["account"]["nickname"] for entry in first["entries"]]
        assert names[:5] == ["player00", "player01", "player02", "viewer", "player03"]
        assert [entry["place"] for entry in first["entries"][:9]] == [1, 2, 3, 4, 5, 6, 7, 8, 8]
        assert names[7:9] == ["player06", "player07"]  # equal: the older account first
        assert all(not entry["account"]["guest"] for entry in first["entries"])
        assert first["entries"][0]["account"]["rank"]["title"]
        third = (await http.get("/api/leaderboard", params={"by": "points", "page": 3})).json()
        assert [entry["place"] for entry in third["entries"]] == [41, 42, 43, 44, 45, 46]
        assert third["next_page"] is None
        silver = (await http.get("/api/leaderboard", params={"by": "silver"})).json()
        assert [entry["account"]["nickname"] for entry in silver["entries"][:2]] == ["player44", "player43"]

        viewer = {"Authorization": f"Bearer {data['tokens']['viewer']}"}
        mine = (await http.get("/api/leaderboard", params={"page": 2}, headers=viewer)).json()
        assert mine["me"]["place"] == 4 and mine["me"]["account"]["nickname"] == "viewer"
        mine = (await http.get("/api/leaderboard", params={"by": "silver"}, headers=viewer)).json()
        assert mine["me"]["place"] == 46  # the least silver of all
        guest = {"Authorization": f"Bearer {data['guest'][0]}"}
        theirs = (await http.get("/api/leaderboard", headers=guest)).json()
        assert theirs["me"]["place"] is None and theirs["me"]["account"]["guest"]

        for params, name in (
            ({"by": "karma"}, "by"),
            ({"page": "0"}, "page"),
            ({"page": "6"}, "page"),
            ({"page": "two"}, "page"),
            ({"page": "9" * 40}, "page"),
            ({"page": "-1"}, "page"),
        ):
            refused = await http.get("/api/leaderboard", params=params)
            assert refused.status_code == 400, params
            error = refused.json()["error"]
            assert error["code"] == "bad_request" and error["message"].startswith(name), error
        stale = await http.get("/api/leaderboard", headers={"Authorization": "Bearer nope"})
        assert stale.status_code == 401 and stale.json()["error"]["code"] == "auth_required"
    assert server.errors() == []


async def test_a_profile_shows_titles_sides_places_and_hands_that_replay(
    tmp_path: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    db_path = tmp_path / "profile.sqlite3"
    data = await prepared(db_path, {"Alice": (120, 3000), "Bob": (5, 40)})
    alice, bob = data["ids"]["Alice"], data["ids"]["Bob"]
    db = await open_database(sqlite_url(db_path))
    try:
        seats = [HandSeat(0, alice, "Alice"), HandSeat(1, bob, "Bob"), HandSeat(2, bot="heuristic")]
        seats.append(HandSeat(3, bot="random"))
        stored = [await store_hand(db, number, seats, seed=10 * number) for number in (1, 2, 3)]
    finally:
        await db.close()
    server = live_server_factory(db_path=db_path)
    async with httpx.AsyncClient(base_url=server.url) as http:
        shown = (await http.get(f"/api/accounts/{alice}/profile")).json()
        account = shown["account"]
        assert account["nickname"] == "Alice" and account["hands_played"] == 3
        assert account["rank"]["title"] and account["wealth"]["title"]
        assert shown["places"] == {"points": 1, "silver": 1}
        # Every hand was dealt by seat 0: Alice (seat 0) defended each time, Bob attacked.
        won = stored[-1].accounts[0].hands_won
        assert shown["sides"] == {"dealer": {"hands": 3, "won": won}, "attackers": {"hands": 0, "won": 0}}
        assert account["hands_won"] == won
        bob_sides = (await http.get(f"/api/accounts/{bob}/profile")).json()["sides"]
        assert bob_sides == {"dealer": {"hands": 0, "won": 0}, "attackers": {"hands": 3, "won": 3 - won}}
        assert [hand["id"] for hand in shown["recent"]] == [item.hand_id for item in reversed(stored)]
        replay = (await http.get(f"/api/hands/{shown['recent'][0]['id']}")).json()["hand"]
        assert len(replay["tricks"]) > 0 and replay["seats"][0]["nickname"] == "Alice"
        guest = (await http.get(f"/api/accounts/{data['guest'][1]}/profile")).json()
        assert guest["places"] == {"points": None, "silver": None} and guest["recent"] == []
        for path in ("/api/accounts/9999/profile", "/api/accounts/abc/profile", f"/api/accounts/{'9' * 30}/profile"):
            missing = await http.get(path)
            assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found", path
    assert server.errors() == []
