"""What a program that runs out of memory is told (issue 31, point 9): the same error on both
backends, and a file read no further than it may be long."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")

TOO_BIG_A_TABLE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from gamecore.search.engine import Engine
try:
    Engine(tt_mb=4096)
except BaseException as exc:
    print(type(exc).__name__ + ": " + str(exc))
"""


def _run(code: str, backend: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), GAMECORE_BACKEND=backend)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120)


def test_a_transposition_table_too_big_for_the_address_space_is_memory_error_on_both(backend):
    # it was MemoryError compiled and OSError (from mmap) pure
    result = _run(TOO_BIG_A_TABLE, backend.name)
    assert result.stdout.strip() == "MemoryError: cannot allocate a 4096.0 MB transposition table", result.stderr


def test_play_load_reads_no_further_than_a_record_may_be_long():
    # --load /dev/zero read the whole endless stream first: a MemoryError traceback under a limit
    code = "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    code += "from gamecore.cli import main; sys.exit(main(sys.argv[1:]))"
    result = _run(code, "python", "play", "othello", "--load", "/dev/zero", "--black", "random", "--white", "random")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "gamecore: error: /dev/zero is longer than a game record may be (100000 characters)"
    ]
