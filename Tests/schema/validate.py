#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema (draft 2020-12).

Usage: python3 validate.py SCHEMA.json DOC.json [DOC.json ...]

The schema is checked first (Draft202012Validator.check_schema). Then each
document is validated; every failure prints one line:

    DOC: /json/pointer/to/value: message

Exit status: 0 when the schema is valid and every document passes, 1 when
the schema is invalid or any document fails, 2 when the script cannot do
its work (bad arguments, a file that cannot be read or is not JSON, the
jsonschema package missing).
"""

import json
import sys


def pointer(path):
    """The JSON Pointer (RFC 6901) of an error path; `/` for the root."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts)


def one_line(text):
    return " ".join(str(text).split())


def branches(error):
    """The errors under an anyOf/oneOf failure, grouped by the branch they come from."""
    groups = {}
    for sub in error.context:
        groups.setdefault(sub.relative_schema_path[0], []).append(sub)
    return list(groups.values())


def wrong_type(error, path):
    """Whether the error says the value at `path` is of a type that the branch
    was not written for (directly, or in every branch beneath it)."""
    if list(error.absolute_path) != path:
        return False
    if error.validator == "type":
        return True
    return bool(error.context) and all(
        any(wrong_type(e, path) for e in group) for group in branches(error)
    )


def closest(error):
    """The most telling reason of an anyOf/oneOf failure: skip the branches
    written for another type of value, then take the deepest reason, and among
    equally deep ones a failed pattern or requirement before a failed constant,
    before a type mismatch."""
    if not error.context:
        return error
    path = list(error.absolute_path)
    groups = branches(error)
    fitting = [g for g in groups if not any(wrong_type(e, path) for e in g)] or groups
    candidates = [closest(e) for group in fitting for e in group]
    rank = {"type": 0, "const": 1, "enum": 1}
    return max(
        candidates,
        key=lambda e: (len(e.absolute_path), rank.get(e.validator, 2), -candidates.index(e)),
    )


def message(error):
    """The error's message; for anyOf/oneOf failures, the closest reason too."""
    text = one_line(error.message)
    if error.context:
        best = closest(error)
        text += f" (closest: {pointer(best.absolute_path)}: {one_line(best.message)})"
    return text


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    if len(argv) < 3 or any(a in ("-h", "--help") for a in argv[1:]):
        print("usage: python3 validate.py SCHEMA.json DOC.json [DOC.json ...]", file=sys.stderr)
        return 2

    try:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
    except ImportError as e:
        print(f"validate.py: the jsonschema package is needed: {e}", file=sys.stderr)
        return 2

    schema_path, doc_paths = argv[1], argv[2:]
    try:
        schema = load_json(schema_path)
    except (OSError, ValueError) as e:
        print(f"{schema_path}: cannot read the schema: {one_line(e)}", file=sys.stderr)
        return 2

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        print(f"{schema_path}: {pointer(e.absolute_path)}: invalid schema: {one_line(e.message)}")
        return 1

    validator = Draft202012Validator(schema)
    failed = False
    unusable = False
    for doc_path in doc_paths:
        try:
            doc = load_json(doc_path)
        except (OSError, ValueError) as e:
            print(f"{doc_path}: cannot read the document: {one_line(e)}", file=sys.stderr)
            unusable = True
            continue
        errors = sorted(
            validator.iter_errors(doc),
            key=lambda e: ([str(p) for p in e.absolute_path], e.message),
        )
        for error in errors:
            failed = True
            print(f"{doc_path}: {pointer(error.absolute_path)}: {message(error)}")

    if unusable:
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
