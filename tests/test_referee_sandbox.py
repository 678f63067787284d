"""The referee's sandbox against the attacks of issue 18 (rows 1-4, 9-12, 20, the self-kill case,
and the soak). Each hostile bot below *reports* a successful attack by raising (so the attack
shows up as a forfeit with its own words in the record) and plays honestly when it is fenced
off; the tests also look from outside: processes, cgroups, IPC objects and files left behind.

Run as root with bubblewrap (CI installs it): the containment tests must run, not skip.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gamecore.errors import GamecoreError
from gamecore.referee import cgroups, sandbox
from gamecore.referee.bots import resolve
from gamecore.referee.play import play_game
from gamecore.referee.report import standings
from gamecore.referee.sandbox import (
    BASIC_WARNING,
    BotProcess,
    become_subreaper,
    bot_uids,
    full_isolation_missing,
    sweep_orphans,
)
from gamecore.referee.tournament import TournamentConfig, run_tournament
from referee_bots import HONEST, stray_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's sandbox is Linux-only")
ROOT = os.geteuid() == 0
needs_full = pytest.mark.skipif(
    not ROOT or bool(full_isolation_missing()), reason=f"needs --isolation full: {full_isolation_missing()}"
)

FAST: dict[str, Any] = {
    "time": 0.5,
    "grace": 0.7,
    "startup": 20.0,
    "sizes": [6],
    "progress": False,
    "workers": 2,
    "games": 1,
}

#: body of ``class Bot(MyPlayer)`` by name: each raises when its attack worked.
ATTACKS = {
    # row 1: a child in a session of its own, meant to outlive the game
    "setsid": """
    def setup(self):
        import os
        if os.fork() == 0:
            os.setsid()
            os.execv("/bin/sleep", ["sleep", "4321"])
""",
    # row 2: think forever (the referee is killed meanwhile); leaves a SysV segment too
    "thinker": """
    def setup(self):
        import ctypes
        libc = ctypes.CDLL(None)
        if libc.shmget(0x6A6D65, 1 << 20, 0o1666) < 0:
            raise RuntimeError("shmget failed")
    def move(self, board):
        import os
        for _ in range(4):
            if os.fork() == 0:
                while True:
                    pass
        while True:
            pass
""",
    # row 3: CPU-spinning children, each in its own session
    "spinner": """
    def setup(self):
        import os
        for _ in range(6):
            if os.fork() == 0:
                os.setsid()
                while True:
                    pass
""",
    # row 3: children that together hold far more memory than the bot's cap
    "hoarder": """
    def setup(self):
        import os, select, time
        read, write = os.pipe()
        children = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                data = b"x" * (150 << 20)
                os.write(write, b"1")
                time.sleep(60)
                os._exit(len(data) & 1)
            children.append(pid)
        os.close(write)
        held, deadline = 0, time.monotonic() + 8
        while held < 4 and time.monotonic() < deadline:
            if select.select([read], [], [], 0.5)[0]:
                chunk = os.read(read, 8)
                if not chunk:
                    break
                held += len(chunk)
        # each child said it held its 150 MB; the attack worked only if all four still live
        # (the OOM killer may take a child after it has said so)
        time.sleep(0.2)
        if held == 4 and all(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in children):
            raise RuntimeError("four children hold 600 MB together")
""",
    # row 3: a fork bomb (bounded)
    "forkbomb": """
    def setup(self):
        import os, time
        started = 0
        try:
            while started < 300:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                started += 1
        except OSError:
            return
        raise RuntimeError("started %d processes" % started)
""",
    # row 4: the other bots' files, wherever the referee staged them
    "stager": """
    def setup(self):
        import glob, os, sys
        # The Python runtime and the venv are mapped read-only into every bot's view (in CI
        # they sit under /tmp, with every optional extra): skip them, as a real thief would;
        # reading them all outlasts the start-up time and holds no other bot's file.
        prefixes = (sys.prefix, sys.base_prefix, sys.exec_prefix)
        runtime = tuple({p + os.sep for p in prefixes} | {os.path.realpath(p) + os.sep for p in prefixes})
        patterns = ("/tmp/**", "/var/tmp/**", "/dev/shm/**", "/*/gamecore-bot-*/**", "/proc/*/cwd/*", "/proc/*/root/tmp/*")
        for pattern in patterns:
            for path in glob.glob(pattern, recursive=True):
                if path.startswith(runtime):
                    continue
                try:
                    with open(path, "rb") as fh:
                        data = fh.read(1 << 20)
                except OSError:
                    continue
                victim = "SECRET_OWNER = '%s'" % ("vic" + "tim")  # not in this source as it is
                if SECRET.encode() in data and victim.encode() in data:
                    raise RuntimeError("read the victim's source at %s" % path)
