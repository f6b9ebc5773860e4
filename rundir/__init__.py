"""The run-directory contract, shared by the pipeline (writer) and the analysis (reader).

Layout (:mod:`.layout`), manifest (:mod:`.manifest`, typed, format-checked), batch files and
their records (:mod:`.batches`), durable writes (:mod:`.store`), columns (:mod:`.columns`),
verification for readers (:mod:`.verify`) and cell labels' option values in words
(:mod:`.labels`). This package imports nothing else of ``pipeline``
(nor ``rust_core``), so ``analysis`` can use it without the pipeline.
"""

from . import columns
from .batches import BatchRecord, RunCheck, check_keys, check_run, file_identity, read_records, write_batch
from .layout import (
    DATA,
    LEDGER,
    LOCK,
    MANIFEST,
    MAX_GAMES,
    POSITIONS,
    cell_dir,
    data_dir,
    is_foreign_nonempty,
    manifest_path,
    parse_part,
    part_name,
    part_path,
)
from .manifest import (
    ESTIMATORS,
    FORMAT,
    UNRECORDED,
    Cell,
    EngineSpec,
    Manifest,
    Play,
    RunFormatError,
    Study,
    read_manifest,
    write_manifest,
)
from .store import RunWriteError, atomic_write_text, fsync_dir
from .verify import IncompleteRun, VerifiedRun, positions_paths, verify_run

__all__ = [
    "DATA",
    "ESTIMATORS",
    "FORMAT",
    "LEDGER",
    "LOCK",
    "MANIFEST",
    "MAX_GAMES",
    "POSITIONS",
    "UNRECORDED",
    "BatchRecord",
    "Cell",
    "EngineSpec",
    "IncompleteRun",
    "Manifest",
    "Play",
    "RunCheck",
    "RunFormatError",
    "RunWriteError",
    "Study",
    "VerifiedRun",
    "atomic_write_text",
    "cell_dir",
    "check_keys",
    "check_run",
    "columns",
    "data_dir",
    "file_identity",
    "fsync_dir",
    "is_foreign_nonempty",
    "manifest_path",
    "parse_part",
    "part_name",
    "part_path",
    "positions_paths",
    "read_manifest",
    "read_records",
    "verify_run",
    "write_batch",
    "write_manifest",
]
