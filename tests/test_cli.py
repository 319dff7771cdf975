"""The command line: solve, generate, reduce and rate's levels, their JSON fields, and one stderr line per bad
input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

from sudoku_engine import difficulty
from sudoku_engine.cli import main
from sudoku_engine.grid import is_valid_solution, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.metrics import simonis
from sudoku_engine.metrics.fatemi import call_count
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider
from sudoku_engine.solver import count_solutions, solve

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EULER_01_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
NO_SOLUTION = "12345678." + "........9" + "." * 63
TWO_SOLUTIONS = "." * 81
REPO_ROOT = Path(__file__).resolve().parents[1]
# A generation budget that does not bind on a busy machine: these targets are hit within about a second each alone,
# and a binding budget would make the puzzle depend on the machine's load.
NO_BUDGET_S = 600
BOM = "\ufeff".encode()


def run(capsys, monkeypatch, argv, stdin=""):
    """Run the CLI in-process; returns (exit code, stdout lines, stderr lines)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def test_solve_an_argument(capsys, monkeypatch):
    assert run(capsys, monkeypatch, ["solve", EULER_01]) == (0, [EULER_01_SOLUTION], [])


def test_solve_jsonl_fields(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["solve", "--jsonl", EULER_01, NO_SOLUTION, TWO_SOLUTIONS])
    records = [json.loads(line) for line in out]
    assert code == 0 and err == []
    assert records[0] == {"puzzle": EULER_01, "solution": EULER_01_SOLUTION, "solutions": 1}
    assert records[1] == {"puzzle": NO_SOLUTION, "solution": None, "solutions": 0}
    assert records[2]["solutions"] == 2
    assert is_valid_solution([0] * 81, parse_values(records[2]["solution"]))


def test_solve_count_from_stdin(capsys, monkeypatch):
    stdin = f"{EULER_01}\n\n# a comment\n{TWO_SOLUTIONS}\n{NO_SOLUTION}\n"
    assert run(capsys, monkeypatch, ["solve", "--count"], stdin) == (0, ["1", "2", "0"], [])


def test_bad_lines_are_reported_and_the_batch_goes_on(capsys, monkeypatch):
    stdin = f"{EULER_01}\n123\n{'x' * 81}\n{'55' + '.' * 79}\n{EULER_01.replace('.', '0')}\n"
    code, out, err = run(capsys, monkeypatch, ["solve"], stdin)
    assert code == 2
    assert out == [EULER_01_SOLUTION, EULER_01_SOLUTION]
    assert err == [
        "error: stdin:2: wrong length: 3 cells, expected 81",
        "error: stdin:3: invalid character 'x' at position 1: only digits 1-9 and '.' or '0' for blanks are allowed",
        "error: stdin:4: two 5s in row 1: r1c1 and r1c2",
    ]


def test_files_txt_and_tsv_with_header(tmp_path, capsys, monkeypatch):
    txt = tmp_path / "a.txt"
    txt.write_text(f"{EULER_01}\n{NO_SOLUTION}\n")
    tsv = tmp_path / "b.tsv"
    tsv.write_text(f"label\tpuzzle\trating\nfirst\t{EULER_01}\t1.2\nsecond\tbad\t3\n")
    code, out, err = run(capsys, monkeypatch, ["solve", "--count", str(txt), str(tsv)])
    assert code == 2
    assert out == ["1", "0", "1"]
    assert len(err) == 1 and err[0].startswith(f"error: {tsv}:3: invalid character 'b' at position 1")


def test_missing_file_is_one_error_line(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["solve", "nowhere.txt", EULER_01])
    assert (code, out, err) == (2, [EULER_01_SOLUTION], ["error: nowhere.txt: no such file"])


def test_generate_jsonl_is_unique_and_reproducible(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["generate", "--count", "3", "--seed", "11", "--jsonl"])
    records = [json.loads(line) for line in out]
    assert code == 0 and err == [] and len(records) == 3
    assert [r["seed"] for r in records] == [11, 12, 13]
    for record in records:
        assert set(record) == {"puzzle", "solution", "givens", "seed", "pattern", "ms"}
        assert is_valid_solution(parse_values(record["puzzle"]), parse_values(record["solution"]))
    _, again, _ = run(capsys, monkeypatch, ["generate", "--seed", "12"])
    assert again == [records[1]["puzzle"]]
    _, solved, _ = run(capsys, monkeypatch, ["solve", "--count", *[r["puzzle"] for r in records]])
    assert solved == ["1", "1", "1"]


