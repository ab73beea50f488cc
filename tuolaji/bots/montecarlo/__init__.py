"""The search bot's engine: determinized Monte-Carlo search (PIMC) over the heuristic.

Every number below is a field of the bot's :class:`~tuolaji.bots.montecarlo.config.SearchConfig`.
For a move, the heuristic's best few candidates (``candidates``; its own choice first) are each
tried against the same deals of the hidden cards. A move with one candidate is played at once. The
deals are sampled (:mod:`tuolaji.bots.knowledge.sampling`: consistent with the cards seen, the voids
shown, the pairs a seat has shown it lacks, R24 caps, and the level cards shown in bids) and then
mended by up to ``mend_swaps`` swaps towards a deal on which the other seats' past follows were all
legal (:mod:`tuolaji.bots.knowledge.legal_follows`, R22–R25; a rule, so it holds for people too).
Late in the hand (``replay_from`` cards in hand or fewer, ``lead_replay_from`` before a lead) they
come from a :class:`~tuolaji.bots.montecarlo.deal_chain.DealChain` instead: a sampled deal moved,
``burn_in`` card swaps between two other seats before the first deal and ``gap`` between two deals,
towards deals on which the other seats' last ``replay_depth`` moves each, replayed with the
heuristic, are the moves they made: for the opponents the heuristic's choice, for the partner any of
the heuristic's ``partner_moves`` best (1 by default; a search partner plays one of its candidates;
a model of how they play, not a rule).
With ``belief`` above 0 the sampled deals (the chain's first one too) are drawn in proportion to a
learned belief of where each hidden kind is (:mod:`~tuolaji.bots.montecarlo.belief`, its
probabilities raised to that power), within the same voids, caps and known cards; 0 by default (it
measured no stronger, docs/BOTS-RESEARCH.md). A play-out cut short may likewise share the points
left by a learned linear value (``cut_model``, off).

From each deal and candidate the hand is played on by the heuristic for all four seats
(:mod:`tuolaji.bots.playouts.rollout`) for up to ``horizon_tricks`` tricks, or to the end of the
hand once the bot holds ``endgame_cards`` cards or fewer, and scored for the bot's team as

    value = expected signed level change (R36) of the estimated final score + signed score × score_weight

where the estimated final score is the attackers' score so far, plus what the play-out moved, plus,
when the play-out stopped before the end, the attackers' share of the points still in the hands:
``0.5 + share_slope × (s − 0.5)`` within 0 and 1, where ``s`` is their share of the strength left
(:func:`tuolaji.bots.policy.values.card_value` summed over each team's cards). That estimate is
uncertain, so its level change is an expectation
(:func:`~tuolaji.bots.montecarlo.value.expected_levels`) over a normal error of ``spread`` × the
points still in the hands; a play-out played to the end is valued by its exact level change.

The candidates race (:func:`~tuolaji.bots.montecarlo.race.race`): after ``min_deals`` deals, and
after each deal from then on, an alternative whose mean gain over the heuristic's choice (paired
over the same deals) could not reach ``switch_margin`` even ``race_z`` standard errors up leaves the
race. When the budget or ``max_deals`` is spent, an alternative replaces the heuristic's choice only
if its mean gain is at least ``switch_margin`` per deal and stays above zero ``switch_z`` standard
errors down (:func:`~tuolaji.bots.montecarlo.race.pick`); among those, the surest wins.

Determinism and the time budget: the number of play-outs is computed from the budget, not measured:
``play-outs = budget_ms / (expected play-out moves × cost per move)`` (at least two), where the cost
per move (``ms_per_move``, growing with the cards in hand) was measured on the reference machine
with the compiled build (:mod:`tuolaji.native`; ``benchmarks/playout_cost.py``); each deal spends
one play-out per candidate still in the race, each move a deal chain replays ``replay_cost``
play-out moves and each past follow checked ``check_cost``. So a seed and a view always give the
same move, on any machine and either build; on a slower machine, or as plain Python (2.5 to 3 times
slower), a move takes proportionally longer than the budget.
"""
