/**
 * Seats whose owners are away (games/attendance/standin.py): the buttons the server put on the board
 * send their command; the board that follows shows the result.
 *   [data-stand-in=<seat>]   {"type": "stand_in", "seat": s}  let a computer play that seat
 *   [data-take-back=<seat>]  {"type": "take_back", "seat": s} take one's own seat back
 *   [data-away-limit=<v>]    {"type": "away_limit", "limit": v} (the table's menu)
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var host = document.getElementById("table");
  if (!host) return;

  host.addEventListener("click", function (event) {
    var el = event.target.closest("[data-stand-in], [data-take-back], [data-away-limit]");
    if (!el || !MT.request) return;
    var menu = el.closest("details");
    if (menu) menu.open = false;
    if (el.hasAttribute("data-away-limit")) {
      if (el.getAttribute("aria-pressed") !== "true") MT.request({ type: "away_limit", limit: el.dataset.awayLimit });
      return;
    }
    var standIn = el.hasAttribute("data-stand-in");
    var seat = parseInt(standIn ? el.dataset.standIn : el.dataset.takeBack, 10);
    if (isNaN(seat)) return;
    el.disabled = true; // the next board takes it away
    MT.request({ type: standIn ? "stand_in" : "take_back", seat: seat });
  });
})();
