"""Who plays: thin :class:`~tuolaji.bots.base.Bot` classes over the policy (heuristic), the
Monte-Carlo search (search) or the rules engine's random moves (random)."""
