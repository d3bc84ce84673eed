"""Deterministic app-shaped flows in flowkit's format, with planted defects, and scripted walks through them.

A generated flow is a spine of screens and actions (s0, s1, ...) ending at the finish step `done`: some spine
steps open an optional branch screen (`alt` -> bN -> the next spine step), actions retry (`retry: { back: sJ,
set: { retries: state.retries + 1 } }`), screens go back to edit (`edit: { back: sJ }`), every spine step can
`cancel` to the finish step `cancelled`, and the `"*"` step sends `error` to an `alert` that goes `{ back: true }`.
Every `back: sJ` names an earlier spine step, which dominates the step that goes back, so the flow has no
`back_target` findings. The planted defects have known names:

- `orphanK`: an unreachable step (nothing targets it; it goes on to a spine step);
- `islandKa`, `islandKb` (and `islandKc`): an unreachable closed loop;
- `deadK`: a dead end reached with `help` (a screen with no `on` and no `next`);
- `loopKa`, `loopKb` (and `loopKc`, which goes `{ back: loopKa }`): a reachable closed loop entered with `more`.
"""

import json
import random
from dataclasses import dataclass, field

# The kinds of planted defect, in report order.
DEFECT_KINDS = ("unreachable", "unreachable_loop", "dead_end", "closed_loop")
EVENT_ORDER = ("alt", "retry", "edit", "cancel", "help", "more", "error")


@dataclass
class Target:
    """A move: `forward` to `step`, or `back` to `step` (`step` None for `back: true`), with state updates."""

    mode: str
    step: str | None
    set: dict[str, int | str] = field(default_factory=dict)


@dataclass
class Step:
    """One step of a generated flow: its kind, title, event handlers and `next`."""

    name: str
    kind: str = "screen"
    title: str = ""
    on: dict[str, Target] = field(default_factory=dict)
    next: Target | None = None


@dataclass
class Flow:
    """A generated flow: steps in file order, the `"*"` handlers, the spine and the planted defects by kind."""

    name: str
    start: str
    steps: list[Step]
    star: dict[str, Target]
    spine: list[str]
    planted: dict[str, list[list[str]]]

    def by_name(self) -> dict[str, Step]:
        """The steps keyed by name."""
        return {step.name: step for step in self.steps}

    def events(self) -> list[str]:
        """Every event some step (or `"*"`) handles, in a fixed order, for the `events:` declaration."""
        used = set(self.star)
        for step in self.steps:
            used.update(step.on)
        return [event for event in EVENT_ORDER if event in used]


def defects_for(steps: int) -> int:
    """How many defects of each single kind a flow of this size gets (4 at 100 steps, 6 at 10,000)."""
    return len(str(steps)) + 1


