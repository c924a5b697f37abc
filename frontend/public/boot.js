// Prerendered pages load the app after their first paint: the HTML is already on screen, so the
// app's JavaScript does not compete with it for a slow line. The entry comes from data-entry.
(function () {
  var entry = document.currentScript && document.currentScript.getAttribute('data-entry');
  if (!entry) return;
  var url = new URL(entry, document.baseURI).href;
  requestAnimationFrame(function () {
    setTimeout(function () {
      import(url);
    }, 0);
  });
})();
