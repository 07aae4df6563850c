"""The typer app with every command registered: importing a command module registers its
commands on the one app (`cli.common.app`)."""

from pipeline.cli import (  # noqa: F401  (registers commands)
    export_commands,
    job_commands,
    read_commands,
    renumbering_commands,
    scheme_command,
    site_commands,
)
from pipeline.cli.common import app

__all__ = ["app"]
