/* The site's menu on a phone (templates/base.html): nav, languages and account fold
 * behind one icon button in the top bar. The button says whether the menu is open
 * (aria-expanded); Escape closes it and gives the focus back to the button, as does a
 * click outside. Without this script the button stays hidden and the menu open. */
(function () {
  "use strict";
  var bar = document.querySelector(".topbar");
  var btn = bar && bar.querySelector(".menubtn");
  var menu = document.getElementById("site-menu");
  if (!btn || !menu) return;
  bar.classList.add("topbar--folds");
  btn.hidden = false;
  function set(open, focusButton) {
    btn.setAttribute("aria-expanded", open ? "true" : "false");
    bar.classList.toggle("topbar--open", open);
    if (open) {
      var first = menu.querySelector("a, button, summary");
      if (first) first.focus();
    } else if (focusButton) {
      btn.focus();
    }
  }
  btn.addEventListener("click", function () { set(btn.getAttribute("aria-expanded") !== "true"); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && btn.getAttribute("aria-expanded") === "true") {
      event.stopPropagation();
      set(false, true);
    }
  }, true);
  document.addEventListener("click", function (event) {
    if (btn.getAttribute("aria-expanded") === "true" && !bar.contains(event.target)) set(false);
  });
})();
