"""``numjudge serve`` (API, pages and grading in one process) and ``numjudge worker``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from app.cli.common import service_settings
from app.core.config import Settings
from app.core.redact import mask_url
from app.runtime.queue import GradingQueue, QueueUnavailable
from graders.api import keep_threads_on

if TYPE_CHECKING:
    from app.grading.workers import BackgroundWork

logger = logging.getLogger(__name__)


def _exit_unreachable(exc: QueueUnavailable) -> NoReturn:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(2) from None


def check_queue_or_exit(queue: GradingQueue) -> None:
    """Exit at once with a clear message when the queue is unreachable at start."""
    try:
        queue.check()
    except QueueUnavailable as exc:
        _exit_unreachable(exc)


def start_or_exit(work: BackgroundWork) -> None:
    try:
        work.start()
    except QueueUnavailable as exc:
        _exit_unreachable(exc)


def keep_on_service_cpus(settings: Settings) -> None:
    """Keep this process's threads on ``service_cpus`` cores; its sandboxes get them all."""
    cpus = keep_threads_on(settings.service_cpus, settings.cores_dir)
    logger.info("service.cpus", extra={"threads_on": ",".join(map(str, sorted(cpus)))})


def serve_command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(help="grading threads in this process (default NUMJUDGE_WORKERS; 0: none)"),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="comma-separated addresses of the reverse proxies whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed ('*': any; '': none). The sign-in and sign-up "
            "throttles count the client address this yields"
        ),
    ] = "127.0.0.1",
) -> None:
    """Run the whole service: HTTP API, web pages and grading workers."""
    import uvicorn

    from app.main import create_app

    settings = service_settings(migrate=False)
    if workers is not None:
        settings = settings.model_copy(update={"workers": workers})
    keep_on_service_cpus(settings)
    app = create_app(settings)
    check_queue_or_exit(app.state.runtime.queue)
    logger.info(
        "service.listening",
        extra={
            "url": f"http://{host}:{port}",
            "database": mask_url(settings.database_url),
            "queue": mask_url(settings.queue_url),
        },
    )
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=5,
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or None,
    )


def worker_command(
    workers: Annotated[
        int | None,
        typer.Option(
            help="grading threads for learners' submissions (default NUMJUDGE_WORKERS); "
            "NUMJUDGE_REGRADE_WORKERS more take only regrades"
        ),
    ] = None,
) -> None:
    """Run grading workers only (no HTTP), for the multi-machine setup."""
    from app.grading.workers import BackgroundWork
    from app.runtime.context import build_runtime

    settings = service_settings()
    settings = settings.model_copy(
        update={"workers": workers if workers is not None else max(settings.workers, 1)}
    )
    threads = settings.grading_threads
    keep_on_service_cpus(settings)
    runtime = build_runtime(settings)
    work = BackgroundWork(runtime, threads, embedded=False)
    start_or_exit(work)
    consumer = runtime.queue.make_consumer(
        threads,
        work.handler,
        embedded=False,
        reports=work.report_handler,
        passbacks=work.passback_handler,
    )
    logger.info("worker.started", extra={"threads": threads, "queue": runtime.queue.url_for_logs})
    try:
        consumer.run()
    finally:
        work.stop()
        logger.info("worker.stopped")


def worker_check_command() -> None:
    """Exit 0 when a worker on this host beats its heart and its canary grading passes
    (the container healthcheck of ``numjudge worker``)."""
    from app.grading.heartbeat import local_worker_healthy

    settings = service_settings(migrate=False, log=False)
    problem = local_worker_healthy(settings)
    if problem:
        typer.echo(f"unhealthy: {problem}", err=True)
        raise typer.Exit(1)
    typer.echo("ok")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
    app.command("worker")(worker_command)
    app.command("worker-check")(worker_check_command)