""",
    # row 9: host sockets (a path, an abstract name, TCP on loopback) and device nodes
    "connector": """
    def setup(self):
        import os, socket
        for family, address in ((socket.AF_UNIX, UNIX_PATH), (socket.AF_UNIX, ABSTRACT), (socket.AF_INET, ("127.0.0.1", PORT))):
            with socket.socket(family, socket.SOCK_STREAM) as s:
                s.settimeout(0.5)
                if s.connect_ex(address) == 0:
                    raise RuntimeError("connected to %r" % (address,))
        for path in ("/dev/fuse", "/dev/kmsg", "/dev/mem", "/dev/tty", "/dev/shm", "/run", "/sys", "/var/run", "/etc/shadow", "/etc/passwd", "/root/.bashrc", "/home"):
            if os.path.exists(path):
                raise RuntimeError("%s is in the bot's view" % path)
""",
    # row 10: the results database through /proc
    "dbwriter": """
    def setup(self):
        import glob, os
        for link in glob.glob("/proc/*/fd/*") + glob.glob("/proc/*/cwd"):
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target.endswith(".sqlite"):
                try:
                    with open(link, "r+b"):
                        pass
                except OSError:
                    continue
                raise RuntimeError("opened the database %s for writing" % target)
        if os.path.exists(DB):
            raise RuntimeError("the database is in the bot's view")
""",
    # row 12: root
    "rootcheck": """
    def setup(self):
        import os
        if 0 in os.getresuid() or 0 in os.getresgid() or 0 in os.getgroups():
            raise RuntimeError("running as root: %r %r" % (os.getresuid(), os.getgroups()))
        with open("/proc/self/status") as fh:
            status = fh.read()
        if "NoNewPrivs:\\t1" not in status:
            raise RuntimeError("no_new_privs is off")
        for line in status.splitlines():
            if line.startswith(("CapEff", "CapPrm")) and int(line.split()[1], 16):
                raise RuntimeError("has capabilities: " + line)
""",
    # row 20: a SysV shared memory segment, detached and left
    "shm": """
    def setup(self):
        import ctypes
        libc = ctypes.CDLL(None)
        for key in (0, 0x6A6D66):
            if libc.shmget(key, 1 << 20, 0o1666) < 0:
                raise RuntimeError("shmget failed")
""",
    # seccomp: what remains after the namespaces and the uid
    "syscalls": """
    def setup(self):
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        for name, call in (("unshare", lambda: libc.unshare(0x10000000)),
                           ("ptrace", lambda: libc.ptrace(16, 1, 0, 0)),
                           ("keyctl", lambda: libc.syscall(250, 0, 0, 0, 0)),
                           ("io_uring_setup", lambda: libc.syscall(425, 1, 0)),
                           ("userfaultfd", lambda: libc.syscall(323, 0))):
            if call() >= 0:
                raise RuntimeError("%s worked" % name)
            if ctypes.get_errno() not in (1, 38):  # EPERM (the filter) or ENOSYS
                raise RuntimeError("%s failed with errno %d, not by the filter" % (name, ctypes.get_errno()))
""",
    # issue 31, point 1: the raw clone() system call making a user (and network, mount...)
    # namespace of its own, where the child holds every capability and opens raw sockets
    "userns": """
    def setup(self):
        import ctypes, os, platform, socket
        number = {"x86_64": 56, "aarch64": 220}.get(platform.machine())
        if number is None:
            raise RuntimeError("no clone number for " + platform.machine())
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        new_user, new_net, new_ns, sigchld = 0x10000000, 0x40000000, 0x00020000, 17
        for flags in (new_user | new_net, new_user, new_user | new_ns, new_user | new_net | new_ns | 0x20000000):
            read, write = os.pipe()
            pid = libc.syscall(number, ctypes.c_ulong(flags | sigchld), None, None, None, None)
            if pid == 0:  # the child, in namespaces of its own: does it hold raw sockets?
                try:
                    socket.socket(17, socket.SOCK_RAW).close()  # AF_PACKET
                    os.write(write, b"raw socket")
                except OSError as exc:
                    os.write(write, str(exc).encode())
                os._exit(0)
            errno = ctypes.get_errno()
            os.close(write)
            if pid > 0:
                os.waitpid(pid, 0)
                raise RuntimeError("clone(%#x) made namespaces: %s" % (flags, os.read(read, 200)))
            os.close(read)
            if errno != 1:
                raise RuntimeError("clone(%#x) failed with errno %d, not by the filter" % (flags, errno))
