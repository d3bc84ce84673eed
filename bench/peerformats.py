"""Converters of a generated flow (bench/flowgen.py) into each peer's input format.

The peers are flat state machines: a forward move and a `back: X` move are both a transition to X, and the
event name is the flowkit event (`next` for a step's `next`). The `"*"` error handler and its alert, a detour
that returns to whichever step showed it, has no transition of its own in the checkers' formats (ASL,
python-statemachine): it adds no way out and no way in, so leaving it out keeps every planted defect what it is.
The walkers model it: sismic with a shallow history state, transitions with a callback that goes back.
"""

import json

from flowgen import Flow


def transitions_of(step) -> list[tuple[str, str]]:
    """A step's own moves as (event, target step) pairs, `back: true` left out; `next` is the event `next`."""
    moves = [(event, target.step) for event, target in step.on.items() if target.step is not None]
    if step.next is not None and step.next.step is not None:
        moves.append(("next", step.next.step))
    return moves


def checked_steps(flow: Flow) -> list:
    """The steps the checkers see: all but the alert detour."""
    detours = {target.step for target in flow.star.values()}
    return [step for step in flow.steps if step.name not in detours]


def asl(flow: Flow) -> str:
    """Amazon States Language for statelint: a step with one move is a Pass state with `Next`, one with several a
    Choice on `$.event` (`next` as its `Default`), `done` a Succeed state, `cancelled` a Fail state, and a dead end
    a Pass state with neither `Next` nor `End`."""
    states = {}
    for step in checked_steps(flow):
        moves = transitions_of(step)
        if step.kind == "finish":
            states[step.name] = {"Type": "Succeed" if step.name == "done" else "Fail", "Comment": step.title}
        elif len(moves) == 1:
            states[step.name] = {"Type": "Pass", "Comment": step.title, "Next": moves[0][1]}
        elif not moves:
            states[step.name] = {"Type": "Pass", "Comment": step.title}
        else:
            choices = [{"Variable": "$.event", "StringEquals": event, "Next": target}
                       for event, target in moves if event != "next"]
            states[step.name] = {"Type": "Choice", "Comment": step.title, "Choices": choices}
            if step.next is not None:
                states[step.name]["Default"] = step.next.step
    return json.dumps({"Comment": flow.name, "StartAt": flow.start, "States": states}, indent=1) + "\n"


def statemachine(flow: Flow) -> str:
    """A JSON definition that bench/peers/statemachine_check.py turns into a python-statemachine class."""
    steps = checked_steps(flow)
    return json.dumps({
        "states": [{"id": s.name, "initial": s.name == flow.start, "final": s.kind == "finish"} for s in steps],
        "transitions": [[event, s.name, target] for s in steps for event, target in transitions_of(s)],
    }) + "\n"


def machine(flow: Flow) -> str:
    """A JSON definition for bench/peers/transitions_walk.py: states, a transitions list and the detour."""
    ((event, target),) = flow.star.items()
    return json.dumps({
        "initial": flow.start,
        "states": [step.name for step in flow.steps],
        "finals": [step.name for step in flow.steps if step.kind == "finish"],
        "transitions": [{"trigger": event, "source": step.name, "dest": dest}
                        for step in flow.steps for event, dest in transitions_of(step)],
        "detour": {"event": event, "step": target.step},
    }) + "\n"


def sismic(flow: Flow) -> str:
    """A sismic YAML statechart: the steps are children of a compound state `flow` (finish steps are final states)
    whose `error` transition shows `alert`; the alert's `next` returns through `flow`'s shallow history state."""
    ((event, target),) = flow.star.items()
    lines = ["statechart:", f"  name: {flow.name}", "  root state:", "    name: root", "    initial: flow",
             "    states:", "      - name: flow", f"        initial: {flow.start}", "        transitions:",
             f"          - target: {target.step}", f"            event: {event}", "        states:",
             "          - name: flow_history", "            type: shallow history"]
    for step in flow.steps:
        if step.name == target.step:
            continue
        lines.append(f"          - name: {step.name}")
        if step.kind == "finish":
            lines.append("            type: final")
            continue
        moves = transitions_of(step)
        if moves:
            lines.append("            transitions:")
        for move_event, dest in moves:
            lines += [f"              - target: {dest}", f"                event: {move_event}"]
    lines += [f"      - name: {target.step}", "        transitions:", "          - target: flow_history",
              "            event: next"]
    return "\n".join(lines) + "\n"


def walk_events(entries: list[tuple[str, str | None]], outcome: str) -> str:
    """The walk for the peers: (step the run must be at, event) pairs, `next` for a plain completion."""
    return json.dumps({"steps": [[step, event or "next"] for step, event in entries], "final": outcome}) + "\n"
