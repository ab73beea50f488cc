"""What a seat knows: per-trump card tables, hand shapes, card tracking, situations, sampled deals
and the replay chain."""
