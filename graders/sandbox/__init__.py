"""Running untrusted submissions: warm zygotes that fork one isolated process each.

Theory of operation
===================

Three kinds of process take part in a grading, joined by two kinds of socket.

The trusted side is the process that grades (the service's grading threads, ``numjudge
grade``): ``runner.Sandbox`` holds a pool of zygotes and runs one submission at a time in each.
Once per process it builds the sandboxes' root image in memory (``shared_image``: a builder
process fills a tmpfs with what grading needs, ``image``, and the trusted side keeps the
image's namespaces open by descriptor). It starts each zygote with ``python -c`` and an
environment of a few set names (``launch``), passing it one end of a control socket and the
image's namespaces. It never sends an expected output, and it believes nothing from a sandbox
that it cannot check: each frame is checked against the conversation so far (``protocol``) and
its text capped and made storable (``untrusted``) before anyone reads it.

The zygote starts in two stages. The first (``boot``) claims the zygote's state folder
(``state``), joins the image's namespaces, binds the image over the host's folders of the
interpreter and its libraries and starts the interpreter again from them as the zygote
(``zygote``). The zygote is warm and single-threaded: it imports numpy and the harness once,
then waits on its control socket. Per submission it has a PID 1 in a fresh PID namespace:
forked ahead, once the last sandbox ended, and waiting in its namespaces and private root (the
*spare*), or forked for the request. It moves that process into the slot's cgroup
(``cgroups``) as the request comes (a hierarchy the zygote mounted with ``favordynmods`` spares
the move an RCU grace period), watches its CPU time with the wall clock as a backstop
(``watch``) and, once it ended, reports its exit status and what it used (``usage``,
``exitcodes``).

The sandbox's PID 1 enters the remaining isolation layers in order (``isolation``: IPC and
UTS namespaces, a private root, the slot's unprivileged uid, death with the zygote, then
``landlock``, which hides the mount tables: a spare's before its request; then resource
limits, every other descriptor closed and ``seccomp``; ``zygote.enter_layers``), and only once the
zygote says the cgroup move is done does it read the submission's code. The harness
(``harness``) then loads the code and makes its calls from namespaces the code cannot rebind
(``sealed``). Killing PID 1 ends every process of its namespace.

The control socket joins the trusted side and a zygote, one per zygote for its whole life:
one JSON message each way per request. The trusted side sends the limits with, as an
SCM_RIGHTS descriptor, one end of a fresh channel; the zygote answers ``ready`` once, then the
exit status and usage of each sandbox, and answers queries for the CPU time used so far,
which the trusted side reads to time a case without believing the sandbox.

The channel joins the trusted side and one sandbox, one per submission: the zygote passes its
end to the sandbox without reading it. Frames are JSON headers with raw array buffers, never
pickle (``wire``); their order is the conversation at the top of ``harness``: the code and the
public inputs first, then each hidden case alone, sent only once the previous case's results
came back, so that no hidden input is in the sandbox before the call that receives it.

This package's ``__init__`` imports nothing: the zygote's launcher imports ``zygote`` and
what it needs, and every fork of the zygote carries only those modules.
"""
