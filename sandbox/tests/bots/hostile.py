"""The hostile bots in Python: one file, the misdeed chosen by its first argument.

Each misdeed that can fail prints ``blocked: ...`` for every attempt refused, and ``ESCAPED:
...`` for any that succeeded, then exits 3 if one did, else 0. The paths and addresses to try
come from the environment: HOST_TCP (the server's TCP address on the host), HOST_FILES (host
files, another bot's and the store, separated by ':'), OTHER_PIDS (another bot's host pids)."""

import ctypes
import errno
import os
import socket
import sys
import time

escaped = False


def report(what: str, error: object) -> None:
    global escaped
    if error is None:
        escaped = True
        print(f"ESCAPED: {what}", flush=True)
    else:
        print(f"blocked: {what}: {error}", flush=True)


def connect() -> None:
    host, port = os.environ["HOST_TCP"].rsplit(":", 1)
    for address in [(host, int(port)), ("127.0.0.1", 22), ("1.1.1.1", 443), ("10.0.2.2", 80)]:
        try:
            with socket.create_connection(address, timeout=2):
                report(f"connect to {address}", None)
        except OSError as error:
            report(f"connect to {address}", error)


def read() -> None:
    for path in ["/etc/shadow", "/etc/passwd", *os.environ["HOST_FILES"].split(":")]:
        try:
            with open(path, "rb") as file:
                file.read(1)
            report(f"read {path}", None)
        except OSError as error:
            report(f"read {path}", error)


def write_code() -> None:
    for path in ["/bot/bot.py", "/bot/planted.py", "/usr/planted", "/run/planted", "/planted"]:
        try:
            with open(path, "a") as file:
                file.write("# planted\n")
            report(f"write {path}", None)
        except OSError as error:
            report(f"write {path}", error)


def fork_bomb() -> None:
    # Every process forks for ever; the first one to be refused a process dies of the error.
    while True:
        os.fork()


def alloc() -> None:
    hoard = []
    while True:
        hoard.append(b"\x01" * (1 << 20))


def fill_disk() -> None:
    written = 0
    chunk = b"\x01" * (1 << 20)
    try:
        with open("/tmp/fill", "wb") as file:
            while True:
                file.write(chunk)
                file.flush()
                written += len(chunk)
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
        print(f"blocked: disk full after {written} bytes: {error}", flush=True)


def spin() -> None:
    print("spinning", flush=True)
    while True:
        pass


def signal() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    ptrace_attach = 16
    visible = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    print(f"processes seen: {visible}", flush=True)
    for pid in [int(p) for p in os.environ["OTHER_PIDS"].split()]:
        if pid in visible:
            report(f"see pid {pid}", None)
        try:
            os.kill(pid, 9)
            report(f"kill {pid}", None)
        except OSError as error:
            report(f"kill {pid}", error)
        if libc.ptrace(ptrace_attach, pid, None, None) == 0:
            report(f"ptrace {pid}", None)
        else:
            report(f"ptrace {pid}", os.strerror(ctypes.get_errno()))


def sleep() -> None:
    time.sleep(3600)


MISDEEDS = {
    "connect": connect,
    "read": read,
    "write-code": write_code,
    "fork-bomb": fork_bomb,
    "alloc": alloc,
    "fill-disk": fill_disk,
    "spin": spin,
    "signal": signal,
    "sleep": sleep,
}

if __name__ == "__main__":
    MISDEEDS[sys.argv[1]]()
    sys.exit(3 if escaped else 0)
