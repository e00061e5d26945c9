"""Private Redis and PostgreSQL servers for outage tests: own processes, own free ports, own temp folders;
and the crawler process those tests run against them (``start_bench_crawl``).

The shared servers on 6379 and 5432 serve every engineer's tests and are never stopped; a test that takes
a server away (stop, hang with SIGSTOP, restart) starts one of these. Each class says why it cannot run
here (``reason()``) so the test can skip with that reason.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from newscrawl.bench.site import SITE_NAME, GeneratedSite, crawl_command, crawler_env

#: seconds a server may take to start or stop
START_TIMEOUT = 30


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, up: bool, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            if up:
                return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} not {'open' if up else 'closed'} after {timeout} s")


class RedisServer:
    """``redis-server`` on a free port with an append-only file in ``folder``: a stop and a start keep
    its data, as a production Redis with persistence does."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def reason() -> str | None:
        return None if shutil.which("redis-server") else "redis-server is not installed"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, up=True)

    def stop(self) -> None:
        """Shut down cleanly (the data stays in the append-only file)."""
        if self.process is None:
            return
        self.resume()
        self.process.terminate()
        self.process.wait(timeout=START_TIMEOUT)
        self.process = None
        _wait_port(self.port, up=False)

    def hang(self) -> None:
        """SIGSTOP: connections are accepted by the kernel, nothing answers."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGCONT)


class PostgresCluster:
    """A PostgreSQL cluster made by ``initdb`` in ``folder``, run by ``pg_ctl`` on a free port (as user
    ``postgres`` when the tests run as root: PostgreSQL refuses to run as root)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.postmaster: int | None = None

    @staticmethod
    def reason() -> str | None:
        for tool in ("initdb", "pg_ctl"):
            if shutil.which(tool) is None:
                return f"{tool} is not on PATH (PostgreSQL server binaries needed)"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no 'postgres' user to run a private cluster as"
        return None

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} dbname=postgres user=postgres connect_timeout=5"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = list(args)
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")

    def start(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", str(START_TIMEOUT),
            "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )
        self.postmaster = int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stop at once (``-m immediate``: connections cut, as a crash or a network cut)."""
        self.resume()
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        self.postmaster = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def _processes(self) -> list[int]:
        """The postmaster and its children (backends included)."""
        if self.postmaster is None:
            return []
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.postmaster)], capture_output=True,
                             text=True).stdout
        return [self.postmaster, *(int(p) for p in out.split())]

    def hang(self) -> None:
        """SIGSTOP the postmaster and every backend: connections hang, nothing answers."""
        for pid in self._processes():
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self._processes():
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


class CrawlLog:
    """A crawler's standard error, read while it runs (a full pipe would stall it)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.chunks: list[str] = []
        assert proc.stderr is not None
        stderr = proc.stderr
        self.reader = threading.Thread(target=lambda: self.chunks.append(stderr.read()), daemon=True)
        self.reader.start()

    def text(self) -> str:
        """All of it, once the crawler has ended."""
        self.reader.join(timeout=60)
        return "".join(self.chunks)


def start_bench_crawl(
    tmp_path: Path, site: GeneratedSite, settings: dict[str, Any]
) -> tuple[subprocess.Popen[str], CrawlLog]:
    """``scrapy crawl`` of the generated portal ``site`` in a process of its own, storing into
    ``tmp_path/store.sqlite3``, two requests at a time, in batches of 10, with ``settings`` on top."""
    site.write_site_file(tmp_path / "sites")
    values = {
        "NEWSCRAWL_SITES_DIR": tmp_path / "sites", "NEWSCRAWL_SQLITE_PATH": tmp_path / "store.sqlite3",
        "NEWSCRAWL_SINK_BATCH_SIZE": 10, "CONCURRENT_REQUESTS": 2, "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
        "LOG_LEVEL": "INFO", **settings,
    }  # fmt: skip
    proc = subprocess.Popen(
        crawl_command(SITE_NAME, values), cwd=tmp_path, env=crawler_env(), stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    return proc, CrawlLog(proc)


def wait_for_hits(site: GeneratedSite, count: int, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    """Wait until ``site`` has answered ``count`` requests; the crawl must still be running then."""
    deadline = time.monotonic() + timeout
    while sum(site.hits.values()) < count and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the crawl ended before the fault"
