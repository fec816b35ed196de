// "What can I do?" (games/jinja2/games/board/cando.html) is a <details>: it opens and closes
// without script. Here it also closes with Escape and with a tap anywhere outside it,
// since on a phone the open list may cover its own button.
(function () {
  "use strict";
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
