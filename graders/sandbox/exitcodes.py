"""Exit codes by which the zygote tells the trusted side how a sandbox ended.

Codes 0-100 are the sandbox's own exit code (clamped, so submitted code cannot forge the others).
"""

EXIT_CODE_CLAMP = 100
EXIT_MEMORY_LIMIT = 123
"""Killed by the kernel for the memory of all its processes together (the cgroup's limit)."""
EXIT_TIMEOUT = 124
EXIT_SETUP_FAILED = 125
EXIT_SIGNAL_BASE = 128
