#!/usr/bin/env python3
"""`flowkit report`'s size and time (issue 33), measured, never asserted.

Writes the HTML report (release build) of the samples with their scripts, and of a generated 1,000-step flow with
its defects and a scripted walk, RUNS times each, and prints the median wall time, the peak memory and the size of
the file, as a Markdown table.

    python3 bench/report.py --bin .build/release [--runs 5]
"""
import argparse
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = pathlib.Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
import flowgen  # noqa: E402


def measure(binary: str, arguments: list[str], cwd: pathlib.Path, output: pathlib.Path, runs: int) -> tuple[float, float, int]:
    """Median seconds, peak resident megabytes (of any run) and the report's bytes."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run([binary, "report", *arguments, "-o", str(output)], cwd=cwd, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode == 2:
            sys.exit(f"flowkit report failed: {result.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return statistics.median(times), peak, output.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    binary = str((pathlib.Path(arguments.bin) / "flowkit").resolve())
    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(scratch)
        samples = sorted(str(path.relative_to(REPO)) for path in (REPO / "flows").glob("*.*") if path.suffix in (".json", ".yaml"))
        scripts = [argument for path in sorted((REPO / "flows" / "scripts").glob("*.yaml")) for argument in ("--script", str(path.relative_to(REPO)))]
        rows = [("the samples (6 flows, 27 scenarios)", *measure(binary, samples + scripts, REPO, folder / "samples.html", arguments.runs))]
        flow = flowgen.generate(1000, seed=1000, defects=flowgen.defects_for(1000))
        (folder / "big.yaml").write_text(flowgen.flow_yaml(flow))
        (folder / "big.script.yaml").write_text(flowgen.script_yaml("big.yaml", flowgen.walk(flow, 200, seed=1)))
        rows.append(("a 1,000-step flow with its defects and a 200-event walk", *measure(binary, ["big.yaml", "--script", "big.script.yaml"], folder,
                                                                                             folder / "big.html", arguments.runs)))
    print(f"\n### flowkit report (median of {arguments.runs} runs)\n")
    print("| input | time | peak memory | report size |")
    print("| --- | --- | --- | --- |")
    for name, seconds, peak, size in rows:
        print(f"| {name} | {seconds:.2f} s | {peak:.0f} MB | {size / 1024:.0f} KB |")


if __name__ == "__main__":
    main()
