"""The round (盤) state machine: deal and bid, tricks, 勞改, scoring (RULES.md R15–R36).

A round is fully defined by its :class:`RoundSetup` and the actions applied to it; it never reads a
clock or a random source other than its seed. ``apply`` either refuses an action with a
:class:`~tuolaji.game.errors.GameError` (the state unchanged) or applies it and returns the events.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from tuolaji.cards import POINTS, RANKS, SUITS, Card, format_cards, full_deck, make_card, parse_rank
from tuolaji.game.actions import (
    Action,
    ActionRow,
    Bid,
    CloseBidding,
    CloseReview,
    DealCards,
    Escape,
    Pass,
    Play,
    Remind,
    Retract,
    SetAutoPlay,
    Timeout,
    action_from_row,
    action_row,
)
from tuolaji.game.errors import (
    BadBid,
    CardsNotHeld,
    GameError,
    IllegalFollow,
    InvalidLead,
    NotAllowed,
    NotYourTurn,
    WrongCount,
    WrongPhase,
)
from tuolaji.game.options import TableOptions
from tuolaji.game.view import BidRecord, Event, PlayRecord, RoundResult, SeatView, TrickRecord
from tuolaji.rules import (
    Preset,
    Refusal,
    Trump,
    card_strings,
    final_score,
    follow_refusal,
    get_preset,
    hand_result,
    lead_refusal,
    legal_follow_hint,
    score_trick,
)

RETRACT_PENALTY_PER_CARD = 10
"""R31: each retracted card moves the score 10 points against the retracting team."""
CHEAT_FLAG_POINTS = 200
"""R32: retractions over this many points flag a player as cheating."""
CHEAT_DISSOLVE_POINTS = 400
"""R32: retractions over this many points stop the hand and dissolve the table."""


class Phase(StrEnum):
    DEALING = "dealing"
    BIDDING = "bidding"
    PLAYING = "playing"
    REVIEW = "review"
    FINISHED = "finished"


def team_of(seat: int) -> int:
    """R2: team 0 is seats 0 and 2, team 1 is seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


@dataclass(frozen=True)
class RoundSetup:
    """What a round starts from.

    ``dealer`` is None in the first hand of a match, where the standing bid picks the dealer (R19)
    and the deal starts at seat 0 (R15). ``level`` is the rank index (1 = 3 … 12 = A) played at (R6).
    ``autoplay`` and ``timeouts`` carry 託管 state over from the previous round (R45).
    """

    seed: int
    options: TableOptions = field(default_factory=TableOptions)
    dealer: int | None = None
    level: int = 1
    autoplay: tuple[bool, bool, bool, bool] = (False, False, False, False)
    timeouts: tuple[int, int, int, int] = (0, 0, 0, 0)
    deck: tuple[Card, ...] | None = None
    """A stacked deck in dealing order (tests, puzzles); None shuffles the four decks by ``seed``."""

    def __post_init__(self) -> None:
        if self.dealer is not None and self.dealer not in range(4):
            raise ValueError(f"round setup dealer={self.dealer!r}: expected a seat 0–3 or None (R1)")
        if not 1 <= self.level <= 12:
            raise ValueError(f"round setup level={self.level!r}: expected a rank index 1 (3) … 12 (A) (R5)")
        if self.deck is not None and sorted(self.deck) != full_deck():
            raise ValueError("round setup deck: expected every card of four decks exactly once (R4)")

    def dealing_order(self) -> list[Card]:
        """The 216 cards in the order they are dealt (R15)."""
        if self.deck is not None:
            return list(self.deck)
        deck = full_deck()
        shuffle(deck, random.Random(self.seed))
        return deck

    @property
    def first_hand(self) -> bool:
        return self.dealer is None

    def to_json(self) -> dict[str, Any]:
        """The JSON form (a stored hand's ``setup``, a table log's round); the options and a stacked
        deck are not part of it."""
        return {
            "seed": self.seed,
            "dealer": self.dealer,
            "level": RANKS[self.level],
            "first_hand": self.first_hand,
            "autoplay": list(self.autoplay),
            "timeouts": list(self.timeouts),
        }

    @classmethod
    def from_json(cls, options: TableOptions, data: dict[str, Any]) -> RoundSetup:
        """The setup whose :meth:`to_json` is ``data``, played under ``options``."""
        autoplay, timeouts = data["autoplay"], data["timeouts"]
        return cls(
            seed=int(data["seed"]),
            options=options,
            dealer=data["dealer"],
            level=parse_rank(data["level"]),
            autoplay=(bool(autoplay[0]), bool(autoplay[1]), bool(autoplay[2]), bool(autoplay[3])),
            timeouts=(int(timeouts[0]), int(timeouts[1]), int(timeouts[2]), int(timeouts[3])),
        )