""",
    # issue 31, point 2: every socket family but AF_UNIX and the namespace's own loopback
    # (AF_VSOCK reaches the hypervisor; AF_NETLINK, AF_PACKET, AF_ALG... the kernel)
    "families": """
    def setup(self):
        import ctypes, os, platform, socket
        calls = {"x86_64": (41, 53), "aarch64": (198, 199)}.get(platform.machine())
        if calls is None:
            raise RuntimeError("no socket numbers for " + platform.machine())
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        for family in (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6):  # what a bot may use
            socket.socket(family, socket.SOCK_STREAM).close()
        opened = []
        pair = (ctypes.c_int * 2)()
        # every family number, and AF_NETLINK with high bits set (the kernel reads an int)
        for family in list(range(64)) + [(1 << 32) | 16, (1 << 63) | 40]:
            if family in (1, 2, 10):
                continue
            for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.SOCK_RAW, socket.SOCK_SEQPACKET):
                fd = libc.syscall(calls[0], ctypes.c_ulong(family), kind, 0)
                if fd >= 0:
                    os.close(fd)
                    opened.append("socket(%#x, %d)" % (family, kind))
                if libc.syscall(calls[1], ctypes.c_ulong(family), kind, 0, pair) == 0:
                    os.close(pair[0])
                    os.close(pair[1])
                    opened.append("socketpair(%#x, %d)" % (family, kind))
        if opened:
            raise RuntimeError("opened " + ", ".join(opened[:8]))
        try:
            socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)
        except OSError as exc:
            if exc.errno != 97:  # EAFNOSUPPORT: the filter's answer (the kernel would open it)
                raise RuntimeError("AF_NETLINK refused by %r, not by the filter" % exc)
""",
    # issue 31, point 5: the host's control line written by the bot on its own reply channel,
    # a stream of them for 5 s, to keep its move's deadline open
    "forger": """
    def move(self, board):
        import os, time
        line = b'{"type":"sandboxed"}\\n'
        for fd in map(int, os.listdir("/proc/self/fd")):
            try:
                pipe = os.readlink("/proc/self/fd/%d" % fd).startswith("pipe:")
                with open("/proc/self/fdinfo/%d" % fd) as info:
                    flags = next(line for line in info if line.startswith("flags:"))
                writable = int(flags.split()[1], 8) & 3 == 1  # O_WRONLY
            except OSError:
                continue
            if pipe and writable:  # the host's reply channel, a dup it keeps in this process
                end = time.monotonic() + 5
                while time.monotonic() < end:
                    os.write(fd, line)
                    time.sleep(0.01)
        return self.honest(board)
""",
    # issue 31: bubblewrap's command line (the machine's paths, a hidden database's) read
    # through /proc by the bot
    "cmdline": """
    def setup(self):
        import glob
        for path in glob.glob("/proc/*/cmdline"):
            try:
                with open(path, "rb") as fh:
                    words = fh.read().split(b"\\0")
            except OSError:
                continue
            if b"--ro-bind" in words or b"--seccomp" in words:
                raise RuntimeError("read bubblewrap's options in %s: %r" % (path, words[:12]))
""",
    # pondering: a thread that keeps computing while the opponent thinks (it reports the
    # longest stretch it was stopped; frozen between its turns, that is the opponent's time)
    "ponderer": """
    def setup(self):
        import threading, time
        self.longest, self.moves = 0.0, 0
        def spin():
            last = time.monotonic()
            while True:
                now = time.monotonic()
                self.longest, last = max(self.longest, now - last), now
        threading.Thread(target=spin, daemon=True).start()
    def move(self, board):
        self.moves += 1
        if self.moves == 4:
            raise RuntimeError("longest stop %.3f s" % self.longest)
        return self.honest(board)
""",
    # an honest opponent that takes a known time over each move
    "slow": """
    def move(self, board):
        import time
        time.sleep(0.3)
        return self.honest(board)
""",
    # the self-kill case: in the course framework the bot dies and forfeits
    "selfkill": """
    def move(self, board):
        import os, signal, time
        os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(2)
        return self.honest(board)
""",
    "selfterm": """
    def move(self, board):
        import os, signal, time
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(2)
        return self.honest(board)
""",
}


def write_attack(folder: os.PathLike, name: str, **constants: object) -> str:
    """Write attack ``name`` (or ``honest``) as ``folder/name/player.py``; returns the folder."""
    head = "".join(f"{key} = {value!r}\n" for key, value in constants.items())
    source = head + HONEST
    if name != "honest":
        body = textwrap.indent(textwrap.dedent(ATTACKS[name]), "    ")
        source += "\n\nclass Bot(MyPlayer):\n" + body + "\n\nMyPlayer = Bot\n"
    path = os.path.join(folder, name)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "player.py"), "w", encoding="utf-8") as fh:
        fh.write(source)
    return path


def _task(*bots: dict, time_per_move: float = 0.5, **rules: object) -> dict:
    return {
        "key": "t/6/0-1/g0",
        "game": "othello",
        "size": 6,
        "seed": 0,
        "bots": list(bots),
        "rules": {"time": time_per_move, "grace": 0.7, "startup": 20.0, **rules},
    }


def bot_processes(referee: int | None = None) -> list[str]:
    """Every process running as a uid of the bots of referee process ``referee`` (default: this
    one), whatever its environment (other referees on the machine are not ours to count)."""
    uids = bot_uids(os.getpid() if referee is None else referee)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="utf-8") as fh:
                status = fh.read()
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        ids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
        if "State:\tZ" not in status and any(int(u) in uids for u in ids):
            found.append(f"{entry}: {cmdline}")
    return found


def our_groups(referee: int | None = None) -> list[str]:
    """The bots' cgroup folders made by referee process ``referee`` (default: this one)."""
    prefix = f"{os.getpid() if referee is None else referee}."
    found = []
    for controller in cgroups.V1_CONTROLLERS if cgroups.hierarchy() == "v1" else [None]:
        parent = cgroups._parents(cgroups.hierarchy() or "v1")[
            cgroups.V1_CONTROLLERS.index(controller) if controller else 0
        ]
        if os.path.isdir(parent):
            found += [os.path.join(parent, n) for n in os.listdir(parent) if n.startswith(prefix)]
    return found


