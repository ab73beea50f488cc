"""The heuristic's judgement: its bidding, its card play, and their parts (candidate follows, risks
and utility terms)."""
