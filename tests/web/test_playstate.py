"""The play state without a database: digits, marks, peers' marks, undo and redo, auto-candidates, hint steps."""

from __future__ import annotations

import random

import pytest

from sudoku_engine.generate import Generated
from sudoku_engine.grid import PEERS, bit, parse_cell
from webapp.games import playstate
from webapp.games.playstate import ActionRefused, PlayState

# Row 1 of this puzzle is "1 2 . | . . . | . . ." and column 3 holds a 3 in row 2, so r1c3 can be neither 1, 2
# (row) nor 3 (column) nor 1, 2, 3 ... (box 1 holds 1, 2, 3): its candidates are 4-9.
PUZZLE = "12......." + "..3......" + "." * 63


def state_of(puzzle: str) -> PlayState:
    """A fresh play state on a puzzle."""
    givens = tuple(0 if ch == "." else int(ch) for ch in puzzle)
    return PlayState(givens=givens, entries=[0] * 81, corner=[0] * 81, centre=[0] * 81)


def snapshot(state: PlayState) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Everything a player sees: digits and both kinds of marks."""
    return tuple(state.entries), tuple(state.corner), tuple(state.centre)


def test_place_clears_own_marks_and_the_digit_from_peers_marks() -> None:
    state = state_of(PUZZLE)
    r1c3, r1c9, r9c3, r5c5 = (parse_cell(n) for n in ("r1c3", "r1c9", "r9c3", "r5c5"))
    for cell in (r1c3, r1c9, r9c3, r5c5):
        playstate.toggle_mark(state, cell, 5, "centre")
        playstate.toggle_mark(state, cell, 6, "corner")
    change = playstate.place(state, r1c3, 5)
    assert state.cell(r1c3) == (5, 0, 0)
    # r1c9 (same row) and r9c3 (same column) lose 5 from their centre marks and keep 6 in the corner;
    # r5c5 shares no house with r1c3 and keeps both.
    assert state.cell(r1c9) == (0, bit(6), 0) and state.cell(r9c3) == (0, bit(6), 0)
    assert state.cell(r5c5) == (0, bit(6), bit(5))
    assert {cell for cell, _before, _after in change.cells} == {r1c3, r1c9, r9c3}


def test_same_digit_again_clears_and_zero_clears() -> None:
    state = state_of(PUZZLE)
    cell = parse_cell("r1c3")
    playstate.place(state, cell, 7)
    playstate.place(state, cell, 7)
    assert state.entries[cell] == 0
    playstate.place(state, cell, 8)
    playstate.place(state, cell, 0)
    assert state.entries[cell] == 0


def test_clear_takes_the_digit_first_then_the_marks() -> None:
    state = state_of(PUZZLE)
    cell = parse_cell("r4c4")
    playstate.toggle_mark(state, cell, 2, "corner")
    playstate.toggle_mark(state, cell, 4, "centre")
    playstate.place(state, cell, 9)
    playstate.clear(state, cell)
    assert state.cell(cell) == (0, 0, 0)  # placing 9 had already cleared the cell's own marks
    playstate.toggle_mark(state, cell, 2, "corner")
    playstate.clear(state, cell)
    assert state.cell(cell) == (0, 0, 0)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s: playstate.place(s, 0, 5), "r1c1 is a given"),
        (lambda s: playstate.toggle_mark(s, 1, 5, "corner"), "r1c2 is a given"),
        (lambda s: playstate.toggle_mark(s, 2, 5, "sideways"), "not a kind of pencil mark"),
        (lambda s: s.undo(), "nothing to undo"),
        (lambda s: s.redo(), "nothing to redo"),
    ],
)
def test_refused_actions_say_why(action: object, message: str) -> None:
    state = state_of(PUZZLE)
    with pytest.raises(ActionRefused, match=message):
        action(state)  # type: ignore[operator]


def test_marks_on_a_filled_cell_are_refused() -> None:
    state = state_of(PUZZLE)
    playstate.place(state, 2, 4)
    with pytest.raises(ActionRefused, match="r1c3 holds a digit"):
        playstate.toggle_mark(state, 2, 5, "centre")


def test_autofill_gives_each_empty_cell_the_digits_no_peer_holds() -> None:
    state = state_of(PUZZLE)
    playstate.place(state, parse_cell("r5c5"), 9)
    playstate.autofill(state)
    r1c3 = parse_cell("r1c3")
    assert state.centre[r1c3] == sum(bit(d) for d in range(4, 10))  # see PUZZLE's comment
    # r5c9 sees the 9 in row 5 and nothing else placed (column 9 and box 6 are empty): every digit but 9.
    assert state.centre[parse_cell("r5c9")] == 0x1FF & ~bit(9)
    assert state.centre[parse_cell("r5c5")] == 0 and state.centre[0] == 0  # filled cells get none


def test_undo_and_redo_replay_a_random_session_exactly() -> None:
    rng = random.Random(7)
    state = state_of(PUZZLE)
    snapshots = [snapshot(state)]
    for _ in range(60):
        cell = rng.choice([c for c in range(81) if not state.givens[c]])
        kind = rng.choice(["digit", "digit", "corner", "centre", "clear", "autofill"])
        try:
            if kind == "digit":
                playstate.place(state, cell, rng.randint(1, 9))
            elif kind == "clear":
                playstate.clear(state, cell)
            elif kind == "autofill":
                playstate.autofill(state)
            else:
                playstate.toggle_mark(state, cell, rng.randint(1, 9), kind)
        except ActionRefused:
            continue
        if snapshot(state) != snapshots[-1]:
            snapshots.append(snapshot(state))
    assert len(state.history) == len(snapshots) - 1
    for expected in reversed(snapshots[:-1]):
        state.undo()
        assert snapshot(state) == expected
    assert not state.can_undo
    for expected in snapshots[1:]:
        state.redo()
        assert snapshot(state) == expected
    assert not state.can_redo


def test_a_new_action_drops_what_was_undone() -> None:
    state = state_of(PUZZLE)
    playstate.place(state, 2, 4)
    playstate.place(state, 3, 5)
    state.undo()
    assert state.can_redo
    playstate.place(state, 4, 6)
    assert not state.can_redo and state.entries[3] == 0 and len(state.history) == 2


def test_stored_history_round_trips() -> None:
    state = state_of(PUZZLE)
    change = playstate.place(state, 2, 4)
    assert playstate.Change.from_json(change.as_json()) == change
    assert change.inverse().inverse() == change


def test_apply_step_fills_candidates_before_eliminating_and_places_with_peers() -> None:
    state = state_of(PUZZLE)
    r1c3, r1c4, r2c4 = (parse_cell(n) for n in ("r1c3", "r1c4", "r2c4"))
    playstate.toggle_mark(state, r2c4, 7, "centre")
    playstate.apply_step(state, placements=[(r1c3, 7)], eliminations=[(r1c4, 8)])
    assert state.entries[r1c3] == 7
    # r1c4 had no marks: it first gets its candidates, 3-9 (row 1 holds 1 and 2; column 4 and box 2 are empty),
    # loses the eliminated 8, and then the 7 placed in its row.
    assert state.centre[r1c4] == sum(bit(d) for d in (3, 4, 5, 6, 9))
    # r2c4 shares no house with r1c3 (row 2, column 4, box 2): its 7 stays.
    assert state.centre[r2c4] == bit(7) and r1c3 not in PEERS[r2c4]


def test_apply_step_clears_wrong_cells_and_restores_marks() -> None:
    state = state_of(PUZZLE)
    playstate.place(state, 2, 9)
    playstate.toggle_mark(state, 30, 1, "centre")
    playstate.apply_step(state, placements=[], eliminations=[], clears=[2], restores=[(30, 4)])
    assert state.cell(2) == (0, 0, 0) and state.centre[30] == bit(1) | bit(4)
    state.undo()
    assert state.entries[2] == 9 and state.centre[30] == bit(1)


def test_conflicts_are_both_cells_of_each_repeat(generated: Generated) -> None:
    values = list(generated.solution.values)
    assert playstate.conflicts(values) == set()
    values[0] = values[1]  # r1c1 now repeats r1c2's digit in row 1 and box 1 (and in column 1, where it sits)
    clashes = playstate.conflicts(values)
    assert {0, 1} <= clashes and len(clashes) == 3
    assert all(values[c] == values[1] for c in clashes)
