"""Runs a scripted walk on a sismic YAML statechart (run in bench/.venv by the harness).

Usage: sismic_walk.py CHART.yaml WALK.json. Loads the statechart from the file, then for each (step, event) of
the walk checks that the step is active and sends the event; at the end the walk's final step must be active.
Exit 1 with a message on the first difference.
"""

import json
import sys

from sismic.interpreter import Interpreter
from sismic.io import import_from_yaml


def main() -> None:
    """Load, run and check the walk."""
    interpreter = Interpreter(import_from_yaml(filepath=sys.argv[1]))
    with open(sys.argv[2], encoding="utf-8") as file:
        walk = json.load(file)
    interpreter.execute_once()
    for number, (step, event) in enumerate(walk["steps"], 1):
        if step not in interpreter.configuration:
            sys.exit(f"event {number}: expected to be at {step}, active: {interpreter.configuration}")
        interpreter.queue(event)
        interpreter.execute_once()
    if walk["final"] not in interpreter.configuration:
        sys.exit(f"expected to end at {walk['final']}, active: {interpreter.configuration}")
    print(f"ok: {len(walk['steps'])} events, at {walk['final']}")


main()
