// The replay page's one script: draws any step of a game from the cells' markup the server rendered for each
// step (the game's own cell markup), and plays the steps at the game's own pace times the chosen speed.
// Without it, the page still shows one step, and its links move between steps.
(function () {
  "use strict";

  const root = document.getElementById("replay");
  const board = document.getElementById("board");
  const source = document.getElementById("replay-data");
  if (!root || !board || !source) {
    return;
  }
  const data = JSON.parse(source.textContent);
  const total = data.frames.length;
  const maxWait = parseFloat(root.dataset.maxWait) * 1000;
  const slider = document.getElementById("replay-slider");
  const playButton = document.getElementById("replay-play");
  const speed = document.getElementById("replay-speed");
  const stepText = document.getElementById("replay-step");
  const clockText = document.getElementById("replay-clock");
  const events = document.getElementById("replay-events");
  // The markup of all 81 cells after each step (as indexes into data.markups): the start, then each step's
  // changed cells over the one before.
  const boards = [data.start.slice()];
  data.frames.forEach(function (frame) {
    const next = boards[boards.length - 1].slice();
    frame.forEach(function (pair) {
      next[pair[0]] = pair[1];
    });
    boards.push(next);
  });
  let shown = parseInt(root.dataset.step, 10);
  let drawn = boards[shown].slice();
  let timer = null;

  function draw(step) {
    const target = boards[step];
    const cells = board.querySelectorAll("[data-cell]");
    for (let cell = 0; cell < 81; cell += 1) {
      if (drawn[cell] !== target[cell]) {
        cells[cell].outerHTML = data.markups[target[cell]];
      }
    }
    drawn = target.slice();
    shown = step;
    root.dataset.step = String(step);
    slider.value = String(step);
    stepText.textContent = step + " of " + total;
    clockText.textContent = data.clock[step];
    const current = events.querySelector('[aria-current="step"]');
    if (current) {
      current.removeAttribute("aria-current");
    }
    const item = events.querySelector('[data-step="' + step + '"]');
    if (item) {
      item.setAttribute("aria-current", "step");
      if (typeof item.scrollIntoView === "function") {
        item.scrollIntoView({block: "nearest"});
      }
    }
  }

  function go(step) {
    draw(Math.max(0, Math.min(total, step)));
  }

  function stop() {
    if (timer !== null) {
      window.clearTimeout(timer);
      timer = null;
    }
    playButton.textContent = "Play";
    root.classList.remove("playing");
  }

  function tick() {
    if (shown >= total) {
      stop();
      return;
    }
    const wait = (data.elapsed[shown + 1] - data.elapsed[shown]) * 1000 / parseFloat(speed.value);
    timer = window.setTimeout(function () {
      go(shown + 1);
      tick();
    }, Math.max(30, Math.min(maxWait, wait)));
  }

  function play() {
    if (shown >= total) {
      go(0);
    }
    playButton.textContent = "Pause";
    root.classList.add("playing");
    tick();
  }

  playButton.hidden = false;
  speed.hidden = false;
  slider.hidden = false;
  playButton.addEventListener("click", function () {
    if (timer === null) {
      play();
    } else {
      stop();
    }
  });
  speed.addEventListener("change", function () {
    if (timer !== null) {
      window.clearTimeout(timer);
      tick();
    }
  });
  slider.addEventListener("input", function () {
    stop();
    go(parseInt(slider.value, 10));
  });
  const moves = {"replay-first": function () { return 0; }, "replay-back": function () { return shown - 1; },
    "replay-forward": function () { return shown + 1; }, "replay-last": function () { return total; }};
  Object.keys(moves).forEach(function (id) {
    document.getElementById(id).addEventListener("click", function (event) {
      event.preventDefault();
      stop();
      go(moves[id]());
    });
  });
  events.addEventListener("click", function (event) {
    const item = event.target.closest("[data-step]");
    if (item) {
      event.preventDefault();
      stop();
      go(parseInt(item.dataset.step, 10));
    }
  });
})();
