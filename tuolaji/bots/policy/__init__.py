"""The heuristic's judgement: candidate follows, risks and utility terms."""
