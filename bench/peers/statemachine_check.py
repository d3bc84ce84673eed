"""python-statemachine's class-definition-time checks on a generated flow (run in bench/.venv by the harness).

Usage: statemachine_check.py DEFINITION.json. The definition (bench/peerformats.py) lists states and
(event, source, target) transitions; the class is created dynamically with State objects and `State.to`. A class
definition stops at its first failed check, so each failed check is switched off and the class defined again
until every check has had its say. Prints JSON: the states each check named, and how many classes were defined.
"""

import ast
import json
import sys

from statemachine import State, StateMachine
from statemachine.exceptions import InvalidDefinition

# Each check's switch on the class, the key it reports under, and a phrase of its message.
CHECKS = (
    ("validate_disconnected_states", "unreachable", "unreachable states"),
    ("validate_trap_states", "trap", "no outgoing transition"),
    ("validate_final_reachability", "no_final_path", "no path to a final state"),
)


def define(definition: dict, switches: dict[str, bool]) -> type:
    """Define the state machine class; InvalidDefinition when one of the switched-on checks fails."""
    states = {s["id"]: State(initial=s["initial"], final=s["final"]) for s in definition["states"]}
    for event, source, target in definition["transitions"]:
        states[source].to(states[target], event=event)
    return type(StateMachine)("GeneratedFlow", (StateMachine,), {**states, **switches})


def main() -> None:
    """Define the class until every check has reported or passed, and print what each check found."""
    with open(sys.argv[1], encoding="utf-8") as file:
        definition = json.load(file)
    switches: dict[str, bool] = {}
    found: dict[str, list[str]] = {key: [] for _, key, _ in CHECKS}
    builds = 0
    while len(switches) < len(CHECKS):
        builds += 1
        try:
            define(definition, switches)
            break
        except InvalidDefinition as error:
            message = str(error)
            switch, key, _ = next(check for check in CHECKS if check[2] in message)
            found[key] = ast.literal_eval(message[message.rindex("["):])
            switches[switch] = False
    print(json.dumps({**found, "builds": builds}))


main()
