// Forms whose post takes a moment (creating a study, refitting the time model) say so while it runs: on submit
// the button is disabled, so the form is not sent twice, and the form's status line shows its data-busy text.
// The page that answers replaces this one; a page restored from the back-forward cache is made usable again.
(function () {
  "use strict";

  function busy(form, on) {
    form.querySelectorAll('button[type="submit"]').forEach(function (button) {
      button.disabled = on;
    });
    const status = form.querySelector(".busy-status");
    if (status) {
      status.textContent = on ? form.dataset.busy : "";
    }
  }

  document.querySelectorAll("form[data-busy]").forEach(function (form) {
    form.addEventListener("submit", function () {
      // disabled after the submission has taken the button's value, not before
      window.setTimeout(function () {
        busy(form, true);
      }, 0);
    });
  });

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      document.querySelectorAll("form[data-busy]").forEach(function (form) {
        busy(form, false);
      });
    }
  });
})();
