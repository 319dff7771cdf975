// The start page's New puzzle form. htmx posts it: the button is disabled (hx-disabled-elt) and the progress
// line shows (hx-indicator) until the answer's HX-Redirect brings the game page. This script only words the
// wait (a bank draw takes milliseconds, so a request still running after a moment is generating a puzzle) and
// answers a failure: the button comes back (htmx re-enables it) and the line says why. Without JS the form posts
// as a plain form.
(function () {
  "use strict";

  const form = document.getElementById("new-puzzle-form");
  const progress = document.getElementById("new-puzzle-progress");
  const error = document.getElementById("new-puzzle-error");
  if (!form || !progress || !error) {
    return;
  }
  const GENERATING_AFTER_MS = 700;
  let timer = 0;

  function stopWaiting() {
    window.clearTimeout(timer);
    progress.classList.remove("generating");
  }

  function fail(text) {
    stopWaiting();
    error.textContent = text;
  }

  form.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt !== form) {
      return;
    }
    error.textContent = "";
    stopWaiting();
    timer = window.setTimeout(function () {
      progress.classList.add("generating");
    }, GENERATING_AFTER_MS);
  });
  form.addEventListener("htmx:responseError", function (event) {
    const answer = new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html");
    fail(answer.body.textContent.trim() || "The server could not serve a puzzle. Please try again.");
  });
  form.addEventListener("htmx:sendError", function () {
    fail("The server could not be reached. Check the connection and try again.");
  });
  form.addEventListener("htmx:timeout", function () {
    fail("No puzzle came in time. Please try again.");
  });
  // A page restored from the back-forward cache still shows the wait it was left in: load it afresh.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      window.location.reload();
    }
  });
})();
