#!/usr/bin/env python3
"""Compare commands by running them in turn, round after round.

Usage: python3 bench/alternate.py ROUNDS 'LABEL|ENV|COMMAND' ['LABEL|ENV|COMMAND' ...]

Each round runs every command once, in the order given, so that all of them
share the machine's load as it changes (this machine is shared: the same
binary can take 10-20% longer a few minutes later). ENV is empty or
`NAME=value;NAME=value` added to the environment; COMMAND is split on spaces
(no quoting). Standard output and error are discarded. For each command the
script prints the median wall time, the median CPU time (user + system) and
the median and largest peak RSS (`ru_maxrss`) over the rounds.

Example, two builds of flowkit on the bench's 10,000-step flow:

    python3 bench/alternate.py 30 \
        "before||/tmp/flowkit-before lint --format json bench/.work/flow-10000.json" \
        "after||.build/release/flowkit lint --format json bench/.work/flow-10000.json"
"""

import os
import statistics
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rounds = int(sys.argv[1])
    commands = []
    for spec in sys.argv[2:]:
        parts = spec.split("|", 2)
        if len(parts) != 3:
            print(f"alternate.py: not LABEL|ENV|COMMAND: {spec!r}", file=sys.stderr)
            return 2
        commands.append(parts)
    wall = {label: [] for label, _, _ in commands}
    cpu = {label: [] for label, _, _ in commands}
    rss = {label: [] for label, _, _ in commands}
    for _ in range(rounds):
        for label, env, command in commands:
            environment = dict(os.environ)
            for assignment in filter(None, env.split(";")):
                name, value = assignment.split("=", 1)
                environment[name] = value
            start = time.perf_counter()
            child = subprocess.Popen(command.split(), env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(child.pid, 0)
            wall[label].append(time.perf_counter() - start)
            cpu[label].append(usage.ru_utime + usage.ru_stime)
            rss[label].append(usage.ru_maxrss)
    for label, _, _ in commands:
        print(f"{label:30s} wall {statistics.median(wall[label]) * 1000:7.1f} ms"
              f"  cpu {statistics.median(cpu[label]) * 1000:7.1f} ms"
              f"  peak {statistics.median(rss[label]) / 1024:5.1f} MiB (largest {max(rss[label]) / 1024:5.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
