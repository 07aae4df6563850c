"""The real `rulescorpus` command line, run as a script, with two test seams.

- `FAULTS_FAST_FETCH=1`: the fetch policy of the fault cases (2 s timeouts, a 6 s
  deadline per download, 2 retries, Retry-After capped at 1 s), so a server that
  never answers costs seconds, not the production policy's minutes. Everything
  else, the fetcher's code included, is the production code.
- `FAULTS_FSIZE=N`: RLIMIT_FSIZE of N bytes with SIGXFSZ ignored, so a write past it
  fails with EFBIG as on a full disk (where mounting a small tmpfs is not possible).
- `FAULTS_FROZEN_CLOCK=2026-01-01T00:00:00Z`: every retrieval time is this one, so
  a run interrupted and resumed must give a corpus byte-identical to an
  uninterrupted run's (retrieval times are the only clock the corpus records).

Run as `python tests/faults/cli_under_test.py <rulescorpus arguments>`.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from pathlib import Path

FAST_FETCH = {
    "connect_timeout": 2.0,
    "read_timeout": 2.0,
    "deadline": 6.0,
    "retries": 2,
    "backoff": 0.05,
    "max_retry_after": 1.0,
}


def _drop_own_folder() -> None:
    # Run as a script, this folder is sys.path[0]; none of its modules belong to the CLI.
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if p and str(Path(p).resolve()) != here]


def _replace_everywhere(original: object, replacement: object, prefix: str) -> None:
    """Rebind every module-level name that holds `original` (imported by name) to
    `replacement`, in the loaded modules whose name starts with `prefix`."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix) or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                setattr(module, attr, replacement)


def _install_seams() -> None:
    import pipeline.cli.app
    from pipeline.cli import shared
    from pipeline.fetch import policy

    if os.environ.get("FAULTS_FAST_FETCH") == "1":
        fast = policy.FetchPolicy(**FAST_FETCH)  # type: ignore[arg-type]
        original_make = shared.make_context

        def make_context(*args: object, **kwargs: object) -> object:
            ctx = original_make(*args, **kwargs)  # type: ignore[arg-type]
            ctx.policy = fast
            return ctx

        _replace_everywhere(original_make, make_context, "pipeline.cli")
    frozen = os.environ.get("FAULTS_FROZEN_CLOCK")
    if frozen:
        import pipeline.fetch.backends
        import pipeline.fetch.http  # noqa: F401

        _replace_everywhere(policy.utc_now, lambda: frozen, "pipeline.")


def _limit_file_size() -> None:
    size = os.environ.get("FAULTS_FSIZE")
    if size:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(size), int(size)))


def main() -> None:
    _limit_file_size()
    _drop_own_folder()
    _install_seams()
    from pipeline.cli.app import main as cli_main

    sys.argv[0] = "rulescorpus"
    cli_main()


if __name__ == "__main__":
    main()