def test_generate_over_two_processes_gives_the_same_puzzles_in_order(capsys, monkeypatch):
    argv = ["generate", "--count", "4", "--seed", "21", "--target", "2.6", "--jsonl", "--budget", str(NO_BUDGET_S)]
    _, alone, _ = run(capsys, monkeypatch, argv)
    _, shared, _ = run(capsys, monkeypatch, [*argv, "--jobs", "2"])
    strip = [{k: v for k, v in json.loads(line).items() if k not in ("ms",)} for line in alone]
    assert [{k: v for k, v in json.loads(line).items() if k not in ("ms",)} for line in shared] == strip
    assert [r["seed"] for r in strip] == [21, 22, 23, 24] and all(r["hit"] for r in strip)


def test_generate_with_givens(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["generate", "--seed", "3", "--givens", "40", "--jsonl"])
    assert json.loads(out[0])["givens"] == 40


def test_generate_at_a_slider_value_matches_an_independent_rating(capsys, monkeypatch):
    """The record's D is the rating of the puzzle it prints, near the D the slider maps to."""
    argv = ["generate", "--seed", "5", "--slider", "30", "--jsonl", "--budget", str(NO_BUDGET_S)]
    code, out, _ = run(capsys, monkeypatch, argv)
    record = json.loads(out[0])
    assert code == 0 and record["slider"] == 30 and record["target"] == target_for_slider(30)
    rating = rate(record["puzzle"], measures=difficulty.MEASURES)
    assert record["D"] == round(rating.d, 3) and record["label"] == rating.label
    assert record["hit"] and abs(rating.d - record["target"]) <= record["tolerance"]
    assert count_solutions(record["puzzle"]) == 1


def test_generate_for_a_seed_measure(capsys, monkeypatch):
    code, out, _ = run(
        capsys,
        monkeypatch,
        [
            "generate",
            "--seed",
            "2",
            "--target",
            "30",
            "--metric",
            "call_count",
            "--budget",
            str(NO_BUDGET_S),
            "--jsonl",
        ],
    )
    record = json.loads(out[0])
    assert code == 0 and record["metric"] == "call_count" and "D" not in record
    measured = call_count(canonical(parse_values(record["puzzle"]))).mean
    assert record["value"] == round(measured, 3) and record["hit"] and abs(measured - 30) <= 1.5


def test_generate_with_a_scheme_digs_search_free_puzzles_minimal_for_it(capsys, monkeypatch):
    code, out, err = run(
        capsys,
        monkeypatch,
        ["generate", "--scheme", "BCI", "--count", "2", "--seed", "4", "--pattern", "free", "--jsonl"],
    )
    records = [json.loads(line) for line in out]
    assert code == 0 and err == [] and len(records) == 2
    for record in records:
        assert set(record) == {"puzzle", "solution", "givens", "seed", "pattern", "scheme", "ms"}
        assert record["scheme"] == "BCI" and record["pattern"] == "free"
        puzzle = list(parse_values(record["puzzle"]))
        assert count_solutions(puzzle) == 1 and str(solve(puzzle)) == record["solution"]
        assert simonis.bci(puzzle).solved
        for cell in (c for c in range(81) if puzzle[c]):
            fewer = list(puzzle)
            fewer[cell] = 0
            assert not simonis.bci(fewer).solved


def _given_cells(values):
    """The cells holding a given."""
    return [c for c in range(81) if values[c]]


def test_reduce_gives_a_locally_minimal_subset_with_the_same_solution(capsys, monkeypatch):
    inputs = [EULER_01, EULER_01_SOLUTION]  # a published puzzle, and the full grid as 81 givens
    code, out, err = run(capsys, monkeypatch, ["reduce", "--jsonl", *inputs])
    records = [json.loads(line) for line in out]
    assert code == 0 and err == [] and len(records) == 2
    for text, record in zip(inputs, records):
        given, reduced = parse_values(text), parse_values(record["reduced"])
        assert set(record) == {"puzzle", "reduced", "givens_before", "givens_after", "seed"}
        assert record["puzzle"] == text and record["seed"] is None
        assert (record["givens_before"], record["givens_after"]) == (
            len(_given_cells(given)),
            len(_given_cells(reduced)),
        )
        assert all(r in (0, g) for r, g in zip(reduced, given))
        assert count_solutions(reduced) == 1 and solve(reduced) == solve(given)
        for cell in _given_cells(reduced):
            fewer = list(reduced)
            fewer[cell] = 0
            assert count_solutions(fewer) == 2, f"the given at {cell} is redundant"
    _, plain, _ = run(capsys, monkeypatch, ["reduce", *inputs])
    assert plain == [r["reduced"] for r in records]


