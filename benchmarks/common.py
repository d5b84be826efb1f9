"""What every benchmark script shares: running on one core, so numbers compare across runs.

The scripts are run directly (``python benchmarks/x.py``), so their own folder is on
``sys.path`` and ``from common import pin_to_one_core`` finds this file.
"""

from __future__ import annotations

import os


def pin_to_one_core() -> str:
    """Keep this process on one CPU (the targets are per core); say what was done."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity here)"
