#!/usr/bin/env python3
"""The editor server's latency and memory (issue 32), measured, never asserted.

Starts `flowkit lsp` (release build) with FLOWKIT_LSP_LOG=timing, so the server logs how long each lint of stale
documents took, from the moment it starts linting to the diagnostics being ready (server-side). Opens every sample
flow and the 10,000-step bench flow, then edits the small flow (transfer.yaml) and the large one EDITS times each,
waiting for each edit's diagnostics, and reports the median and 90th percentile, server-side and as the client saw
it (round trip through the pipes), and the server's resident memory with everything open.

    python3 bench/lsp.py --bin .build/release [--edits 41] [--markdown]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BENCH = pathlib.Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
import flowgen  # noqa: E402


class Client:
    def __init__(self, binary: str, root: pathlib.Path):
        self.process = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env={"FLOWKIT_LSP_LOG": "timing", "PATH": "/usr/bin:/bin"})
        self.timings: list[float] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read_log, daemon=True).start()
        self.next_id = 0
        self.request("initialize", {"rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def _read_log(self) -> None:
        for line in self.process.stderr:
            text = line.decode(errors="replace")
            if "timing: lint" in text:
                with self.lock:
                    self.timings.append(float(text.rsplit(" in ", 1)[1].split()[0]))

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            header += self.process.stdout.read(1)
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        return json.loads(self.process.stdout.read(length))

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id:
                return message

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri: str, version: int) -> list:
        while True:
            message = self.receive()
            params = message.get("params", {})
            if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri and params.get("version") == version:
                return params["diagnostics"]

    def open(self, path: pathlib.Path) -> list:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": path.read_text()}})
        return self.diagnostics(path.as_uri(), 1)

    def rss_mb(self) -> tuple[float, float]:
        status = pathlib.Path(f"/proc/{self.process.pid}/status").read_text()
        values = {line.split(":")[0]: line.split()[1] for line in status.splitlines() if line.startswith(("VmRSS", "VmHWM"))}
        return int(values["VmRSS"]) / 1024, int(values["VmHWM"]) / 1024

    def close(self) -> None:
        self.request("shutdown", {})
        self.notify("exit", {})
        self.process.wait(timeout=30)


def edits(client: Client, path: pathlib.Path, count: int) -> tuple[list[float], list[float]]:
    """Edits `path` `count` times (a comment line added and taken away in turn, so findings stay the same); returns
    the server's lint times and the client's round trips, in milliseconds."""
    text = path.read_text()
    uri = path.as_uri()
    with client.lock:
        before = len(client.timings)
    trips = []
    for version in range(2, count + 2):
        changed = text + ("# edit %d\n" % version if version % 2 else "")
        start = time.perf_counter()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]})
        client.diagnostics(uri, version)
        trips.append((time.perf_counter() - start) * 1000)
    time.sleep(0.05)
    with client.lock:
        server = client.timings[before:]
    return server, trips


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return f"median {statistics.median(ordered):.2f} ms, 90th percentile {ordered[int(0.9 * (len(ordered) - 1))]:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--edits", type=int, default=41)
    parser.add_argument("--markdown", action="store_true")
    arguments = parser.parse_args()
    binary = str(pathlib.Path(arguments.bin) / "flowkit")
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        for sample in list((REPO / "flows").glob("*.yaml")) + list((REPO / "flows").glob("*.json")):
            (root / sample.name).write_text(sample.read_text())
        (root / "nested").mkdir()
        (root / "nested" / "sign-in.yaml").write_text((REPO / "flows" / "nested" / "sign-in.yaml").read_text())
        large = root / "bench-10000.json"
        large.write_text(flowgen.flow_json(flowgen.generate(10_000, seed=10_000, defects=flowgen.defects_for(10_000))))
        client = Client(binary, root)
        for path in sorted(root.glob("*.yaml")) + sorted(root.glob("*.json")):
            client.open(path)
        rss, peak = client.rss_mb()
        small_server, small_trip = edits(client, root / "transfer.yaml", arguments.edits)
        large_server, large_trip = edits(client, large, arguments.edits)
        client.close()
    lines = [
        "## The editor server (`flowkit lsp`)",
        "",
        f"`bench/lsp.py`: {arguments.edits} edits of each flow, each waited for; the server's time is from the start of a lint of the",
        "stale documents to their diagnostics being ready (`FLOWKIT_LSP_LOG=timing`), the round trip is what the client saw.",
        "",
        "| after an edit of | server | round trip |",
        "| --- | --- | --- |",
        f"| `transfer.yaml` (small) | {summary(small_server)} | {summary(small_trip)} |",
        f"| the 10,000-step bench flow | {summary(large_server)} | {summary(large_trip)} |",
        "",
        f"Memory with every sample and the 10,000-step flow open: {rss:.0f} MB resident ({peak:.0f} MB at its peak).",
        "",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
