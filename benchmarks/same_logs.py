"""Same tables, same effects: a fingerprint of what the room does, live and from its logs.

Two subcommands, each printing one JSON line with digests, so that two code trees can be compared
(``benchmarks/against_base.py`` runs a script from the working tree on each tree's code):

``generate --tables N --seed S --out FILE``
    plays N tables on the pure room core with a fake clock: people (scripted from the seed: they
    play the hint, try wrong cards, bid, time out, go away and come back, switch 託管 on and off,
    say phrases, retract, remind, escape) and bots, private and public tables, several presets.
    Prints the digest of every effect of every step (the live path) and writes every table's log
    (the JSON of its entries, one table a line) to FILE.
``replay --logs FILE [--cuts K] [--steps M]``
    restores every table of FILE from K prefixes of its log (as a restart or a takeover would),
    resumes it, attaches its people again and lets its clock run for M steps; prints the digest of
    every effect (the restore path). ``--db URL`` instead exports the logs of a real database's open
    tables (``live_tables``/``table_log``) to FILE, so the logs a server really stored can be replayed.

``diff OLD NEW``
    compares two ``--dump`` files of the same run step by step: how many steps differ, by command.

Run it on the commit before a change and on the change, same arguments, and compare the lines::

    .venv/bin/python benchmarks/same_logs.py generate --tables 40 --seed 3 --out /tmp/logs.jsonl
    .venv/bin/python benchmarks/against_base.py --base REV --rounds 1 -- \\
        {python} {here}/benchmarks/same_logs.py generate --tables 40 --seed 3 --out /tmp/ignored.jsonl
    .venv/bin/python benchmarks/against_base.py --base REV --rounds 1 -- \\
        {python} {here}/benchmarks/same_logs.py replay --logs /tmp/logs.jsonl

Where the digests differ, run each tree with ``--dump`` (``PYTHONPATH=OLD_TREE`` for the old one) and
``diff`` the two files to see which steps changed and how.

The script finds the room's API in either layout (``tuolaji.game.table`` with plain-dict log entries,
or ``tuolaji.room`` with typed entries and their codec) and fingerprints effects by their fields, so
renamed modules do not change a digest; a renamed effect class is mapped in :data:`RENAMED`.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import enum
import hashlib
import importlib
import itertools
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

RENAMED: dict[str, str] = {}
"""New effect or value class name → the name the fingerprint uses (the older one)."""

PEOPLE_BASE = 100
"""Account ids of the scripted people: 100 + seat."""


class Room:
    """The room's API as the tree under test has it."""

    def __init__(self) -> None:
        package = Path(importlib.import_module("tuolaji").__file__ or "").parent
        # Decided by the files of the tree on the path, not by what imports: an editable install of
        # another tree can serve modules this tree does not have.
        home = "room" if (package / "room" / "table.py").exists() else "game"
        self.table = importlib.import_module(f"tuolaji.{home}.table")
        self.commands = importlib.import_module(f"tuolaji.{home}.commands")
        self.options = importlib.import_module("tuolaji.game.options")
        self.autoplay = importlib.import_module("tuolaji.server.autoplay")
        typed = (package / "room" / "entries.py").exists()
        self.entries: Any = importlib.import_module("tuolaji.room.entries") if typed else None
        self.config = self.table.TableConfig(bot_delay_ms=300, next_hand_delay_ms=1500, reconnect_grace_ms=20_000)

    def encode_entry(self, entry: Any) -> Any:
        """A log entry as the JSON the store keeps."""
        return entry if isinstance(entry, dict) else self.entries.entry_to_json(entry)

    def decode_entries(self, entries: list[Any]) -> list[Any]:
        """Stored JSON entries as the tree's :meth:`Table.restore` takes them."""
        if self.entries is None:
            return entries
        return [self.entries.entry_from_json(entry) for entry in entries]

    def new_table(self, table_id: str, options: Any, seed: int) -> Any:
        seeds = itertools.count(seed).__next__
        return self.table.Table(table_id, options, self.config, self.autoplay.make_autoplayer, seeds)

    def restore(self, table_id: str, options: Any, seed: int, entries: list[Any]) -> Any:
        seeds = itertools.count(seed).__next__
        restore = self.table.Table.restore
        return restore(
            table_id, options, self.config, self.autoplay.make_autoplayer, seeds, self.decode_entries(entries)
        )


