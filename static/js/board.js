// The game page's one script: selection, keyboard, entry modes, highlights, the clock and auto-pause.
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
  let selected = "r1c1";
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
    board.querySelectorAll('[tabindex="0"]').forEach(function (el) {
      el.setAttribute("tabindex", "-1");
    });
    const cell = cellAt(selected);
    if (!cell) {
      return;
    }
    cell.setAttribute("tabindex", "0");
    cell.classList.add("selected");
    cell.setAttribute("aria-selected", "true");
    const row = selected[1];
    const col = selected[3];
    const box = boxOf(row, col);
    board.querySelectorAll("[data-cell]").forEach(function (other) {
      const name = other.dataset.cell;
      if (other !== cell && (name[1] === row || name[3] === col || boxOf(name[1], name[3]) === box)) {
        other.classList.add("peer");
      }
      if (other !== cell) {
        other.removeAttribute("aria-selected");
      }
    });
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
  }

  function boxOf(row, col) {
    return Math.floor((Number(row) - 1) / 3) * 3 + Math.floor((Number(col) - 1) / 3);
  }

  function select(name) {
    selected = name;
    paint();
  }

  function move(dRow, dCol) {
    const row = Math.min(9, Math.max(1, Number(selected[1]) + dRow));
    const col = Math.min(9, Math.max(1, Number(selected[3]) + dCol));
    select("r" + row + "c" + col);
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
    } else {
      post(button.dataset.url);
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
      move(moves[event.key][0], moves[event.key][1]);
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

  board.addEventListener("click", function (event) {
    const cell = event.target.closest("[data-cell]");
    if (cell) {
      focusInBoard = true;
      select(cell.dataset.cell);
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
    if (button.dataset.mode) {
      setMode(button.dataset.mode);
    } else if (button.dataset.digit !== undefined) {
      enter(Number(button.dataset.digit));
    } else if (button.dataset.action) {
      runAction(button);
    }
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
