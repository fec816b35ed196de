/* Scripts of the table that only a click, or a choice this browser remembers, needs: loaded
 * on first use instead of with the page (the table's first load).
 *
 *   panels.js  the log and rules drawers ([data-panel], [data-close-panel]; L and ? press them)
 *   sound.js   "Sound on your turn" ([data-sound]); at once when it is on (localStorage)
 *   notify.js  "Notify me on my turn" ([data-notify]); at once when it is on, or when this
 *              browser has no notifications (the script then hides the menu item)
 *
 * #table's data-lazy-<name> holds each one's address (templates/games/table.html: the
 * minified, hashed file in production). A click on what such a script handles, made before
 * it has run, is held here (capture phase, so no other handler sees it), the script is
 * loaded, and the same element (or, if a whole new board came meanwhile, its button of the
 * same kind) is clicked again: mouse, touch and the keyboard shortcuts
 * (keys.js clicks the button) work as before, the first time a few milliseconds later.
 * Each of those scripts looks at the board once when it starts, as it would have at load.
 * MT.lazy(name) loads one (once) and gives a promise of it having run.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var table = document.getElementById("table");
  if (!table) return;
  var loading = {};
  var ran = {};

  MT.lazy = function (name) {
    if (!loading[name]) {
      loading[name] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = table.getAttribute("data-lazy-" + name);
        script.onload = function () { ran[name] = true; resolve(); };
        script.onerror = function () {
          delete loading[name]; // offline: the next click tries again
          script.remove();
          reject(new Error(name));
        };
        document.head.appendChild(script);
      });
    }
    return loading[name];
  };

  // what each script handles -> the script
  var CLICKS = [
    ["[data-panel], [data-close-panel]", "panels"],
    ["[data-sound]", "sound"],
    ["[data-notify]", "notify"]
  ];
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    for (var i = 0; i < CLICKS.length; i++) {
      var name = CLICKS[i][1];
      var el = ran[name] ? null : target.closest(CLICKS[i][0]);
      if (!el || !table.contains(el)) continue;
      event.preventDefault(); // the rules link is the no-script fallback
      event.stopImmediatePropagation();
      // a whole new board may come meanwhile (a connect, a resync): then its button of the same kind
      var same = el.hasAttribute("data-panel") ? '[data-panel="' + el.getAttribute("data-panel") + '"]' : CLICKS[i][0];
      MT.lazy(name).then(function () {
        var again = el.isConnected ? el : table.querySelector(same);
        if (again) again.click();
      }, function () {
        if (MT.toast && MT.strings) MT.toast(MT.strings.offline);
      });
      return;
    }
  }, true);

  function on(key) {
    try { return window.localStorage.getItem(key) === "on"; } catch (e) { return false; } // private mode: off
  }
  function quiet() { /* not loaded (offline): its menu item loads it when clicked */ }
  if (on("mt-turn-sound")) MT.lazy("sound").catch(quiet);
  if (on("mt-turn-notify") || !("Notification" in window)) MT.lazy("notify").catch(quiet);
})();
