#!/usr/bin/env python3
"""flowkit against its peers, each run as a whole process: generates flows, walk scripts and the peers' inputs,
checks that every tool did what was asked of it, measures, and writes bench/RESULTS.md.

Usage: python3 bench/harness.py [--bin DIR] [--quick] [--runs N] [--work DIR] [--output FILE]

--bin is the release build's directory (`swift build -c release --show-bin-path`; default $FLOWKIT_BIN_DIR, else
.build/release); flowkit and flowkit-bench are copied into the work directory first, so that a rebuild during the
run cannot mix builds. A figure is the median wall time of --runs runs after one warm-up run (3 runs when the warm-up
took over 2 s; the warm-up alone when it took over 20 s), with the largest peak RSS and the median CPU time
(user + system) from the child's rusage (children are started by bench/spawn.py, a small process, so that a
child's peak does not include the harness's memory). The harness uses the standard library only; the peers run in
bench/.venv, which it creates and fills from bench/peers/requirements.txt (and it installs Graphviz's `dot` with
apt-get when running as root).
"""

import argparse
import datetime
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree

import flowgen  # noqa: E402
import peerformats  # noqa: E402

SIZES = (100, 1_000, 10_000)
WALK_EVENTS = 1_000
SMALL_FLOWS = 1_000
FAIRLY_SLOW = 2.0  # seconds of warm-up above which 3 runs are timed
SLOW = 20.0  # seconds of warm-up above which the warm-up is the only run
PEER_TIMEOUT = 300.0
RENDER_TIMEOUT = {100: 300, 1_000: 300, 10_000: 120}  # flowkit's own --timeout for the layout
KIND_NAMES = {"unreachable": "unreachable steps", "unreachable_loop": "unreachable closed loops",
              "dead_end": "dead ends", "closed_loop": "reachable closed loops"}


def log(message: str) -> None:
    """Progress on standard error."""
    print(f"[harness] {message}", file=sys.stderr, flush=True)


def apt_install(package: str) -> bool:
    """Install a Debian package when running as root on a machine with apt-get; False when that is not possible."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    log(f"apt-get install {package}")
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL, env=environment)
    subprocess.run(["apt-get", "install", "-y", package], check=True, stdout=subprocess.DEVNULL, env=environment)
    return True


def ensure_venv(venv: Path) -> Path:
    """Create `venv` (installing Debian's python3-venv if need be) and install the pinned peers unless the same
    requirements were installed before; returns the venv's python."""
    python = venv / "bin" / "python"
    if not python.exists():
        if subprocess.run([sys.executable, "-m", "venv", str(venv)]).returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            if not apt_install("python3-venv"):
                sys.exit("harness: cannot create bench/.venv; install Debian's python3-venv")
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    requirements = BENCH / "peers" / "requirements.txt"
    stamp = venv / "requirements.installed"
    if not stamp.exists() or stamp.read_text() != requirements.read_text():
        log("installing the peers into bench/.venv")
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "-r", str(requirements)], check=True)
        stamp.write_text(requirements.read_text())
    return python


@dataclass
class Figure:
    """A measured command: its timed runs, or why there are none; and the standard output of its first run."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    warm_up_only: bool = False
    problem: str | None = None
    output: str = ""

    @property
    def wall(self) -> float | None:
        """Median wall time in seconds."""
        return statistics.median(self.walls) if self.walls else None

    @property
    def cpu(self) -> float | None:
        """Median CPU time (user + system) in seconds."""
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def peak_mb(self) -> float | None:
        """Largest peak RSS of the runs, in MB (10^6 bytes)."""
        return max(self.rss) * 1024 / 1e6 if self.rss else None

    def runs(self) -> str:
        """How many runs the figure is the median of."""
        return "1 (the warm-up)" if self.warm_up_only else str(len(self.walls)) if self.walls else "—"


def seconds(value: float | None) -> str:
    """A duration for the tables: milliseconds below 1 s."""
    if value is None:
        return "—"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def wall_text(figure: Figure | None) -> str:
    """A figure's median wall time, or what happened instead."""
    if figure is None:
        return "—"
    return figure.problem if figure.problem else seconds(figure.wall)


def megabytes(figure: Figure | None) -> str:
    """A figure's peak RSS."""
    return f"{figure.peak_mb:.1f} MB" if figure and figure.peak_mb is not None else "—"


def speed_up(flowkit: Figure | None, peer: Figure | None) -> str:
    """How many times longer the peer took than flowkit, in wall time and in CPU time; a bound when the peer
    timed out."""
    if not flowkit or flowkit.wall is None or not peer:
        return "—"
    if peer.wall is not None:
        return f"{peer.wall / flowkit.wall:,.1f}× · {peer.cpu / flowkit.cpu:,.1f}×"
    timeout = re.match(r"> ([\d.]+) s", peer.problem or "")
    return f"> {float(timeout.group(1)) / flowkit.wall:,.0f}× wall" if timeout else "—"


def flowkit_findings(output: str) -> list[tuple[str, str, set[str]]]:
    """(rule, text, steps named) of each finding in `flowkit lint --format json` output; a `cannot_finish` finding
    names every step of its group."""
    findings = []
    for d in json.loads(output)["diagnostics"]:
        if d["rule"] == "cannot_finish":
            steps = set(re.findall(r"'([^']+)'", d["message"]))
        else:
            steps = {d["step"]} if "step" in d else set()
        text = f"{Path(d['file']).name}:{d['line']}:{d['column']}: {d['severity']}: {d['message']} [{d['rule']}]"
        findings.append((d["rule"], text, steps))
    return findings


