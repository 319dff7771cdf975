// Keyboard and mouse play on the server-rendered board: select a cell, type digits, move with arrows.
// Each entry is posted through htmx and the server answers with the changed cell; entries are sent one
// at a time, in order, so none is dropped or overtaken while a previous answer is still on its way.
(function () {
  "use strict";

  const board = document.getElementById("board");
  if (!board) {
    return;
  }
  const message = document.getElementById("message");
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  let selected = null;
  let pending = Promise.resolve();

  function cellAt(name) {
    return board.querySelector('[data-cell="' + name + '"]');
  }

  function isSolved() {
    return document.getElementById("completion") !== null;
  }

  function paintSelection() {
    board.querySelectorAll(".selected").forEach(function (cell) {
      cell.classList.remove("selected");
      cell.removeAttribute("aria-selected");
    });
    const cell = selected && cellAt(selected);
    if (cell) {
      cell.classList.add("selected");
      cell.setAttribute("aria-selected", "true");
    }
  }

  function select(name) {
    selected = name;
    paintSelection();
  }

  function move(dRow, dCol) {
    if (!selected) {
      select("r1c1");
      return;
    }
    const row = Math.min(9, Math.max(1, Number(selected[1]) + dRow));
    const col = Math.min(9, Math.max(1, Number(selected[3]) + dCol));
    select("r" + row + "c" + col);
  }

  function send(name, digit) {
    const cell = cellAt(name);
    if (!cell || !cell.dataset.url) {
      return Promise.resolve();
    }
    message.textContent = "";
    return htmx.ajax("POST", cell.dataset.url, {
      source: cell,
      target: cell,
      swap: "outerHTML",
      values: {digit: String(digit), client_ms: String(performance.now())},
    });
  }

  function enqueue(name, digit) {
    const next = function () {
      return send(name, digit);
    };
    pending = pending.then(next, next);
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) {
      return;
    }
    if (moves[event.key]) {
      event.preventDefault();
      move(moves[event.key][0], moves[event.key][1]);
    } else if (selected && !isSolved() && /^[0-9]$/.test(event.key)) {
      event.preventDefault();
      enqueue(selected, Number(event.key));
    } else if (selected && !isSolved() && (event.key === "Backspace" || event.key === "Delete")) {
      event.preventDefault();
      enqueue(selected, 0);
    }
  }

  board.addEventListener("click", function (event) {
    const cell = event.target.closest("[data-cell]");
    if (cell) {
      select(cell.dataset.cell);
      board.focus({preventScroll: true});
    }
  });
  document.addEventListener("keydown", onKey);
  document.body.addEventListener("htmx:afterSwap", paintSelection);
  document.body.addEventListener("htmx:responseError", function (event) {
    const answer = new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html");
    message.textContent = answer.body.textContent.trim() || "The server refused this change.";
  });
  document.body.addEventListener("htmx:sendError", function () {
    message.textContent = "The server could not be reached; the last change was not saved.";
  });
})();
