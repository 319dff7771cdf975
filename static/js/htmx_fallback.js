// Loads the vendored htmx when the CDN copy did not load (no network, blocked, or a failed integrity check).
// An external file rather than an inline script, so the pages' Content-Security-Policy allows no inline script.
if (!window.htmx) {
  document.write('<script src="' + document.currentScript.dataset.htmx + '"><\/script>');
}
