// The game page's one script: selection (one cell or several), keyboard, entry modes, highlights, the pad's
// counts, the clock and auto-pause. Focus goes back to the selected cell after every control, so arrows and
// digits always act on the selection the player sees.
// The board lives on the server: every action is posted through htmx, one at a time and in order, with the
// client's clock and an idempotency key; the answer swaps in the cells that changed and the controls' state.
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
      button.querySelector(".pad-left").textContent = String(left);
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

  // Requests: queued so that actions reach the server in the order they were made.
  function post(url, values) {
    const body = Object.assign({client_ms: String(performance.now()), key: actionKey()}, values || {});
    const next = function () {
      return htmx.ajax("POST", url, {source: board, target: "#message", swap: "none", values: body});
    };
    inflight += 1;
    const done = function () {
      inflight -= 1;
    };
    pending = pending.then(next, next).then(done, done);
    return pending;
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
      post(base + "/cells", {cells: Array.from(selection).join(","), digit: String(digit), mode: how});
      return;
    }
    if (cell.classList.contains("given")) {
      say("Row " + selected[1] + ", column " + selected[3] + " is a given and cannot be changed.", true);
      return;
    }
    if (digit === 0) {
      post(base + "/cell/" + selected, {digit: "0"});
    } else {
      post(base + "/cell/" + selected, {digit: String(digit), mode: entryMode || mode});
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
    } else {
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
    const answer = new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html");
    say(answer.body.textContent.trim() || "The server refused this change.", true);
  });
  document.body.addEventListener("htmx:sendError", function () {
    say("The server could not be reached; the last change was not saved.", true);
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