def statelint_findings(output: str) -> list[tuple[str, str, set[str]]]:
    """(kind of problem, text, states named) of each problem statelint printed."""
    findings = []
    for line in output.splitlines()[1:]:
        text = line.strip()
        kind = ("no_transition" if text.startswith("No transition found to state") else
                "missing_field" if "does not have required field" in text else "other")
        findings.append((kind, text, set(re.findall(r"State Machine\.(?:States\.)?(\w+)", text))))
    return findings


def statemachine_findings(output: str) -> list[tuple[str, str, set[str]]]:
    """(check, text, states named) of each python-statemachine check that failed, from statemachine_check.py."""
    found = json.loads(output)
    return [(check, f"{check}: {', '.join(found[check])}", set(found[check]))
            for check in ("unreachable", "trap", "no_final_path") if found[check]]


# Which of a tool's finding kinds count as reporting each kind of planted defect.
REPORTS = {
    "flowkit": {"unreachable": {"unreachable_step"}, "unreachable_loop": {"unreachable_step"},
                "dead_end": {"dead_end", "cannot_finish"}, "closed_loop": {"cannot_finish"}},
    "statelint": {"unreachable": {"no_transition"}, "unreachable_loop": {"no_transition"},
                  "dead_end": {"missing_field"}, "closed_loop": set()},
    "python-statemachine": {"unreachable": {"unreachable"}, "unreachable_loop": {"unreachable"},
                            "dead_end": {"trap"}, "closed_loop": {"no_final_path"}},
}


@dataclass
class Score:
    """What a checking tool reported of a flow's planted defects: found groups and planted groups by kind, the
    planted groups it missed, its findings that are about no planted step, and its findings counted by rule."""

    found: dict[str, int]
    planted: dict[str, int]
    missed: list[str]
    unexpected: list[str]
    by_rule: dict[str, int]


def score(flow: flowgen.Flow, tool: str, findings: list[tuple[str, str, set[str]]]) -> Score:
    """Score findings against the planted defects: a group counts as found when every one of its steps is named
    by a finding of a kind that reports that defect."""
    planted_steps = {name for groups in flow.planted.values() for group in groups for name in group}
    found, planted, missed = {}, {}, []
    for kind, groups in flow.planted.items():
        named = set().union(*(steps for rule, _, steps in findings if rule in REPORTS[tool][kind]))
        hits = [group for group in groups if set(group) <= named]
        found[kind], planted[kind] = len(hits), len(groups)
        missed += [f"{'/'.join(group)} ({KIND_NAMES[kind]})" for group in groups if group not in hits]
    unexpected = [text for _, text, steps in findings if not steps or steps - planted_steps]
    by_rule = {rule: sum(1 for r, _, _ in findings if r == rule) for rule in dict.fromkeys(r for r, _, _ in findings)}
    return Score(found, planted, missed, unexpected, by_rule)


# What is known about a missed target, by a phrase of the target's text (checked against profiles of this build).
MISSED_BECAUSE = {
    "(YAML), whole process: under 100 ms":
        "reading YAML is the gap, and it runs before anything can go in parallel. Loading goes through "
        "libyaml's event parser (from Yams 6.2.2) and flowkit's composition of its positioned tree: "
        "`flowkit-bench read bench/.work/flow-10000.yaml` gives about 10 ms for libyaml's events alone, 23 ms for "
        "the tree and 28 ms for the whole load, against about 13 ms for the whole load of the JSON twin, where "
        "flowkit's own byte-level reader is used. Closing the gap needs a YAML reader of flowkit's own for the "
        "subset flow files use; that is not done",
    "(YAML), whole process: at least 20× faster than statelint":
        "the YAML file's load takes about 15 ms more than its JSON twin's (`flowkit-bench read` on both: libyaml's "
        "events alone are about 10 ms), and the JSON lint meets the ratio; see the YAML row above",
    "(a result, a `set` and a derived event at every step)":
        "each such transition checks the result against the step's declared shape, evaluates the `set` "
        "expression and the derived event's condition (their fast form, `FastExpression`) over dictionary-based "
        "state, checks the value's type and records the change for the trace: about 0.32 µs on a 1,000-step chain "
        "(3,655 instructions, `valgrind --tool=callgrind` over `flowkit-bench engine 1000 20 results`). What is "
        "left is reference counting and the trace's `String`s; state slots by index, with the trace kept as ids, "
        "would close it, and are not done",
    "no slower than dot -Tsvg on the same DOT":
        "both are Graphviz's own layout of the same DOT (flowkit calls the library in-process), so the two differ "
        "only by the machine's noise: earlier runs gave 1.83 s against 1.87 s and 1.64 s against 1.63 s. "
        "`dot -v -Tsvg bench/.work/flow-1000.dot` puts 1.27 s of 1.54 s in the network simplex that places the "
        "x coordinates (12,060 nodes, 16,267 edges, 3,471 iterations in Graphviz 2.43); the same picture cannot be "
        "had faster through this Graphviz",
}