def test_reduce_with_a_seed_is_reproducible_and_the_seed_changes_the_order(capsys, monkeypatch):
    outputs = {
        seed: run(capsys, monkeypatch, ["reduce", "--seed", str(seed), "--jsonl", EULER_01_SOLUTION])[1]
        for seed in (1, 2, 3)
    }
    assert run(capsys, monkeypatch, ["reduce", "--seed", "2", "--jsonl", EULER_01_SOLUTION])[1] == outputs[2]
    records = [json.loads(lines[0]) for lines in outputs.values()]
    assert [r["seed"] for r in records] == [1, 2, 3]
    assert len({r["reduced"] for r in records}) > 1
    for record in records:
        reduced = parse_values(record["reduced"])
        assert solve(reduced) == solve(EULER_01_SOLUTION)
        assert all(
            count_solutions([0 if c == cell else v for c, v in enumerate(reduced)]) == 2
            for cell in _given_cells(reduced)
        )


def test_reduce_reports_a_puzzle_without_one_solution_and_goes_on(capsys, monkeypatch):
    stdin = f"{TWO_SOLUTIONS}\n{EULER_01}\n{NO_SOLUTION}\n12\n{EULER_01}\n"
    code, out, err = run(capsys, monkeypatch, ["reduce"], stdin)
    assert code == 2 and len(out) == 2 and out[0] == out[1]
    assert err == [
        "error: stdin:1: the puzzle has more than one solution",
        "error: stdin:3: the puzzle has no solution",
        "error: stdin:4: wrong length: 2 cells, expected 81",
    ]


def _expected_level(value, cuts):
    """The level of a value among cut points: one more than the cuts below it (a value on a cut is below)."""
    return 1 + sum(1 for cut in cuts if cut < value)


def test_rate_levels_from_a_reference_of_records(tmp_path, capsys, monkeypatch, easy50):
    reference_d = [1.0, 1.2, 1.21, 1.5, 1.6, 2.3, 2.4, 2.6, 3.0, 3.4, 4.2]
    reference = tmp_path / "reference.jsonl"
    reference.write_text("".join(json.dumps({"puzzle": "-", "D": d}) + "\n" for d in reference_d))
    code, out, err = run(
        capsys,
        monkeypatch,
        ["rate", "--measures", "none", "--levels", "4", "--reference", str(reference), "--jsonl", *easy50[:12]],
    )
    records = [json.loads(line) for line in out]
    assert code == 0 and err == [] and len(records) == 12
    cuts = numpy.percentile(reference_d, [25, 50, 75])
    assert [r["level"] for r in records] == [_expected_level(r["D"], cuts) for r in records]
    by_d = sorted(records, key=lambda r: r["D"])
    assert [r["level"] for r in by_d] == sorted(r["level"] for r in by_d)
    assert len({r["level"] for r in records}) > 1
    _, plain, _ = run(
        capsys,
        monkeypatch,
        ["rate", "--measures", "none", "--levels", "4", "--reference", str(reference), *easy50[:12]],
    )
    assert plain[0].split("\t")[-1] == "level"  # the header's last column
    assert [line.split("\t")[-1] for line in plain[1:]] == [str(r["level"]) for r in records]


def test_rate_levels_from_a_reference_of_puzzles_rated_first(tmp_path, capsys, monkeypatch, easy50):
    reference = tmp_path / "reference.txt"
    reference.write_text("\n".join(easy50[20:40]) + "\n")
    _, rated, _ = run(capsys, monkeypatch, ["rate", "--measures", "d", "--jsonl", str(reference)])
    counts = [json.loads(line)["metrics"]["call_count"] for line in rated]
    cuts = numpy.percentile(counts, [100 / 3, 200 / 3])
    code, out, err = run(
        capsys,
        monkeypatch,
        [
            "rate",
            "--measures",
            "d",
            "--levels",
            "3",
            "--reference",
            str(reference),
            "--level-metric",
            "call_count",
            "--jsonl",
            *easy50[:12],
        ],
    )
    records = [json.loads(line) for line in out]
    assert code == 0 and err == [] and len(records) == 12
    assert [r["level"] for r in records] == [_expected_level(r["metrics"]["call_count"], cuts) for r in records]
    assert len({r["level"] for r in records}) > 1


