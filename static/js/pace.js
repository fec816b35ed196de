/* The computers' pace, "Skip to my turn", and "Draw and pass for me when I have no play".
 *
 * [data-pace] (the table's menu, seated people only) sends {"type": "pace", "pace": ...};
 * [data-skip] sends {"type": "skip"}: the server checks who may (games.services) and
 * every page at the table shows the result with the next board.
 *
 * "Draw and pass for me" is the player's choice, kept on their account (guests too):
 * the menu item sends {"type": "autodraw", "on": …} and the board says it is on
 * (#board .board[data-draw-pass="on"]). When it is on and the board says the shown
 * seat's only legal action is to draw or to pass (data-only, worked out on the
 * server, R10, R15), the page sends that one action, once per board version. The
 * browser applies no rule of its own.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var host = document.getElementById("table");
  if (!host) return;
  var DELAY_MS = 500; // long enough to see the turn come, short enough not to wait for it
  var sentFor = null; // the board version an automatic action was sent for
  var timer = null;

  function on(b) { return !!b && b.dataset.drawPass === "on"; }

  /** The one action the board lists, sent for the player when they chose so. */
  function forced(b) {
    window.clearTimeout(timer);
    if (!on(b) || b.dataset.yourTurn !== "true") return;
    var only = b.dataset.only;
    var seat = b.dataset.seat;
    if ((only !== "draw" && only !== "pass") || seat === "") return;
    var version = b.dataset.version;
    if (sentFor === version) return;
    timer = window.setTimeout(function () {
      var now = MT.board && MT.board();
      if (!on(now) || now.dataset.version !== version || now.dataset.only !== only) return;
      sentFor = version;
      var s = parseInt(seat, 10);
      MT.act(s, { seat: s, act: only });
    }, DELAY_MS);
  }

  host.addEventListener("click", function (event) {
    var el = event.target.closest("[data-pace], [data-skip], [data-autodraw]");
    if (!el) return;
    var menu = el.closest("details");
    if (el.hasAttribute("data-autodraw")) {
      MT.autodraw(el.getAttribute("aria-pressed") !== "true");
      if (menu) menu.open = false;
      return;
    }
    if (el.hasAttribute("data-pace")) {
      if (el.getAttribute("aria-pressed") !== "true") MT.request({ type: "pace", pace: el.dataset.pace });
      if (menu) menu.open = false;
      return;
    }
    MT.request({ type: "skip" });
    el.disabled = true; // until the next board says whether it may be pressed again
  });

  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(forced);
})();
