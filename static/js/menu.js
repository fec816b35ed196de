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
  // The table's own menu on a phone offers this one as an item (one menu button there).
  (window.MT = window.MT || {}).siteMenu = set;
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

/* The table's tools on a phone (games/jinja2/games/board/tools.html): they fold behind one
 * button in the table's top bar, so the bar stays one row. The open state lives on the page
 * (#table), not in the tools part, so a new board keeps it; Escape or a click outside closes
 * it. Without this script the fold button stays hidden and the tools stay in the bar. */
(function () {
  "use strict";
  var host = document.getElementById("table");
  if (!host) return;
  host.classList.add("table--folds");
  var MT = (window.MT = window.MT || {});
  function mark() {
    var open = host.classList.contains("table--tools-open");
    host.querySelectorAll("[data-fold]").forEach(function (b) { b.setAttribute("aria-expanded", open ? "true" : "false"); });
  }
  function set(open, focusButton) {
    host.classList.toggle("table--tools-open", open);
    mark();
    var btn = host.querySelector("[data-fold]");
    if (!open && focusButton && btn) btn.focus();
  }
  host.addEventListener("click", function (event) {
    // "Lobby, matches and language": on a phone the site's bar is folded into the table's menu
    // (board.css); this item closes the table's tools and opens the site's menu over the page.
    if (event.target.closest("[data-site-menu]") && MT.siteMenu) {
      event.stopPropagation();  // the site menu's own "click outside" would close it again
      set(false);
      MT.siteMenu(true);
      return;
    }
    var fold = event.target.closest("[data-fold]");
    if (fold) { set(!host.classList.contains("table--tools-open")); return; }
    // a tool used (not the menus inside the list): the list folds again
    if (event.target.closest(".tbar__list .tool:not(summary), .tbar__list .tmenu__item")) set(false);
  });
  document.addEventListener("click", function (event) {
    if (host.classList.contains("table--tools-open") && !event.target.closest(".tbar__tools")) set(false);
  });
  // Escape closes the tools and does nothing else (a tip open beside them stays: tips.js).
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && host.classList.contains("table--tools-open")) {
      event.stopPropagation();
      event.preventDefault();
      set(false, true);
    }
  }, true);
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(mark);
})();

/* The disclosure menus (<details>): the account menu in the site's bar and the table's
 * "More" menu. Without script they open and close on their summary only; here Escape
 * closes the open one (and gives the focus back to its summary when it was inside), and a
 * click outside closes it, as a menu does. "What can I do?" does the same in cando.js. */
(function () {
  "use strict";
  var OPEN = "details.usermenu[open], details.tmenu[open]";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelectorAll(OPEN);
    if (!open.length) return;
    event.preventDefault(); // the key is used: a tip stays up (tips.js)
    open.forEach(function (menu) {
      var inside = menu.contains(document.activeElement);
      menu.open = false;
      if (inside) menu.querySelector("summary").focus();
    });
  });
  document.addEventListener("click", function (event) {
    document.querySelectorAll(OPEN).forEach(function (menu) {
      if (!menu.contains(event.target)) menu.open = false;
    });
  });
})();
