"""Who plays: the heuristic, the search, the random player, and the bidding policy they share."""
