/* The table page's flash messages ("Match 7 has started", from django.contrib.messages in
 * templates/base.html): on the table they float over the top (board.css), so they take no
 * room and their going makes nothing jump. Each gets a close button (a real button: Tab
 * and Enter reach it); information fades after a few seconds unless the pointer or the
 * focus is on it, errors stay until closed.
 */
(function () {
  "use strict";
  var list = document.querySelector(".page--table .messages");
  if (!list) return;
  var stringsEl = document.getElementById("board-strings");
  var S = stringsEl ? JSON.parse(stringsEl.textContent) : {};
  var LINGER = 6000;
  var CLOSE_ICON = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="m6.4 5 5.6 5.6L17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4 6.4 5Z"/></svg>';

  function close(item) {
    var hadFocus = item.contains(document.activeElement);
    item.classList.add("message--gone");
    window.setTimeout(function () {
      item.remove();
      if (!list.querySelector(".message")) list.hidden = true;
      if (hadFocus) {
        var main = document.getElementById("main");
        if (main) main.focus({ preventScroll: true });
      }
    }, 250);
  }

  list.querySelectorAll(".message").forEach(function (item) {
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = "message__close";
    btn.setAttribute("aria-label", S.close_message || "×");
    btn.title = S.close_message || "";
    btn.innerHTML = CLOSE_ICON;
    btn.addEventListener("click", function () { close(item); });
    item.appendChild(btn);
    if (item.classList.contains("message--error")) return;
    var timer = null;
    function later() { window.clearTimeout(timer); timer = window.setTimeout(function () { close(item); }, LINGER); }
    function hold() { window.clearTimeout(timer); }
    item.addEventListener("mouseenter", hold);
    item.addEventListener("focusin", hold);
    item.addEventListener("mouseleave", function () { if (!item.contains(document.activeElement)) later(); });
    item.addEventListener("focusout", function () { if (!item.matches(":hover")) later(); });
    later();
  });
})();