def shm_segments() -> set[str]:
    with open("/proc/sysvipc/shm", encoding="utf-8") as fh:
        return {line.split()[1] for line in fh.readlines()[1:]}  # shmid column


def staged_folders(referee: int | None = None) -> list[str]:
    """The staging folders of ``basic`` bots of referee process ``referee`` in the temporary directory."""
    prefix = f"gamecore-bot-{os.getpid() if referee is None else referee}."
    return [n for n in os.listdir(tempfile.gettempdir()) if n.startswith(prefix)]


def assert_nothing_left(shm_before: set[str], staged_before: list[str]) -> None:
    deadline = time.monotonic() + 5
    while (bot_processes() or stray_processes()) and time.monotonic() < deadline:
        time.sleep(0.05)  # a killed process is reaped by its parent a moment later
    assert bot_processes() == [] and stray_processes() == []
    assert our_groups() == []
    assert shm_segments() <= shm_before
    assert staged_folders() == staged_before


def _forfeits(record: dict) -> dict:
    return {f["player"]: (f["reason"], f["detail"][-200:]) for f in record["forfeits"]}


@pytest.fixture
def clean():
    """Snapshot of what a run could leave behind; checks after the test that nothing was."""
    shm, staged = shm_segments(), staged_folders()
    yield
    assert_nothing_left(shm, staged)


# -- rows 1 and 3: a bot is one group of processes, capped and killed as a whole ------------------


@needs_full
def test_a_bot_computes_only_on_its_own_turn(tmp_path, clean):
    # The opponent sleeps 0.3 s a move: frozen between its turns, the ponderer's thread stops
    # for at least that long each time; free to run, it would never stop for more than the
    # scheduler's slices (row 3's honest bots starved by others' background work).
    record = play_game(_task(resolve(write_attack(tmp_path, "ponderer")), resolve(write_attack(tmp_path, "slow"))))
    reason, detail = _forfeits(record)["ponderer"]
    assert reason == "exception" and "longest stop" in detail, (reason, detail)
    assert float(detail.rsplit("longest stop ", 1)[1].split()[0]) >= 0.25, detail


@needs_full
def test_row1_setsid_child_lives_only_as_long_as_its_game(tmp_path, clean):
    seen = []
    record = play_game(
        _task(resolve(write_attack(tmp_path, "setsid")), resolve("random")),
        on_move=lambda move: seen.append([p for p in bot_processes() if p.endswith("sleep 4321 ")]),
    )
    assert record["forfeits"] == []
    assert max(len(s) for s in seen) == 1  # the setsid child was alive during the game...
    # ...and is gone with it (the fixture checks: no process of a bot uid, no cgroup left)


@needs_full
def test_row3_spinning_children_share_one_core_in_the_bots_group(tmp_path, clean):
    samples: list[tuple[int, str]] = []

    def sample(move: dict) -> None:
        for group in our_groups():
            if "/pids/" in group or cgroups.hierarchy() == "v2":
                procs = Path(group, "cgroup.procs").read_text().split()
                cpu = group.replace("/pids/", "/cpu/") if cgroups.hierarchy() == "v1" else group
                if cgroups.hierarchy() == "v1":
                    quota = Path(cpu, "cpu.cfs_quota_us").read_text().strip()
                    period = Path(cpu, "cpu.cfs_period_us").read_text().strip()
                else:
                    quota, period = Path(cpu, "cpu.max").read_text().split()
                in_cpu_group = len(Path(cpu, "cgroup.procs").read_text().split())
                samples.append((min(len(procs), in_cpu_group), f"{quota}/{period}"))

    spinner = resolve(write_attack(tmp_path, "spinner"))
    record = play_game(_task(spinner, resolve("random"), time_per_move=0.3), on_move=sample)
    assert record["forfeits"] == []
    # the host and its six setsid children, all in the bot's one group, capped at one core's worth
    # (whether the kernel had to throttle them depends on the machine's load: not asserted)
    spinning = [cap for count, cap in samples if count >= 7]
    assert spinning, samples
    assert set(spinning) == {"100000/100000"}
    # all bots together weigh as one process per core against the rest of the machine
    if cgroups.hierarchy() == "v1":
        parent = cgroups._parents("v1")[cgroups.V1_CONTROLLERS.index("cpu")]
        assert int(Path(parent, "cpu.shares").read_text()) == 1024 * (os.cpu_count() or 1)


