"""Running untrusted submissions: warm zygotes that fork one isolated process each."""

from graders.sandbox.limits import SandboxLimits
from graders.sandbox.runner import Ending, RunResult, Sandbox, Task, TaskOutcome

__all__ = ["Ending", "RunResult", "Sandbox", "SandboxLimits", "Task", "TaskOutcome"]