def generate(steps: int, seed: int, defects: int) -> Flow:
    """A flow of exactly `steps` steps (the `"*"` step not counted) with `defects` orphans, dead ends and closed
    loops, and two unreachable loops when `defects` > 0."""
    rng = random.Random(seed)
    loop_sizes = [2 + i % 2 for i in range(defects)]
    island_sizes = [2, 3] if defects else []
    budget = steps - 3 - 2 * defects - sum(loop_sizes) - sum(island_sizes)
    if budget < 2 * defects + 2:
        raise ValueError(f"{steps} steps are too few for {defects} defects of each kind")

    spine: list[Step] = []
    branch_of: dict[str, Step] = {}
    while budget > 0:
        index = len(spine)
        action = index > 0 and rng.random() < 0.2
        spine.append(Step(f"s{index}", "action" if action else "screen", f"{'Submit' if action else 'Screen'} {index}"))
        budget -= 1
        if index > 0 and budget >= 2 and rng.random() < 0.15:
            branch_of[spine[-1].name] = Step(f"b{index}", title=f"Details {index}")
            budget -= 1

    for index, step in enumerate(spine):
        following = spine[index + 1].name if index + 1 < len(spine) else "done"
        step.on["cancel"] = Target("forward", "cancelled")
        if index == 0:
            step.next = Target("forward", following, {"retries": 0})
            continue
        step.next = Target("forward", following)
        earlier = spine[rng.randrange(max(0, index - 20), index)].name
        if step.kind == "action" and rng.random() < 0.6:
            step.on["retry"] = Target("back", earlier, {"retries": "state.retries + 1"})
        elif step.kind == "screen" and (rng.random() < 0.2 or index == len(spine) - 1):
            step.on["edit"] = Target("back", earlier)
        if step.name in branch_of:
            step.on["alt"] = Target("forward", branch_of[step.name].name)
            branch_of[step.name].next = Target("forward", following)
    if "retry" not in spine[-1].on and "edit" not in spine[-1].on:
        spine[-1].on["retry"] = Target("back", spine[0].name, {"retries": "state.retries + 1"})

    # Dead ends and loops hang off distinct spine steps; each defect is written after a spine step, for readability.
    after: dict[str, list[Step]] = {}
    hooks = iter(rng.sample(range(1, len(spine)), 2 * defects))
    planted: dict[str, list[list[str]]] = {kind: [] for kind in DEFECT_KINDS}
    for k in range(defects):
        dead = Step(f"dead{k}", title=f"Help {k}")
        host = spine[next(hooks)]
        host.on["help"] = Target("forward", dead.name)
        after.setdefault(host.name, []).append(dead)
        planted["dead_end"].append([dead.name])

        names = [f"loop{k}{letter}" for letter in "abc"[: loop_sizes[k]]]
        loop = [Step(name, title=f"Tour {k} page {i}") for i, name in enumerate(names)]
        for i, step in enumerate(loop):
            step.next = Target("forward", names[(i + 1) % len(names)])
        if len(loop) == 3:
            loop[2].next = Target("back", names[0])
        host = spine[next(hooks)]
        host.on["more"] = Target("forward", names[0])
        after.setdefault(host.name, []).extend(loop)
        planted["closed_loop"].append(names)

        orphan = Step(f"orphan{k}", title=f"Old screen {k}", next=Target("forward", rng.choice(spine).name))
        after.setdefault(rng.choice(spine).name, []).append(orphan)
        planted["unreachable"].append([orphan.name])
    for k, size in enumerate(island_sizes):
        names = [f"island{k}{letter}" for letter in "abc"[:size]]
        island = [Step(name, title=f"Old tour {k} page {i}", next=Target("forward", names[(i + 1) % size]))
                  for i, name in enumerate(names)]
        if size == 3:
            island[1].on["alt"] = Target("forward", names[2])
            island[1].next = Target("forward", names[0])
            island[2].next = Target("forward", names[0])
        after.setdefault(rng.choice(spine).name, []).extend(island)
        planted["unreachable_loop"].append(names)

    ordered: list[Step] = []
    for step in spine:
        ordered.append(step)
        if step.name in branch_of:
            ordered.append(branch_of[step.name])
        ordered.extend(after.get(step.name, []))
    ordered += [Step("alert", title="Something went wrong", next=Target("back", None)),
                Step("done", "finish", "Done"), Step("cancelled", "finish", "Cancelled")]
    assert len(ordered) == steps
    star = {"error": Target("forward", "alert")}
    return Flow(f"app{steps}", spine[0].name, ordered, star, [s.name for s in spine], planted)


def without_alert(flow: Flow) -> Flow:
    """The same flow without the `"*"` handler and the alert step (the control for the detour semantics)."""
    steps = [step for step in flow.steps if step.name != "alert"]
    return Flow(flow.name, flow.start, steps, {}, flow.spine, flow.planted)


def target_value(target: Target) -> str | dict:
    """A target as the format spells it: a bare name, or a mapping with `forward`/`back` and `set`."""
    if target.mode == "forward" and not target.set:
        return target.step
    value: dict = {target.mode: target.step if target.step is not None else True}
    if target.set:
        value["set"] = dict(target.set)
    return value


def document(flow: Flow) -> dict:
    """The flow as a JSON-ready mapping in document order."""
    steps: dict = {}
    if flow.star:
        steps["*"] = {"on": {event: target_value(t) for event, t in flow.star.items()}}
    for step in flow.steps:
        value: dict = {"title": step.title}
        if step.kind != "screen":
            value["kind"] = step.kind
        if step.on:
            value["on"] = {event: target_value(t) for event, t in step.on.items()}
        if step.next:
            value["next"] = target_value(step.next)
        steps[step.name] = value
    return {"flowkit": 1, "flow": flow.name, "title": f"Generated app flow ({len(flow.steps)} steps)",
            "start": flow.start, "state": {"retries": "int"}, "events": {e: None for e in flow.events()},
            "steps": steps}


