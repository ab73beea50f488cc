"""``tuolaji serve``'s options come from :class:`ServerConfig`'s fields: one flag per field, the
field's default when the flag is not given, and a value outside the declared range refused by
argparse naming the flag and the range."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from tuolaji.cli import build_parser
from tuolaji.server.config import ServerConfig, options
from tuolaji.server.serve import add_arguments, config_from_args, flag_of

FLAGS_BEFORE = [
    "--host",
    "--port",
    "--db",
    "--redis",
    "--node-name",
    "--lease-seconds",
    "--start-silver",
    "--bot-delay",
    "--bot-workers",
    "--search-budget-ms",
    "--next-hand-delay",
    "--reconnect-grace",
    "--seed",
    "--account-rate",
    "--guests-per-hour",
    "--forwarded-allow-ips",
    "--session-days",
    "--hash-threads",
    "--hash-queue",
    "--hello-timeout",
    "--max-connections-per-address",
    "--outbox-kib",
    "--ws-deflate",
    "--log-level",
]
"""The flags ``tuolaji serve`` had before they were generated: every one keeps its name."""


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(prog="tuolaji serve")
    add_arguments(made)
    return made


def parse(*words: str) -> ServerConfig:
    return config_from_args(parser().parse_args(list(words)))


def test_every_field_has_a_flag_with_help_and_the_old_flags_are_all_there() -> None:
    fields = {field.name for field in dataclasses.fields(ServerConfig)}
    flags = {flag_of(field.name, option): field.name for field, option, _ in options()}
    assert set(flags.values()) == fields
    assert set(FLAGS_BEFORE) <= set(flags)
    shown = parser().format_help()
    assert all(flag in shown for flag in flags)
    assert all(option.help for _, option, _ in options())


def test_no_flags_give_the_default_config() -> None:
    parsed = parse()
    assert parsed == dataclasses.replace(ServerConfig(), node_id=parsed.node_id)
    assert parsed.node_id.isalnum()


def test_flags_set_their_fields() -> None:
    config = parse(
        "--port", "0", "--db", "sqlite+aiosqlite:///x.db", "--redis", "redis://h/0", "--node-name", "n1",
        "--bot-delay", "0", "--seed", "5", "--account-rate", "3", "--outbox-kib", "64",
        "--max-connections-per-address", "0", "--forwarded-allow-ips", "127.0.0.0/8, ::1", "--ws-deflate",
        "--log-level", "warning",
    )  # fmt: skip
    assert (config.port, config.db_url, config.redis_url, config.node_id) == (
        0,
        "sqlite+aiosqlite:///x.db",
        "redis://h/0",
        "n1",
    )
    assert (config.bot_delay, config.seed, config.account_rate_per_minute, config.account_burst) == (0.0, 5, 3.0, 3.0)
    assert (config.outbox_bytes, config.connections_per_address) == (64 * 1024, 0)
    assert config.forwarded_allow_ips == ("127.0.0.0/8", "::1")
    assert config.ws_deflate and config.log_level == "warning"


def test_metrics_and_log_flags(tmp_path: Path) -> None:
    assert (ServerConfig().metrics, ServerConfig().log_format) == (True, "json")
    short = tmp_path / "short.token"
    short.write_text("abc\n")
    with pytest.raises(ValueError, match="one word of at least 16 characters"):
        next(option for field, option, _ in options() if field.name == "metrics_token_file").parse(str(short), str)
    token = tmp_path / "metrics.token"
    token.write_text("x" * 32 + "\n")
    config = parse("--no-metrics", "--log-format", "console", "--metrics-token-file", str(token))
    assert (config.metrics, config.log_format, config.metrics_token_file) == (False, "console", str(token))
    assert parse("--metrics-allow-ips", "10.1.0.0/16").metrics_allow_ips == ("10.1.0.0/16",)


def test_the_garbage_collectors_thresholds() -> None:
    assert ServerConfig().gc_thresholds == (5_000, 5, 200)
    assert parse("--gc-thresholds", "5000, 10,100").gc_thresholds == (5000, 10, 100)


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--session-days", "0", "'0': must be above 0"),
        ("--guests-per-hour", "-1", "'-1': must be 0 or more"),
        ("--port", "70000", "'70000': must be from 0 to 65535"),
        ("--lease-seconds", "inf", "'inf': must be above 0"),
        ("--bot-delay", "nan", "'nan': must be 0 or more"),
        ("--hash-queue", "x", "'x' is not an integer"),
        ("--rate-burst", "many", "'many' is not a number"),
        ("--node-name", "a-b", "'a-b': use letters and digits only"),
        ("--forwarded-allow-ips", "10.0.0.1,proxy.example", "'proxy.example' is not an IP address"),
        ("--log-level", "loud", "'loud': must be one of debug, info, warning, error"),
        ("--log-format", "xml", "'xml': must be one of json, console"),
        ("--metrics-allow-ips", "prometheus.local", "'prometheus.local' is not an IP address"),
        ("--metrics-token-file", "/nonexistent/token", "'/nonexistent/token': cannot read the token"),
        ("--gc-thresholds", "700,10", "'700,10' is not three whole numbers of 1 or more"),
        ("--gc-thresholds", "700,0,10", "'700,0,10' is not three whole numbers of 1 or more"),
        ("--gc-thresholds", "7e2,10,10", "'7e2,10,10' is not three whole numbers of 1 or more"),
    ],
)
def test_a_bad_value_is_refused_naming_the_flag_and_what_it_allows(
    flag: str, value: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser("serve").parse_args(["serve", flag, value])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}: {says}" in error
