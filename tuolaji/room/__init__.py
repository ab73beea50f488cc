"""The room (桌): a table of people around the game, as a pure state machine.

:class:`~tuolaji.room.table.Table` takes commands (clients' requests, clocks, bots' answers) and the
time, and returns effects (log entries, messages, the timer) for the server's shell to carry out. It
never awaits, reads a clock or touches a socket. The rules of a hand and a match are ``tuolaji.game``.
"""
