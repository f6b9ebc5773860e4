"""What this installation is: package version, the build of the engine, the source commit if any.

An installed package has no git checkout to ask, so a run records the package version and the
build of the compiled engine (the SHA-256 of ``rust_core._native``, which changes with every
rebuild of changed Rust code); the git commit only when running from a source checkout.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata
from pathlib import Path

from rundir.source import source_commit

__all__ = ["describe", "engine_build", "package_version", "source_commit"]


def package_version() -> str | None:
    try:
        return metadata.version("balancelab")
    except metadata.PackageNotFoundError:
        return None


@functools.cache
def engine_build() -> str:
    """``sha256:<first 16 hex digits>`` of the compiled engine module file."""
    from rust_core import _native

    digest = hashlib.sha256(Path(_native.__file__).read_bytes()).hexdigest()
    return f"sha256:{digest[:16]}"


def describe() -> str:
    """``balancelab 0.1.0 (rust_core 0.1.0, build sha256:..., commit ...)`` for ``--version``."""
    import rust_core

    parts = [f"rust_core {rust_core.__version__}", f"build {engine_build()}"]
    commit = source_commit()
    if commit:
        parts.append(f"commit {commit[:12]}{'-dirty' if commit.endswith('-dirty') else ''}")
    return f"balancelab {package_version() or 'unknown'} ({', '.join(parts)})"
