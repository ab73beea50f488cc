"""What a seat knows: per-trump card tables, hand shapes, card tracking, situations, sampled deals
and deals mended so the other seats' past follows were legal. Nothing here models how anyone plays."""
