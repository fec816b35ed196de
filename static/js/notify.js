/* An optional browser notification when your turn comes while this tab is hidden
 * (table-ux.md "Your turn"). Off until the player turns it on in the table's menu
 * ("Notify me on my turn"), which asks the browser's permission; the choice is kept
 * in this browser (localStorage). The tab's title and favicon say it anyway (table.js).
 */
(function () {
  "use strict";
  var MT = window.MT = window.MT || {};
  var S = MT.strings || {};
  var KEY = "mt-turn-notify";
  var host = document.getElementById("board");
  if (!host) return;
  var supported = "Notification" in window;
  var on = false;
  try { on = window.localStorage.getItem(KEY) === "on"; } catch (e) { /* private mode: off */ }
  function remember(value) {
    on = value;
    try { window.localStorage.setItem(KEY, value ? "on" : "off"); } catch (e) { /* this page only */ }
  }
  function mark() {
    host.querySelectorAll("[data-notify]").forEach(function (btn) {
      btn.hidden = !supported;
      btn.setAttribute("aria-pressed", on && supported && Notification.permission === "granted" ? "true" : "false");
    });
  }

  MT.notifyTurn = function (b) {
    if (!on || !supported || !document.hidden || Notification.permission !== "granted") return;
    var icon = document.getElementById("favicon");
    try {
      var note = new Notification(S.your_turn || "", {
        body: (b && b.dataset.status) || "",
        icon: icon ? icon.dataset.turnHref : undefined,
        tag: "mt-turn",
      });
      note.onclick = function () { window.focus(); note.close(); };
    } catch (e) { /* some browsers allow notifications only from a service worker */ }
  };

  host.addEventListener("click", function (event) {
    var btn = event.target.closest("[data-notify]");
    if (!btn || !host.contains(btn) || !supported) return;
    if (on) {
      remember(false);
      mark();
      if (MT.say) MT.say(S.notify_off);
      return;
    }
    Promise.resolve(Notification.requestPermission()).then(function (answer) {
      remember(answer === "granted");
      mark();
      if (MT.say) MT.say(answer === "granted" ? S.notify_on : S.notify_denied);
    });
  });

  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(mark);
  mark(); // loaded on first use (lazy.js): the board as it is now
})();