def plain(value: Any, room: Room) -> Any:
    """``value`` as JSON-ready data that does not depend on class locations (dataclasses by name)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        data: Any = value
        if name == "Record":
            return {"_": "Record", "entry": room.encode_entry(data.entry)}
        body = {field.name: plain(getattr(value, field.name), room) for field in dataclasses.fields(value)}
        return {"_": RENAMED.get(name, name), **body}
    if isinstance(value, enum.Enum):
        return plain(value.value, room)
    if isinstance(value, dict):
        return {str(key): plain(item, room) for key, item in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [plain(item, room) for item in value]
    if isinstance(value, set | frozenset):
        return sorted(plain(item, room) for item in value)
    return value


class Fingerprint:
    """A running digest of effects; with ``dump``, each step's effects also go there as a JSON line
    (``[label, command, effects]``), so two trees' dumps can be diffed step by step."""

    def __init__(self, room: Room, dump: TextIO | None = None) -> None:
        self.room = room
        self.digest = hashlib.sha256()
        self.effects = 0
        self.dump = dump

    def add(self, label: str, command: Any, effects: list[Any]) -> None:
        shown = [plain(effect, self.room) for effect in effects]
        for effect in shown:
            self.digest.update(json.dumps(effect, sort_keys=True, ensure_ascii=False).encode())
            self.digest.update(b"\n")
        self.effects += len(effects)
        if self.dump is not None:
            line = [label, plain(command, self.room), shown]
            self.dump.write(json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n")

    def hex(self) -> str:
        return self.digest.hexdigest()


class Driver:
    """One table with a fake clock: feeds commands, answers what the shell would (stored hands),
    remembers its deadline and its log."""

    def __init__(self, room: Room, table: Any, fingerprint: Fingerprint, now: int, label: str) -> None:
        self.room, self.table, self.fingerprint, self.now = room, table, fingerprint, now
        self.label = label
        self.steps = 0
        self.deadline: int | None = None
        self.log: list[Any] = []
        self.hands = 0
        self._refs = itertools.count(1)

    def ref(self) -> int:
        return next(self._refs)

    def step(self, command: Any) -> list[Any]:
        effects: list[Any] = self.table.handle(command, self.now)
        self.steps += 1
        self.fingerprint.add(f"{self.label}:{self.steps}", command, effects)
        settled = []
        for effect in effects:
            name = type(effect).__name__
            if name == "Record":
                self.log.append(self.room.encode_entry(effect.entry))
            elif name == "Arm":
                self.deadline = effect.at_ms
            elif name == "Disarm":
                self.deadline = None
            elif name == "StoreHand":
                settled.append(effect.number)
        for number in settled:
            self.hands += 1
            self.step(self.room.commands.HandSettled(number, 1000 + self.hands))
        return effects

    def fire(self) -> bool:
        """Let the clock run out; False if none is armed."""
        if self.deadline is None:
            return False
        self.now = max(self.now, self.deadline)
        self.deadline = None
        self.step(self.room.commands.ClockFired())
        return True


def player(room: Room, seat: int) -> Any:
    return room.commands.Player(PEOPLE_BASE + seat, f"p{seat}", "布衣", "待業")


PRESETS = ("nanning", "guigang", "fourdeck")


def table_options(room: Room, rng: random.Random) -> Any:
    names = [name for name in PRESETS if _preset_known(room, name)] or ["nanning"]
    return room.options.TableOptions(
        preset=rng.choice(names),
        illegal_follow=rng.choice(("laogai", "reject")),
        deal_interval_ms=rng.choice((0, 0, 100)),
        bid_window_seconds=1,
        review_seconds=0.5,
        turn_seconds=5,
        warn_wrong_follow=rng.random() < 0.2,
    )


def _preset_known(room: Room, name: str) -> bool:
    try:
        room.options.TableOptions(preset=name)
    except ValueError:
        return False
    return True


class Scripted:
    """The people of one generated table and what they do, from a seeded random source."""

    def __init__(self, room: Room, driver: Driver, rng: random.Random, people: list[int], invite: str | None) -> None:
        self.room, self.driver, self.rng, self.invite = room, driver, rng, invite
        self.people = people
        self.away: set[int] = set()
        self.left: set[int] = set()
        self.watchers = 0

    def client(self, seat: int) -> str:
        return f"c{seat}"

    def sit(self) -> None:
        commands, driver = self.room.commands, self.driver
        for seat in self.people:
            driver.step(commands.Join(self.client(seat), player(self.room, seat), seat, driver.ref(), self.invite))
        for seat in range(4):
            if seat not in self.people:
                bot = self.rng.choice(("heuristic", "random"))
                driver.step(commands.AddBot(self.client(self.people[0]), seat, bot, driver.ref()))
        for seat in self.people:
            driver.step(commands.Start(self.client(seat), driver.ref()))

    def act(self) -> None:
        """One thing a person does now, or the clock runs on."""
        table, rng = self.driver.table, self.rng
        round_ = table.round
        present = [seat for seat in self.people if seat not in self.away and seat not in self.left]
        roll = rng.random()
        if self.away and roll < 0.1:
            seat = min(self.away)
            self.away.discard(seat)
            self.driver.step(self.room.commands.Attach(self.client(seat), PEOPLE_BASE + seat))
            return
        if present and roll < 0.18:
            self._aside(rng.choice(present), rng.random())
            return
        phase = str(getattr(round_.phase, "value", round_.phase)) if round_ is not None else None
        if present and phase == "bidding" and rng.random() < 0.3:
            seat = rng.choice(present)
            cmd = self.room.commands.RequestBid(self.client(seat), rng.randrange(4), rng.choice((1, 2)))
            self.driver.step(cmd)
        to_move = round_.to_move if round_ is not None else None
        if to_move in present and phase == "playing" and roll < 0.75:
            self._play(to_move, round_)
            return
        if not self.driver.fire():
            self._revive()

    def _play(self, seat: int, round_: Any) -> None:
        commands, driver, rng = self.room.commands, self.driver, self.rng
        cards = tuple(round_.hint(seat))
        if rng.random() < 0.12:
            held = list(round_.view(seat).hand)
            cards = tuple(rng.sample(held, min(len(held), len(cards)))) if held else cards
        driver.step(commands.RequestPlay(self.client(seat), cards, rng.random() < 0.5, driver.ref()))

    def _aside(self, seat: int, roll: float) -> None:
        commands, driver, client = self.room.commands, self.driver, self.client(seat)
        if roll < 0.25:
            driver.step(commands.Say(client, self.rng.choice(("hurry", "nice_cards", "thanks", "oops")), driver.ref()))
        elif roll < 0.45:
            driver.step(commands.RequestAutoPlay(client, self.rng.random() < 0.5, driver.ref()))
        elif roll < 0.6:
            driver.step(commands.Detach(client))
            self.away.add(seat)
        elif roll < 0.7:
            driver.step(commands.RequestRetract(client, driver.ref()))
        elif roll < 0.78:
            driver.step(commands.RequestRemind(client, driver.ref()))
        elif roll < 0.86:
            driver.step(commands.Sync(client, driver.ref()))
        elif roll < 0.93:
            self.watchers += 1
            driver.step(commands.Watch(f"w{self.watchers}", driver.ref(), self.invite))
        elif roll < 0.99:
            driver.step(commands.MakePublic(client, driver.ref()))
        else:
            driver.step(commands.Leave(client, driver.ref()))
            self.left.add(seat)

    def _revive(self) -> None:
        """No clock: someone away comes back, else someone who left sits down again and starts."""
        commands, driver = self.room.commands, self.driver
        for seat in sorted(self.away):
            self.away.discard(seat)
            driver.step(commands.Attach(self.client(seat), PEOPLE_BASE + seat))
        for seat in sorted(self.left):
            self.left.discard(seat)
            driver.step(commands.Join(self.client(seat), player(self.room, seat), seat, driver.ref(), self.invite))
        for seat in self.people:
            if not driver.table.seats[seat].ready:
                driver.step(commands.Start(self.client(seat), driver.ref()))


def generate(room: Room, tables: int, seed: int, steps: int, out: Path, dump: TextIO | None) -> dict[str, Any]:
    fingerprint = Fingerprint(room, dump)
    lines = []
    for number in range(tables):
        rng = random.Random(seed * 1_000_003 + number)
        table_id = f"g{seed}-{number}"
        options = table_options(room, rng)
        table = room.new_table(table_id, options, seed + number)
        driver = Driver(room, table, fingerprint, 1_000_000, table_id)
        invite = f"invite{number}" if rng.random() < 0.3 else None
        if invite is not None:
            driver.step(room.commands.MakePrivate(invite, PEOPLE_BASE))
        people = sorted(rng.sample(range(4), rng.choice((1, 1, 2, 3, 4))))
        if invite is not None and 0 not in people:
            people = [0, *people]
        script = Scripted(room, driver, rng, people, invite)
        script.sit()
        for _ in range(steps):
            if driver.table.closed:
                break
            script.act()
        lines.append(
            json.dumps({"table": table_id, "options": options.to_json(), "seed": seed + number, "log": driver.log})
        )
    out.write_text("".join(line + "\n" for line in lines))
    return {"tables": tables, "effects": fingerprint.effects, "digest": fingerprint.hex()}


def read_logs(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text().splitlines():
        if line.strip():
            yield json.loads(line)


def cuts_of(length: int, cuts: int) -> list[int]:
    """``cuts`` prefix lengths spread over a log of ``length`` entries (its whole length included)."""
    if length == 0:
        return []
    stride = max(1, length // cuts)
    return sorted({*range(1, length + 1, stride), length})


def replay(room: Room, path: Path, cuts: int, steps: int, dump: TextIO | None) -> dict[str, Any]:
    fingerprint = Fingerprint(room)
    per_table: dict[str, str] = {}
    restored = 0
    for stored in read_logs(path):
        one = Fingerprint(room, dump)
        options = room.options.TableOptions.from_json(stored["options"])
        for cut in cuts_of(len(stored["log"]), cuts):
            table = room.restore(stored["table"], options, int(stored.get("seed", 1)), stored["log"][:cut])
            driver = Driver(room, table, one, 5_000_000, f"{stored['table']}@{cut}")
            driver.step(room.commands.Resume())
            for seat, person in sorted(table.players().items()):
                driver.step(room.commands.Attach(f"r{seat}", person.id))
            for _ in range(steps):
                if table.closed or not driver.fire():
                    break
            restored += 1
        per_table[stored["table"]] = one.hex()
        fingerprint.digest.update(one.hex().encode())
        fingerprint.effects += one.effects
    return {
        "tables": len(per_table),
        "restores": restored,
        "effects": fingerprint.effects,
        "digest": fingerprint.hex(),
        "per_table": per_table,
    }


def export_db(url: str, out: Path) -> dict[str, Any]:
    """Every open table's log in the database at ``url`` (its options and entries in order) to ``out``."""
    import asyncio

    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    async def read() -> list[dict[str, Any]]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                tables = (await conn.execute(text("SELECT id, options FROM live_tables WHERE open"))).all()
                rows = (await conn.execute(text("SELECT table_id, entry FROM table_log ORDER BY table_id, seq"))).all()
        finally:
            await engine.dispose()
        logs: dict[str, list[Any]] = {}
        for table_id, entry in rows:
            logs.setdefault(table_id, []).append(json.loads(entry) if isinstance(entry, str) else entry)
        found = []
        for table_id, options in tables:
            data = json.loads(options) if isinstance(options, str) else options
            found.append({"table": table_id, "options": data, "seed": 1, "log": logs.get(table_id, [])})
        return found

    found = asyncio.run(read())
    out.write_text("".join(json.dumps(item) + "\n" for item in found))
    return {"tables": len(found), "entries": sum(len(item["log"]) for item in found)}


def diff_dumps(old: Path, new: Path, shown: int) -> dict[str, Any]:
    """Where two ``--dump`` files of the same run differ: the steps by command kind, and the first
    ``shown`` differing steps whole."""
    kinds: collections.Counter[str] = collections.Counter()
    steps = 0
    examples: list[dict[str, Any]] = []
    with old.open(encoding="utf-8") as before, new.open(encoding="utf-8") as after:
        for line_old, line_new in itertools.zip_longest(before, after):
            if line_old is None or line_new is None:
                raise SystemExit(f"same_logs: {old} and {new} hold different numbers of steps")
            steps += 1
            if line_old == line_new:
                continue
            label, command, effects_old = json.loads(line_old)
            label_new, command_new, effects_new = json.loads(line_new)
            if (label, command) != (label_new, command_new):
                raise SystemExit(f"same_logs: the runs part at step {steps} ({label} / {label_new})")
            kinds[command["_"]] += 1
            if len(examples) < shown:
                examples.append({"step": label, "command": command, "old": effects_old, "new": effects_new})
    return {"steps": steps, "differing": sum(kinds.values()), "by_command": dict(kinds), "first": examples}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play tables, print the digest of their effects, write their logs")
    gen.add_argument("--tables", type=int, default=40)
    gen.add_argument("--seed", type=int, default=3)
    gen.add_argument("--steps", type=int, default=2500, help="steps (a person's action or the clock) per table")
    gen.add_argument("--out", type=Path, required=True)
    rep = sub.add_parser("replay", help="restore the logs of a file at many cuts, print the digest of the effects")
    rep.add_argument("--logs", type=Path, required=True)
    rep.add_argument("--cuts", type=int, default=40, help="prefixes per log (default 40)")
    rep.add_argument("--steps", type=int, default=12, help="clock steps after each restore (default 12)")
    rep.add_argument("--db", help="export the open tables' logs of this database URL to --logs first")
    dif = sub.add_parser("diff", help="compare two --dump files of the same run, step by step")
    dif.add_argument("old", type=Path)
    dif.add_argument("new", type=Path)
    dif.add_argument("--show", type=int, default=1, help="differing steps to print whole (default 1)")
    for each in (gen, rep):
        each.add_argument("--dump", type=Path, help="also write every step's command and effects to this file")
    args = parser.parse_args(argv)
    if args.command == "diff":
        print(json.dumps(diff_dumps(args.old, args.new, args.show), ensure_ascii=False))
        return
    room = Room()
    result: dict[str, Any]
    with contextlib.ExitStack() as stack:
        dump = stack.enter_context(args.dump.open("w", encoding="utf-8")) if args.dump else None
        if args.command == "generate":
            result = generate(room, args.tables, args.seed, args.steps, args.out, dump)
        else:
            if args.db:
                print(json.dumps({"exported": export_db(args.db, args.logs)}), flush=True)
            result = replay(room, args.logs, args.cuts, args.steps, dump)
    json.dump(result, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
