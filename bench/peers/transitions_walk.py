"""Runs a scripted walk on a `transitions` Machine (run in bench/.venv by the harness).

Usage: transitions_walk.py MACHINE.json WALK.json. Builds the Machine (auto_transitions=False) from the states and
transitions list in the file; the detour (`"*"` error -> alert -> back) is a transition from every step that is
not final into the alert, which remembers the step, and the alert's `next`, which goes back to it. For each
(step, event) of the walk the machine must be at the step; the event is triggered (an event the state does not
handle raises). Exit 1 with a message on the first difference.
"""

import json
import sys

from transitions import Machine


class Run:
    """The model: the machine's state, and the step the alert was shown over."""

    shown_over = None


def main() -> None:
    """Build, run and check the walk."""
    with open(sys.argv[1], encoding="utf-8") as file:
        definition = json.load(file)
    with open(sys.argv[2], encoding="utf-8") as file:
        walk = json.load(file)
    run = Run()
    machine = Machine(model=run, states=definition["states"], transitions=definition["transitions"],
                      initial=definition["initial"], auto_transitions=False)
    detour = definition["detour"]
    sources = [s for s in definition["states"] if s not in definition["finals"] and s != detour["step"]]

    def remember() -> None:
        run.shown_over = run.state

    def go_back() -> None:
        machine.set_state(run.shown_over, model=run)

    machine.add_transition(detour["event"], sources, detour["step"], before=remember)
    machine.add_transition("next", detour["step"], None, after=go_back)
    for number, (step, event) in enumerate(walk["steps"], 1):
        if run.state != step:
            sys.exit(f"event {number}: expected to be at {step}, at {run.state}")
        run.trigger(event)
    if run.state != walk["final"]:
        sys.exit(f"expected to end at {walk['final']}, at {run.state}")
    print(f"ok: {len(walk['steps'])} events, at {walk['final']}")


main()
