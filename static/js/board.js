// The game page's one script: selection (one cell or several), keyboard, entry modes, highlights, the pad's
// counts, the clock and auto-pause. Focus goes back to the selected cell after every control, so arrows and
// digits always act on the selection the player sees.
// The board lives on the server: every action is posted through htmx, one at a time and in order, with the
// client's clock and an idempotency key; the answer swaps in the cells that changed and the controls' state.
// A digit, a mark, a colour, an erase, an undo or a redo is also drawn at once, before the server answers, by the
// same rules the server applies (webapp/games/playstate.py); the server's answers stay the record: they redraw
// what they changed (the page then draws again the actions still on their way), and a refused action brings the
// whole board back to the server's state, with the server's message.
(function () {
  "use strict";

  const game = document.getElementById("game");
  const board = document.getElementById("board");
  if (!game || !board) {
    return;
  }
  const base = game.dataset.url;
  const message = document.getElementById("message");
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  const modeKeys = {z: "digit", x: "corner", c: "centre", v: "colour"};
  const modeCycle = ["digit", "corner", "centre", "colour"];
  let selected = "r1c1";  // the cell the keys move from: the focused one
  let selection = new Set([selected]);  // every selected cell, the focused one among them
  let dragging = false;
  let mode = "digit";
  let focusInBoard = false;
  let pending = Promise.resolve();
  let inflight = 0;
  let clock = {seconds: 0, since: 0, state: "running"};
  // Set when this page paused the game, until the player resumes: an answer to an earlier action that still
  // says "running" must not bring the board back.
  let pausedHere = false;
  // Optimistic drawing: the after-states of the actions drawn but not yet answered, in order, and the page's own
  // history of the actions it drew (an undo or redo of one of them is drawn at once too; others wait for the
  // server). A refused action sets resync: once every action is answered, the board is read from the server.
  const drawnPending = [];
  let localUndo = [];
  let localRedo = [];
  let resync = false;
  let refusal = "";  // the message of the last refused action, shown again once the board is the server's
  const peersOf = [];
  for (let cell = 0; cell < 81; cell += 1) {
    const row = Math.floor(cell / 9);
    const col = cell % 9;
    const peers = [];
    for (let other = 0; other < 81; other += 1) {
      const r = Math.floor(other / 9);
      const c = other % 9;
      const sameBox = Math.floor(r / 3) === Math.floor(row / 3) && Math.floor(c / 3) === Math.floor(col / 3);
      if (other !== cell && (r === row || c === col || sameBox)) {
        peers.push(other);
      }
    }
    peersOf.push(peers);
  }

  function cellAt(name) {
    return document.getElementById("cell-" + name);
  }

  function isDone() {
    return document.getElementById("completion") !== null;
  }

  function isPaused() {
    return game.classList.contains("paused");
  }

  function actionKey() {
    if (window.crypto && crypto.randomUUID) {
      return crypto.randomUUID();
    }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // Selection, roving tabindex and highlights of the row, column and box and of the selected digit.
  function paint() {
    board.querySelectorAll(".selected, .peer, .same").forEach(function (el) {
      el.classList.remove("selected", "peer", "same");
    });
    board.querySelectorAll('[aria-selected="true"]').forEach(function (el) {
      el.removeAttribute("aria-selected");
    });
    board.querySelectorAll('[tabindex="0"]').forEach(function (el) {
      el.setAttribute("tabindex", "-1");
    });
    const cell = cellAt(selected);
    if (!cell) {
      return;
    }
    cell.setAttribute("tabindex", "0");
    selection.forEach(function (name) {
      const member = cellAt(name);
      member.classList.add("selected");
      member.setAttribute("aria-selected", "true");
    });
    if (selection.size === 1) {
      paintPeers(cell);
    }
    const digit = cell.dataset.digit;
    if (digit) {
      board.querySelectorAll('[data-digit="' + digit + '"], .m' + digit).forEach(function (el) {
        if (el !== cell) {
          el.classList.add("same");
        }
      });
    }
    if (focusInBoard && document.activeElement !== cell) {
      cell.focus({preventScroll: true});
    }
    countPad();
  }

  function paintPeers(cell) {
    const row = selected[1];
    const col = selected[3];
    const box = boxOf(row, col);
    board.querySelectorAll("[data-cell]").forEach(function (other) {
      const name = other.dataset.cell;
      if (other !== cell && (name[1] === row || name[3] === col || boxOf(name[1], name[3]) === box)) {
        other.classList.add("peer");
      }
    });
  }

  // The pad: how many of each digit are still to place (givens count), a finished digit greyed but usable;
  // in colour mode the buttons are the palette's colours, named for screen readers.
  function countPad() {
    const placed = {};
    board.querySelectorAll("[data-cell][data-digit]").forEach(function (el) {
      placed[el.dataset.digit] = (placed[el.dataset.digit] || 0) + 1;
    });
    document.querySelectorAll(".pad-digit").forEach(function (button) {
      const left = Math.max(0, 9 - (placed[button.dataset.digit] || 0));
      button.querySelector(".pad-left").dataset.left = String(left);  // drawn by CSS: not part of the name
      button.classList.toggle("finished", left === 0);
      const label = mode === "colour" ? "Colour " + button.dataset.colourName
        : button.dataset.digit + ", " + left + " left";
      button.setAttribute("aria-label", label);
    });
  }

  // Back to the selected cell after a control, so that arrows and digits act on the selection.
  function backToBoard() {
    focusInBoard = true;
    const cell = cellAt(selected);
    if (cell && !isPaused()) {
      cell.focus({preventScroll: true});
    }
  }

  function boxOf(row, col) {
    return Math.floor((Number(row) - 1) / 3) * 3 + Math.floor((Number(col) - 1) / 3);
  }

  function select(name, adding) {
    selected = name;
    if (!adding) {
      selection = new Set();
    }
    selection.add(name);
    paint();
  }

  // Ctrl+click takes a selected cell out of the selection again (never the last one).
  function toggle(name) {
    if (!selection.has(name)) {
      select(name, true);
      return;
    }
    if (selection.size > 1) {
      selection.delete(name);
      if (selected === name) {
        selected = Array.from(selection).pop();
      }
    }
    paint();
  }

  function move(dRow, dCol, adding) {
    const row = Math.min(9, Math.max(1, Number(selected[1]) + dRow));
    const col = Math.min(9, Math.max(1, Number(selected[3]) + dCol));
    select("r" + row + "c" + col, adding);
  }

  // Requests: queued so that actions reach the server in the order they were made. ``drawn`` is the action's
  // after-state when the page drew it already (null otherwise).
  function post(url, values, drawn) {
    const body = Object.assign({client_ms: String(performance.now()), key: actionKey()}, values || {});
    const next = function () {
      return htmx.ajax("POST", url, {source: board, target: "#message", swap: "none", values: body});
    };
    inflight += 1;
    game.dataset.pending = String(inflight);
    if (drawn) {
      drawnPending.push(drawn);
    }
    const done = function () {
      inflight -= 1;
      game.dataset.pending = String(inflight);
      if (drawn) {
        drawnPending.splice(drawnPending.indexOf(drawn), 1);
      }
      drawnPending.forEach(function (later) {
        draw(later, false);  // the answer redrew its cells: the actions still on their way go over them again
      });
      if (resync && inflight === 0) {
        resync = false;
        reloadBoard();
        say(refusal, true);  // later answers announced their own actions over it
      }
    };
    pending = pending.then(next, next).then(done, done);
    return pending;
  }

  // The board as the page shows it, cell by cell: digit, given, corner and centre marks (bit masks), colour.
  function readCell(el) {
    const marks = function (selector) {
      let mask = 0;
      el.querySelectorAll(selector + " .m").forEach(function (mark) {
        mask |= 1 << (Number(mark.textContent) - 1);
      });
      return mask;
    };
    const colour = /(?:^| )colour-([1-9])(?: |$)/.exec(el.className);
    return {
      digit: Number(el.dataset.digit || 0),
      given: el.classList.contains("given"),
      corner: marks(".corner"),
      centre: marks(".centre"),
      colour: colour ? Number(colour[1]) : 0,
    };
  }

  function readBoard() {
    return Array.from(board.querySelectorAll("[data-cell]"), readCell);
  }

  function indexOf(name) {
    return (Number(name[1]) - 1) * 9 + Number(name[3]) - 1;
  }

  function nameOf(cell) {
    return "r" + (Math.floor(cell / 9) + 1) + "c" + (cell % 9 + 1);
  }

  function bit(digit) {
    return 1 << (digit - 1);
  }

  function digitsOf(mask) {
    const found = [];
    for (let digit = 1; digit <= 9; digit += 1) {
      if (mask & bit(digit)) {
        found.push(digit);
      }
    }
    return found;
  }

  // The after-states of an action, as playstate.py computes them (null: the server refuses it, so nothing is
  // drawn and its message comes with the answer). ``after`` maps a cell to its new {digit, corner, centre, colour}.
  function predict(kind, cells, digit) {
    const now = readBoard();
    const after = new Map();
    const current = function (cell) {
      return after.get(cell) || Object.assign({}, now[cell]);
    };
    const put = function (cell, changes) {
      after.set(cell, Object.assign(current(cell), changes));
    };
    const place = function (cell) {
      put(cell, {digit: digit, corner: 0, centre: 0});
      peersOf[cell].forEach(function (peer) {
        const state = current(peer);
        put(peer, {corner: state.corner & ~bit(digit), centre: state.centre & ~bit(digit)});
      });
    };
    const open = cells.filter(function (cell) {
      return !now[cell].given;
    });
    if (kind === "colour") {
      const all = cells.every(function (cell) {
        return now[cell].colour === digit;
      });
      cells.forEach(function (cell) {
        put(cell, {colour: digit && all ? 0 : digit});
      });
      return after;
    }
    if (kind === "erase") {
      if (open.some(function (cell) { return now[cell].digit; })) {
        open.forEach(function (cell) { put(cell, {digit: 0}); });
      } else if (open.some(function (cell) { return now[cell].corner || now[cell].centre; })) {
        open.forEach(function (cell) { put(cell, {corner: 0, centre: 0}); });
      } else {
        cells.forEach(function (cell) { put(cell, {colour: 0}); });
      }
      return after;
    }
    if (!open.length) {
      return null;
    }
    if (kind === "digit") {
      const clearing = digit === 0 || open.every(function (cell) {
        return now[cell].digit === digit;
      });
      open.forEach(function (cell) {
        if (clearing && cells.length === 1 && !now[cell].digit) {
          put(cell, {corner: 0, centre: 0});  // clearing an empty cell takes its marks away
        } else if (clearing) {
          put(cell, {digit: 0});
        } else {
          place(cell);
        }
      });
      return after;
    }
    const empty = open.filter(function (cell) {
      return !now[cell].digit;
    });
    if (!empty.length) {
      return null;
    }
    const adding = !empty.every(function (cell) {
      return now[cell][kind] & bit(digit);
    });
    empty.forEach(function (cell) {
      const marks = now[cell][kind];
      put(cell, {[kind]: adding ? marks | bit(digit) : marks & ~bit(digit)});
    });
    return after;
  }

  // Draw after-states into the cells (as templates/play/_cell.html renders them), the conflicts they make, and,
  // for a new action, the history buttons.
  function draw(after, record) {
    const before = new Map();
    after.forEach(function (state, cell) {
      const el = cellAt(nameOf(cell));
      before.set(cell, readCell(el));
      renderCell(el, cell, state);
    });
    markConflicts();
    if (record) {
      setHistory(true, false);  // the server's history takes it, and a new action ends the redos
    }
    paint();
    return before;
  }

  // A cell is drawn as a new element in place of the old one, as the server's answers swap cells in (Chromium does
  // not always restyle a tint's ::before for a class changed in place).
  function renderCell(el, cell, state) {
    const shown = Object.assign(readCell(el), state);
    const drawn = el.cloneNode(false);
    drawn.className = el.className.replace(/(?:^| )(?:colour-[1-9]|mistake)(?= |$)/g, "");
    if (shown.colour) {
      drawn.classList.add("colour-" + shown.colour);
    }
    if (shown.digit) {
      drawn.dataset.digit = String(shown.digit);
    } else {
      delete drawn.dataset.digit;
    }
    const marks = function (kind, mask) {
      const digits = digitsOf(mask);
      if (!digits.length) {
        return "";
      }
      const size = kind === "corner" ? " n" + digits.length : "";
      return '<span class="' + kind + size + '" aria-hidden="true">' + digits.map(function (d) {
        return '<span class="m m' + d + '">' + d + "</span>";
      }).join("") + "</span>";
    };
    drawn.innerHTML = shown.digit ? '<span class="digit" aria-hidden="true">' + shown.digit + "</span>"
      : marks("corner", shown.corner) + marks("centre", shown.centre);
    drawn.setAttribute("aria-label", labelOf(cell, shown));
    const focused = document.activeElement === el;
    el.replaceWith(drawn);
    if (focused) {
      drawn.focus({preventScroll: true});
    }
  }

  function labelOf(cell, state) {
    const parts = ["Row " + (Math.floor(cell / 9) + 1) + ", column " + (cell % 9 + 1)];
    if (state.given) {
      parts.push("given " + state.digit);
    } else if (state.digit) {
      parts.push(String(state.digit));
    } else {
      parts.push("empty");
      if (state.corner) {
        parts.push("corner marks " + digitsOf(state.corner).join(" "));
      }
      if (state.centre) {
        parts.push("candidates " + digitsOf(state.centre).join(" "));
      }
    }
    if (state.colour) {
      const swatch = document.querySelector('.pad-digit[data-digit="' + state.colour + '"]');
      parts.push("colour " + (swatch ? swatch.dataset.colourName : state.colour));
    }
    return parts.join(", ");
  }

  function markConflicts() {
    const now = readBoard();
    board.querySelectorAll("[data-cell]").forEach(function (el, cell) {
      const clash = now[cell].digit > 0 && peersOf[cell].some(function (peer) {
        return now[peer].digit === now[cell].digit;
      });
      if (clash === el.classList.contains("conflict")) {
        return;
      }
      el.classList.toggle("conflict", clash);
      const label = el.getAttribute("aria-label");
      el.setAttribute("aria-label", clash ? label + ", conflict" : label.replace(/, conflict(?=,|$)/, ""));
    });
  }

  // The history buttons as an action drawn at once leaves them: true enables, false disables, null leaves the
  // button as it is (the server's answer says).
  function setHistory(canUndo, canRedo) {
    [["undo", canUndo], ["redo", canRedo]].forEach(function (pair) {
      const button = document.querySelector('[data-action="' + pair[0] + '"]');
      if (button && pair[1] !== null) {
        button.setAttribute("aria-disabled", pair[1] ? "false" : "true");
      }
    });
  }

  // Post an action drawn at once: its after-state goes to the page's history (a new action ends the redos).
  function postDrawn(url, values, after) {
    if (!after) {
      post(url, values);
      return;
    }
    localRedo = [];
    const before = draw(after, true);
    localUndo.push({before: before, after: after});
    post(url, values, after);
  }

  // Undo or redo drawn at once when the page drew the action it takes back (else the server's answer draws it).
  function postHistory(action, url) {
    const from = action === "undo" ? localUndo : localRedo;
    const to = action === "undo" ? localRedo : localUndo;
    const entry = from.pop();
    if (!entry) {
      localUndo = [];  // the server takes back an action this page did not draw: its history is the server's now
      localRedo = [];
      post(url);
      return;
    }
    to.push(entry);
    draw(action === "undo" ? entry.before : entry.after, false);
    setHistory(action === "redo" ? true : null, action === "undo" ? true : null);
    post(url, {}, action === "undo" ? entry.before : entry.after);
  }

  // After a refused action: the board, the history buttons and the message as the server has them.
  function reloadBoard() {
    localUndo = [];
    localRedo = [];
    fetch(base, {credentials: "same-origin"}).then(function (answer) {
      return answer.text();
    }).then(function (text) {
      const fresh = new DOMParser().parseFromString(text, "text/html");
      fresh.querySelectorAll("#board [data-cell]").forEach(function (el) {
        const mine = cellAt(el.dataset.cell);
        if (mine) {
          mine.replaceWith(el);
        }
      });
      const history = fresh.getElementById("history");
      if (history) {
        document.getElementById("history").replaceWith(history);
      }
      paint();
    }).catch(function () {
      say("The server could not be reached; reload the page to see the board as it was saved.", true);
    });
  }

  // A pause because the page is hidden must reach the server even if the page is being closed or reloaded:
  // sent at once with keepalive when no other action is on its way (else queued behind them, in order).
  function postHidden(url, values) {
    if (inflight > 0) {
      post(url, values);
      return;
    }
    const body = new URLSearchParams(Object.assign({client_ms: String(performance.now()), key: actionKey()}, values));
    const token = document.querySelector('meta[name="csrf-token"]').content;
    fetch(url, {method: "POST", body: body, keepalive: true, headers: {"X-CSRFToken": token, "HX-Request": "true"}})
      .catch(function () {});
  }

  function enter(digit, entryMode) {
    const cell = cellAt(selected);
    if (!cell || isDone() || isPaused()) {
      return;
    }
    const how = entryMode || mode;
    if (selection.size > 1 || how === "colour") {
      const cells = Array.from(selection, indexOf).sort(function (a, b) { return a - b; });
      const kind = how === "colour" ? "colour" : (digit === 0 ? "erase" : how);
      const values = {cells: Array.from(selection).join(","), digit: String(digit), mode: how};
      postDrawn(base + "/cells", values, predict(kind, cells, digit));
      return;
    }
    if (cell.classList.contains("given")) {
      say("Row " + selected[1] + ", column " + selected[3] + " is a given and cannot be changed.", true);
      return;
    }
    if (digit === 0) {
      postDrawn(base + "/cell/" + selected, {digit: "0"}, predict("digit", [indexOf(selected)], 0));
    } else {
      const values = {digit: String(digit), mode: how};
      postDrawn(base + "/cell/" + selected, values, predict(how, [indexOf(selected)], digit));
    }
  }

  function say(text, isError) {
    message.textContent = text;
    message.classList.toggle("error", Boolean(isError));
  }

  function setMode(next) {
    mode = next;
    document.querySelectorAll("[data-mode]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.mode === mode ? "true" : "false");
    });
    document.querySelector(".pad").classList.toggle("colour-mode", mode === "colour");
    countPad();
  }

  function runAction(button) {
    if (button.getAttribute("aria-disabled") === "true") {
      return;
    }
    const action = button.dataset.action;
    if (action === "pause") {
      pause("button");
    } else if (action === "resume") {
      pausedHere = false;
      focusInBoard = true;  // back to the selected cell once the board shows again
      post(button.dataset.url);
    } else if (action === "check") {
      post(button.dataset.url, {on: button.dataset.on});
    } else if (action === "restart") {
      document.getElementById("restart-dialog").showModal();
      return;
    } else if (action === "close-hint") {
      document.querySelector(".hint-dock").classList.add("closed");
    } else if (action === "undo" || action === "redo") {
      postHistory(action, button.dataset.url);
    } else {
      if (action === "apply" || action === "autofill" || action === "clear-marks") {
        localUndo = [];  // the server's history gets an action this page did not draw: its undo waits for it
        localRedo = [];
      }
      if (action === "hint") {
        document.querySelector(".hint-dock").classList.remove("closed");
      }
      post(button.dataset.url);
    }
    if (action !== "pause" && action !== "resume") {
      backToBoard();
    }
  }

  function clickAction(name) {
    const button = document.querySelector('[data-action="' + name + '"]');
    if (button) {
      runAction(button);
    }
  }

  // The clock: the server sends the active seconds so far; the page counts on while running.
  function readClock() {
    const timer = document.getElementById("timer");
    if (!timer) {
      return;
    }
    let state = timer.dataset.state;
    if (state === "paused") {
      pausedHere = false;  // the server has it: its answers say paused from now on
    } else if (pausedHere && state === "running") {
      state = "paused";
    }
    if (state === "paused" && clock.state === "paused") {
      return;  // keep the time shown when the pause began
    }
    clock = {seconds: Number(timer.dataset.seconds) || 0, since: performance.now(), state: state};
    game.classList.toggle("paused", clock.state === "paused");
    game.classList.toggle("solved", clock.state === "done");
    document.getElementById("pause").disabled = clock.state === "done";
    // a paused or finished game's controls are out of use: not only faded but out of the focus order and the
    // accessibility tree
    game.querySelectorAll(".controls").forEach(function (controls) {
      controls.inert = clock.state !== "running";
    });
    showClock();
  }

  function showClock() {
    const timer = document.getElementById("timer");
    let seconds = clock.seconds;
    if (clock.state === "running") {
      seconds += (performance.now() - clock.since) / 1000;
    }
    const whole = Math.floor(seconds);
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    const secs = String(whole % 60).padStart(2, "0");
    timer.textContent = hours ? hours + ":" + String(minutes).padStart(2, "0") + ":" + secs : minutes + ":" + secs;
    const limit = Number(timer.dataset.limit);
    const timeUp = document.getElementById("time-up");
    if (limit && seconds >= limit && timeUp && clock.state !== "done") {
      timeUp.hidden = false;
      clock.state = "done";
      game.classList.add("solved");
    }
  }

  function pause(reason) {
    if (isPaused() || isDone()) {
      return;
    }
    showClock();
    clock.seconds += (performance.now() - clock.since) / 1000;
    clock.state = "paused";
    pausedHere = true;
    game.classList.add("paused");
    const url = document.getElementById("pause").dataset.url;
    if (reason === "hidden") {
      postHidden(url, {reason: reason, view: game.dataset.view});
    } else {
      post(url, {reason: reason});
    }
    if (reason === "button") {
      document.getElementById("resume").focus();
    }
  }

  function onKey(event) {
    if (event.target.closest("input, textarea, select")) {
      return;
    }
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (ctrl && (key === "z" || key === "y")) {
      event.preventDefault();
      clickAction(key === "y" || event.shiftKey ? "redo" : "undo");
      return;
    }
    if (moves[event.key]) {
      if (!event.target.closest("#board")) {
        return;
      }
      event.preventDefault();
      move(moves[event.key][0], moves[event.key][1], event.shiftKey || ctrl);
      return;
    }
    if (event.target.closest("dialog") || event.altKey) {
      return;
    }
    if (!ctrl && modeKeys[key]) {
      event.preventDefault();
      setMode(modeKeys[key]);
      return;
    }
    if (event.key === " " && event.target.closest("#board")) {
      event.preventDefault();
      setMode(modeCycle[(modeCycle.indexOf(mode) + 1) % modeCycle.length]);
      return;
    }
    if (event.key === "Escape" && selection.size > 1) {
      select(selected);
      return;
    }
    const code = /^(Digit|Numpad)([0-9])$/.exec(event.code || "");
    const digit = code ? Number(code[2]) : (/^[0-9]$/.test(event.key) ? Number(event.key) : null);
    if (digit !== null && !event.altKey) {
      event.preventDefault();
      if (digit === 0) {
        enter(0);
      } else {
        enter(digit, ctrl ? "centre" : (event.shiftKey ? "corner" : mode));
      }
    } else if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      enter(0);
    }
  }

  // Pointer selection: a press selects one cell (Shift adds it, Ctrl or Cmd toggles it) and a drag adds every
  // cell it passes over, for mouse, pen and touch alike (the board takes no touch scrolling).
  board.addEventListener("pointerdown", function (event) {
    const cell = event.target.closest("[data-cell]");
    if (!cell || (event.pointerType === "mouse" && event.button !== 0)) {
      return;
    }
    if (event.target.hasPointerCapture && event.target.hasPointerCapture(event.pointerId)) {
      event.target.releasePointerCapture(event.pointerId);
    }
    focusInBoard = true;
    dragging = true;
    if (event.ctrlKey || event.metaKey) {
      toggle(cell.dataset.cell);
    } else {
      select(cell.dataset.cell, event.shiftKey);
    }
  });
  board.addEventListener("pointermove", function (event) {
    if (!dragging) {
      return;
    }
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = under && under.closest("[data-cell]");
    if (cell && board.contains(cell) && !selection.has(cell.dataset.cell)) {
      select(cell.dataset.cell, true);
    }
  });
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () {
      dragging = false;
    });
  });
  // A press on the board or on a control does not move the focus: it stays on the selected cell.
  game.addEventListener("mousedown", function (event) {
    if (event.target.closest("#board") || (event.target.closest("button") && !event.target.closest("dialog"))) {
      event.preventDefault();
      if (event.target.closest("#board")) {
        backToBoard();
      }
    }
  });
  board.addEventListener("focusin", function (event) {
    focusInBoard = true;
    const cell = event.target.closest("[data-cell]");
    if (cell && cell.dataset.cell !== selected) {
      select(cell.dataset.cell);
    }
  });
  document.addEventListener("focusin", function (event) {
    if (!board.contains(event.target)) {
      focusInBoard = false;
    }
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", function (event) {
    const button = event.target.closest("button");
    if (!button || !game.contains(button)) {
      return;
    }
    if (button.closest("dialog")) {
      return;
    }
    if (button.dataset.mode) {
      setMode(button.dataset.mode);
      backToBoard();
    } else if (button.dataset.digit !== undefined) {
      enter(Number(button.dataset.digit));
      backToBoard();
    } else if (button.dataset.action) {
      runAction(button);
    }
  });
  document.getElementById("restart-dialog").addEventListener("close", function (event) {
    if (event.target.returnValue === "restart") {
      localUndo = [];
      localRedo = [];
      post(document.getElementById("restart").dataset.url);
    }
    backToBoard();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") {
      pause("hidden");
    }
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    readClock();
    paint();
  });
  document.body.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "message") {
      message.classList.remove("error");
    }
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    resync = true;
    const answer = new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html");
    refusal = answer.body.textContent.trim() || "The server refused this change.";
    say(refusal, true);
  });
  document.body.addEventListener("htmx:sendError", function () {
    resync = true;
    refusal = "The server could not be reached; the last change was not saved.";
    say(refusal, true);
  });

  readClock();
  paint();
  // Tell the server this page shows the game: the first showing starts the clock, and this page becomes the
  // game's latest view (the page itself was fetched without changing anything).
  post(base + "/shown", {view: game.dataset.view});
  window.setInterval(function () {
    if (clock.state === "running") {
      showClock();
    }
  }, 500);
})();
