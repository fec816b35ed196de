// "What can I do?" (games/jinja2/games/board/cando.html) is a <details>: it opens and closes
// without script. Here it also closes with Escape and with a tap anywhere outside it,
// since on a phone the open list may cover its own button.
(function () {
  "use strict";
  var MT = window.MT = window.MT || {};
  // Its first line, the instruction of the moment, is the board's data-status (games/board/parts.py
  // board_attrs), written here after every board and update: the server leaves it out of the
  // "tools" part, which would otherwise change, for every seat, on every turn.
  function nowLine(b) {
    var line = b && b.querySelector("[data-cando] .cando__now strong");
    var text = (b && b.dataset.status) || "";
    if (line && line.textContent !== text) line.textContent = text;
  }
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(nowLine);
  nowLine(document.querySelector("#board .board"));
  function openMenus() { return document.querySelectorAll("details[data-cando][open]"); }
  document.addEventListener("click", function (event) {
    openMenus().forEach(function (menu) {
      if (!menu.contains(event.target)) menu.open = false;
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    openMenus().forEach(function (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  });
})();
