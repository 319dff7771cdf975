// Pages that only lead on to a post (a puzzle link, a study's entry link) send their form at once; without
// scripts the visitor presses its button.
document.querySelectorAll("form[data-autostart]").forEach((form) => form.submit());
