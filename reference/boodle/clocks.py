"""The CPU time a command reports: its own and that of the worker processes it ran.

A rate per wall second moves with the machine's load; a rate per CPU second is the work
done (issue 23, "honest rates"), and with worker processes the work is theirs too.
"""

from __future__ import annotations

__all__ = ["cpu_seconds"]


def cpu_seconds() -> float | None:
    """CPU seconds (user and system) of this process and of every child process it has
    waited for, theirs included, so far; ``None`` where the platform cannot say (no
    ``resource`` module: Windows).

    A difference of two readings is the CPU time spent between them, workers included
    once they have ended and been waited for (a process pool shut down, a local cluster
    closed); workers still running, or on other machines, are not counted.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
