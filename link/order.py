#!/usr/bin/env python3
"""Write link/flowkit.order: the functions the flowkit command runs, for the release link to put together.

`make release` links flowkit with lld and this file as its symbol ordering file, so that the code a lint runs sits
in a few hundred kilobytes rather than spread over the binary's 18 MB of text. The kernel maps a program's code
64 KiB around each page it first runs, so scattered code makes a resident set several times the code that runs.

The file is a list of mangled symbol names, one a line, in the order of the workloads below (within one, sorted).
It is made from a release build under valgrind's callgrind (every function that runs, not a sample):

    make release && python3 link/order.py

A name the linker no longer finds is skipped (the link passes --no-warn-symbol-ordering), so an old file costs
only locality: run this again after large changes and commit the result. Needs valgrind and binutils' objcopy.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import flowgen  # noqa: E402


def release_binary() -> Path:
    bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    binary = Path(bin_path) / "flowkit"
    if not binary.is_file():
        sys.exit(f"error: no release build at '{binary}'; run 'make release' first")
    return binary


def workloads(work: Path) -> list[list[str]]:
    """The command lines to trace: lint in every format, on small and large flows in both syntaxes, and the other
    commands on the samples."""
    flow = flowgen.generate(10_000, seed=10_000, defects=flowgen.defects_for(10_000))
    (work / "flow-10000.json").write_text(flowgen.flow_json(flow))
    (work / "flow-10000.yaml").write_text(flowgen.flow_yaml(flow))
    small = work / "small"
    small.mkdir()
    for number in range(20):
        flow = flowgen.generate(20 + number * 2, seed=100_000 + number, defects=0)
        flow.name = f"small{number}"
        text = flowgen.flow_json(flow) if number % 2 else flowgen.flow_yaml(flow)
        (small / f"flow-{number:02}.{'json' if number % 2 else 'yaml'}").write_text(text)
    samples = sorted(str(path) for path in (ROOT / "flows").glob("*.yaml")) + \
        sorted(str(path) for path in (ROOT / "flows").glob("*.json"))
    scripts = sorted(str(path) for path in (ROOT / "flows" / "scripts").glob("*.yaml"))
    lines = [
        ["lint", "--format", "json", str(small / "flow-01.json")],
        ["lint", str(small / "flow-00.yaml")],
        ["lint", "--format", "json", str(work / "flow-10000.json")],
        ["lint", "--format", "json", str(work / "flow-10000.yaml")],
        ["lint", str(small)],
        ["lint", *samples],
        ["lint", "--format", "github", str(ROOT / "flows" / "broken")],
        ["lint", "--format", "sarif", str(ROOT / "flows" / "broken")],
        ["lint", "--format", "checkstyle", str(ROOT / "flows" / "broken")],
        ["lint", "--format", "junit", str(ROOT / "flows" / "broken")],
    ]
    lines += [["simulate", "--quiet", "--script", script] for script in scripts]
    lines += [["render", "--dot", samples[0], "-o", str(work / "sample.dot")],
              ["render", "--mermaid", samples[0], "-o", str(work / "sample.mmd")]]
    return lines


def traced_functions(binary: Path, arguments: list[str], out: Path) -> list[str]:
    """The mangled names of the functions of `binary` that ran, read from callgrind's output."""
    command = f"flowkit {' '.join(arguments)}"
    run = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
                          str(binary), *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # Exit status 1 is a lint's findings; 2 and above, or a signal, is a workload that did not run as meant.
    if run.returncode not in (0, 1):
        sys.exit(f"error: '{command}' under callgrind exited with {run.returncode}:\n{run.stderr[-2000:]}")
    if not out.is_file():
        sys.exit(f"error: callgrind wrote nothing for '{command}'")
    # callgrind names an object by its resolved path.
    traced_object = str(binary.resolve())
    objects: dict[str, str] = {}
    functions: dict[str, str] = {}
    current_object = ""
    names: set[str] = set()
    pattern = re.compile(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")
    for line in out.read_text(errors="replace").splitlines():
        match = pattern.match(line)
        if not match:
            continue
        kind, number, name = match.groups()
        if kind.endswith("ob"):
            if name:
                objects[number] = name
            if kind == "ob":
                current_object = objects[number]
        else:
            if name:
                functions[number] = name
            if kind == "fn" and current_object == traced_object:
                names.add(functions[number])
    # Left out: addresses without a symbol ("0x..."), callgrind's own "(below main)", and the names it gives a
    # function's recursive calls ("name'2"; the function is listed under its own name too).
    kept = sorted(name for name in names if not name.startswith(("0x", "(")) and "'" not in name)
    if not kept:
        sys.exit(f"error: no function of '{traced_object}' found in callgrind's trace of '{command}'")
    return kept


def main() -> None:
    binary = release_binary()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        # valgrind cannot read the DWARF the Swift toolchain writes; the symbol table is all it needs here.
        stripped = work / "flowkit"
        subprocess.run(["objcopy", "--strip-debug", str(binary), str(stripped)], check=True)
        order: list[str] = []
        seen: set[str] = set()
        for number, arguments in enumerate(workloads(work)):
            for name in traced_functions(stripped, arguments, work / f"callgrind.{number}"):
                if name not in seen:
                    seen.add(name)
                    order.append(name)
    target = ROOT / "link" / "flowkit.order"
    target.write_text("".join(f"{name}\n" for name in order))
    print(f"wrote {len(order)} functions to {os.path.relpath(target)}")


if __name__ == "__main__":
    main()
