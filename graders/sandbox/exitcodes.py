"""Exit codes by which the zygote tells the trusted side how a sandbox ended.

Codes 0-100 are the sandbox's own exit code (clamped, so submitted code cannot forge the others).
"""

EXIT_CODE_CLAMP = 100
EXIT_STARVED = 121
"""Stopped at the wall-clock ceiling short of its CPU time, having been runnable most of the
time: the host's fault, not the learner's."""
EXIT_WALL_LIMIT = 122
"""Stopped by the wall-clock backstop, having spent most of the time waiting (sleeping or
blocked), not computing."""
EXIT_MEMORY_LIMIT = 123
"""Killed by the kernel for the memory of all its processes together (the cgroup's limit)."""
EXIT_TIMEOUT = 124
"""Its processes together used up their CPU time."""
EXIT_SETUP_FAILED = 125
EXIT_SIGNAL_BASE = 128
