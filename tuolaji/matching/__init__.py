"""快速開始: the quick-match queue's data (:mod:`~tuolaji.matching.entries`) and the decisions on it
(:mod:`~tuolaji.matching.decide`), pure: no I/O, no clock (the time is passed in as ``now_ms``).

The server keeps the queue (``tuolaji.server.queue_store``: in memory on one node, in Redis among
many) and carries the decisions out (``tuolaji.server.quickmatch``).
"""