class Harness:
    """One run of the benchmark: inputs, checks, figures and the report."""

    def __init__(self, arguments: argparse.Namespace) -> None:
        self.quick = arguments.quick
        self.runs = arguments.runs or (2 if arguments.quick else 5)
        self.bin = Path(arguments.bin).resolve()
        self.work = Path(arguments.work).resolve()
        self.output = Path(arguments.output).resolve()
        self.figures: dict[str, Figure] = {}
        self.scores: dict[tuple[str, int], Score] = {}
        self.notes: list[str] = []
        self.failures: list[str] = []
        self.engine_lines: list[str] = []
        self.flows: dict[int, flowgen.Flow] = {}
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.load_before = os.getloadavg()

    def run_once(self, command: list[str], timeout: float, out: Path,
                 err: Path) -> tuple[float, float, int, int | None]:
        """Run a command through bench/spawn.py: (wall s, user + system s, peak RSS KB, exit code; the code is
        None when the command was killed at the timeout), from the child's own rusage."""
        request = {"command": command, "timeout": timeout, "stdout": str(out), "stderr": str(err)}
        self.spawner.stdin.write(json.dumps(request) + "\n")
        self.spawner.stdin.flush()
        answer = json.loads(self.spawner.stdout.readline())
        return answer["wall"], answer["cpu"], answer["maxrss"], answer["code"]

    def path(self, name: str) -> str:
        """A file in the work directory."""
        return str(self.work / name)

    def setup(self) -> None:
        """A fresh work directory with copies of flowkit and flowkit-bench (a rebuild during the run cannot mix
        builds) and the commit they were built from; the venv with the peers; and `dot` (installed when missing
        and running as root, else noted)."""
        shutil.rmtree(self.work, ignore_errors=True)
        (self.work / "bin").mkdir(parents=True)
        for tool in ("flowkit", "flowkit-bench"):
            if not (self.bin / tool).exists():
                sys.exit(f"harness: {self.bin / tool} not found; build with `make release` and pass --bin")
            shutil.copy2(self.bin / tool, self.work / "bin" / tool)
        self.flowkit = self.path("bin/flowkit")
        self.commit = self.built_from()
        self.python = str(ensure_venv(BENCH / ".venv"))
        self.venv_bin = Path(self.python).parent
        self.dot = shutil.which("dot")
        if not self.dot and apt_install("graphviz"):
            self.dot = shutil.which("dot")
        if not self.dot:
            self.notes.append("`dot` is not installed and the harness is not root: the dot -Tsvg row is skipped "
                              "(apt-get install graphviz).")

    def generate(self) -> None:
        """Write the flows (YAML, JSON, and without the `"*"` handler), the walks (flowkit scripts and the peers'
        event lists), the peers' inputs, flowkit's DOT of the 1,000-step flow, and the directory of small flows."""
        (self.work / "small").mkdir()
        for size in SIZES:
            flow = flowgen.generate(size, seed=size, defects=flowgen.defects_for(size))
            walk = flowgen.walk(flow, WALK_EVENTS, seed=size)
            self.flows[size] = flow
            files = {
                f"flow-{size}.yaml": flowgen.flow_yaml(flow),
                f"flow-{size}.json": flowgen.flow_json(flow),
                f"control-{size}.yaml": flowgen.flow_yaml(flowgen.without_alert(flow)),
                f"walk-{size}.yaml": flowgen.script_yaml(f"flow-{size}.yaml", walk),
                f"walk-{size}.json": peerformats.walk_events(walk.entries, walk.outcome),
                f"asl-{size}.json": peerformats.asl(flow),
                f"statemachine-{size}.json": peerformats.statemachine(flow),
                f"transitions-{size}.json": peerformats.machine(flow),
                f"sismic-{size}.yaml": peerformats.sismic(flow),
            }
            for name, text in files.items():
                Path(self.path(name)).write_text(text)
        sizes = random.Random(7)
        for number in range(SMALL_FLOWS):
            flow = flowgen.generate(sizes.randint(20, 60), seed=100_000 + number, defects=0)
            flow.name = f"small{number}"
            if number % 2:
                Path(self.path(f"small/flow-{number:04}.json")).write_text(flowgen.flow_json(flow))
            else:
                Path(self.path(f"small/flow-{number:04}.yaml")).write_text(flowgen.flow_yaml(flow))
        subprocess.run([self.flowkit, "render", "--dot", self.path("flow-1000.yaml"), "-o", self.path("flow-1000.dot")],
                       check=True, stderr=subprocess.DEVNULL)
        # Two new versions of the 10,000-step flow for `flowkit diff`: three options retargeted, and every spine
        # step renamed (the rename search's worst case: thousands of candidates, chains of renamed steps).
        text = Path(self.path("flow-10000.json")).read_text()
        Path(self.path("flow-10000-edited.json")).write_text(text.replace('"cancelled"', '"done"', 3))
        Path(self.path("flow-10000-renamed.json")).write_text(re.sub(r'"s(\d+)"', r'"t\1"', text))

    def measure(self, key: str, command: list[str], ok: tuple[int, ...] = (0,), timeout: float = PEER_TIMEOUT,
                single: bool = False) -> Figure:
        """Measure a command (see the module's docstring); `single` times one run without a warm-up. A run that
        times out or exits with a code not in `ok` ends the measurement with that as its problem."""
        log(f"{key}: {' '.join(Path(part).name if '/' in part else part for part in command)}")
        out, err = self.work / "stdout.txt", self.work / "stderr.txt"
        figure = Figure()
        self.figures[key] = figure
        samples = []
        while True:
            wall, cpu, rss, code = self.run_once(command, timeout, out, err)
            if not samples:
                figure.output = out.read_text(errors="replace")
            if code is None or code not in ok:
                message = (err.read_text(errors="replace").strip().splitlines() or ["no message"])[-1]
                figure.problem = f"> {timeout:g} s" if code is None else f"failed (exit {code})"
                ending = "stopped at the timeout" if code is None else f"exit {code} after {wall:.1f} s"
                self.notes.append(f"{key}: {ending}: " + message.replace(f"{self.work}/", "")[:400])
                log(f"  {self.notes[-1]}")
                return figure
            samples.append((wall, cpu, rss))
            if len(samples) == 1 and (single or wall >= SLOW):
                figure.warm_up_only = not single
                break
            wanted = 1 + (self.runs if samples[0][0] < FAIRLY_SLOW else min(self.runs, 3))
            if len(samples) >= wanted:
                samples = samples[1:]
                break
        figure.walls, figure.cpus, figure.rss = (list(column) for column in zip(*samples))
        log(f"  {seconds(figure.wall)}, {megabytes(figure)}, {figure.runs()} runs")
        return figure

    def check(self, condition: bool, failure: str) -> None:
        """Record a check that did not hold (listed in the report, and the harness exits 1)."""
        if not condition:
            self.failures.append(failure)
            log(f"  CHECK FAILED: {failure}")

    def skip(self, key: str) -> bool:
        """Whether --quick skips this slow measurement (recording it as skipped)."""
        if self.quick and key in ("python-statemachine 10000", "sismic 10000", "render 10000"):
            self.figures[key] = Figure(problem="skipped (--quick)")
            return True
        return False

    def measure_checks(self) -> None:
        """Per size, next to each other so that they share the machine's load: flowkit lints the YAML and the
        JSON flow, statelint and python-statemachine check it; flowkit also lints the flow without its `"*"`
        handler once, for the planted-defect table. Then flowkit lints the small-flows directory and one file."""
        lint = [self.flowkit, "lint", "--format", "json"]
        for size in SIZES:
            for kind in ("yaml", "json"):
                figure = self.measure(f"lint {kind} {size}", lint + [self.path(f"flow-{size}.{kind}")], ok=(0, 1))
                if kind == "yaml" and not figure.problem:
                    self.scores["flowkit", size] = score(self.flows[size], "flowkit", flowkit_findings(figure.output))
            _, _, _, code = self.run_once(lint + [self.path(f"control-{size}.yaml")], PEER_TIMEOUT,
                                          self.work / "control.json", self.work / "stderr.txt")
            self.check(code in (0, 1), f"flowkit lint control-{size}.yaml: exit {code}")
            self.scores["flowkit-control", size] = score(self.flows[size], "flowkit", flowkit_findings(
                (self.work / "control.json").read_text()))
            figure = self.measure(f"statelint {size}", [str(self.venv_bin / "statelint"),
                                                        self.path(f"asl-{size}.json")], ok=(0, 1))
            if not figure.problem:
                self.scores["statelint", size] = score(self.flows[size], "statelint", statelint_findings(figure.output))
            if not self.skip(f"python-statemachine {size}"):
                check = [self.python, str(BENCH / "peers" / "statemachine_check.py")]
                figure = self.measure(f"python-statemachine {size}", check + [self.path(f"statemachine-{size}.json")])
                if not figure.problem:
                    self.scores["python-statemachine", size] = score(
                        self.flows[size], "python-statemachine", statemachine_findings(figure.output))
        figure = self.measure("lint directory", lint + [self.path("small")], ok=(0, 1))
        if not figure.problem:
            summary = json.loads(figure.output)["summary"]
            self.check(summary["files"] == SMALL_FLOWS and summary["errors"] + summary["warnings"] == 0,
                       f"lint of the small flows: expected {SMALL_FLOWS} clean files, got {summary}")
        self.measure("lint small file", lint + [self.path("small/flow-0000.yaml")])

    def measure_diffs(self) -> None:
        """flowkit diff of the 10,000-step flow with a few options retargeted and with every spine step renamed;
        the second must report renames, not removals."""
        diff = [self.flowkit, "diff", "--format", "json", self.path("flow-10000.json")]
        self.measure("diff edited 10000", diff + [self.path("flow-10000-edited.json")])
        figure = self.measure("diff renamed 10000", diff + [self.path("flow-10000-renamed.json")])
        if not figure.problem:
            checks = [change["check"] for change in json.loads(figure.output)["changes"]]
            self.check("step_renamed" in checks and "step_removed" not in checks,
                       f"diff of the renamed flow: {checks.count('step_renamed')} renames, {checks.count('step_removed')} removals")

    def measure_scenarios(self) -> None:
        """flowkit generate scenarios on a flow whose run states each hold a megabyte of text (a 4,000-byte literal
        doubled eight times, then a character added at every edit): the search must stop at its 256 MB text limit
        and say so. And on the loan and checkout examples (nested flows, host keys), whose scripts must pass."""
        seed = "a" * 4000
        big = Path(self.path("states-1mb.yaml"))
        big.write_text(f"""flowkit: 1
flow: big
start: load
state: {{ doc: string, rounds: int, n: int }}
events: {{ done: }}
steps:
  load:
    kind: action
    next:
      - {{ forward: grow, set: {{ doc: "'{seed}'", rounds: "0" }} }}
  grow:
    kind: action
    next:
      - {{ forward: edit, if: "state.rounds == 8" }}
      - {{ forward: grow, set: {{ doc: "state.doc + state.doc", rounds: "state.rounds + 1" }} }}
  edit:
    result: {{ n: int }}
    set: {{ doc: "state.doc + 'x'", n: result.n }}
    on: {{ done: finish }}
    next:
      - {{ forward: finish, if: "result.n == 7" }}
      - {{ forward: finish, if: "result.n > 10 && result.n < 5" }}
      - edit
  finish: {{ kind: finish }}
""")
        out = self.path("states-1mb.scenarios.yaml")
        figure = self.measure("scenarios 1 MB states", [self.flowkit, "generate", "scenarios", str(big), "-o", out])
        self.check(figure.problem is not None or "256 MB of state text" in Path(out).read_text()[:2000],
                   "generate scenarios on 1 MB states: the script does not say the search stopped at 256 MB")
        for name in ("loan/loan.yaml", "checkout/checkout.yaml"):
            script = self.path(Path(name).stem + ".scenarios.yaml")
            self.measure(f"scenarios {Path(name).stem}", [self.flowkit, "generate", "scenarios",
                                                          str(REPO / "docs" / "examples" / name), "-o", script])

    def measure_walks(self) -> None:
        """Per size: flowkit simulates the walk script, sismic and transitions run the same walk; each must pass."""
        for size in SIZES:
            figure = self.measure(f"simulate {size}", [self.flowkit, "simulate", "--quiet", "--script",
                                                       self.path(f"walk-{size}.yaml")])
            self.check(figure.problem is not None or "1 passed, 0 failed" in figure.output,
                       f"flowkit simulate walk-{size}.yaml: {figure.output.strip()[-200:]}")
            for peer, script, model in (("sismic", "sismic_walk.py", f"sismic-{size}.yaml"),
                                        ("transitions", "transitions_walk.py", f"transitions-{size}.json")):
                if self.skip(f"{peer} {size}"):
                    continue
                figure = self.measure(f"{peer} {size}", [self.python, str(BENCH / "peers" / script), self.path(model),
                                                         self.path(f"walk-{size}.json")])
                self.check(figure.problem is not None or figure.output.startswith("ok"),
                           f"{peer} walk {size}: {figure.output.strip()[-200:]}")

    def measure_renders(self) -> None:
        """flowkit renders each size to SVG (the 10,000-step flow once, without a warm-up); dot -Tsvg lays out
        flowkit's DOT of the 1,000-step flow right after flowkit's own render of it."""
        for size in SIZES:
            if self.skip(f"render {size}"):
                continue
            command = [self.flowkit, "render", "--svg", self.path(f"flow-{size}.yaml"), "-o",
                       self.path(f"flow-{size}.svg"), "--timeout", str(RENDER_TIMEOUT[size])]
            self.measure(f"render {size}", command, timeout=RENDER_TIMEOUT[size] + 60, single=size == 10_000)
            if size == 1_000 and self.dot:
                self.measure("dot 1000", [self.dot, "-Tsvg", self.path("flow-1000.dot"), "-o",
                                          self.path("dot-1000.svg")])
            elif size == 1_000:
                self.figures["dot 1000"] = Figure(problem="skipped (no dot)")

    def engine(self) -> list[str]:
        """flowkit-bench's in-process engine figures (transitions per second): on a 10,000-step chain first (the
        figures the targets read), then on a 1,000-step chain, whose compiled steps stay in the processor's cache
        as an app's flows do."""
        lines: list[str] = []
        for steps, rounds, label in (("10000", "20", "engine:"), ("1000", "200", "engine (1,000-step chain, in the cache):")):
            log(f"flowkit-bench engine {steps} {rounds}")
            result = subprocess.run([self.path("bin/flowkit-bench"), "engine", steps, rounds], capture_output=True,
                                    text=True)
            found = [line for line in result.stdout.splitlines() if line.startswith("engine:")]
            lines += [label + line[len("engine:"):] for line in found] or [
                f"flowkit-bench engine {steps} failed: {result.stderr.strip()[-200:]}"]
        return lines

    def built_from(self) -> str:
        """The commit of the work tree that holds the build directory, noting uncommitted changes; empty
        outside a git work tree."""
        git = ["git", "-C", str(self.bin)]
        commit = shutil.which("git") and subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                                                        text=True).stdout.strip()
        # The report itself, rewritten by every run, does not count as a change to what was measured.
        if commit and subprocess.run(git + ["status", "--porcelain", "--untracked-files=no", "--", ":/",
                                            ":(exclude,top)bench/RESULTS.md"], capture_output=True,
                                     text=True).stdout.strip():
            commit += " with uncommitted changes"
        return commit or ""

    def versions(self) -> list[str]:
        """Versions of flowkit, Python, the peers and dot."""
        names = ("statelint", "python-statemachine", "sismic", "transitions")
        peers = subprocess.run([self.python, "-c", "import importlib.metadata as m, sys; "
                                "print(', '.join(f'{p} {m.version(p)}' for p in sys.argv[1:]))", *names],
                               capture_output=True, text=True).stdout.strip()
        flowkit = subprocess.run([self.flowkit, "--version"], capture_output=True, text=True).stdout.strip()
        dot = (subprocess.run([self.dot, "-V"], capture_output=True, text=True).stderr.strip()
               if self.dot else "not installed")
        venv = subprocess.run([self.python, "--version"], capture_output=True, text=True).stdout.strip()
        built = f" (the build in {self.bin}, work tree at commit {self.commit})" if self.commit else ""
        return [f"flowkit {flowkit}{built}", f"peers (PyPI): {peers}",
                f"{venv} (bench/.venv); harness on Python {platform.python_version()}", f"Graphviz: {dot}"]

    def machine(self) -> list[str]:
        """Facts about the machine the figures come from."""
        cpu = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text())
        memory = re.search(r"MemTotal:\s*(\d+)", Path("/proc/meminfo").read_text())
        system = re.search(r'PRETTY_NAME="(.*)"', Path("/etc/os-release").read_text()) if Path(
            "/etc/os-release").exists() else None
        load = os.getloadavg()
        return [f"date: {self.started:%Y-%m-%d %H:%M} UTC",
                f"cores: {os.cpu_count()} ({cpu.group(1) if cpu else platform.machine()})",
                f"memory: {int(memory.group(1)) / 1024 / 1024:.0f} GiB" if memory else "memory: unknown",
                f"system: {system.group(1) if system else platform.system()}, kernel {platform.release()}",
                f"load average (1, 5, 15 min) at the start: {', '.join(f'{x:.2f}' for x in self.load_before)}; "
                f"at the end: {', '.join(f'{x:.2f}' for x in load)} (the machine is shared: CPU time is shown "
                "next to wall time)"]

    def figure_rows(self) -> list[str]:
        """The figures table: each flowkit figure beside the peer doing the same job, with the speed-up."""
        rows = ["| task | flowkit: median wall | CPU | peak RSS | runs | peer | peer: median wall | CPU | peak RSS "
                "| runs | speed-up: peer ÷ flowkit (wall · CPU) |", "|" + " --- |" * 11]

        def cells(figure: Figure | None) -> str:
            if figure is None:
                return "— | — | — | —"
            return f"{wall_text(figure)} | {seconds(figure.cpu)} | {megabytes(figure)} | {figure.runs()}"

        def row(task: str, key: str, peer: str | None = None, peer_key: str | None = None) -> None:
            mine, theirs = self.figures.get(key), self.figures.get(peer_key) if peer_key else None
            rows.append(f"| {task} | {cells(mine)} | {peer or '—'} | {cells(theirs)} | "
                        f"{speed_up(mine, theirs) if peer else '—'} |")

        for size in SIZES:
            row(f"check a {size:,}-step flow (JSON)", f"lint json {size}", "statelint (ASL JSON)", f"statelint {size}")
            row(f"check a {size:,}-step flow (JSON)", f"lint json {size}", "python-statemachine (class definition)",
                f"python-statemachine {size}")
            row(f"check a {size:,}-step flow (YAML)", f"lint yaml {size}")
        row(f"lint {SMALL_FLOWS:,} small flows (20–60 steps) in one invocation", "lint directory")
        row("lint one small flow", "lint small file")
        row("diff a 10,000-step flow, 3 options retargeted (JSON)", "diff edited 10000")
        row("diff a 10,000-step flow, every spine step renamed (JSON)", "diff renamed 10000")
        row("generate scenarios, run states of 1 MB of text each (stops at 256 MB)", "scenarios 1 MB states")
        row("generate scenarios, the loan example (nested identity check)", "scenarios loan")
        row("generate scenarios, the checkout example (nested sign-in, 3-D Secure)", "scenarios checkout")
        for size in SIZES:
            row(f"{WALK_EVENTS:,}-event walk on a {size:,}-step flow", f"simulate {size}", "sismic (YAML statechart)",
                f"sismic {size}")
            row(f"{WALK_EVENTS:,}-event walk on a {size:,}-step flow", f"simulate {size}", "transitions (Machine)",
                f"transitions {size}")
        for size in SIZES:
            task = f"render a {size:,}-step flow to SVG (`--timeout {RENDER_TIMEOUT[size]}`)"
            if size == 1_000:
                row(task, "render 1000", "dot -Tsvg on flowkit's DOT", "dot 1000")
            else:
                row(task, f"render {size}")
        return rows

    def defect_rows(self) -> list[str]:
        """The planted-defect table: found/planted groups per kind, tool and size (100 · 1,000 · 10,000)."""
        tools = [("flowkit", "flowkit"), ("flowkit-control", 'flowkit, same flow without the `"*"` handler'),
                 ("statelint", "statelint"), ("python-statemachine", "python-statemachine")]
        rows = ["| planted defect | " + " | ".join(title for _, title in tools) + " |",
                "|" + " --- |" * (len(tools) + 1)]
        for kind, title in KIND_NAMES.items():
            cells = []
            for tool, _ in tools:
                scores = [self.scores.get((tool, size)) for size in SIZES]
                cells.append(" · ".join(f"{s.found[kind]}/{s.planted[kind]}" if s else "—" for s in scores))
            rows.append(f"| {title} | " + " | ".join(cells) + " |")
        return rows

    def defect_notes(self) -> list[str]:
        """What each checking tool missed at the largest size it checked, and its findings at any size that are
        about no planted step (the first ten)."""
        notes = []
        for tool in ("flowkit", "flowkit-control", "statelint", "python-statemachine"):
            scored = [size for size in SIZES if (tool, size) in self.scores]
            if not scored:
                continue
            missed = self.scores[tool, scored[-1]].missed
            rules = ", ".join(f"{rule} {count}" for rule, count in self.scores[tool, scored[-1]].by_rule.items())
            unexpected = [text for size in scored for text in self.scores[tool, size].unexpected]
            label = "flowkit without the `\"*\"` handler" if tool == "flowkit-control" else tool
            notes.append(f"- {label}: at {scored[-1]:,} steps ({rules or 'no findings'}) missed "
                         f"{', '.join(missed) or 'nothing'}; "
                         f"{len(unexpected)} finding(s) about no planted step"
                         + "".join(f"\n  - `{text}`" for text in unexpected[:10]))
        return notes

    def targets(self) -> list[str]:
        """The targets table, each computed from this run's figures."""
        f = self.figures
        rows = ["| target | figure | status |", "| --- | --- | --- |"]

        def status(value: float | None, limit: float, unit: str, scale: float = 1.0, at_least: bool = False,
                   why: str = "") -> str:
            if value is None:
                return f"not measured ({why})" if why else "not measured"
            if value >= limit if at_least else value <= limit:
                return "met"
            if at_least:
                return f"missed ({value:,.1f}{unit} < {limit:g}{unit})"
            return f"missed by {abs(value - limit) * scale:,.1f}{unit}"

        for kind in ("yaml", "json"):
            mine, statelint = f.get(f"lint {kind} 10000"), f.get("statelint 10000")
            name = f"lint a 10,000-step flow ({kind.upper()}), whole process"
            rows.append(f"| {name}: under 100 ms | {wall_text(mine)} | "
                        f"{status(mine.wall, 0.1, ' ms', 1000, why=mine.problem or '')} |")
            rows.append(f"| {name}: peak under 60 MB | {megabytes(mine)} | "
                        f"{status(mine.peak_mb, 60, ' MB', why=mine.problem or '')} |")
            ratio = statelint.wall / mine.wall if mine.wall and statelint and statelint.wall else None
            rows.append(f"| {name}: at least 20× faster than statelint | "
                        f"{f'{ratio:.1f}× ({wall_text(statelint)} vs {wall_text(mine)})' if ratio else '—'} | "
                        f"{status(ratio, 20, '×', at_least=True)} |")
        result = self.scores.get(("flowkit", 10_000))
        if result:
            found, planted = sum(result.found.values()), sum(result.planted.values())
            rows.append(f"| lint a 10,000-step flow: finding every planted defect | {found} of {planted} found | "
                        f"{'met' if found == planted else f'missed: {planted - found} of {planted} not found'} |")
        directory = f.get("lint directory")
        cores = (f", CPU {seconds(directory.cpu)} = {directory.cpu / directory.wall:.2f}× wall"
                 if directory.wall else "")
        rows.append(f"| lint {SMALL_FLOWS:,} small files in one invocation: under 1 s | {wall_text(directory)}"
                    f"{cores} | {status(directory.wall, 1.0, ' s', why=directory.problem or '')} |")
        small = f.get("lint small file")
        rows.append(f"| lint one small file, whole process: under 30 ms | {wall_text(small)} | "
                    f"{status(small.wall, 0.03, ' ms', 1000, why=small.problem or '')} |")
        walk = f.get("simulate 10000")
        rows.append(f"| simulate a 1,000-event walk on a 10,000-step flow, whole process: under 150 ms | "
                    f"{wall_text(walk)} | {status(walk.wall, 0.15, ' ms', 1000, why=walk.problem or '')} |")
        for label, name in (("explicit events", "explicit events"),
                            ("results + set + derived event", "a result, a `set` and a derived event at every step")):
            rate = next((int(line.rsplit(" ", 2)[-2]) for line in self.engine_lines
                         if line.startswith(f"engine: {label}:") and line.rsplit(" ", 2)[-2].isdigit()), None)
            rows.append(f"| the engine alone ({name}): at least 1,000,000 transitions/s | "
                        f"{f'{rate:,}/s' if rate else '—'} | {status(rate, 1_000_000, '/s', at_least=True)} |")
        render, dot = f.get("render 1000"), f.get("dot 1000")
        rows.append(f"| render a 1,000-step flow to SVG: under 10 s | {wall_text(render)} | "
                    f"{status(render.wall, 10, ' s', why=render.problem or '')} |")
        if render.wall and dot.wall:
            verdict = "met" if render.wall <= dot.wall else f"missed by {seconds(render.wall - dot.wall)}"
        else:
            verdict = f"not measured ({render.problem or dot.problem})"
        rows.append(f"| render a 1,000-step flow to SVG: no slower than dot -Tsvg on the same DOT | "
                    f"{wall_text(render)} vs {wall_text(dot)} | {verdict} |")
        for key, title in (("lint yaml", "lint (YAML)"), ("lint json", "lint (JSON)"), ("simulate", "simulate")):
            big, medium = f.get(f"{key} 10000"), f.get(f"{key} 1000")
            growth = big.wall / medium.wall if big.wall and medium.wall else None
            rows.append(f"| cost growth, {title}: time(10,000) ÷ time(1,000) ≤ 12 | "
                        f"{f'{growth:.1f} ({wall_text(big)} ÷ {wall_text(medium)})' if growth else '—'} | "
                        f"{status(growth, 12, '')} |")
        return rows

    def report(self, engine: list[str]) -> str:
        """RESULTS.md."""
        sizes = " · ".join(f"{size:,}" for size in SIZES)
        planted = ", ".join(f"{len(g)} {KIND_NAMES[k]}" for k, g in self.flows[10_000].planted.items())
        lines = [
            "# flowkit against its peers",
            "",
            f"Written by `bench/harness.py`{' --quick' if self.quick else ''} (invoked by `bench/run`); every run "
            "replaces this file. Figures from one run on one machine.",
            "",
            "## Machine",
            "",
            *(f"- {fact}" for fact in self.machine() + self.versions()),
            "",
            "## How it was measured",
            "",
            "Every figure is a whole process, from fork to exit, started by the harness: flowkit's release build "
            "(`make release`: the Swift runtime and Foundation linked in, `--static-swift-stdlib`), statelint's command "
            "line, and a small script per Python peer (`bench/peers/`) that reads the file the "
            "harness wrote and builds its machine from it. A flowkit figure and its peers' are measured one after "
            "the other, so that they share the machine's load. After one warm-up run, the median wall time of "
            f"{self.runs} runs (3 when the warm-up took over {FAIRLY_SLOW:g} s; the warm-up alone when it took over "
            f"{SLOW:g} s; the 10,000-step render is one run without a warm-up; a run is stopped at "
            f"{PEER_TIMEOUT:g} s, flowkit's renders at their own `--timeout`); CPU is the median user + system "
            "time and peak RSS the largest `ru_maxrss` of the child (os.wait4; children are started by the small "
            "`bench/spawn.py`, so a peak includes at most its size: `true` shows "
            f"{self.floor_kb * 1024 / 1e6:.1f} MB). MB = 10^6 bytes. flowkit lints with `--format json` and "
            "simulates with `--quiet`.",
            "",
            f"The flows (`bench/flowgen.py`, seeded) are app-shaped: {sizes} steps of screens and actions with "
            "branches, retries and edits going `back` to an earlier step, a cancel on every screen, and a `\"*\"` "
            "error handler showing an alert that goes `{ back: true }`; with planted defects "
            f"(at 10,000 steps: {planted}). Each walk is {WALK_EVENTS:,} scripted completions ending in a cancel; "
            "flowkit's script expects the outcome, the retry count in the state and the exact path of "
            f"{WALK_EVENTS + 1:,} steps, and each Python peer checks that it is at the expected state before "
            f"each event. The directory holds {SMALL_FLOWS:,} clean flows of 20–60 steps, half YAML, half JSON.",
            "",
            "The peers get the same graph: forward and `back: X` moves are transitions. The checkers' formats leave "
            "out the alert (a detour back to whoever showed it adds no way out and no way in): statelint gets ASL "
            "(Pass, Choice on `$.event`, Succeed, Fail; a dead end is a Pass state without `Next`), "
            "python-statemachine a class defined from `State` objects (a definition stops at the first failed "
            "check, so the check script defines the class again with that check off until each check has "
            "reported: up to 3 definitions, all timed). sismic's statechart puts the steps in a compound state "
            "whose `error` shows the alert, which returns through a shallow history state; `transitions` "
            "(auto_transitions=False) goes back from the alert with a callback.",
            "",
            "Checks this run: " + ("every walk that ran passed (flowkit's script, sismic, transitions) and the "
                                   "small flows lint clean." if not self.failures else "some did not hold; see Notes."),
            "",
            "## Figures",
            "",
            *self.figure_rows(),
            "",
            "## Engine alone (in-process, `flowkit-bench engine 10000 20`, then `flowkit-bench engine 1000 200`)",
            "",
            *(f"- {line}" for line in engine),
            "",
            "## Planted defects",
            "",
            f"Found/planted groups at {sizes} steps. flowkit counts `unreachable_step` for unreachable steps and "
            "loops, `dead_end` or `cannot_finish` for dead ends and `cannot_finish` for closed loops; statelint "
            "\"No transition found to state\" and \"does not have required field\" (it has no check for loops "
            "that cannot finish); python-statemachine its unreachable-states, trap-states and final-reachability "
            "checks. A loop counts when every one of its steps is named. The second column lints the same flow with "
            "the `\"*\"` handler and the alert taken out (which the peers' inputs leave out too): a defect found there "
            "and not in the first column is one that the `\"*\"` detour hides from flowkit.",
            "",
            *self.defect_rows(),
            "",
            *self.defect_notes(),
            "",
            "## Targets",
            "",
            *(targets := self.targets()),
            "",
        ]
        missed = [row for row in targets[2:] if "| missed" in row]
        if missed:
            lines += ["## Why a target is missed", ""]
            for row in missed:
                target = row.split(" | ")[0].lstrip("| ")
                reason = next((text for key, text in MISSED_BECAUSE.items() if key in target),
                              "no known cause: compare with the CPU column and the load average above (the machine "
                              "is shared), and profile (`valgrind --tool=callgrind` counts instructions repeatably)")
                lines.append(f"- {target}: {reason}.")
            lines.append("")
        if self.failures:
            self.notes += [f"CHECK FAILED: {failure}" for failure in self.failures]
        if self.notes:
            lines += ["## Notes", "", *(f"- {note}" for note in self.notes), ""]
        return "\n".join(lines)

    def run(self) -> int:
        """Everything, in order; 1 when a check failed."""
        self.spawner = subprocess.Popen([sys.executable, "-S", str(BENCH / "spawn.py")], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        _, _, self.floor_kb, _ = self.run_once([shutil.which("true")], 10, Path(os.devnull), Path(os.devnull))
        self.setup()
        log(f"generating inputs in {self.work}")
        self.generate()
        self.measure_checks()
        self.measure_diffs()
        self.measure_scenarios()
        self.measure_walks()
        self.measure_renders()
        engine = self.engine()
        self.engine_lines = engine
        self.spawner.stdin.close()
        self.spawner.wait()
        self.output.write_text(self.report(engine))
        log(f"wrote {self.output}")
        return 1 if self.failures else 0


def main() -> int:
    """Parse the arguments and run the harness."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.environ.get("FLOWKIT_BIN_DIR", str(REPO / ".build" / "release")),
                        help="directory with the release flowkit and flowkit-bench")
    parser.add_argument("--quick", action="store_true",
                        help="2 runs a figure; skip the 10,000-step render, sismic and python-statemachine at 10,000")
    parser.add_argument("--runs", type=int, help="timed runs after the warm-up (default 5, --quick 2)")
    parser.add_argument("--work", default=str(BENCH / ".work"), help="where the generated inputs go")
    parser.add_argument("--output", default=str(BENCH / "RESULTS.md"), help="the report to write")
    return Harness(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
