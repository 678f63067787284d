"""Tiny test bots for the referee: honest ones and one per misbehaviour of issue 12.

Every bot is a CTU ``player.py`` (``MyPlayer(my_color, opponent_color, board_size)``) written
into its own folder by :func:`write_bot`. They are small and bounded: the disk filler writes at
most 100 MB into one file, the fork bot starts three children, the memory hog asks for 4 GB once.
"""

from __future__ import annotations

import os
import sys
import textwrap

import pytest

# Legal moves of a CTU board, first in row-major order: the honest core every bot shares.
HONEST = """
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def legal_moves(board, me, other):
    n = len(board)
    moves = []
    for r in range(n):
        for c in range(n):
            if board[r][c] != -1:
                continue
            for dr, dc in DIRS:
                i, j, seen = r + dr, c + dc, False
                while 0 <= i < n and 0 <= j < n and board[i][j] == other:
                    i, j, seen = i + dr, j + dc, True
                if seen and 0 <= i < n and 0 <= j < n and board[i][j] == me:
                    moves.append((r, c))
                    break
    return moves


class MyPlayer:
    def __init__(self, my_color, opponent_color, board_size=8):
        self.me, self.other, self.size = my_color, opponent_color, board_size
        self.setup()

    def setup(self):
        pass

    def honest(self, board):
        moves = legal_moves(board, self.me, self.other)
        return moves[0] if moves else None

    def move(self, board):
        return self.honest(board)
"""

#: body of ``class Bot(MyPlayer)`` overriding ``move`` (or ``setup``), by bot name.
HOSTILE = {
    "hang": """
    def move(self, board):
        while True:
            pass
""",
    "sleeper": """
    def move(self, board):
        import time
        time.sleep(30)
        return self.honest(board)
""",
    "crasher": """
    def move(self, board):
        import os
        os._exit(3)
""",
    "raiser": """
    def move(self, board):
        raise ValueError("the student's bug")
""",
    "exiter": """
    def move(self, board):
        import sys
        sys.exit(0)
""",
    "wrongtype": """
    def move(self, board):
        r, c = self.honest(board)
        return "%d,%d" % (r, c)
""",
    "illegal": """
    def move(self, board):
        for r in range(self.size):
            for c in range(self.size):
                if board[r][c] != -1:
                    return (r, c)
""",
    "memhog": """
    def move(self, board):
        self.hoard = bytearray(4 << 30)
        return self.honest(board)
""",
    # Nuisances: they must get nowhere, and are not punished for trying.
    "forker": """
    def setup(self):
        import os
        for _ in range(3):
            if os.fork() == 0:
                try:
                    os.setsid()
                    if os.fork() == 0:
                        os.execv("/bin/sleep", ["sleep", "987"])
                finally:
                    os._exit(0)
""",
    "diskfiller": """
    def setup(self):
        chunk = b"x" * (1 << 20)
        written = 0
        try:
            with open("filler.bin", "wb") as fh:
                while written < (100 << 20):
                    fh.write(chunk)
                    fh.flush()
                    written += len(chunk)
        except OSError:
            return
        raise RuntimeError("wrote 100 MB: the disk is not capped")
""",
    "socketeer": """
    def setup(self):
        import socket
        for address in (("127.0.0.1", PORT), ("1.1.1.1", 53)):
            s = socket.socket()
            s.settimeout(0.5)
            try:
                s.connect(address)
            except OSError:
                continue
            finally:
                s.close()
            raise RuntimeError("reached %s:%d" % address)
""",
    "snooper": """
    def setup(self):
        for path in SECRETS:
            try:
                with open(path, "rb") as fh:
                    data = fh.read(64)
            except OSError:
                continue
            if data:  # an empty file is what a hidden one looks like
                raise RuntimeError("read %s: %r" % (path, data[:16]))
        try:
            with open(MARKER, "w") as fh:
                fh.write("escaped")
        except OSError:
            return
        raise RuntimeError("wrote outside its folder")
""",
    "spammer": """
    def move(self, board):
        import os, sys
        print("{\\"type\\": \\"move\\", \\"move\\": \\"a1\\"}" * 2000)
        sys.stderr.write("noise\\n" * 1000)
        os.write(1, b"raw fd 1 noise\\n" * 100)
        return self.honest(board)
""",
    "boardwriter": """
    def move(self, board):
        choice = self.honest(board)
        for row in board:
            for c in range(len(row)):
                row[c] = self.me
        board.append([self.me] * len(board))
        return choice
""",
}

#: The reason each forfeiting bot must be recorded with.
EXPECTED_REASON = {
    "hang": "timeout",
    "sleeper": "timeout",
    "crasher": "crash",
    "raiser": "exception",
    "exiter": "exit",
    "wrongtype": "bad_return",
    "illegal": "illegal_move",
    "memhog": "memory",
}
NUISANCES = ["forker", "diskfiller", "socketeer", "snooper", "spammer", "boardwriter"]


def bot_source(name: str, **constants: object) -> str:
    head = "".join(f"{key} = {value!r}\n" for key, value in constants.items())
    if name == "honest":
        return head + HONEST
    body = textwrap.indent(textwrap.dedent(HOSTILE[name]), "    ")
    return head + HONEST + "\n\nclass Bot(MyPlayer):\n" + body + "\n\nMyPlayer = Bot\n"


def write_bot(folder: os.PathLike, name: str, **constants: object) -> str:
    """Write bot ``name`` as ``folder/name/player.py``; returns the folder."""
    path = os.path.join(folder, name)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "player.py"), "w", encoding="utf-8") as fh:
        fh.write(bot_source(name, **constants))
    return path


def stray_processes(referee: int | None = None) -> list[str]:
    """Processes left over by the bots of referee process ``referee`` (default: this process):
    anything with its marker in the environment (the fork bot's ``sleep 987`` included).
    Bots of other referees on the machine (another test run) are not ours to count."""
    marker = b"GAMECORE_REFEREE=%d\0" % (os.getpid() if referee is None else referee)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{entry}/environ", "rb") as fh:
                environ = fh.read()
            with open(f"/proc/{entry}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state == b"Z":
            continue
        if marker in environ:
            found.append(f"{entry}: {cmdline}")
    return found


def sandbox_missing() -> str:
    """Why submitted bots cannot run here ("" when they can): as root the referee runs them only
    in its sandbox (bubblewrap, libseccomp, writable cgroups), never in ``basic`` isolation."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return ""
    from gamecore.referee.sandbox import full_isolation_missing  # noqa: PLC0415 (Linux only)

    return full_isolation_missing()


#: For a test that runs submitted bots: skipped, in one line naming what to install, where the
#: referee would refuse them (as root without its sandbox). CI installs bubblewrap: it runs them.
needs_sandbox = pytest.mark.skipif(
    bool(sandbox_missing()), reason=f"as root the referee runs submitted bots only in its sandbox: {sandbox_missing()}"
)
