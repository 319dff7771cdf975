"""rate and solve on a Dask cluster (``--scheduler``): a real local cluster of two worker processes, the same
records as on one machine in input order, a lost worker's chunk retried, clear errors when the cluster is not there."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="the cluster extra (distributed) is not installed")
import cloudpickle  # noqa: E402  (installed with distributed)
import dask  # noqa: E402

from sudoku_engine import cluster  # noqa: E402
from sudoku_engine.cli import main  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
GOLDEN = REPO_ROOT / "tests" / "golden" / "puzzles.tsv"
EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EULER_01_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
NO_SOLUTION = "12345678." + "........9" + "." * 63

# Functions the lost-worker tests send travel by value: the workers cannot import this test module.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def scheduler():
    """The address of a local cluster of two single-thread worker processes whose scheduler never reschedules a
    task after its worker died (allowed-failures 0), so a lost worker reaches the client's own retry."""
    never_again = dask.config.set({"distributed.scheduler.allowed-failures": 0})
    with (
        never_again,
        distributed.LocalCluster(
            # the dashboard on a free port: two test processes may each start a cluster at once
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        ) as local,
    ):
        yield local.scheduler_address


def run(capsys, monkeypatch, argv, stdin=""):
    """Run the CLI in-process; returns (exit code, stdout lines, stderr lines)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def test_rate_on_the_cluster_gives_the_local_records_in_input_order(capsys, monkeypatch, scheduler):
    bad = "not a puzzle"
    stdin = f"{EULER_01}\n{bad}\n"
    local = run(capsys, monkeypatch, ["rate", "--jsonl", str(GOLDEN), "-"], stdin)
    remote = run(capsys, monkeypatch, ["rate", "--jsonl", "--scheduler", scheduler, str(GOLDEN), "-"], stdin)
    assert remote[0] == local[0] == 2 and remote[2] == local[2] and len(remote[2]) == 1
    assert remote[2][0].startswith("error: stdin:2: ")
    assert [_untimed(line) for line in remote[1]] == [_untimed(line) for line in local[1]]
    assert len(remote[1]) == 31 and json.loads(remote[1][-1])["puzzle"] == EULER_01


def _untimed(line: str) -> dict[str, object]:
    """A rate record without its wall time (``ms``), which differs from run to run."""
    record = json.loads(line)
    del record["ms"]
    return record


def test_solve_on_the_cluster_streams_in_input_order(capsys, monkeypatch, scheduler):
    puzzles = [EULER_01, NO_SOLUTION, "." * 81] * 3000  # several tasks of 16 batches of 256
    stdin = "\n".join(puzzles) + "\n"
    code, out, err = run(capsys, monkeypatch, ["solve", "--count", "--scheduler", scheduler], stdin)
    assert (code, err) == (0, [])
    assert out == ["1", "0", "2"] * 3000
    code, out, err = run(capsys, monkeypatch, ["solve", "--scheduler", scheduler, EULER_01])
    assert (code, out, err) == (0, [EULER_01_SOLUTION], [])


def _dies_once(flag_folder: str, item: int) -> int:
    """item squared; the worker running item 13 dies the first time (a lost machine, seen by the scheduler)."""
    flag = Path(flag_folder) / "died"
    if item == 13 and not flag.exists():
        flag.touch()
        os._exit(1)
    return item * item


def _always_dies(item: int) -> int:
    """The worker running item 5 dies every time."""
    if item == 5:
        os._exit(1)
    return item


def test_a_lost_workers_chunk_is_sent_again(scheduler, tmp_path):
    from functools import partial

    results = list(cluster.cluster_mapped(partial(_dies_once, str(tmp_path)), range(40), scheduler, chunk_size=3))
    assert (tmp_path / "died").exists()
    assert results == [item * item for item in range(40)]


def test_a_chunk_lost_every_time_is_a_clear_error(scheduler):
    with pytest.raises(cluster.ClusterError, match="lost the workers of a chunk 2 times"):
        list(cluster.cluster_mapped(_always_dies, range(10), scheduler, chunk_size=2, retries=1))


def test_an_unreachable_scheduler_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1.0)
    code, out, err = run(capsys, monkeypatch, ["solve", "--scheduler", "tcp://127.0.0.1:9", EULER_01])
    assert (code, out) == (2, []) and len(err) == 1
    assert err[0].startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")


def test_scheduler_and_jobs_go_apart(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["rate", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:9", EULER_01])
    assert (code, out) == (2, [])
    assert err == ["error: --scheduler and --jobs go apart (the cluster's workers do the work)"]


def test_without_the_extra_scheduler_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, out, err = run(capsys, monkeypatch, ["solve", "--scheduler", "tcp://127.0.0.1:9", EULER_01])
    assert (code, out) == (2, [])
    assert err == ["error: --scheduler needs the Dask extra: pip install 'sudoku-lab[cluster]'"]


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, so the progress line is drawn."""

    def isatty(self) -> bool:
        return True


def test_progress_is_shown_on_a_terminal(monkeypatch, scheduler):
    from sudoku_engine.cli import build_parser

    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{EULER_01}\n" * 5000))
    options = build_parser().parse_args(["solve", "--count", "--scheduler", scheduler])
    out, err = io.StringIO(), _Terminal()
    assert options.run(options, out, err) == 0
    assert out.getvalue().split() == ["1"] * 5000
    drawn = err.getvalue()
    assert drawn.startswith("\rsolved: 256 done, ") and "\rsolved: 5000 done, " in drawn and drawn.endswith("\n")
