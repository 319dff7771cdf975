// The Copy button of a finished game's share text: the clipboard API where the browser allows it, else the text
// is selected for the player to copy. Bound once on the document, so a completion panel swapped in later works too.
(() => {
  if (window.sudokuShareBound) return;
  window.sudokuShareBound = true;
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    const status = document.getElementById("share-status");
    const say = (text) => {
      if (status) status.textContent = text;
    };
    const selectIt = () => {
      field.focus();
      field.select();
      say("Selected: press Ctrl+C (or Cmd+C) to copy.");
    };
    if (!field) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(() => say("Copied."), selectIt);
    } else {
      selectIt();
    }
  });
})();