def test_rate_levels_report_bad_reference_lines_and_go_on(tmp_path, capsys, monkeypatch):
    reference = tmp_path / "reference.jsonl"
    reference.write_text('{"D": 2.0}\nnot json\n\n{"D": "hard"}\n{"D": 4.0}\n')
    code, out, err = run(
        capsys,
        monkeypatch,
        ["rate", "--measures", "none", "--levels", "2", "--reference", str(reference), "--jsonl", EULER_01],
    )
    assert code == 2 and err == [
        f"error: {reference}:2: not a JSON record",
        f"error: {reference}:4: no D value in the rating",
    ]
    record = json.loads(out[0])
    assert record["level"] == _expected_level(record["D"], [3.0])


def test_rate_levels_leave_a_record_without_the_measure_unleveled(tmp_path, capsys, monkeypatch):
    reference = tmp_path / "reference.jsonl"
    reference.write_text('{"metrics": {"call_count": 5.0}}\n{"metrics": {"call_count": 9.0}}\n')
    code, out, err = run(
        capsys,
        monkeypatch,
        [
            "rate",
            "--measures",
            "d",
            "--timeout",
            "1e-9",
            "--levels",
            "2",
            "--reference",
            str(reference),
            "--level-metric",
            "call_count",
            "--jsonl",
            EULER_01,
        ],
    )
    record = json.loads(out[0])
    assert code == 0 and err == []
    assert record["timeout"] and record["metrics"]["call_count"] is None and record["level"] is None


