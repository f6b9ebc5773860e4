"""``balancelab report``, and the report every command that plays writes at its end."""

from __future__ import annotations

import argparse
import functools
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import fail, fail_run, reason
from .options import add_allow_partial, add_report_dir


def add_parser(sub: Any) -> None:
    """``balancelab report``."""
    report = sub.add_parser(
        "report",
        help="write the HTML report of a run",
        description="Write the report of a run directory: RUN_DIR/report/index.html (with report.md and "
        "figures/), or into --report-dir. The committed example reports are regenerated on purpose only, "
        "e.g. balancelab report runs/alhambra-dirk --report-dir reports/alhambra-dirk.",
    )
    report.add_argument("run_dir", type=Path, help="run directory (with manifest.json)")
    add_report_dir(report, "write the report here (default: RUN_DIR/report)")
    add_allow_partial(
        report,
        "analyse an incomplete run (missing games or files that failed validation); "
        "prints the share of the planned games analysed",
    )
    report.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from rundir import manifest_path

    if not manifest_path(args.run_dir).exists():
        return fail(f"{args.run_dir}: no manifest.json; not a run directory")
    return write_report(args.run_dir, args.report_dir, allow_partial=args.allow_partial)


def write_report(
    run_dir: Path,
    out_dir: Path | None,
    quiet: bool = False,
    allow_partial: bool = False,
    siblings_of: Path | None = None,
) -> int:
    """Writes the report of ``run_dir`` into ``out_dir`` (default ``run_dir/report``); the played
    handicaps of the reports beside ``siblings_of`` (default the report's folder) are quoted."""
    from analysis.load import DuplicateKeys
    from analysis.report import write_report as _write_report
    from rundir import IncompleteRun, RunFormatError, read_manifest, verify_run
    from rundir.manifest import ManifestDamaged

    target = out_dir or run_dir / "report"
    try:
        man = read_manifest(run_dir)  # a damaged or foreign manifest: one line, before saying anything
        if allow_partial and man is not None and verify_run(run_dir).share()[0] == 0:
            resume = resume_command(man.study.source, run_dir)
            return fail(
                f"{run_dir}: no verified games yet (the run stopped before its first batch was "
                f"written), so there is nothing to analyse; `{resume}` continues it"
            )
        if not quiet:
            print(f"writing the report into {target} ...", file=sys.stderr, flush=True)
        render = functools.partial(_write_report, siblings_of=siblings_of or target, name=target.name)
        index = _render(run_dir, target, out_dir is None, allow_partial, render)
    except ManifestDamaged as exc:
        return fail(f"{exc}; {exc.restore_hint(run_dir)}")
    except (IncompleteRun, RunFormatError, DuplicateKeys) as exc:
        return fail(str(exc))
    except OSError as exc:
        if exc.filename is None and exc.strerror and exc.strerror.startswith("cannot write"):
            return fail_run(exc.strerror)  # a RunWriteError names the file
        return fail_run(f"cannot write the report into {target}: {reason(exc)}")
    if allow_partial:
        done, planned = verify_run(run_dir).share()
        share = done / planned if planned else 0.0
        print(f"analysed {done:,} of {planned:,} planned games ({share:.1%})", file=sys.stderr)
    if not quiet:
        print(f"report: {index}")
    return 0


def resume_command(source: str, run_dir: Path) -> str:
    """The command that continues run ``run_dir`` of the study from ``source``."""
    return f"balancelab run {source.removeprefix('builtin:')} --out {run_dir}"


def _render(
    run_dir: Path, target: Path, inside_run: bool, allow_partial: bool, render: Callable[..., Path]
) -> Path:
    """Writes the report into a private temporary folder, then copies each file into ``target``
    (temporary name, rename): a link in the way is replaced, never written through, and inside the
    run no folder on the way is followed."""
    from analysis.evidence import PLAYED
    from rundir.store import atomic_write_bytes

    root = run_dir if inside_run else target
    scratch = Path(tempfile.mkdtemp(prefix="balancelab-report-"))
    try:
        index = render(run_dir, scratch, allow_partial=allow_partial)
        for path in sorted(scratch.rglob("*")):
            if path.is_file() and not path.is_symlink():
                atomic_write_bytes(target / path.relative_to(scratch), path.read_bytes(), root=root)
        if not (scratch / PLAYED).exists() and (target / PLAYED).is_file():
            (target / PLAYED).unlink()  # an older page's played cells: this one played none
        return target / Path(index).relative_to(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
