"""Every error as one line on stderr: exit status 2 for bad input, 1 for a failure while running."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Longest error line printed (a message quoting a huge input is cut).
MAX_MESSAGE = 2000


def line(message: str) -> str:
    message = message.replace("\n", " ")
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + " ..."


def fail(message: str) -> int:
    """Bad input (a study file, an option, a directory): one line, exit status 2."""
    print(f"balancelab: error: {line(message)}", file=sys.stderr)
    return 2


def fail_run(message: str) -> int:
    """A failure while running (not bad input): one line, exit status 1."""
    print(f"balancelab: error: {line(message)}", file=sys.stderr)
    return 1


def reason(exc: OSError) -> str:
    from rundir.store import describe

    return str(exc) if exc.strerror is None or not exc.filename else describe(exc)


def guarded_run(call: Callable[[], T]) -> T | int:
    """``call()``, a run of the run machinery, or its error as one line and an exit status: 2 for
    input the run refuses (a mismatched or busy directory, a bad option), 1 for a failed write,
    unreadable data or no Ray (the batches written so far are kept)."""
    from pipeline import resume
    from pipeline import study as study_mod
    from pipeline.cluster import RayUnavailable
    from pipeline.runner import DirectoryBusy, RunOptionError
    from pipeline.sink import UnreadableData
    from rundir import RunFormatError, RunWriteError

    try:
        return call()
    except (
        resume.ManifestMismatch,
        DirectoryBusy,
        study_mod.StudyError,
        RunOptionError,
        RunFormatError,
    ) as exc:
        return fail(str(exc))
    except (RunWriteError, UnreadableData) as exc:
        return fail_run(f"{exc}; the batches written so far are kept")
    except RayUnavailable as exc:
        return fail_run(str(exc))
