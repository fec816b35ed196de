// Times the server can only write in UTC, said in the reader's own time: a presence
// dot's "Away since 14:05 UTC" (games/board/presenter/seats.py presence_words) becomes "Away since
// 15:05" in the reader's zone, formatted by the browser (Intl) in the page's language. The
// element carries the moment (data-since, ISO 8601); the words come from #board-strings
// ("away_since", translated on the server). Without scripts the UTC words stay.
(function () {
  "use strict";
  var stringsEl = document.getElementById("board-strings");
  var words = stringsEl ? JSON.parse(stringsEl.textContent).away_since : "";
  if (!words || !window.Intl) return;
  var clock = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {hour: "2-digit", minute: "2-digit"});

  function localise() {
    document.querySelectorAll("#board .presence[data-since]").forEach(function (dot) {
      var when = new Date(dot.dataset.since);
      if (isNaN(when)) return;
      var text = words.replace("%(time)s", clock.format(when));
      dot.setAttribute("title", text);
      dot.setAttribute("aria-label", text);
    });
  }

  // After every board the page gets (table.js): swapped in whole, or changed by an update's parts.
  var MT = window.MT = window.MT || {};
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(localise);
  localise();
})();
