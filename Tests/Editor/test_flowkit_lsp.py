"""End to end: `flowkit lsp` driven by a real LSP client (pytest-lsp, over pygls), as an editor drives it.

Run by `make test-editor` (part of `make test`) with FLOWKIT set to the built binary. Each test copies the files
it edits into a temporary folder, the workspace root.
"""
import os
import pathlib
import shutil
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLOWKIT = os.environ.get("FLOWKIT", str(ROOT / ".build" / "debug" / "flowkit"))


@pytest.fixture
def workspace(tmp_path):
    """A copy of the samples (flows/), the workspace the server is started in."""
    shutil.copytree(ROOT / "flows", tmp_path / "flows")
    return tmp_path / "flows"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[FLOWKIT, "lsp"]))
async def client(lsp_client: LanguageClient, workspace):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
                               root_uri=workspace.as_uri(), workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="flows")])
    )
    yield
    await lsp_client.shutdown_session()


async def open_document(client: LanguageClient, path: pathlib.Path, text=None, version=1):
    text = path.read_text() if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="yaml", version=version, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return text


def apply(text: str, edits) -> str:
    """The text with LSP edits made (positions in UTF-16, lines of the text)."""
    lines = text.split("\n")

    def offset(position):
        before = "\n".join(lines[: position.line])
        prefix = before + ("\n" if position.line > 0 else "")
        line = lines[position.line]
        units = line.encode("utf-16-le")[: position.character * 2].decode("utf-16-le")
        return len(prefix) + len(units)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
        lines = text.split("\n")
    return text


async def test_a_typo_is_reported_quick_fixed_and_cleared(client: LanguageClient, workspace):
    path = workspace / "transfer.yaml"
    text = path.read_text().replace("next: confirmation", "next: confirmaton", 1)
    await open_document(client, path, text)
    diagnostics = client.diagnostics[path.as_uri()]
    assert [d.code for d in diagnostics] == ["undefined_step"], diagnostics
    assert "did you mean 'confirmation'?" in diagnostics[0].message
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), range=diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=diagnostics)))
    assert [a.title for a in actions] == ["replace 'confirmaton' with 'confirmation'"]
    fixed = apply(text, actions[0].edit.changes[path.as_uri()])
    assert fixed == path.read_text()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[path.as_uri()]) == []


async def test_rename_changes_the_flow_its_parent_and_its_script(client: LanguageClient, workspace):
    # nested/sign-in.yaml is nested by booking.json's 'signIn' step; its finish step 'gaveUp' is an outcome booking
    # declares and handles, and booking's script names it as 'signIn/gaveUp'.
    child = workspace / "nested" / "sign-in.yaml"
    parent = workspace / "booking.json"
    script = workspace / "scripts" / "booking.yaml"
    text = await open_document(client, child)
    line = next(i for i, l in enumerate(text.split("\n")) if l.startswith("  gaveUp:"))
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=child.as_uri()), position=types.Position(line=line, character=4), new_name="abandoned"))
    changes = edit.changes
    assert set(changes) == {child.as_uri(), parent.as_uri(), script.as_uri()}, changes.keys()
    for path in (child, parent, script):
        renamed = apply(path.read_text(), changes[path.as_uri()])
        # (Comments keep their words: a rename changes names, not prose.)
        code = "\n".join(line for line in renamed.split("\n") if not line.lstrip().startswith("#"))
        assert "gaveUp" not in code and "abandoned" in code, path
        path.write_text(renamed)
    # Written, the three lint clean and the script's scenarios pass.
    import subprocess
    result = subprocess.run([FLOWKIT, "lint", str(child), str(parent), str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    result = subprocess.run([FLOWKIT, "simulate", "--script", str(script), "--quiet"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


async def test_a_step_renamed_in_its_script_too(client: LanguageClient, workspace):
    flow = workspace / "transfer.yaml"
    script = workspace / "scripts" / "transfer.yaml"
    text = await open_document(client, flow)
    line = next(i for i, l in enumerate(text.split("\n")) if l.startswith("  confirmation:"))
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=flow.as_uri()), position=types.Position(line=line, character=4), new_name="review"))
    assert script.as_uri() in edit.changes
    flow.write_text(apply(text, edit.changes[flow.as_uri()]))
    script.write_text(apply(script.read_text(), edit.changes[script.as_uri()]))
    import subprocess
    result = subprocess.run([FLOWKIT, "simulate", "--script", str(script), "--quiet"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


async def test_completion_and_definition_on_the_samples(client: LanguageClient, workspace):
    path = workspace / "transfer.yaml"
    text = await open_document(client, path)
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "next: confirmation" in l)
    column = lines[line].index("confirmation")
    definition = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line=line, character=column + 2)))
    target = definition if isinstance(definition, types.Location) else definition[0]
    assert lines[target.range.start.line].startswith("  confirmation:")
    completion = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line=line, character=column)))
    labels = {item.label for item in (completion.items if hasattr(completion, "items") else completion)}
    assert {"confirmation", "amount", "finish"} <= labels, labels
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri())))
    assert "confirmation" in [s.name for s in symbols]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line=line, character=column + 2)))
    assert hover.contents.value.startswith("**step** `confirmation`")


async def test_a_burst_of_edits_and_a_huge_document(client: LanguageClient, workspace):
    """Fifty edits sent without waiting: the server neither wedges nor ends on an old version (every version but the
    last has a typo); then a document of a 10,000-step flow gets its diagnostics, and the server still answers."""
    import asyncio
    path = workspace / "transfer.yaml"
    text = await open_document(client, path)
    typo = text.replace("next: confirmation", "next: confirmaton", 1)
    for version in range(2, 52):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text if version == 51 else typo)]))
    # A request after the burst is answered (the server is not wedged), then the last version's diagnostics come.
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri())))
    for _ in range(100):
        if client.diagnostics.get(path.as_uri()) is not None and list(client.diagnostics[path.as_uri()]) == []:
            break
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=30)
    await asyncio.sleep(0.3)
    assert list(client.diagnostics[path.as_uri()]) == []
    sys.path.insert(0, str(ROOT / "bench"))
    import flowgen
    large = workspace / "large.json"
    large.write_text(flowgen.flow_json(flowgen.generate(10_000, seed=10_000, defects=flowgen.defects_for(10_000))))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=large.as_uri(), language_id="json", version=1, text=large.read_text())))
    while large.as_uri() not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=60)
    assert len(client.diagnostics[large.as_uri()]) > 0
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=large.as_uri())))
    assert len(symbols) > 10_000
