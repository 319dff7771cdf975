// The Print button of the print page.
document.getElementById("print-button").addEventListener("click", () => window.print());
