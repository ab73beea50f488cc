"""The room (桌): a table of people around the game, as a pure state machine.

:class:`~tuolaji.room.table.Table` takes commands (clients' requests, clocks, bots' answers) and the
time, and returns effects (log entries, messages, the timer) for the server's shell to carry out. It
never awaits, reads a clock or touches a socket. It hands each command to a part with one job
(seating, connections, moves, the clock and its timeouts, slow bots, the end of a hand, talk), all
sharing one :class:`~tuolaji.room.state.TableData` and writing through the journal (typed log
entries, :mod:`tuolaji.room.entries`) and the outbox. The rules of a hand and a match are ``tuolaji.game``.
"""