class Round:
    """One hand (盤) from the deal to the last trick or a ruling."""

    def __init__(self, setup: RoundSetup) -> None:
        self.setup = setup
        self.options = setup.options
        self.preset: Preset = get_preset(setup.options.preset)
        self.level = setup.level
        self._deck = setup.dealing_order()
        self._first_seat = setup.dealer if setup.dealer is not None else 0
        self.dealt = 0
        self.hands: list[list[Card]] = [[], [], [], []]
        self.dealer: int | None = setup.dealer
        self.bids: list[BidRecord] = []
        """Every accepted bid (R16), 加固 (R17) and 反主 (R18) of this round in order; the last one stands."""
        self._passed: set[int] = set()
        """The seats that said 不叫 in the window after the deal since the standing bid was made (R19)."""
        self.trump: Trump | None = None
        self.phase = Phase.DEALING
        self.leader: int | None = None
        self.plays: dict[int, tuple[Card, ...]] = {}
        self._records: dict[int, PlayRecord] = {}
        """The current trick's plays as the records views and the finished trick show, made once a play."""
        self._wrong: dict[int, Refusal] = {}
        self._second_chance = False
        self._reminded: set[int] = set()
        self.tricks: list[TrickRecord] = []
        self.card_points = 0
        self.last_trick_value = 0
        self.point_cards: list[Card] = []
        self.retraction_points = [0, 0, 0, 0]
        self.autoplay = list(setup.autoplay)
        self.timeouts = list(setup.timeouts)
        self._awaiting_auto_move = [False] * 4
        self._system_plays: set[int] = set()
        """Seats whose play in the current trick the server made for them (a timeout, 託管): not
        theirs to retract (R31, docs/RULES-NOTES.md)."""
        self._shown: list[tuple[Card, ...] | None] = [None, None, None, None]
        """Each seat's cards in display order, None once they change (views keep them between moves)."""
        self._shown_order: tuple[int, int] = (-1, -1)
        """The (level, trump suit) ``_shown`` is sorted by; (-1, -1) before any bid."""
        self.result: RoundResult | None = None
        self._rows: list[ActionRow] = []
        """Every action applied, in order, as rows (``action_row``): nothing the collector tracks."""

    @classmethod
    def replay(cls, setup: RoundSetup, actions: Iterable[Action]) -> Round:
        """The round that ``actions`` lead to from ``setup``; raises if one of them is refused."""
        round_ = cls(setup)
        for action in actions:
            round_.apply(action)
        return round_

    # ------------------------------------------------------------------ queries

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied to this round, in order (with the setup, its record). Made anew at
        each call; :attr:`action_count` is their number."""
        return tuple(action_from_row(row) for row in self._rows)

    @property
    def action_count(self) -> int:
        """How many actions have been applied to this round."""
        return len(self._rows)

    @property
    def to_move(self) -> int | None:
        """The seat that must play now, or None outside the playing phase."""
        if self.phase is not Phase.PLAYING or self.leader is None:
            return None
        for offset in range(4):
            seat = (self.leader + offset) % 4
            if seat not in self.plays:
                return seat
        return None

    @property
    def lead(self) -> tuple[Card, ...] | None:
        """The current trick's lead, or None when nobody has led yet."""
        return self.plays.get(self.leader) if self.leader is not None else None

    @property
    def bid(self) -> BidRecord | None:
        """The standing bid: the newest of ``bids``, or None before anyone bid."""
        return self.bids[-1] if self.bids else None

    @property
    def attackers(self) -> int | None:
        """The attacking team (R3), once the dealer is known."""
        return None if self.dealer is None else 1 - team_of(self.dealer)

    def hand(self, seat: int) -> list[Card]:
        """A copy of ``seat``'s cards."""
        return list(self.hands[seat])

    def bid_options(self, seat: int) -> list[tuple[int, int]]:
        """Every (suit, count) ``seat`` may bid now (R16–R18)."""
        if self.phase not in (Phase.DEALING, Phase.BIDDING):
            return []
        held = [self.hands[seat].count(make_card(self.level, suit)) for suit in range(4)]
        options: list[tuple[int, int]] = []
        for suit in range(4):
            low = 1
            if self.bid is not None:
                if self.bid.seat == seat and self.bid.suit != suit:
                    continue
                low = self.bid.count + 1
            options.extend((suit, count) for count in range(low, held[suit] + 1))
        return options

    def passed(self, seat: int) -> bool:
        """Whether ``seat`` said 不叫 since the standing bid was made (R19)."""
        return seat in self._passed

    @property
    def bidding_settled(self) -> bool:
        """Whether the window after the deal may close now: every seat has said 不叫 since the standing
        bid was made or has no bid left to make (R19; docs/RULES-NOTES.md). Bids and passes only ever
        happen in this round's actions, so a record that closed the window by the clock replays the same."""
        return self.phase is Phase.BIDDING and all(
            seat in self._passed or not self.bid_options(seat) for seat in range(4)
        )

    def score(self) -> int:
        """The attackers' score so far (R35): card points, 摳底, retractions; clamped to 0…400 (封頂)
        unless the preset counts the score as it comes (``guigang``)."""
        return final_score(self.card_points + self.last_trick_value + self._penalty(), self.preset)

    def _penalty(self) -> int:
        attackers = self.attackers
        if attackers is None:
            return 0
        return sum(
            -points if team_of(seat) == attackers else points for seat, points in enumerate(self.retraction_points)
        )

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action, *, checked: bool = True) -> list[Event]:
        """Apply ``action``; return the events it causes, or raise a GameError and change nothing.

        ``checked=False`` skips the legality check of a ``Play`` (as python-chess's ``push`` beside
        ``push_san``): only for moves the engine itself produced legally, e.g. simulations and search
        rollouts. Anything from a person goes through the check.
        """
        if self.phase is Phase.FINISHED and not isinstance(action, SetAutoPlay):
            raise WrongPhase(f"{_describe(action)}: the round is over", _params(action, reason="round_over"))
        match action:
            case DealCards():
                events = self._deal(action)
            case Bid():
                events = self._bid(action)
            case Pass():
                events = self._pass(action)
            case CloseBidding():
                events = self._close_bidding()
            case Play():
                events = self._play(action, checked)
            case Remind():
                events = self._remind(action)
            case Retract():
                events = self._retract(action)
            case CloseReview():
                events = self._close_review()
            case Timeout():
                events = self._timeout(action)
            case SetAutoPlay():
                events = self._set_autoplay(action)
            case Escape():
                events = self._finish(RoundResult(kind="escape", dealer=self.dealer, escaped=action.seat))
        self._rows.append(action_row(action))
        return events

    def _deal(self, action: DealCards) -> list[Event]:
        if self.phase is not Phase.DEALING:
            raise WrongPhase(
                f"deal of {action.count} cards: the deal is over (R15)", _params(action, reason="deal_over", rule="R15")
            )
        count = min(action.count, len(self._deck) - self.dealt)
        given: list[list[Card]] = [[], [], [], []]
        for index in range(self.dealt, self.dealt + count):
            seat = (self._first_seat + index) % 4
            given[seat].append(self._deck[index])
        self.dealt += count
        events = []
        for seat, cards in enumerate(given):
            if cards:
                self.hands[seat].extend(cards)
                self._shown[seat] = None
                events.append(Event("deal", {"cards": tuple(cards)}, to=seat))
        if self.dealt == len(self._deck):
            self.phase = Phase.BIDDING
        events.append(Event("deal_progress", {"dealt": self.dealt, "hand_sizes": [len(hand) for hand in self.hands]}))
        return events

    def _bid(self, action: Bid) -> list[Event]:
        seat, suit, count = action.seat, action.suit, action.count
        name = f"seat {seat} bid {count}×{RANKS[self.level]}{SUITS[suit]}"
        base = _params(action, suit=SUITS[suit], count=count, level=RANKS[self.level])
        if self.phase not in (Phase.DEALING, Phase.BIDDING):
            raise WrongPhase(f"{name}: bidding is closed (R19)", {**base, "reason": "bidding_closed", "rule": "R19"})
        held = self.hands[seat].count(make_card(self.level, suit))
        if held < count:
            raise BadBid(
                f"{name}: you hold only {held} of that level card (R16)",
                {**base, "reason": "not_held", "rule": "R16", "held": held},
            )
        kind = "bid"
        if self.bid is not None:
            if self.bid.seat == seat:
                if self.bid.suit != suit:
                    raise BadBid(
                        f"{name}: you can only reinforce your own bid in {SUITS[self.bid.suit]} (R17)",
                        {**base, "reason": "other_suit", "rule": "R17", "standing_suit": SUITS[self.bid.suit]},
                    )
                kind = "reinforce"
            else:
                kind = "overturn"
            if count <= self.bid.count:
                raise BadBid(
                    f"{name}: must show more than the standing {self.bid.count} (R17, R18)",
                    {
                        **base,
                        "reason": "too_few",
                        "rule": "R17" if kind == "reinforce" else "R18",
                        "standing": self.bid.count,
                    },
                )
        self.bids.append(BidRecord(seat, suit, count))
        self._passed.clear()
        return [Event("bid", {"seat": seat, "suit": suit, "count": count, "kind": kind})]

    def _pass(self, action: Pass) -> list[Event]:
        seat = action.seat
        name = f"seat {seat} pass (不叫)"
        base = _params(action, rule="R19")
        if self.phase is Phase.DEALING:
            raise WrongPhase(
                f"{name}: 不叫 is said in the window after the deal ({self.dealt} of 216 dealt, R19)",
                {**base, "reason": "deal_not_finished", "dealt": self.dealt},
            )
        if self.phase is not Phase.BIDDING:
            raise WrongPhase(f"{name}: bidding is closed (R19)", {**base, "reason": "bidding_closed"})
        if seat in self._passed:
            raise NotAllowed(
                f"{name}: you said 不叫 already; the window closes when every seat has (R19)",
                {**base, "reason": "already_passed"},
            )
        self._passed.add(seat)
        return [Event("pass", {"seat": seat})]

    def _close_bidding(self) -> list[Event]:
        if self.phase is not Phase.BIDDING:
            raise WrongPhase(
                f"close_bidding: the deal is not finished ({self.dealt} of 216 dealt, R19)",
                {"action": "close_bidding", "reason": "deal_not_finished", "rule": "R19", "dealt": self.dealt},
            )
        if self.bid is None:
            return self._finish(RoundResult(kind="redeal", dealer=self.dealer))
        if self.dealer is None:
            self.dealer = self.bid.seat
        self.trump = Trump(self.level, self.bid.suit)
        self.phase = Phase.PLAYING
        self.leader = self.dealer
        return [
            Event(
                "bidding_closed",
                {
                    "dealer": self.dealer,
                    "trump_suit": self.bid.suit,
                    "level": RANKS[self.level],
                    "bid": self.bid,
                },
            )
        ]

    def _judge_play(self, seat: int, cards: Sequence[Card]) -> tuple[type[GameError] | None, Refusal] | None:
        """None for a fine play; else the error that refuses it and why, or (None, why) for a wrong
        follow that ``laogai`` mode lets through to be judged (R33)."""
        if self.phase is not Phase.PLAYING or self.trump is None:
            why = f"no play is expected now (phase {self.phase})"
            return WrongPhase, Refusal("no_play_expected", None, why, {"phase": str(self.phase)})
        if seat != self.to_move:
            why = f"it is seat {self.to_move}'s turn (R21)"
            return NotYourTurn, Refusal("not_to_move", "R21", why, {"to_move": self.to_move})
        hand = self.hands[seat]
        if not _holds(hand, cards):
            return CardsNotHeld, Refusal("not_held", "R22", "those cards are not all in your hand (R22)")
        lead = self.lead
        if lead is None:
            refusal = lead_refusal(cards, self.trump, self.preset)
            return None if refusal is None else (InvalidLead, refusal)
        if len(cards) != len(lead):
            why = f"the lead has {len(lead)} cards, so a follow has {len(lead)} (R22)"
            return WrongCount, Refusal("wrong_count", "R22", why, {"lead_size": len(lead), "count": len(cards)})
        refusal = follow_refusal(hand, lead, cards, self.trump, self.preset)
        if refusal is None:
            return None
        if self.options.illegal_follow == "reject":
            return IllegalFollow, refusal
        if self._second_chance:
            message = f"{refusal.message} (a second wrong play in this trick is refused, R33)"
            return IllegalFollow, replace(refusal, message=message, params={**refusal.params, "second_wrong": True})
        return None, refusal

    def _play(self, action: Play, checked: bool) -> list[Event]:
        seat, cards = action.seat, action.cards
        verdict = self._judge_play(seat, cards) if checked else None
        if verdict is not None:
            error, refusal = verdict
            if error is not None:
                raise error(
                    f"seat {seat} play {format_cards(cards) or '(nothing)'}: {refusal.message}",
                    {**_params(action, cards=card_strings(cards)), **refusal.to_params()},
                )
            self._wrong[seat] = refusal
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self._shown[seat] = None
        self.plays[seat] = cards
        self._records[seat] = PlayRecord(seat, cards)
        if self._awaiting_auto_move[seat] or self.autoplay[seat]:
            self._system_plays.add(seat)
        else:
            self._system_plays.discard(seat)
        if self._awaiting_auto_move[seat]:
            self._awaiting_auto_move[seat] = False
        else:
            self.timeouts[seat] = 0
        if len(self.plays) == 4:
            self.phase = Phase.REVIEW
        return [Event("play", {"seat": seat, "cards": cards, "to_move": self.to_move, "phase": str(self.phase)})]

    def _remind(self, action: Remind) -> list[Event]:
        seat, partner = action.seat, partner_of(action.seat)
        name = f"seat {seat} remind"
        base = _params(action, partner=partner, rule="R30")
        if self.phase not in (Phase.PLAYING, Phase.REVIEW):
            raise WrongPhase(f"{name}: no trick is being played (R30)", {**base, "reason": "no_trick"})
        if partner not in self.plays or partner == self.leader:
            raise NotAllowed(
                f"{name}: your partner has not followed in this trick (R30)", {**base, "reason": "partner_not_followed"}
            )
        if partner in self._reminded:
            raise NotAllowed(
                f"{name}: your partner was already reminded in this trick (R30)", {**base, "reason": "already_reminded"}
            )
        self._reminded.add(partner)
        data = {"seat": seat, "partner": partner}
        return [Event("remind", data, to=partner), Event("remind", data, to=seat)]

    def _retract(self, action: Retract) -> list[Event]:
        seat = action.seat
        name = f"seat {seat} retract"
        base = _params(action, rule="R31")
        if self.phase not in (Phase.PLAYING, Phase.REVIEW):
            raise WrongPhase(f"{name}: no trick is being played (R31)", {**base, "reason": "no_trick"})
        if seat == self.leader or seat not in self.plays:
            raise NotAllowed(
                f"{name}: only a follower who has played in this trick may retract (R31)",
                {**base, "reason": "not_follower"},
            )
        if seat in self._system_plays:
            raise NotAllowed(
                f"{name}: the server played for the seat (a timeout or 託管); not the player's to retract (R31)",
                {**base, "reason": "system_play"},
            )
        cards = self.plays.pop(seat)
        del self._records[seat]
        self._wrong.pop(seat, None)
        self.hands[seat].extend(cards)
        self._shown[seat] = None
        first = self.retraction_points[seat] == 0
        penalty = RETRACT_PENALTY_PER_CARD * len(cards)
        self.retraction_points[seat] += penalty
        self.phase = Phase.PLAYING
        events = [
            Event(
                "retract",
                {"seat": seat, "cards": cards, "penalty": penalty, "first": first, "to_move": self.to_move},
            )
        ]
        if self.retraction_points[seat] > CHEAT_DISSOLVE_POINTS:
            events += self._finish(
                RoundResult(kind="dissolved", dealer=self.dealer, cheaters=(seat,), escaped=seat, score=self.score())
            )
        return events

    def _close_review(self) -> list[Event]:
        if self.phase is not Phase.REVIEW:
            raise WrongPhase(
                "close_review: the trick is not complete (R33)",
                {"action": "close_review", "reason": "trick_not_complete", "rule": "R33"},
            )
        wrong_by_team = [0, 0]
        for seat in self._wrong:
            wrong_by_team[team_of(seat)] += 1
        if wrong_by_team == [0, 0]:
            return self._resolve_trick()
        if wrong_by_team[0] == wrong_by_team[1]:
            seats = sorted(self._wrong)
            for seat in seats:
                self.hands[seat].extend(self.plays.pop(seat))
                del self._records[seat]
                self._shown[seat] = None
            self._wrong.clear()
            self._second_chance = True
            self.phase = Phase.PLAYING
            return [Event("laogai_retract", {"seats": seats, "to_move": self.to_move})]
        laogai_team = 0 if wrong_by_team[0] > wrong_by_team[1] else 1
        assert self.dealer is not None
        winning_team = 1 - laogai_team
        winner = "defenders" if winning_team == team_of(self.dealer) else "attackers"
        # Public to the whole table: the reason code and the rule, never the cards of the offender's hand.
        wrong = [
            {"seat": seat, "reason": refusal.reason, "rule": refusal.rule}
            for seat, refusal in sorted(self._wrong.items())
        ]
        return [
            Event("laogai", {"team": laogai_team, "wrong": wrong}),
            *self._finish(
                RoundResult(
                    kind="laogai",
                    dealer=self.dealer,
                    winner=winner,
                    winning_team=winning_team,
                    levels=3,
                    score=self.score(),
                    card_points=self.card_points,
                    last_trick=self.last_trick_value,
                    penalty=self._penalty(),
                    laogai_team=laogai_team,
                    cheaters=self._cheaters(),
                )
            ),
        ]

    def _resolve_trick(self) -> list[Event]:
        assert self.leader is not None and self.trump is not None and self.dealer is not None
        order = [(self.leader + offset) % 4 for offset in range(4)]
        plays = [self.plays[seat] for seat in order]
        last = not self.hands[0]
        scored = score_trick(plays, self.leader, self.dealer, self.trump, self.preset, last)
        winner, points, multiplier = scored.winner, scored.points, scored.multiplier
        if scored.kou_di:
            self.last_trick_value = scored.change
        else:
            self.card_points += scored.change
        if team_of(winner) != team_of(self.dealer):
            self.point_cards.extend(card for play in plays for card in play if POINTS[card])
        record = TrickRecord(
            self.leader,
            tuple(self._records[seat] for seat in order),
            winner,
            points,
            multiplier,
        )
        self.tricks.append(record)
        self.leader = winner
        self.plays.clear()
        self._records.clear()
        self._wrong.clear()
        self._reminded.clear()
        self._second_chance = False
        self.phase = Phase.PLAYING
        events = [Event("trick", {"trick": record, "score": self.score(), "leader": winner})]
        if last:
            events += self._finish_played()
        return events

    def _finish_played(self) -> list[Event]:
        assert self.dealer is not None
        score = self.score()
        winner, levels = hand_result(score, self.preset)
        attackers = 1 - team_of(self.dealer)
        return self._finish(
            RoundResult(
                kind="played",
                dealer=self.dealer,
                winner=winner,
                winning_team=attackers if winner == "attackers" else 1 - attackers,
                levels=levels,
                score=score,
                card_points=self.card_points,
                last_trick=self.last_trick_value,
                penalty=self._penalty(),
                cheaters=self._cheaters(),
            )
        )

    def _cheaters(self) -> tuple[int, ...]:
        return tuple(seat for seat, points in enumerate(self.retraction_points) if points > CHEAT_FLAG_POINTS)

    def _timeout(self, action: Timeout) -> list[Event]:
        seat = action.seat
        if self.phase is not Phase.PLAYING or seat != self.to_move:
            raise NotYourTurn(
                f"timeout of seat {seat}: it is not that seat's turn (R44)",
                _params(action, reason="not_to_move", rule="R44", to_move=self.to_move),
            )
        self.timeouts[seat] += 1
        self._awaiting_auto_move[seat] = True
        limit = self.preset.timeouts_before_autoplay
        events = [Event("timeout", {"seat": seat, "count": self.timeouts[seat], "limit": limit})]
        if not self.autoplay[seat] and self.timeouts[seat] >= limit:
            self.autoplay[seat] = True
            events.append(Event("autoplay", {"seat": seat, "on": True, "reason": "timeouts"}))
        return events

    def _set_autoplay(self, action: SetAutoPlay) -> list[Event]:
        self.autoplay[action.seat] = action.on
        if not action.on:
            self.timeouts[action.seat] = 0
        return [Event("autoplay", {"seat": action.seat, "on": action.on, "reason": action.reason})]

    def _finish(self, result: RoundResult) -> list[Event]:
        self.phase = Phase.FINISHED
        self.result = result
        return [Event("round_over", {"result": result})]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (None: a spectator). Never holds another seat's cards."""
        return self.views((seat,))[seat]

    def views(self, seats: Iterable[int | None]) -> dict[int | None, SeatView]:
        """:meth:`view` of each of ``seats``, the part they share worked out once."""
        in_trick = self.phase in (Phase.PLAYING, Phase.REVIEW)
        to_move = self.to_move
        leader = self.leader
        plays = self.plays
        shared: dict[str, Any] = {
            "phase": str(self.phase),
            "level": self.level,
            "dealer": self.dealer,
            "first_hand": self.setup.first_hand,
            "bid": self.bid,
            "bids": tuple(self.bids),
            "passes": tuple(seat in self._passed for seat in range(4)),
            "trump_suit": self.trump.suit if self.trump else None,
            "hand_sizes": tuple(len(cards) for cards in self.hands),
            "cards_dealt": self.dealt,
            "to_move": to_move,
            "leader": leader,
            "trick": self._trick_plays(),
            "tricks": tuple(self.tricks),
            "attackers_points": self.score(),
            "point_cards": tuple(self.point_cards),
            "retraction_points": tuple(self.retraction_points),
            "autoplay": tuple(self.autoplay),
            "timeouts": tuple(self.timeouts),
            "result": self.result,
            "preset": self.preset.name,
            "illegal_follow": self.options.illegal_follow,
        }
        shared.update(seat=None, hand=(), reminded=False, can_remind=False, can_retract=False, bid_options=(), hint=())
        spectator = SeatView.of(shared)
        views: dict[int | None, SeatView] = {}
        seat: int | None
        for seat in seats:
            if seat is None:
                views[None] = spectator
                continue
            partner = partner_of(seat)
            views[seat] = spectator.for_seat(
                seat,
                hand=self._shown_hand(seat),
                reminded=seat in self._reminded,
                can_remind=in_trick and partner in plays and partner != leader and partner not in self._reminded,
                can_retract=in_trick and seat != leader and seat in plays and seat not in self._system_plays,
                bid_options=tuple(self.bid_options(seat)),
                hint=tuple(self.hint(seat)) if seat == to_move else (),
            )
        return views

    def _trick_plays(self) -> tuple[PlayRecord, ...]:
        """The current trick's plays in play order from its leader."""
        leader, records = self.leader, self._records
        if leader is None:
            return ()
        return tuple(records[s] for s in ((leader + offset) % 4 for offset in range(4)) if s in records)

    def _shown_hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards in display order (trumps first once a suit is bid), sorted again only
        when they or the trump changed since the last view."""
        bid = self.bid
        order = (self.level, self.trump.suit if self.trump else bid.suit if bid else -1)
        if order != self._shown_order:
            self._shown_order = order
            self._shown = [None, None, None, None]
        shown = self._shown[seat]
        if shown is None:
            sorter = self.trump or (Trump(self.level, bid.suit) if bid else None)
            cards = self.hands[seat]
            shown = tuple(sorted(cards, key=sorter.sort_keys.__getitem__) if sorter else sorted(cards))
            self._shown[seat] = shown
        return shown

    def hint(self, seat: int) -> list[Card]:
        """A sensible legal move for ``seat`` when it is its turn: the hint button and the fallback auto-play."""
        assert self.trump is not None
        hand = self.hands[seat]
        lead = self.lead
        if lead is not None:
            return legal_follow_hint(hand, lead, self.trump, self.preset)
        trump = self.trump
        return [min(hand, key=lambda card: (trump.is_trump(card), POINTS[card] > 0, trump.power(card)))]

    def wrong_follow(self, seat: int, cards: Sequence[Card]) -> Refusal | None:
        """Why ``seat`` playing ``cards`` now would be accepted but judged wrong at the review (R33), or None:
        None also when the play is fine or would be refused outright."""
        verdict = self._judge_play(seat, cards)
        return verdict[1] if verdict is not None and verdict[0] is None else None

    def wrong_follow_reason(self, seat: int, cards: Sequence[Card]) -> str | None:
        """The English message of :meth:`wrong_follow`, or None."""
        refusal = self.wrong_follow(seat, cards)
        return None if refusal is None else refusal.message

    def check_play(self, seat: int, cards: Sequence[Card]) -> str | None:
        """Why ``seat`` playing ``cards`` now would be refused or judged wrong (R13, R21–R25, R33), or None."""
        verdict = self._judge_play(seat, cards)
        return None if verdict is None else verdict[1].message


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same permutation by the standard library's own algorithm (random.py's
    ``shuffle`` and ``_randbelow_with_getrandbits``), here compiled, where a deal's shuffle was about
    a fifth of a whole random hand's CPU."""
    for index in range(len(cards) - 1, 0, -1):
        bound = index + 1
        bits = bound.bit_length()
        other = rng.getrandbits(bits)
        while other >= bound:
            other = rng.getrandbits(bits)
        cards[index], cards[other] = cards[other], cards[index]


def stack_deck(hands: Sequence[Sequence[Card]], first_seat: int = 0) -> tuple[Card, ...]:
    """The dealing order that gives seat ``s`` exactly ``hands[s]`` when the deal starts at ``first_seat``."""
    if len(hands) != 4 or any(len(cards) != 54 for cards in hands):
        raise ValueError("stack_deck: expected four hands of 54 cards (R4)")
    return tuple(hands[(first_seat + index) % 4][index // 4] for index in range(216))


def _holds(hand: Sequence[Card], cards: Sequence[Card]) -> bool:
    return all(hand.count(card) >= cards.count(card) for card in set(cards))


def _params(action: Action, **extra: Any) -> dict[str, Any]:
    """The params every refusal of ``action`` carries: its ``action`` type and ``seat`` (if any)."""
    params: dict[str, Any] = {"action": action.type}
    seat = getattr(action, "seat", None)
    if seat is not None:
        params["seat"] = seat
    return {**params, **extra}


def _describe(action: Action) -> str:
    seat = getattr(action, "seat", None)
    return f"{action.type}" + (f" by seat {seat}" if seat is not None else "")
