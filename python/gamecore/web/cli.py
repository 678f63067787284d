"""``gamecore serve``: its options and its handler (the web framework is imported on use)."""

from __future__ import annotations

import argparse
import threading
import time
import webbrowser
from typing import Any, TextIO

from .._cli_types import add_backend
from ..errors import GamecoreError

__all__ = ["add_subparser", "run"]

#: The addresses the server may listen on: this machine only.
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_subparser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="the web board: play, watch and study every game in the browser (needs gamecore[web])",
        description="Serve the web board on this machine and open it in the browser. Every tab is its "
        "own game. Needs the optional extra: pip install 'gamecore[web]'.",
    )
    p.add_argument("--host", default="127.0.0.1", choices=LOOPBACK, help="address to listen on (this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument("--replays", metavar="FILE", help="a tournament's games.json or results database, to replay")
    p.add_argument("--sessions", type=int, default=32, metavar="N", help="most games at once (default 32)")
    p.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="engines that think at once (default: the CPUs, at least 2); the others wait their turn",
    )
    add_backend(p)
    p.set_defaults(serve_handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        import uvicorn  # noqa: PLC0415 -- the optional extra, imported only by this command

        from .app import create_app  # noqa: PLC0415 -- imports starlette (the extra)
    except ImportError as exc:
        raise GamecoreError(f"gamecore serve needs the web extra: pip install 'gamecore[web]' ({exc})") from None
    if not 1 <= args.sessions <= 1000:
        raise GamecoreError("--sessions must be from 1 to 1000")
    if args.threads is not None and not 1 <= args.threads <= 256:
        raise GamecoreError("--threads must be from 1 to 256")
    app = create_app(replay_path=args.replays, max_sessions=args.sessions, threads=args.threads, backend=args.backend)
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning"))

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if not server.started:
            return
        port = server.servers[0].sockets[0].getsockname()[1]
        url = f"http://{'[::1]' if args.host == '::1' else args.host}:{port}/"
        print(f"gamecore web board on {url} (Ctrl-C stops it)", file=out, flush=True)
        if not args.no_browser:
            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    server.run()
    return 0
