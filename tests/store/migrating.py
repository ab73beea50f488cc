"""One process migrating a database, for tests that start several at the same moment.

``python -m tests.store.migrating URL`` imports everything, prints ``ready``, waits for a line on
stdin, then opens ``URL`` and runs the real :func:`tuolaji.store.db.migrate` to head, prints
``migrated`` and exits 0 (a failure exits non-zero with its traceback on stderr, where the store's
INFO log lines go too).
"""

from __future__ import annotations

import asyncio
import logging
import sys

from tuolaji.store.db import make_engine, migrate


async def main(url: str) -> None:
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    engine = make_engine(url)
    try:
        await migrate(engine)
    finally:
        await engine.dispose()
    print("migrated", flush=True)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    asyncio.run(main(sys.argv[1]))
