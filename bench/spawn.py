"""Runs the harness's measured commands from a small process (bench/harness.py starts it).

A child's peak RSS (`ru_maxrss`) includes the memory of the process it was forked from, up to its exec; forked
from the harness, which holds the generated flows, every child would report the harness's size. This process
stays small: it reads one JSON request a line on standard input ({"command", "timeout", "stdout", "stderr"}),
forks and execs the command (in a new session, standard input from /dev/null), waits for it with os.wait4 and
answers one JSON line: {"wall": s, "cpu": user + system s, "maxrss": KB, "code": exit code or null when killed
at the timeout}.
"""

import json
import os
import signal
import sys
import time


def run(request: dict) -> dict:
    """Fork, exec and wait for one command, killing its process group at the timeout."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, request["stdout"], os.O_WRONLY | os.O_CREAT |
                                    os.O_TRUNC), (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
                os.dup2(os.open(path, flags, 0o644), fd)
            os.execv(request["command"][0], request["command"])
        finally:
            os._exit(127)
    killed = []

    def kill(*_) -> None:
        killed.append(True)
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGALRM, kill)
    signal.setitimer(signal.ITIMER_REAL, request["timeout"])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    signal.setitimer(signal.ITIMER_REAL, 0)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss,
            "code": None if killed else os.waitstatus_to_exitcode(status)}


for line in sys.stdin:
    print(json.dumps(run(json.loads(line))), flush=True)
