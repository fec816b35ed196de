/* Keyboard shortcuts of the table (R30): D draw, P pass, E end first turn, H hint,
 * U undo, R redo, L log, ? rules, arrows to reach the hand and the trains.
 * A shortcut only presses a button the server rendered, so it can do nothing the
 * mouse could not. Ignored while typing or with a modifier key held.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var table = document.getElementById("table");
  if (!table) return;

  var KEYS = {
    d: '[data-act="draw"]',
    p: '[data-act="pass"]',
    e: '[data-act="end"]',
    h: '[data-cmd="hint"]',
    u: '[data-cmd="undo"]',
    r: '[data-cmd="redo"]',
    l: '[data-panel="log"]',
    "?": '[data-panel="rules"]'
  };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (document.querySelector("dialog[open]") || document.querySelector(".cover")) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var selector = KEYS[key];
    if (selector) {
      var btn = table.querySelector(selector + ":not([disabled])");
      if (btn) {
        event.preventDefault();
        btn.click();
      }
      return;
    }
    var inBoard = t && t.closest && t.closest(".htile, .train");
    if (inBoard) return; // hand.js moves within the hand and among trains
    var free = t === document.body || t === document.documentElement || (t && t.id === "main");
    if (!free) return; // arrows keep their meaning in menus, links and the language switcher
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (MT.focusHand) { event.preventDefault(); MT.focusHand(); }
    } else if (key === "ArrowUp" || key === "ArrowDown") {
      if (MT.focusTrains) { event.preventDefault(); MT.focusTrains(); }
    } else if (key === "Escape" && MT.deselect) {
      MT.deselect(true);
    }
  });
})();
