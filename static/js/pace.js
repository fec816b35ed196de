/* The computers' pace, "Skip to my turn", and "Draw and pass for me when I have no play".
 *
 * [data-pace] (the table's menu, seated people only) sends {"type": "pace", "pace": ...};
 * [data-skip] sends {"type": "skip"}: the server checks who may (games.services) and
 * every page at the table shows the result with the next board.
 *
 * "Draw and pass for me" is a choice kept in this browser (localStorage). When it is
 * on and the board says the shown seat's only legal action is to draw or to pass
 * (#board .board[data-only], worked out on the server, R10, R15), the page sends
 * that one action, once per board version. The browser applies no rule of its own.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var host = document.getElementById("table");
  if (!host) return;
  var KEY = "mt.autodraw";
  var DELAY_MS = 500; // long enough to see the turn come, short enough not to wait for it
  var sentFor = null; // the board version an automatic action was sent for
  var timer = null;

  function autodraw() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function setAutodraw(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
    memory = on;
  }
  var memory = autodraw();

  function mark(b) {
    host.querySelectorAll("[data-autodraw]").forEach(function (el) {
      el.setAttribute("aria-pressed", memory ? "true" : "false");
    });
    forced(b);
  }

  /** The one action the board lists, sent for the player when they chose so. */
  function forced(b) {
    window.clearTimeout(timer);
    if (!memory || !b || b.dataset.yourTurn !== "true") return;
    var only = b.dataset.only;
    var seat = b.dataset.seat;
    if ((only !== "draw" && only !== "pass") || seat === "") return;
    var version = b.dataset.version;
    if (sentFor === version) return;
    timer = window.setTimeout(function () {
      var now = MT.board && MT.board();
      if (!now || now.dataset.version !== version || now.dataset.only !== only) return;
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
      setAutodraw(!memory);
      mark(MT.board && MT.board());
      if (menu) menu.open = false;
      return;
    }
    if (el.hasAttribute("data-pace")) {
      if (el.getAttribute("aria-pressed") !== "true") MT.request({ type: "pace", pace: el.dataset.pace });
      if (menu) menu.open = false;
      return;
    }
    MT.request({ type: "skip" });
    el.disabled = true; // the next board takes it away
  });

  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(mark);
})();
