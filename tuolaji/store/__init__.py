"""Persistence: SQLAlchemy 2 (async) models, Alembic migrations, accounts, balances and hand records.

SQLite file by default, any SQLAlchemy async URL (e.g. ``postgresql+asyncpg://…``) otherwise.
"""
