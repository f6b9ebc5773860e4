"""A stand-in for ``ray`` that runs tasks in the driver's process, for tests that kill the
driver many times: the real pipeline (runner, distribute, sink, manifest) without the seconds a
Ray start costs. Install it before the pipeline first imports ``ray``::

    python -c "import inline_ray; inline_ray.install(); from balancelab_cli import main; main([...])"
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any


class RayError(Exception):
    pass


class RayTaskError(RayError):
    pass


class _Ref:
    def __init__(self, value: Any) -> None:
        self.value = value


class _Remote:
    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def remote(self, *args: Any) -> _Ref:
        return _Ref((self.fn, args))


def _get(ref: _Ref) -> Any:
    value = ref.value
    if isinstance(value, tuple) and len(value) == 2 and callable(value[0]):
        fn, args = value
        ref.value = fn(*[_get(a) if isinstance(a, _Ref) else a for a in args])
    return ref.value


def install(cpus: int = 2) -> None:
    """Puts the stand-in into ``sys.modules`` as ``ray`` (and ``ray.exceptions``)."""
    ray = types.ModuleType("ray")
    exceptions = types.ModuleType("ray.exceptions")
    exceptions.RayError = RayError  # type: ignore[attr-defined]
    exceptions.RayTaskError = RayTaskError  # type: ignore[attr-defined]
    ray.exceptions = exceptions  # type: ignore[attr-defined]
    ray.is_initialized = lambda: True  # type: ignore[attr-defined]
    ray.cluster_resources = lambda: {"CPU": cpus}  # type: ignore[attr-defined]
    ray.remote = lambda **_: _Remote  # type: ignore[attr-defined]
    ray.put = _Ref  # type: ignore[attr-defined]
    ray.get = _get  # type: ignore[attr-defined]
    ray.wait = lambda refs, num_returns=1: (refs[:num_returns], refs[num_returns:])  # type: ignore[attr-defined]
    ray.cancel = lambda ref, force=False: None  # type: ignore[attr-defined]
    sys.modules["ray"] = ray
    sys.modules["ray.exceptions"] = exceptions
