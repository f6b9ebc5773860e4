"""mkdocs hooks: reference pages generated from the code at build time.

A page asks for generated text with an HTML comment marker on a line of its own:

- ``<!-- balancelab:cli -->``: ``balancelab --help`` and every command's ``--help``, from the
  argparse parser (``balancelab_cli.build_parser``);
- ``<!-- balancelab:study-schema -->``: the study file's fields, from the pydantic models of
  ``pipeline/study_file.py`` (``model_json_schema``);
- ``<!-- balancelab:studies -->``: the built-in studies (``pipeline/studies/``) with their game,
  cells, games and description, as ``balancelab studies`` lists them;
- ``<!-- balancelab:variant-options GAME -->``: a game's variant options, from
  ``rust_core.variant_schema``; ``<!-- balancelab:contract-options -->``: the options every game
  accepts, from ``rust_core.contract_options``.

An unknown marker fails the build, so a page cannot silently lose its reference.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any

MARKER = re.compile(r"^<!-- balancelab:([a-z-]+)(?: ([a-z]+))? -->$", re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace every marker of the page by the text generated for it."""
    return MARKER.sub(lambda m: _generate(m.group(1), m.group(2)), markdown)


def _generate(kind: str, arg: str | None) -> str:
    if kind == "cli":
        return cli_reference()
    if kind == "study-schema":
        return study_schema_reference()
    if kind == "studies":
        return studies_table()
    if kind == "variant-options" and arg:
        return options_table(_schema(arg))
    if kind == "contract-options":
        import rust_core

        return options_table(rust_core.contract_options())
    raise ValueError(f"docs: unknown marker balancelab:{kind} {arg or ''}")


def _schema(game: str) -> list[dict[str, Any]]:
    import rust_core

    return rust_core.variant_schema(game)


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def options_table(schema: list[dict[str, Any]]) -> str:
    """A Markdown table of variant options as ``variant_schema`` describes them."""
    rows = ["| option | default | allowed | description |", "|---|---|---|---|"]
    for o in schema:
        default = _cell(json.dumps(o["default"]))
        allowed, description = _cell(o["allowed"]), _cell(o["description"])
        rows.append(f"| `{o['name']}` | `{default}` | {allowed} | {description} |")
    return "\n".join(rows)


def cli_reference() -> str:
    """``--help`` of ``balancelab`` and of each of its commands, as the parser prints them."""
    from balancelab_cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal: a fixed width for the page
    parser = build_parser()
    parts = ["## balancelab", "", "```text", parser.format_help().rstrip(), "```"]
    for action in parser._actions:  # argparse keeps its subcommands on a private attribute
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += ["", f"## balancelab {name}", "", "```text", sub.format_help().rstrip(), "```"]
    return "\n".join(parts)


def _type(node: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short type of a JSON-schema node: ``integer 1..64``, ``array of string``, ``Grid``."""
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    for key in ("anyOf", "oneOf"):
        if key in node:
            kinds = [_type(n, defs) for n in node[key] if n.get("type") != "null"]
            return " or ".join(kinds)
    kind = node.get("type", "any value")
    if kind == "array":
        inner = _type(node["items"], defs) if node.get("items") else "any value"
        least = f", at least {node['minItems']}" if "minItems" in node else ""
        return f"array of ({inner}){least}"
    if kind == "object":
        if "patternProperties" in node:
            return "table of named tables"
        extra = node.get("additionalProperties")
        return f"table of ({_type(extra, defs)})" if isinstance(extra, dict) and extra else "table"
    bounds = [
        f"≥ {node['minimum']}" if "minimum" in node else "",
        f"> {node['exclusiveMinimum']}" if "exclusiveMinimum" in node else "",
        f"≤ {node['maximum']}" if "maximum" in node else "",
        f"< {node['exclusiveMaximum']}" if "exclusiveMaximum" in node else "",
    ]
    said = ", ".join(b for b in bounds if b)
    return f"{kind} ({said})" if said else str(kind)


def _model_table(name: str, model: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    required = set(model.get("required", []))
    doc = " ".join(model.get("description", "").split()).replace("``", "`")
    doc = re.sub(r" \(see README\.md[^)]*\)", "", doc)  # the page this table is on is the reference
    rows = [f"### `{name}`", "", doc, "", "| field | type | required | default |", "|---|---|---|---|"]
    for field, node in model["properties"].items():
        default = "" if field in required or "default" not in node else f"`{json.dumps(node['default'])}`"
        needed = "yes" if field in required else "no"
        rows.append(f"| `{field}` | {_cell(_type(node, defs))} | {needed} | {default} |")
    return rows + [""]


def study_schema_reference() -> str:
    """The study file's fields, model by model, then the whole JSON schema."""
    from pipeline.study_file import StudyFile

    schema = StudyFile.model_json_schema(by_alias=True)
    defs = schema.get("$defs", {})
    lines = _model_table("StudyFile (the top level)", schema, defs)
    for name in sorted(defs):
        lines += _model_table(name, defs[name], defs)
    lines += ["### JSON schema", "", "```json", json.dumps(schema, indent=2), "```"]
    return "\n".join(lines)


def studies_table() -> str:
    """The built-in studies: name, game, cells, games and description."""
    from pipeline import study as study_mod

    rows = ["| study | game | cells | games | question |", "|---|---|---|---|---|"]
    for name in study_mod.builtin_names():
        s = study_mod.load_study(name)
        games = sum(c.games for c in s.cells)
        rows.append(f"| `{name}` | {s.game} | {len(s.cells)} | {games:,} | {_cell(s.description)} |")
    return "\n".join(rows)
