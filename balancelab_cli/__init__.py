"""``balancelab``: run studies, list built-ins, replay single games, write reports.

The command line is the top layer: it wires the pipeline (which plays) and the analysis (which
reads and reports) together, one module per command (``run``, ``studies``, ``replay``, ``report``,
``strength``, ``fairest``, ``atlas``), the options several commands share declared once in
``options``.

Exit status: 0 success, 1 failure while running (including a Ray cluster that cannot be reached
or refuses the driver, a full or read-only disk), 2 bad input (study file, options, directory).
Every error is one line on stderr (``balancelab: error: ...``), never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from pipeline.cluster import signals_stop

from .errors import fail, fail_run, reason
from .parser import build_parser

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    # SIGTERM stops any command as Ctrl-C does: exit status 130, one line; called as the program
    # (no ``argv``), a stop after the command has finished is ignored while the process exits
    with signals_stop(exiting=argv is None):
        try:
            return _main(argv)
        except KeyboardInterrupt:
            print("interrupted; run the same command again to continue", file=sys.stderr)
            return 130


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `balancelab`: what it can do
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except OSError as exc:  # a disk, a permission, a name too long: one line, never a traceback
        where = f"{str(exc.filename)[:200]}: " if exc.filename else ""
        return fail_run(f"{where}{reason(exc)}")
    except (RecursionError, MemoryError) as exc:
        return fail(f"input too large or nested too deeply ({type(exc).__name__})")
    except Exception as exc:  # noqa: BLE001 - a bug: still one line (BALANCELAB_DEBUG=1 shows where)
        if os.environ.get("BALANCELAB_DEBUG"):
            raise
        return fail_run(
            f"internal error ({type(exc).__name__}: {str(exc)[:300]}); please report it "
            "(BALANCELAB_DEBUG=1 shows the traceback)"
        )