def yaml_inline(value) -> str:
    """A value in YAML flow style: identifiers plain, other text double-quoted (JSON strings are valid YAML)."""
    if isinstance(value, dict):
        pairs = ", ".join(f"{yaml_inline(k)}: {yaml_inline(v)}" for k, v in value.items())
        return "{ " + pairs + " }" if value else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(yaml_inline(v) for v in value) + "]"
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.isidentifier() and value.isascii() and value not in ("true", "false", "null"):
        return value
    return json.dumps(value)


def flow_yaml(flow: Flow) -> str:
    """The flow as YAML: top-level keys in block style, one flow-style line per step."""
    doc = document(flow)
    lines = ["# Generated by bench/flowgen.py: an app-shaped flow with planted defects."]
    for key in ("flowkit", "flow", "title", "start", "state", "events"):
        lines.append(f"{key}: {yaml_inline(doc[key])}")
    lines.append("steps:")
    lines += [f"  {yaml_inline(name)}: {yaml_inline(step)}" for name, step in doc["steps"].items()]
    return "\n".join(lines) + "\n"


def flow_json(flow: Flow) -> str:
    """The flow as JSON, one step per line."""
    doc = document(flow)
    head = json.dumps({k: v for k, v in doc.items() if k != "steps"})[:-1]
    steps = ",\n".join(f"  {json.dumps(name)}: {json.dumps(step)}" for name, step in doc["steps"].items())
    return f'{head}, "steps": {{\n{steps}\n}}}}\n'


@dataclass
class Walk:
    """A scripted run: the (step, explicit event or None) entries, the path shown, the outcome and the state."""

    entries: list[tuple[str, str | None]]
    path: list[str]
    outcome: str
    state: dict[str, int]


def walk(flow: Flow, events: int, seed: int) -> Walk:
    """A run of exactly `events` completions along the spine, with branches, retries, edits and error alerts,
    ending with `cancel`; it keeps the flow's history to follow `back` moves the way flowkit does."""
    rng = random.Random(seed)
    steps = flow.by_name()
    last = flow.spine[-1]
    history = [flow.start]
    path = [flow.start]
    state: dict[str, int] = {}
    entries: list[tuple[str, str | None]] = []

    def take(target: Target) -> None:
        """Move as flowkit does: forward pushes, `back: X` pops to the latest X, `back: true` pops one."""
        if target.mode == "forward":
            history.append(target.step)
        elif target.step is None:
            history.pop()
        else:
            latest = len(history) - 1 - history[::-1].index(target.step)
            del history[latest + 1:]
        for key, expression in target.set.items():
            state[key] = expression if isinstance(expression, int) else state[key] + 1  # "state.K + 1"
        path.append(history[-1])

    for remaining in range(events, 0, -1):
        current = steps[history[-1]]
        if current.name not in flow.spine:
            event = None  # a branch screen or the alert: carry on
        elif remaining == 1:
            event = "cancel"
        else:
            choices = [(None, 6)] if current.name != last else []
            choices += [(e, 2) for e in ("retry", "edit") if e in current.on]
            if remaining >= 3:
                choices += [(e, 1) for e in ("alt", "error") if e in current.on or e in flow.star]
            event = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
        entries.append((current.name, event))
        handlers = current.on if event in current.on or event is None else flow.star
        take(current.next if event is None else handlers[event])
    return Walk(entries, path, history[-1], state)


def script_yaml(flow_file: str, run: Walk) -> str:
    """A flowkit simulation script (docs/format.md) that plays the walk and expects its outcome, state and path."""
    lines = ["# Generated by bench/flowgen.py: a scripted walk through a generated flow.", "flowkit-script: 1",
             f"flow: {flow_file}", "scenarios:", f"  - name: walk of {len(run.entries)} events", "    steps:"]
    for step, event in run.entries:
        lines.append(f"      - {step}: {{ event: {event} }}" if event else f"      - {step}: {{}}")
    lines += ["    expect:", f"      outcome: {run.outcome}", f"      state: {yaml_inline(run.state)}",
              f"      path: {yaml_inline(run.path)}"]
    return "\n".join(lines) + "\n"
