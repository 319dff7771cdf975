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


# Selections, colour marks, clearing marks and restarting ------------------------------------------------------


def full_snapshot(state: PlayState) -> tuple[tuple[int, ...], ...]:
    """Digits, both kinds of pencil marks and the colour marks."""
    return (*snapshot(state), tuple(state.colour))


def test_a_digit_on_a_selection_skips_givens_clears_peers_marks_and_is_one_undo_step() -> None:
    state = state_of(PUZZLE)
    r1c1, r1c3, r5c5, r9c9, r1c9 = (parse_cell(n) for n in ("r1c1", "r1c3", "r5c5", "r9c9", "r1c9"))
    playstate.toggle_mark(state, r1c9, 6, "centre")  # a peer of r1c3 (row 1)
    playstate.toggle_mark(state, r1c9, 7, "centre")
    before = full_snapshot(state)
    playstate.place_many(state, [r1c1, r1c3, r5c5, r9c9], 6)
    assert state.entries[r1c1] == 0, "r1c1 is a given: left as it is"
    assert [state.entries[c] for c in (r1c3, r5c5, r9c9)] == [6, 6, 6]
    assert state.centre[r1c9] == bit(7)
    assert len(state.history) == 3
    state.undo()
    assert full_snapshot(state) == before
    state.redo()
    playstate.place_many(state, [r1c3, r5c5, r9c9], 6)  # all hold 6 already: cleared
    assert [state.entries[c] for c in (r1c3, r5c5, r9c9)] == [0, 0, 0]
    with pytest.raises(ActionRefused, match="givens"):
        playstate.place_many(state, [0, 1], 4)


def test_marks_on_a_selection_are_added_to_all_unless_all_have_them() -> None:
    state = state_of(PUZZLE)
    cells = [parse_cell(n) for n in ("r3c3", "r4c4", "r5c5")]
    playstate.toggle_mark(state, cells[0], 2, "corner")
    playstate.place(state, parse_cell("r6c6"), 8)
    playstate.mark_many(state, [*cells, parse_cell("r6c6")], 2, "corner")  # r6c6 holds a digit: skipped
    assert [state.corner[c] for c in cells] == [bit(2)] * 3 and state.corner[parse_cell("r6c6")] == 0
    playstate.mark_many(state, cells, 2, "corner")
    assert [state.corner[c] for c in cells] == [0] * 3
    playstate.mark_many(state, cells, 9, "centre")
    assert [state.centre[c] for c in cells] == [bit(9)] * 3
    with pytest.raises(ActionRefused, match="hold digits"):
        playstate.mark_many(state, [parse_cell("r6c6")], 1, "centre")
    with pytest.raises(ActionRefused, match="not a kind"):
        playstate.mark_many(state, cells, 1, "colour")


def test_colour_marks_go_on_any_cell_toggle_and_undo() -> None:
    state = state_of(PUZZLE)
    given, empty = parse_cell("r1c1"), parse_cell("r7c7")
    playstate.colour_many(state, [given, empty], 3)
    assert state.colour[given] == 3 and state.colour[empty] == 3
    playstate.colour_many(state, [empty], 5)
    playstate.colour_many(state, [given, empty], 3)  # not all are 3: both become 3
    assert (state.colour[given], state.colour[empty]) == (3, 3)
    playstate.colour_many(state, [given, empty], 3)  # all are 3: taken away
    assert state.colour == [0] * 81
    state.undo()
    assert (state.colour[given], state.colour[empty]) == (3, 3)
    state.undo()
    assert (state.colour[given], state.colour[empty]) == (3, 5)
    playstate.place(state, empty, 4)
    assert state.colour[empty] == 5, "a digit keeps the cell's colour"
    with pytest.raises(ActionRefused, match="no colour 10"):
        playstate.colour_many(state, [empty], 10)


def test_erase_on_a_selection_takes_digits_then_marks_then_colours() -> None:
    state = state_of(PUZZLE)
    a, b = parse_cell("r4c1"), parse_cell("r8c2")
    playstate.colour_many(state, [a, b], 2)
    playstate.toggle_mark(state, b, 5, "centre")
    playstate.place(state, a, 3)
    playstate.erase_many(state, [a, b])
    assert state.cell(a) == (0, 0, 0) and state.cell(b) == (0, 0, bit(5))
    playstate.erase_many(state, [a, b])
    assert state.cell(b) == (0, 0, 0) and state.colour[a] == state.colour[b] == 2
    playstate.erase_many(state, [a, b])
    assert state.colour == [0] * 81


def test_clear_marks_and_restart_are_one_action_each() -> None:
    state = state_of(PUZZLE)
    playstate.autofill(state)
    playstate.toggle_mark(state, parse_cell("r9c9"), 1, "corner")
    playstate.colour_many(state, [0, 40], 7)
    playstate.place(state, parse_cell("r5c5"), 9)
    with_marks = full_snapshot(state)
    playstate.clear_marks(state)
    assert state.corner == [0] * 81 and state.centre == [0] * 81 and state.colour == [0] * 81
    assert state.entries[parse_cell("r5c5")] == 9
    state.undo()
    assert full_snapshot(state) == with_marks
    depth = len(state.history) - state.undo_depth  # the undone clear is dropped by the next action
    playstate.restart(state)
    assert full_snapshot(state) == full_snapshot(state_of(PUZZLE)) and len(state.history) == depth + 1
    state.undo()
    assert full_snapshot(state) == with_marks


def test_history_rows_stored_before_colour_marks_still_undo_and_redo() -> None:
    state = state_of(PUZZLE)
    r1c3 = parse_cell("r1c3")
    # [cell, digit, corner, centre before, digit, corner, centre after]: 7 ints, as stored before colour marks.
    state.history = [[[r1c3, 0, 0, 0, 0, 0, bit(4)]], [[r1c3, 0, 0, bit(4), 6, 0, 0]]]
    state.entries[r1c3] = 6
    state.undo()
    assert state.cell(r1c3) == (0, 0, bit(4))
    state.undo()
    assert state.cell(r1c3) == (0, 0, 0)
    state.redo()
    state.redo()
    assert state.cell(r1c3) == (6, 0, 0) and state.colour == [0] * 81


def test_a_random_session_with_selections_and_colours_replays_exactly() -> None:
    rng = random.Random(11)
    state = state_of(PUZZLE)
    snapshots = [full_snapshot(state)]
    for _ in range(80):
        cells = rng.sample(range(81), rng.randint(1, 4))
        kind = rng.choice(["digit", "corner", "centre", "colour", "erase", "clear_marks", "restart"])
        try:
            if kind == "digit":
                playstate.place_many(state, cells, rng.randint(0, 9))
            elif kind == "colour":
                playstate.colour_many(state, cells, rng.randint(0, 9))
            elif kind == "erase":
                playstate.erase_many(state, cells)
            elif kind in ("clear_marks", "restart") and rng.random() < 0.2:
                getattr(playstate, kind)(state)
            elif kind in ("corner", "centre"):
                playstate.mark_many(state, cells, rng.randint(1, 9), kind)
        except ActionRefused:
            continue
        if full_snapshot(state) != snapshots[-1]:
            snapshots.append(full_snapshot(state))
        stored = [playstate.Change.from_json(row).as_json() for row in state.history]
        assert stored == state.history, "what is stored reads back as the same change"
    assert len(state.history) == len(snapshots) - 1 > 20
    for expected in reversed(snapshots[:-1]):
        state.undo()
        assert full_snapshot(state) == expected
    for expected in snapshots[1:]:
        state.redo()
        assert full_snapshot(state) == expected
