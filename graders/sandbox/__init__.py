"""Running untrusted submissions: warm zygotes that fork one isolated process each."""

from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.protocol import Ending, RunResult, Task, TaskOutcome
from graders.sandbox.runner import Sandbox

__all__ = ["CpuPriority", "Ending", "RunResult", "Sandbox", "SandboxLimits", "Task", "TaskOutcome"]
