"""What the benchmarks share (``bench/common.py``): the ports and names a run is told to keep to,
so that it runs beside other work (issue 38)."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from common import free_port, port_range, run_name


def test_a_free_port_is_taken_from_the_range_given_skipping_those_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        low = busy.getsockname()[1]
        ports = range(low, low + 40)
        first = free_port(ports)
        assert first in ports and first != low  # (the busy one skipped)
        second = free_port(ports)
        assert second in ports and second != first  # (one handed out is not handed out again)
    with pytest.raises(RuntimeError, match="no free port"):
        free_port(range(first, first + 1))
    assert free_port() > 0


def test_the_ports_and_the_name_are_checked_as_they_are_read() -> None:
    assert port_range("18000-18099") == range(18000, 18100)
    for bad in ("18000", "x-y", "19000-18000", "80-90"):
        with pytest.raises(argparse.ArgumentTypeError):
            port_range(bad)
    assert run_name("Bench_A") == "bench_a"
    for bad in ("", "1abc", "a b", "a-b", "tarot:*"):
        with pytest.raises(argparse.ArgumentTypeError):
            run_name(bad)
