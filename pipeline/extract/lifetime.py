"""Child processes die with the process that started them (Linux), so a killed run
leaves nothing behind: the parse sandbox's children call this."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent exits. A no-op off Linux."""
    if not sys.platform.startswith("linux"):
        return
    try:
        # The C library this process already loaded: find_library("c") would run
        # `ldconfig -p` in every child.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(1)
