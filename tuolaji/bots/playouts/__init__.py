"""Play-outs: hands played on with every hand known, for the search."""