@needs_full
def test_row3_children_cannot_hold_more_than_the_bots_memory_cap(tmp_path, clean):
    peaks = []

    def sample(move: dict) -> None:
        for group in our_groups():
            if "/memory/" in group:
                peaks.append(int(Path(group, "memory.max_usage_in_bytes").read_text()))

    hoarder = resolve(write_attack(tmp_path, "hoarder"))
    record = play_game(_task(hoarder, resolve("random"), memory_mb=400, startup=30.0), on_move=sample)
    # the hoarder raises if its four children ever held 150 MB each at once
    assert record["forfeits"] == [], _forfeits(record)
    if cgroups.hierarchy() == "v1":
        assert peaks and max(peaks) <= 400 << 20


@needs_full
def test_row3_a_fork_bomb_stops_at_the_bots_process_cap(tmp_path, clean):
    record = play_game(_task(resolve(write_attack(tmp_path, "forkbomb")), resolve("random")))
    assert record["forfeits"] == [], _forfeits(record)


# -- row 2: the referee killed with -9 mid-game ---------------------------------------------------


REFEREE = """
import sys
from gamecore.referee.tournament import TournamentConfig, run_tournament
run_tournament(TournamentConfig([sys.argv[1], "random"], sizes=[6], time=30.0, grace=1.0, games=1,
                                db=sys.argv[2], progress=False, workers=1))
"""


