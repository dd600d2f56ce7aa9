"""Memory of a `tarot serve` under big websocket frames (issue 23, item 2).

Starts `tarot serve` (this checkout's, or with ``--baseline REV`` also that revision's, from a
git worktree), sends it ``--frames`` masked text frames announcing ``--mb`` MB each and streams
their bytes, and prints the server's resident memory before and after, and the close codes it
answered. Usage: python bench/big_frames.py [--frames 20] [--mb 10] [--baseline REV]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import socket
import struct
import time
from collections import Counter
from pathlib import Path

from common import ROOT, served, worktree


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def big_frame(port: int, megabytes: int) -> int | None:
    """One connection: the handshake, a frame announcing ``megabytes``, its bytes; the close code."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        raw.recv(4096)
        raw.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", megabytes << 20) + os.urandom(4))
        chunk = os.urandom(1 << 20)
        try:
            for _ in range(megabytes):
                raw.sendall(chunk)
            closing = raw.recv(4096)
        except OSError:
            return None
        return struct.unpack(">H", closing[2:4])[0] if closing[:1] == b"\x88" and len(closing) >= 4 else None


def measure(src: Path, frames: int, megabytes: int) -> tuple[float, float, Counter[int | None]]:
    with served(src) as server:
        before = rss_mb(server.proc.pid)
        codes = Counter(big_frame(server.port, megabytes) for _ in range(frames))
        time.sleep(1)
        return before, rss_mb(server.proc.pid), codes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--mb", type=int, default=10)
    ap.add_argument("--baseline", help="also measure this git revision (e.g. c5b12be)")
    args = ap.parse_args()
    runs = [("this checkout", ROOT / "src")]
    with worktree(args.baseline) if args.baseline else contextlib.nullcontext() as tree:
        if tree is not None:
            runs.append((args.baseline, tree / "src"))
        for name, src in runs:
            before, after, codes = measure(src, args.frames, args.mb)
            print(f"{name}: rss_mb_before={before:.0f} rss_mb_after={after:.0f} "
                  f"close_codes={dict(codes)}")


if __name__ == "__main__":
    main()
