"""``python -m tuolaji.server [options]``: the same as ``tuolaji serve [options]``."""

from __future__ import annotations

import argparse
import sys

from tuolaji.server.serve import add_arguments, run


def main() -> int:
    """Parse ``tuolaji serve`` options and serve."""
    parser = argparse.ArgumentParser(prog="python -m tuolaji.server", description="run the game server")
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
