/* The admin's match replay (templates/admin/games/match/replay.html): arrow keys step
 * through it, as the links above do. A file of its own: the site's Content-Security-Policy
 * allows no inline script. */
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(e.target.tagName)) return;
    var ids = {ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last"};
    var link = ids[e.key] && document.getElementById(ids[e.key]);
    if (link) { e.preventDefault(); window.location.href = link.href; }
  });
})();
