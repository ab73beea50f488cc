"""A chaos run of a card room on many nodes (issue 48): faults at random, every invariant checked.

A throwaway PostgreSQL and Redis of the run's own (``services``), ``tuolaji serve`` nodes whose
traffic to them passes through a proxy that can cut or slow it (``proxy``, ``nodes``), tables of
scripted people who reconnect to any node and of bots (``people``), a seeded schedule of faults
(``faults``), what the people saw checked as it arrives (``watch``) and against the database and the
nodes' logs afterwards (``checks``), in one run (``run``). ``benchmarks/chaos.py`` runs it for
minutes; ``tests/cluster/test_chaos.py`` runs a short seeded one.
"""