@needs_full
def test_row2_a_referee_killed_with_minus_9_leaves_nothing_behind(tmp_path):
    shm_before = shm_segments()
    thinker = write_attack(tmp_path, "thinker")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    referee = subprocess.Popen(
        [sys.executable, "-c", REFEREE, thinker, str(tmp_path / "t.sqlite")], env=env, stdout=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the bot is thinking, with its four spinning children
            if len([p for p in bot_processes(referee.pid) if "gamecore.referee.host" in p]) >= 5:
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"the thinker never got to think: {bot_processes(referee.pid)}")
        assert our_groups(referee.pid)
    finally:
        referee.send_signal(signal.SIGKILL)
        referee.wait()
    deadline = time.monotonic() + 10
    while bot_processes(referee.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert bot_processes(referee.pid) == []  # the sandbox died with its referee, frozen or not
    assert shm_segments() <= shm_before  # its IPC namespace too
    assert staged_folders(referee.pid) == []  # nothing was staged on disk
    while our_groups(referee.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert our_groups(referee.pid) == []  # the referee's watcher removed its groups


@needs_full
def test_the_groups_of_a_referee_whose_watcher_died_too_are_swept_at_the_next_start(tmp_path):
    # A referee and its watcher both killed (kill -9 of both, or a power loss): the next
    # referee's start removes what is left. Made by hand here: a group named after a dead process.
    dead = subprocess.Popen(["true"])
    dead.wait()
    group = cgroups.BotGroup(memory_bytes=64 << 20, pids=8)
    name = f"{dead.pid}.1.0"
    renamed = [os.path.join(os.path.dirname(path), name) for path in group.dirs]
    for old, new in zip(group.dirs, renamed):
        os.rename(old, new)
    group.dirs = []
    assert cgroups.sweep_stale() >= 1
    assert not any(os.path.exists(path) for path in renamed)


# -- rows 4, 9, 10, 12, 20 and seccomp: what a bot can see and do -----------------------------------


@needs_full
def test_row4_a_bot_never_sees_another_bots_staged_files(tmp_path, clean):
    secret = "the victim's secret opening book"
    victim = write_attack(tmp_path, "honest", SECRET=secret, SECRET_OWNER="victim")
    (Path(victim) / "player.py").chmod(0o644)
    stager = write_attack(tmp_path, "stager", SECRET=secret)
    staged_on_disk = []

    def look(move: dict) -> None:  # while the game runs: no copy of the victim's source in /tmp
        top = tempfile.gettempdir()
        for name in os.listdir(top):
            if not name.startswith("gamecore-bot-"):
                continue  # where the referee staged bots until issue 18
            for root, _, files in os.walk(os.path.join(top, name)):
                for file in files:
                    try:
                        if secret.encode() in Path(root, file).read_bytes():
                            staged_on_disk.append(os.path.join(root, file))
                    except OSError:
                        pass

    record = play_game(_task(resolve(stager), resolve(victim)), on_move=look)
    assert record["forfeits"] == [], _forfeits(record)
    assert staged_on_disk == []


@needs_full
def test_row9_no_host_socket_or_device_is_reachable(tmp_path, clean):
    open_dir = tmp_path / "open"
    open_dir.mkdir(mode=0o777)
    for folder in [open_dir, *open_dir.parents]:
        if folder == Path("/"):
            break
        folder.chmod(folder.stat().st_mode | 0o005)
    unix_path = str(open_dir / "host.sock")
    abstract = f"\0gamecore-test-{os.getpid()}"
    servers = []
    for family, address in (
        (socket.AF_UNIX, unix_path),
        (socket.AF_UNIX, abstract),
        (socket.AF_INET, ("127.0.0.1", 0)),
    ):
        server = socket.socket(family, socket.SOCK_STREAM)
        server.bind(address)
        server.listen(5)
        server.settimeout(0.01)
        servers.append(server)
    os.chmod(unix_path, 0o777)
    port = servers[2].getsockname()[1]
    bot = write_attack(tmp_path, "connector", UNIX_PATH=unix_path, ABSTRACT=abstract, PORT=port)
    record = play_game(_task(resolve(bot), resolve("random")))
    assert record["forfeits"] == [], _forfeits(record)
    for server in servers:
        with pytest.raises(OSError):  # socket.timeout: nobody came
            server.accept()
        server.close()


@needs_full
def test_row10_the_database_is_out_of_a_bots_reach(tmp_path, clean):
    db = tmp_path / "t.sqlite"
    bot = write_attack(tmp_path, "dbwriter", DB=str(db))
    config = TournamentConfig([bot, "random"], db=str(db), **FAST)
    records = run_tournament(config)
    assert [r["forfeits"] for r in records] == [[]]


@pytest.mark.skipif(not ROOT, reason="the refusal is for root")
def test_row10_12_basic_isolation_refuses_submissions_as_root(tmp_path, capsys):
    bot = write_attack(tmp_path, "honest")
    config = TournamentConfig([bot, "random"], db=str(tmp_path / "t.sqlite"), isolation="basic", **FAST)
    with pytest.raises(GamecoreError, match="refusing to run submitted bots"):
        run_tournament(config)
    # built-in players still run in basic, with the warning, and not as root
    config = TournamentConfig(["random", "greedy"], db=str(tmp_path / "b.sqlite"), isolation="basic", **FAST)
    records = run_tournament(config, stream=sys.stdout)
    assert len(records) == 1 and records[0]["forfeits"] == []
    assert BASIC_WARNING in capsys.readouterr().out


def test_basic_isolation_says_it_is_no_boundary(tmp_path, capsys):
    config = TournamentConfig(["random", "greedy"], db=str(tmp_path / "b.sqlite"), isolation="basic", **FAST)
    run_tournament(config, stream=sys.stdout)
    lines = [line for line in capsys.readouterr().out.splitlines() if "isolation" in line]
    assert lines == [BASIC_WARNING]
    assert "NOT a security boundary" in BASIC_WARNING


@pytest.mark.skipif(not ROOT, reason="dropping to a bot uid needs root")
@pytest.mark.parametrize("isolation", ["basic", pytest.param("full", marks=needs_full)])
def test_row12_no_bot_runs_as_root_in_any_mode(isolation):
    bot = BotProcess(resolve("random"), isolation=isolation)
    try:
        bot.send({"type": "start", "game": "othello", "size": 6, "seat": 0, "seats": 2, "time": 1.0, "seed": 0})
        assert bot.receive(20)["type"] == "ready"
        hosts = [p for p in bot_processes() if "gamecore.referee.host" in p]
        assert hosts, "the host does not run as a bot uid"
        for entry in hosts:
            status = Path(f"/proc/{entry.split(':')[0]}/status").read_text()
            uids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
            assert all(int(u) in bot_uids(os.getpid()) for u in uids)
    finally:
        bot.close()


@needs_full
def test_row12_a_submitted_bot_has_no_root_and_no_capabilities(tmp_path, clean):
    record = play_game(_task(resolve(write_attack(tmp_path, "rootcheck")), resolve("random")))
    assert record["forfeits"] == [], _forfeits(record)


@needs_full
def test_row20_sysv_shared_memory_dies_with_the_game(tmp_path, clean):
    record = play_game(_task(resolve(write_attack(tmp_path, "shm")), resolve("random")))
    assert record["forfeits"] == [], _forfeits(record)  # shmget worked (inside the bot's IPC namespace)
    # the fixture checks that no segment is left on the host


@needs_full
def test_seccomp_refuses_what_remains(tmp_path, clean):
    record = play_game(_task(resolve(write_attack(tmp_path, "syscalls")), resolve("random")))
    assert record["forfeits"] == [], _forfeits(record)


@needs_full
@pytest.mark.parametrize("name", ["selfkill", "selfterm"])
def test_a_bot_that_kills_itself_forfeits_as_in_the_course_framework(tmp_path, clean, name):
    record = play_game(_task(resolve(write_attack(tmp_path, name)), resolve("random")))
    assert [(f["player"], f["reason"]) for f in record["forfeits"]] == [(name, "crash")]
    assert record["forfeits"][0]["detail"].endswith(f"died of signal {'SIGKILL' if name == 'selfkill' else 'SIGTERM'}")


@needs_full
@pytest.mark.parametrize("attack", ["userns", "families", "cmdline"])
def test_issue31_no_namespace_and_no_socket_family_but_unix_and_loopback(tmp_path, clean, attack):
    record = play_game(_task(resolve(write_attack(tmp_path, attack)), resolve("random")))
    assert record["forfeits"] == [], _forfeits(record)


@needs_full
def test_issue31_a_bot_cannot_extend_its_deadline_with_the_hosts_control_line(tmp_path, clean):
    started = time.monotonic()
    record = play_game(_task(resolve(write_attack(tmp_path, "forger")), resolve("random")))
    took = time.monotonic() - started
    (forfeit,) = record["forfeits"]
    assert forfeit["player"] == "forger" and forfeit["reason"] == "protocol", forfeit  # a forged line is no move
    assert took < 4.5, took  # the stream lasts 5 s: it never held the referee (0.5 s + 0.7 s grace a move)


# -- issue 31, point 3: one bubblewrap, found once; a sandbox that cannot start is the referee's ----------


@pytest.fixture
def own_bwrap(tmp_path, monkeypatch):
    """A ``bwrap`` of the referee's own, on its ``PATH`` only (not in the launcher's
    ``/usr/local/bin:/usr/bin:/bin``): it notes each run, then runs the real one."""
    real = sandbox.bwrap_path()
    folder = tmp_path / "tools"
    folder.mkdir()
    log = tmp_path / "bwrap.log"
    wrapper = folder / "bwrap"
    wrapper.write_text(f'#!/bin/sh\necho run >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    for cached in (sandbox.bwrap_path, sandbox.full_isolation_missing):
        cached.cache_clear()
    yield wrapper, log
    for cached in (sandbox.bwrap_path, sandbox.full_isolation_missing):
        cached.cache_clear()


@needs_full
def test_issue31_the_bwrap_the_check_found_is_the_one_that_runs(own_bwrap, tmp_path, clean):
    wrapper, log = own_bwrap
    assert sandbox.full_isolation_missing() == ""
    assert sandbox.bwrap_path() == str(wrapper)
    runs_of_the_check = log.read_text().count("run")
    record = play_game(_task(resolve("random"), resolve("greedy"), isolation="full"))
    assert record["forfeits"] == [] and record["termination"] == "normal"
    assert log.read_text().count("run") == runs_of_the_check + 2  # both bots ran in this bwrap


@needs_full
def test_issue31_a_sandbox_that_cannot_start_is_the_referees_error_and_nothing_is_stored(own_bwrap, tmp_path):
    wrapper, _ = own_bwrap
    assert sandbox.full_isolation_missing() == ""
    wrapper.unlink()  # bwrap gone after the check: no bot can start
    db = tmp_path / "t.sqlite"
    config = TournamentConfig(["random", write_attack(tmp_path, "honest")], db=str(db), isolation="full", **FAST)
    with pytest.raises(GamecoreError, match="could not build a bot's sandbox.*did not start"):
        run_tournament(config)
    # the database holds no game: nothing was recorded as a forfeit
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


# -- row 11: strays are known by pid, not by an environment they control -----------------------------


def test_row11_a_stray_with_an_empty_environment_is_swept():
    assert become_subreaper()
    # an orphan: its parent exits at once, it is re-parented to this subreaper, with no environment
    subprocess.run(["/bin/sh", "-c", "env -i /bin/sleep 4323 >/dev/null 2>&1 &"], check=True)

    def strays() -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            try:
                if entry.isdigit() and Path(f"/proc/{entry}/cmdline").read_bytes() == b"/bin/sleep\x004323\x00":
                    found.append(int(entry))
            except OSError:
                pass
        return found

    deadline = time.monotonic() + 5
    while not strays() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert strays() and Path(f"/proc/{strays()[0]}/environ").read_bytes() == b""
    assert sweep_orphans() >= 1
    assert strays() == []


def test_issue31_another_games_sweep_never_kills_a_basic_host_being_started(monkeypatch):
    # The host's pid was registered only after Popen returned: another game's sweep, run in
    # that window (widened here), killed the new host and its bot forfeited with "crash".
    assert become_subreaper()
    real_popen = subprocess.Popen
    sweeps = []

    def popen_then_sweep(*args, **kwargs):
        proc = real_popen(*args, **kwargs)
        sweep = threading.Thread(target=sweep_orphans)  # another game's thread ending its game
        sweep.start()
        sweep.join(0.5)  # the window, widened: the sweep runs now unless it must wait
        sweeps.append(sweep)
        return proc

    monkeypatch.setattr(sandbox.subprocess, "Popen", popen_then_sweep)
    bot = BotProcess(resolve("random"), isolation="basic")
    try:
        sweeps[0].join()
        bot.send({"type": "start", "game": "othello", "size": 6, "seat": 0, "seats": 2, "time": 1.0, "seed": 0})
        assert bot.receive(20)["type"] == "ready"
    finally:
        bot.close()


FORK_BOMB = """
import os, resource, sys, time
from gamecore.referee import jail, sandbox
uid = int(sys.argv[2]) if sys.argv[2] else None
config = {"work": sys.argv[1], "uid": uid, "mode": "basic", "limits": sandbox.Limits(nproc=8).as_dict(),
          "archive_fd": sandbox.pack_files({}), "bot": {"kind": "ctu"}, "executable": None}
jail.build(config)  # what the host does before any code of the bot runs
started = 0
try:
    while started < 100:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        started += 1
except OSError:
    pass
print(started, resource.getrlimit(resource.RLIMIT_NOFILE)[1], flush=True)
"""


def test_issue31_basic_isolation_caps_a_bots_processes(tmp_path):
    # Limits.nproc was documented as a cap but never applied in basic isolation
    uid = str(bot_uids(os.getpid())[-1]) if ROOT else ""  # as root, a bot runs as a uid of its own
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    bomb = subprocess.Popen(
        [sys.executable, "-c", FORK_BOMB, str(tmp_path / "work"), uid],
        stdout=subprocess.PIPE,
        env=env,
        start_new_session=True,
        text=True,
    )
    try:
        started, open_files = map(int, bomb.stdout.readline().split())
    finally:
        os.killpg(bomb.pid, signal.SIGKILL)
        bomb.wait()
    assert open_files <= 1024  # and a bounded number of open files (the kernel's file table is shared)
    if ROOT:
        assert started == 7  # eight processes of its uid, itself included
    else:  # sharing the referee's user: eight more than that user ran (others may end meanwhile)
        assert 1 <= started <= 16


# -- the soak ----------------------------------------------------------------------------------------

HONEST_PLAYERS = ["random", "greedy"]
FENCED = ["setsid", "spinner", "forkbomb", "stager", "connector", "dbwriter", "rootcheck", "shm", "syscalls"]
FORFEITING = {"selfkill": "crash", "selfterm": "crash"}


def _soak(tmp_path: Path, games: int, fenced: list[str]) -> None:
    out = tmp_path / "out"
    db = tmp_path / "t.sqlite"
    outside_before = set(os.listdir(tmp_path))
    honest_ctu = write_attack(tmp_path / "bots", "honest", SECRET="soak", SECRET_OWNER="victim")
    constants = {
        "SECRET": "soak",
        "UNIX_PATH": str(tmp_path / "none.sock"),
        "ABSTRACT": "\0gamecore-soak",
        "PORT": 9,
        "DB": str(db),
    }
    hostile = [write_attack(tmp_path / "bots", name, **constants) for name in fenced + list(FORFEITING)]
    players = HONEST_PLAYERS + [honest_ctu]
    rules = dict(FAST, games=games, seed=7)
    config = TournamentConfig(players + hostile, db=str(db), out=str(out), **rules)
    records = run_tournament(config)
    alone = TournamentConfig(players, db=str(tmp_path / "alone.sqlite"), **rules)
    alone_records = {r["key"]: r for r in run_tournament(alone)}
    honest_names = {"random", "greedy", "honest"}
    pair_games = [r for r in records if set(r["players"]) <= honest_names]
    assert len(pair_games) == len(alone_records)
    by_players = {(tuple(r["players"]), r["key"].rsplit("/", 1)[1]): r for r in alone_records.values()}
    for record in pair_games:
        twin = by_players[(tuple(record["players"]), record["key"].rsplit("/", 1)[1])]
        assert [m["move"] for m in record["moves"]] == [m["move"] for m in twin["moves"]]
        assert record["places"] == twin["places"]
    rows = {r["player"]: r for r in standings(config, records)}
    for name in honest_names:
        assert rows[name]["forfeits"] == 0
    for name in fenced:  # a fenced bot may lose its own games (the spinner starves itself), never by escaping
        reasons = set(rows[name]["forfeits_by_reason"])
        assert reasons <= {"timeout", "startup_timeout"}, [r["forfeits"] for r in records if name in r["players"]]
    for name, reason in FORFEITING.items():
        assert rows[name]["forfeits_by_reason"] == {reason: rows[name]["forfeits"]} and rows[name]["forfeits"] > 0
    assert set(os.listdir(tmp_path)) - outside_before <= {"out", "bots", "t.sqlite", "alone.sqlite"}


@needs_full
def test_soak_quick(tmp_path, clean):
    _soak(tmp_path, games=1, fenced=["setsid", "spinner", "stager", "shm", "rootcheck"])


@needs_full
@pytest.mark.slow
def test_soak(tmp_path, clean):
    _soak(tmp_path, games=2, fenced=FENCED)
