"""Write docs/nginx.conf for a card room's nodes: its part between ``# nodes: begin`` and ``# nodes:
end`` made for the nodes named, and its ``listen`` address.

    python3 deploy/nginx_conf.py n1=10.0.0.1:8000 n2=10.0.0.2:8000 --listen 0.0.0.0:80 > nginx.conf

Each node is ``NAME=HOST:PORT``, NAME being its ``tuolaji serve --node-name``. The part written holds
the upstream of every node (``tuolaji``: any node serves any client), an upstream per node (that
node, the others as backups while it is down) and the map from ``/ws?node=NAME`` to it
(docs/PROTOCOL.md §3). Python's standard library only; ``deploy/local-cluster.sh`` uses it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "docs" / "nginx.conf"
NODES = re.compile(r"^( *)# nodes: begin\n.*?^ *# nodes: end\n", re.MULTILINE | re.DOTALL)
LISTEN = re.compile(r"^( *)listen [^;]+;", re.MULTILINE)
FAILS = "max_fails=1 fail_timeout=10s"


def node_part(nodes: list[tuple[str, str]], indent: str) -> str:
    """The text between the markers (the markers included) for ``nodes``: (name, host:port) pairs."""
    lines = [
        "# nodes: begin",
        "# Any node: a dead node is skipped for 10 s after a failed connect; its clients reconnect here.",
        "upstream tuolaji {",
        *(f"    server {address} {FAILS};" for _, address in nodes),
        "}",
        "# One node (the name its --node-name gives it), the others as backups while it is down.",
    ]
    for name, address in nodes:
        lines += [f"upstream tuolaji_{name} {{", f"    server {address} {FAILS};"]
        lines += [f"    server {other} backup;" for _, other in nodes if other != address]
        lines.append("}")
    lines += [
        "# /ws?node=NAME: that node's upstream; no name, or one not listed here: any node.",
        "map $arg_node $tuolaji_ws {",
        "    default tuolaji;",
        *(f"    {name} tuolaji_{name};" for name, _ in nodes),
        "}",
        "# nodes: end",
    ]
    return "".join(f"{indent}{line}\n" for line in lines)


def render(template: str, nodes: list[tuple[str, str]], listen: str) -> str:
    """``template`` (docs/nginx.conf's text) for ``nodes`` and the ``listen`` address; ``ValueError``
    if it lacks the node part or the listen line."""
    if NODES.search(template) is None or LISTEN.search(template) is None:
        raise ValueError("the template has no '# nodes: begin' … '# nodes: end' part or no listen line")
    text = NODES.sub(lambda match: node_part(nodes, match[1]), template, count=1)
    return LISTEN.sub(lambda match: f"{match[1]}listen {listen};", text, count=1)


def node_spec(text: str) -> tuple[str, str]:
    """``NAME=HOST:PORT`` as (name, address); ``argparse.ArgumentTypeError`` naming a bad one."""
    name, equals, address = text.partition("=")
    if not equals or not name.isascii() or not name.isalnum() or not re.fullmatch(r"[\w.\-\[\]:]+:\d+", address):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=HOST:PORT, NAME letters and digits")
    return name, address


def main() -> int:
    """Print the configuration for the nodes on the command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("nodes", nargs="+", type=node_spec, metavar="NAME=HOST:PORT", help="the nodes")
    parser.add_argument("--listen", default="127.0.0.1:8000", help="where nginx listens (default 127.0.0.1:8000)")
    parser.add_argument("--template", type=Path, default=TEMPLATE, help="the file to start from (docs/nginx.conf)")
    args = parser.parse_args()
    names = [name for name, _ in args.nodes]
    if len(set(names)) != len(names):
        parser.error(f"a node named twice: {' '.join(names)}")
    try:
        sys.stdout.write(render(args.template.read_text(), args.nodes, args.listen))
    except ValueError as error:
        parser.error(f"{args.template}: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
