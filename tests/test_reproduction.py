"""The reproduction report is produced by one command: a smoke run writes every paper's section."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers.corpus import corpus_file

REPO = Path(__file__).resolve().parent.parent


def test_reproduce_papers_quick_run_writes_the_report(tmp_path):
    corpus_file("tdoku_17clue_even.txt")  # the report reads the corpora: skipped (failed in CI) without them
    out = tmp_path / "reproduction.md"
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "reproduce_papers.py"), "--quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = out.read_text()
    for section in ("## 000 Fatemi", "## 001 Findling", "## 002 MCM 2008", "## 003 Chen", "## 004 Simonis"):
        assert section in report
    assert report.count("| measure | data set | n | paper | ours | note |") >= 5
    # the papers' own figures stand beside ours: Simonis's FCI on 17-clue puzzles and top100's HACV
    assert "| Table 4: FCI, % search-free | `tdoku_17clue_even.txt` |" in report and "| 48.69 |" in report
    assert "| Table 7: locally minimal puzzles | `magictour_top100.txt` | 100 | 82 |" in report
    assert "Smoke run" in report
