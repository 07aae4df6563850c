"""The command-line reference as Markdown, read off the typer app itself (click's own
introspection), so the documentation cannot drift from the commands: the docs build writes
it (docs/hooks/cli_reference.py) and tests/cli/test_docs.py checks the pages against it."""

from __future__ import annotations

from typing import Any

import typer
from typer.main import get_command

from pipeline.cli.commands import app

__all__ = ["command_names", "global_options", "render_cli_reference"]

PROGRAM = "rulescorpus"


# typer carries its own copy of click, so commands are known by what they have (a group
# has `commands`, a parameter its `param_type_name`), not by click's classes.
def root_command() -> Any:
    return get_command(app)


def command_names() -> list[str]:
    """Every command of the app, sorted (a group such as `export` by its own name)."""
    return sorted(str(name) for name in root_command().commands)


def global_options() -> list[str]:
    """The options of the program itself: those every command takes before or after its
    name (--corpus, --cache, --sources), --version and the completion options."""
    return [str(opt) for param in root_command().params for opt in param.opts]


def describe_params(ctx: typer.Context, command: Any) -> list[str]:
    lines: list[str] = []
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    options = [
        p for p in command.params if p.param_type_name == "option" and p.name not in GLOBAL_NAMES
    ]
    if arguments:
        lines += ["", "| argument | required |", "|---|---|"]
        lines += [
            f"| `{str(p.name).upper()}` | {'yes' if p.required else 'no'} |" for p in arguments
        ]
    if options:
        lines += ["", "| option | what it does |", "|---|---|"]
        for option in options:
            record = option.get_help_record(ctx)
            if record is None:
                continue
            names, help_text = record
            lines.append(f"| `{escape_cell(names)}` | {escape_cell(help_text)} |")
    return lines


GLOBAL_NAMES = frozenset({"corpus", "cache", "sources", "help"})


def escape_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def usage_pieces(command: Any) -> list[str]:
    """`[OPTIONS] DOC OLD [NEW]`: arguments in capitals, optional ones in brackets."""
    if hasattr(command, "commands"):
        return ["COMMAND", "[ARGS]..."]
    pieces = ["[OPTIONS]"]
    for param in command.params:
        if param.param_type_name != "argument":
            continue
        piece = str(param.name).upper() + ("..." if param.nargs == -1 else "")
        pieces.append(piece if param.required else f"[{piece}]")
    return pieces


def describe_command(path: list[str], command: Any) -> list[str]:
    name = " ".join(path)
    info = typer.Context(command, info_name=name)
    usage = " ".join(usage_pieces(command))
    # A group's commands are sections inside its own (`### rulescorpus export sqlite`), so
    # the group's section holds every option its commands take.
    heading = "#" * (len(path) + 1)
    lines = [
        f"{heading} `{PROGRAM} {name}`",
        "",
        "```",
        f"{PROGRAM} {name} {usage}".rstrip(),
        "```",
    ]
    if command.help:
        lines += ["", command.help.strip()]
    if hasattr(command, "commands"):
        for sub_name in sorted(command.commands):
            lines += ["", *describe_command([*path, sub_name], command.commands[sub_name])]
        return lines
    return lines + describe_params(info, command)


def render_cli_reference() -> str:
    """The whole reference page: the global options, then every command in name order."""
    root = root_command()
    info = typer.Context(root, info_name=PROGRAM)
    lines = [
        "# Command-line reference",
        "",
        "Generated from the command line itself when the documentation is built;",
        f"`{PROGRAM} COMMAND --help` prints the same.",
        "",
        root.help.strip() if root.help else "",
    ]
    shared = [p for p in root.params if p.name in GLOBAL_NAMES]
    own = [p for p in root.params if p.name not in GLOBAL_NAMES]
    for intro, params in (
        ("Every command takes these options, before or after the command's name:", shared),
        (f"`{PROGRAM}` itself, before any command, also takes:", own),
    ):
        lines += ["", intro, "", "| option | what it does |", "|---|---|"]
        for param in params:
            record = param.get_help_record(info)
            if record is not None:
                lines.append(f"| `{escape_cell(record[0])}` | {escape_cell(record[1])} |")
    for name in command_names():
        lines += ["", *describe_command([name], root.commands[name])]
    return "\n".join(lines) + "\n"
