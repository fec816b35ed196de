/* The log and rules drawers. Opening either tells the server, which pauses the
 * computer players while it is open (R26); closing resumes them. While a drawer is
 * open the page says so again every RENEW_MS: a pause nobody renews for 30 s has
 * expired (its page or server is gone), so computers never wait on a lost phone or a
 * crashed server for long. One drawer at a
 * time; Esc or the close button shuts it and gives focus back to its button.
 * The log is fetched from /m/<id>/log/ when its drawer opens and refreshed after each
 * new board (or replaced by a pushed {"type": "log"} message, see table.js). The rules
 * are fetched (in the page's language) the first time their drawer opens: the page
 * carries only a link to the rules page, which stays if the fetch fails.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var table = document.getElementById("table");
  if (!table) return;
  var openName = null;

  var logTimer = null;
  var renewTimer = null;
  var RENEW_MS = window.MT_PAUSE_RENEW_MS || 10000; // games.reads.selectors.PAUSE_RENEW; tests set a shorter one

  /** Keep this page's pause alive while a drawer is open (quietly: no "offline" toast). */
  function renewing(on) {
    window.clearInterval(renewTimer);
    renewTimer = null;
    if (!on) return;
    renewTimer = window.setInterval(function () {
      if (openName && MT.panel && MT.online && MT.online()) MT.panel(true);
    }, RENEW_MS);
  }

  function panel(name) { return document.getElementById(name + "-panel"); }
  /** The log's latest words (fetched rather than pushed: only while someone reads it). */
  function refreshLog() {
    var url = table.dataset.logUrl;
    var body = document.getElementById("log-body");
    if (!url || !body || !window.fetch) return;
    if (table.dataset.watch) url += "?watch=" + encodeURIComponent(table.dataset.watch);
    window.fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) body.innerHTML = html; })
      .catch(function () { /* offline: the log stays as it was */ });
  }
  /** The rules' text, once (the same for every table; the browser may cache it). */
  function loadRules() {
    var body = document.getElementById("rules-body");
    if (!body || !body.dataset.src || body.dataset.loaded || !window.fetch) return;
    body.dataset.loaded = "1";
    body.setAttribute("aria-busy", "true");
    window.fetch(body.dataset.src, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        body.removeAttribute("aria-busy");
        if (html === null) { delete body.dataset.loaded; return; }
        body.innerHTML = html;
      })
      .catch(function () { body.removeAttribute("aria-busy"); delete body.dataset.loaded; }); // offline: the link stays
  }
  function buttons(name) { return document.querySelectorAll('[data-panel="' + name + '"]'); }
  function mark() {
    ["log", "rules"].forEach(function (name) {
      buttons(name).forEach(function (b) { b.setAttribute("aria-expanded", openName === name ? "true" : "false"); });
    });
  }
  function close(refocus) {
    if (!openName) return;
    var name = openName;
    panel(name).hidden = true;
    openName = null;
    mark();
    renewing(false);
    if (MT.panel) MT.panel(false);
    if (refocus) {
      var b = buttons(name)[0];
      if (b) b.focus();
    }
  }
  function open(name) {
    if (openName === name) { close(true); return; }
    if (openName) { panel(openName).hidden = true; }
    var p = panel(name);
    if (!p) return;
    var wasOpen = !!openName;
    openName = name;
    p.hidden = false;
    mark();
    if (!wasOpen && MT.panel) MT.panel(true);
    if (!wasOpen) renewing(true);
    if (name === "log") refreshLog();
    if (name === "rules") loadRules();
    var heading = p.querySelector("h2");
    if (heading) { heading.tabIndex = -1; heading.focus(); }
  }
  MT.togglePanel = open;
  MT.closePanel = close;

  table.addEventListener("click", function (event) {
    var b = event.target.closest("[data-panel]");
    if (b) {
      event.preventDefault(); // the rules link is the no-script fallback
      open(b.dataset.panel);
      return;
    }
    if (event.target.closest("[data-close-panel]")) close(true);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && openName && !document.querySelector("dialog[open]")) close(true);
  });
  // Reconnected while a drawer is open: the server forgot the pause with the old connection.
  MT.onConnect = MT.onConnect || [];
  MT.onConnect.push(function () { if (openName && MT.panel) MT.panel(true); });
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(mark);
  MT.afterSwap.push(function () {
    if (openName !== "log") return;
    window.clearTimeout(logTimer);
    logTimer = window.setTimeout(refreshLog, 250);
  });
  mark(); // loaded on first use (lazy.js): the board as it is now
})();
