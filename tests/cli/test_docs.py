"""The README, the documentation site and the command line stay in sync (after sqlite-utils'
tests/cli/test_docs.py): every command, option, exit code and family the program has is
documented, every option the pages name exists, and the site builds strictly, offline."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from typer.main import get_command

from pipeline import errors
from pipeline.cli.commands import app
from pipeline.cli.reference import command_names, global_options, render_cli_reference
from pipeline.registry.loader import load_registry
from pipeline.runner.families import FAMILIES
from tests.support.helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
PAGES = {
    path.relative_to(DOCS).as_posix(): path.read_text(encoding="utf-8")
    for path in sorted(DOCS.rglob("*.md"))
}
ALL_DOCS = "\n".join(PAGES.values())
REFERENCE = render_cli_reference()
COMMANDS = command_names()
ROOT_COMMAND = get_command(app)


def command_options(name: str) -> set[str]:
    command = ROOT_COMMAND.commands[name]  # type: ignore[attr-defined]
    params = list(command.params)
    for sub in getattr(command, "commands", {}).values():
        params += sub.params
    return {opt for p in params for opt in [*p.opts, *p.secondary_opts] if opt.startswith("--")}


EXIT_CODES = {
    name: getattr(errors, name)
    for name in (
        "EXIT_OK",
        "EXIT_CHANGED",
        "EXIT_VERIFY",
        "EXIT_FETCH",
        "EXIT_PARSE",
        "EXIT_IO",
        "EXIT_LOCKED",
        "EXIT_USAGE",
        "EXIT_BUG",
    )
}


def test_first_screen_gives_exactly_the_two_setup_commands() -> None:
    first_screen = "\n".join(README.splitlines()[:30])
    blocks = re.findall(r"```\n(.*?)```", first_screen, re.S)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    assert [c for c in commands if c] == ["make run", "make test"]


def test_the_readme_is_a_short_introduction() -> None:
    assert len(README.splitlines()) < 200
    assert ".venv/bin/rulescorpus" in README and "source .venv/bin/activate" in README
    for link in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / link).is_file(), link


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_readme_row_naming_real_options(command: str) -> None:
    row = next(
        (line for line in README.splitlines() if line.startswith(f"| `rulescorpus {command}")),
        None,
    )
    assert row is not None, f"README's command table has no row for `{command}`"
    options = set(re.findall(r"--[a-z][a-z-]*", row))
    assert options <= command_options(command) | set(global_options()), options


@pytest.mark.parametrize("command", COMMANDS)
def test_the_generated_reference_gives_every_command_and_option(command: str) -> None:
    section = REFERENCE.split(f"## `rulescorpus {command}`", 1)[1].split("\n## `", 1)[0]
    hidden = {"--help", "--corpus", "--cache", "--sources"}
    for option in command_options(command) - hidden:
        assert f"`{option}" in section or f"/ {option}" in section, (command, option)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_described_in_a_page(command: str) -> None:
    assert f"rulescorpus {command}" in ALL_DOCS or f"`{command}`" in ALL_DOCS, command


def test_every_option_a_page_names_exists() -> None:
    """`rulescorpus CMD ... --opt` in a page (inline code or a command line of an example)
    names an option CMD has: a renamed or removed option cannot linger in the docs."""
    usages = re.findall(r"`rulescorpus ([a-z-]+)([^`\n]*)`", ALL_DOCS)
    usages += re.findall(r"^\$? ?rulescorpus ([a-z-]+)(.*)$", ALL_DOCS, re.M)
    checked = 0
    for command, rest in usages:
        if command not in COMMANDS:
            continue
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest))
        unknown = named - command_options(command) - set(global_options())
        assert not unknown, f"`rulescorpus {command}{rest}` names {unknown}"
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", sorted(EXIT_CODES))
def test_every_exit_code_is_documented(name: str) -> None:
    page = PAGES["exit-codes.md"]
    code = EXIT_CODES[name]
    meaning, operator = page.split("## What each code asks of the operator", 1)
    assert re.search(rf"^\| {code} \|", meaning, re.M), f"exit code {code} ({name})"
    assert re.search(rf"^\| {code} \|", operator, re.M), f"what {code} asks ({name})"


def test_every_family_and_document_is_named() -> None:
    for family in FAMILIES:
        assert f"`{family}`" in ALL_DOCS, family
    for source in load_registry():
        assert f"`{source.document}`" in ALL_DOCS, source.document


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        assert f": {page}\n" in nav, page
    assert ": reference/cli.md\n" in nav


def site_env() -> dict[str, str]:
    # Any attempt to reach the network goes to a closed port and fails the build.
    dead = "http://127.0.0.1:9"
    return os.environ | {
        "NO_MKDOCS_2_WARNING": "1",
        "HTTP_PROXY": dead,
        "HTTPS_PROXY": dead,
        "http_proxy": dead,
        "https_proxy": dead,
    }


def mkdocs() -> list[str]:
    return [sys.executable, "-m", "mkdocs"]


def test_the_site_builds_strict_and_offline(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [*mkdocs(), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=site_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    reference = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"rulescorpus {command}" in reference, command
    pages = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
    assert not any("fonts.googleapis.com" in page for page in pages)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_site_is_served_on_localhost() -> None:
    port = free_port()
    server = subprocess.Popen(
        [*mkdocs(), "serve", "--dev-addr", f"127.0.0.1:{port}", "--no-livereload"],
        cwd=ROOT,
        env=site_env() | {"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + 120
        while True:
            try:
                with opener.open(f"http://127.0.0.1:{port}/exit-codes/", timeout=5) as reply:
                    page = reply.read().decode("utf-8")
                break
            except OSError:
                assert server.poll() is None, "mkdocs serve exited"
                assert time.monotonic() < deadline, "mkdocs serve never answered"
                time.sleep(0.5)
        assert "What each code asks of the operator" in page
    finally:
        server.terminate()
        server.wait(timeout=30)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "mkdocs serve --dev-addr 127.0.0.1:" in makefile