@pytest.mark.parametrize(
    "argv, message",
    [
        (["rate", "--levels", "3", EULER_01], "--levels and --reference go together"),
        (["rate", "--reference", "ref.jsonl", EULER_01], "--levels and --reference go together"),
        (["rate", "--levels", "3", "--reference", "nowhere.jsonl", EULER_01], "nowhere.jsonl: no such file"),
        (
            [
                "rate",
                "--measures",
                "d",
                "--levels",
                "3",
                "--reference",
                "r.jsonl",
                "--level-metric",
                "hsolve",
                EULER_01,
            ],
            "--level-metric hsolve needs --measures all",
        ),
    ],
)
def test_rate_level_option_problems_are_one_line_and_exit_2(capsys, monkeypatch, argv, message):
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2 and out == [] and len(err) == 1 and message in err[0]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "--slider", "20", "--metric", "call_count"], "--slider sets a target D"),
        (["generate", "--metric", "hsolve"], "--metric needs --target"),
        (["generate", "--scheme", "HAC", "--slider", "30"], "--scheme digs a search-free puzzle"),
        (["generate", "--scheme", "HAC", "--target", "3"], "it does not take --target or --slider"),
    ],
)
def test_generate_option_conflicts_are_one_line_and_exit_2(capsys, monkeypatch, argv, message):
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2 and out == [] and len(err) == 1 and message in err[0]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "--slider", "150"], "slider must be between 0 and 100, not 150"),
        (["generate", "--slider", "abc"], "not a number: 'abc'"),
        (["generate", "--givens", "10"], "must be between 17 and 81, not 10"),
        (["generate", "--count", "0"], "must be between 1 and 1000000, not 0"),
        (["generate", "--givens", "30", "--slider", "5"], "not allowed with argument"),
        (["generate", "--target", "4", "--slider", "5"], "not allowed with argument"),
        (["generate", "--target", "nan"], "not a finite number: 'nan'"),
        (["generate", "--target", "4", "--tolerance", "0"], "must be positive, not 0"),
        (["generate", "--target", "4", "--budget", "-1"], "must be positive, not -1"),
        (["generate", "--target", "4", "--metric", "nope"], "invalid choice: 'nope'"),
        (["generate", "--scheme", "hac"], "invalid choice: 'hac'"),
        (["reduce", "--seed", "-1", EULER_01], "must be between 0 and"),
        (["rate", "--levels", "0"], "must be between 1 and 1000, not 0"),
        (["rate", "--levels", "3", "--level-metric", "nope"], "invalid choice: 'nope'"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "the following arguments are required: command"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err.splitlines()
    assert exit_info.value.code == 2
    assert len(err) == 1 and message in err[0]


def test_module_entry_point_runs_as_a_process():
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_engine", "solve", "--jsonl", "-", "12"],
        input=f"{EULER_01}\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert json.loads(result.stdout)["solution"] == EULER_01_SOLUTION
    assert result.stderr == "error: argument:2: wrong length: 2 cells, expected 81\n"


def test_undecodable_file_bytes_are_a_bad_line_not_a_crash(tmp_path, capsys, monkeypatch):
    path = tmp_path / "binary.txt"
    path.write_bytes(b"\xff\xfe1234\n" + EULER_01.encode() + b"\n")
    code, out, err = run(capsys, monkeypatch, ["solve", str(path)])
    assert code == 2 and out == [EULER_01_SOLUTION]
    assert len(err) == 1 and err[0].startswith(f"error: {path}:1: invalid character")


def test_a_folder_named_like_a_file_is_one_error_line(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "puzzles.txt"
    folder.mkdir()
    assert run(capsys, monkeypatch, ["solve", str(folder)]) == (2, [], [f"error: {folder}: no such file"])


def run_process(argv: list[str], stdin: bytes = b"", **env: str) -> tuple[int, list[str], list[str]]:
    """Run ``python -m sudoku_engine`` as a process; returns (exit code, stdout lines, stderr lines)."""
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_engine", *argv],
        input=stdin,
        capture_output=True,
        cwd=REPO_ROOT,
        env={**os.environ, **env},
        timeout=300,
        check=False,
    )
    return result.returncode, result.stdout.decode().splitlines(), result.stderr.decode().splitlines()


def test_solve_of_a_puzzle_without_a_solution_is_a_bad_line():
    # Row 1 holds 1-8, so r1c9 must be 9, which column 9 already has in r2c9.
    code, out, err = run_process(["solve", NO_SOLUTION, EULER_01])
    assert (code, out, err) == (2, [EULER_01_SOLUTION], ["error: argument:1: the puzzle has no solution"])


@pytest.mark.parametrize("puzzle", [TWO_SOLUTIONS, "1" + "." * 80])
def test_solve_of_a_puzzle_with_many_solutions_is_a_bad_line_unless_any_is_asked(puzzle):
    code, out, err = run_process(["solve", puzzle, EULER_01])
    assert (code, out) == (2, [EULER_01_SOLUTION])
    assert err == ["error: argument:1: the puzzle has more than one solution (--any prints one of them)"]
    code, out, err = run_process(["solve", "--any", puzzle])
    assert (code, err) == (0, []) and len(out) == 1
    assert is_valid_solution(parse_values(puzzle), parse_values(out[0]))  # checked from the rules alone


def test_plain_rate_prints_a_header_then_d_zone_and_minutes(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["rate", EULER_01])
    assert (code, err) == (0, [])
    header, row = out
    assert header.split("\t") == [
        "puzzle", "D", "zone", "minutes", "se_like", "hodoku_like", "hodoku_level", "hardest_technique"
    ]  # fmt: skip
    rating = rate(EULER_01)
    expected = [EULER_01, str(round(rating.d, 3)), rating.label, str(rating.as_dict()["predicted_minutes"])]
    assert row.split("\t")[:4] == expected and row.split("\t")[-1] == rating.hardest_technique


def test_rate_refuses_a_solved_grid_as_the_web_form_does():
    code, out, err = run_process(["rate", EULER_01_SOLUTION, EULER_01])
    assert code == 2 and len(out) == 2 and out[1].startswith(EULER_01 + "\t")  # the header and the good line
    assert err == ["error: argument:1: the puzzle is already solved: nothing to rate"]


def test_generate_warns_of_a_missed_target_and_exits_1(capsys, monkeypatch):
    """The top of the slider (D 12.5) cannot be generated on demand: the closest puzzle found is printed, with a
    warning naming the D it has; a run whose every puzzle hit exits 0 without a warning."""
    code, out, err = run(capsys, monkeypatch, ["generate", "--slider", "100", "--seed", "2", "--budget", "0.2"])
    assert code == 1 and len(out) == 1 and count_solutions(out[0]) == 1
    d = rate(out[0]).d
    assert len(err) == 1 and err[0].startswith(f"warning: puzzle 1 (seed 2) has D {round(d, 3)}, outside slider 100")
    argv = ["generate", "--slider", "5", "--seed", "2", "--jsonl", "--budget", str(NO_BUDGET_S)]
    code, out, err = run(capsys, monkeypatch, argv)
    assert json.loads(out[0])["hit"] and (code, err) == (0, [])


@pytest.mark.parametrize("command", ["solve", "rate", "reduce"])
@pytest.mark.parametrize("stdin", [b"", b"\n  \n# only a comment\n"])
def test_stdin_without_a_puzzle_is_one_error_line(command, stdin):
    assert run_process([command], stdin) == (2, [], ["error: stdin: no puzzles"])


def test_a_file_without_a_puzzle_is_one_error_line_and_the_batch_goes_on(tmp_path):
    empty = tmp_path / "empty.tsv"
    empty.write_text("label\tpuzzle\n\n")
    code, out, err = run_process(["solve", str(empty), EULER_01])
    assert (code, out, err) == (2, [EULER_01_SOLUTION], [f"error: {empty}: no puzzles"])


@pytest.mark.parametrize("encoding", ["utf-8:strict", "ascii"])
def test_undecodable_stdin_is_a_bad_line_not_a_traceback(encoding):
    stdin = b"\xff\xfe1234\n" + EULER_01.encode() + b"\n"
    code, out, err = run_process(["solve"], stdin, PYTHONIOENCODING=encoding)
    assert code == 2 and out == [EULER_01_SOLUTION]
    assert len(err) == 1 and err[0].startswith("error: stdin:1: invalid character")


def test_a_byte_order_mark_starts_a_file_or_stdin(tmp_path):
    txt = tmp_path / "bom.txt"
    txt.write_bytes(BOM + f"{EULER_01}\n".encode())
    tsv = tmp_path / "bom.tsv"
    tsv.write_bytes(BOM + f"puzzle\tsource\n{EULER_01}\tEuler 1\n".encode())
    code, out, err = run_process(["solve", str(txt), str(tsv), "-"], BOM + f"{EULER_01}\n".encode())
    assert (code, out, err) == (0, [EULER_01_SOLUTION] * 3, [])


def test_a_byte_order_mark_starts_a_reference_of_records(tmp_path):
    reference = tmp_path / "reference.jsonl"
    reference.write_bytes(BOM + b'{"D": 0.0}\n{"D": 100.0}\n')
    argv = ["rate", "--jsonl", "--measures", "none", "--levels", "2", "--reference", str(reference), EULER_01]
    code, out, err = run_process(argv)
    assert code == 0 and err == []
    assert json.loads(out[0])["level"] == 1  # the cut is at D = 50, far above any puzzle's D


def euler_hint_is_right(out: list[str]) -> None:
    """The hint printed is one JSON object for EULER_01 whose placements agree with its known solution."""
    [line] = out
    record = json.loads(line)
    assert record["puzzle"] == EULER_01 and record["rungs"]
    for cell, digit in record["step"]["placements"]:
        index = 9 * (int(cell[1]) - 1) + int(cell[3]) - 1
        assert EULER_01[index] == "." and EULER_01_SOLUTION[index] == str(digit)


def test_hint_reads_a_file_of_one_puzzle_or_stdin(tmp_path):
    path = tmp_path / "one.txt"
    path.write_bytes(BOM + f"# a comment\n{EULER_01}\n".encode())
    code, out, err = run_process(["hint", str(path)])
    assert code == 0 and err == []
    euler_hint_is_right(out)
    code, out, err = run_process(["hint", "-"], f"{EULER_01}\n".encode())
    assert code == 0 and err == []
    euler_hint_is_right(out)


def test_hint_refuses_a_file_of_several_puzzles_or_none(tmp_path):
    two = tmp_path / "two.txt"
    two.write_text(f"{EULER_01}\n{EULER_01}\n")
    assert run_process(["hint", str(two)]) == (2, [], [f"error: {two}: holds 2 puzzles; hint takes one"])
    assert run_process(["hint", "nowhere.txt"]) == (2, [], ["error: nowhere.txt: no such file"])
    assert run_process(["hint", "-"]) == (2, [], ["error: stdin: no puzzles"])


def test_warm_loads_every_kernel_and_says_the_backend(capsys):
    """``warm`` ends with one line naming the solver backend the engine will use."""
    from sudoku_engine import solver

    assert main(["warm"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"engine kernels ready ({solver.warm_up()} backend) in "), out
