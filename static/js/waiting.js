// A match waiting for its friends (templates/games/match_detail.html): instead of reloading
// the whole page, ask for its seats card alone (games.lobby.views.match_seats) every few seconds
// while the page is in view, swap it in when it changed (announced: the box is aria-live),
// and go to the table as soon as the match has started (every seat taken).
(function () {
  "use strict";
  var box = document.querySelector("[data-waiting]");
  if (!box || !window.fetch) return;
  var EVERY = 4000;
  var busy = false;

  function ask() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(box.dataset.waiting, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) {
        if (!r.ok) return null;
        var status = r.headers.get("X-Match-Status");
        return r.text().then(function (html) { return {status: status, html: html}; });
      })
      .then(function (got) {
        if (!got) return;
        if (got.status !== "waiting") { window.location.assign(box.dataset.table); return; }
        if (box.innerHTML.trim() !== got.html.trim()) box.innerHTML = got.html;
      })
      .catch(function () { /* offline for a moment: the next time */ })
      .then(function () { busy = false; });
  }
  window.setInterval(ask, EVERY);
  document.addEventListener("visibilitychange", ask);
})();
