/* The table's websocket client: keeps #board live (games/board.py documents the messages).
 *
 * Opens ws(s)://<host>/ws/m/<id>/ (+ ?watch=<token> for spectators), swaps #board's
 * innerHTML on each "board" message (keeping focus, selection, open dialogs and the
 * hand's sort, so nothing jumps), resyncs after a reconnect (exponential backoff)
 * or when an ack announces a version no board brought, and sends the table's
 * commands. The browser applies no rule: what is clickable comes from the server.
 * Loaded last: hand.js, actions.js, relay.js, panels.js and keys.js register on MT.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var table = document.getElementById("table");
  var host = document.getElementById("board");
  if (!table || !host) return;

  var S = MT.strings;
  var conn = document.getElementById("conn");
  var live = document.getElementById("live");
  var toastEl = document.getElementById("toast");
  var ws = null;
  var retries = 0;
  var retryTimer = null;
  var syncTimer = null;
  var toastTimer = null;
  var version = readVersion();
  var lastSaid = "";
  var sent = {}; // request_id -> what was asked (to react to its error)

  function boardEl() { return host.querySelector(".board"); }
  function readVersion() {
    var b = boardEl();
    return b ? parseInt(b.dataset.version, 10) || 0 : 0;
  }
  MT.board = boardEl;
  MT.version = function () { return version; };

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // ------------------------------------------------------------ saying things
  /* A small "why?" link to the rule's anchor on the rules page (games/words.py rule_url). */
  function whyLink(url) {
    var a = document.createElement("a");
    a.className = "why";
    a.href = url;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = S.why || "?";
    return a;
  }
  MT.say = function (text, whyUrl) {
    if (!text) return;
    var say = document.getElementById("hand-say");
    if (say) {
      say.textContent = text;
      if (whyUrl) { say.appendChild(document.createTextNode(" ")); say.appendChild(whyLink(whyUrl)); }
      say.classList.remove("hand__say--hint"); // hand.js marks a hint after
    }
    // Re-set the live region so that the same words are announced again.
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 30);
  };
  MT.toast = function (text, kind, whyUrl) {
    if (!text) return;
    toastEl.textContent = text;
    if (whyUrl) { toastEl.appendChild(document.createTextNode(" ")); toastEl.appendChild(whyLink(whyUrl)); }
    toastEl.className = "toast" + (kind ? " toast--" + kind : "");
    toastEl.hidden = false;
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(function () { toastEl.hidden = true; }, kind === "hint" ? 6000 : 4500);
  };

  // ------------------------------------------------------------ sending
  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(message));
      return true;
    }
    MT.toast(S.offline);
    return false;
  }
  /** A game action in the replay format, for `seat` (R30: one click or key). */
  MT.act = function (seat, action) {
    var id = uuid();
    sent[id] = { type: "act", action: action };
    return send({ type: "act", seat: seat, action: action, version: version, request_id: id });
  };
  /** undo | redo | restart | next_round | new_match */
  MT.command = function (type) {
    var id = uuid();
    sent[id] = { type: type };
    return send({ type: type, version: version, request_id: id });
  };
  MT.hint = function (seat) { return send({ type: "hint", seat: seat }); };
  MT.panel = function (open) { return send({ type: "panel", open: !!open }); };
  MT.reveal = function (seat) { return send({ type: "reveal", seat: seat }); };
  MT.sync = function () { return send({ type: "sync" }); };

  // Now and then (and when the tab comes back into view) the page asks whether the table
  // moved on without telling it: a notice lost on an overloaded channel layer then costs
  // seconds, not the rest of the game. The server answers only with a board it missed.
  var CHECK_MS = window.MT_CHECK_MS || 20000; // tests set a shorter one
  function check() { // quietly: no "offline" toast while reconnecting
    if (ws && ws.readyState === WebSocket.OPEN && !document.hidden) send({ type: "check" });
  }
  window.setInterval(check, CHECK_MS);

  // ------------------------------------------------------------ swapping the board
  function focusKey(el) {
    if (!el || !host.contains(el)) return null;
    var attrs = ["data-tile", "data-train", "data-act", "data-confirm-act", "data-cmd", "data-panel", "data-dialog", "data-sort", "data-reveal"];
    for (var i = 0; i < attrs.length; i++) {
      var holder = el.closest("[" + attrs[i] + "]");
      if (holder && host.contains(holder)) return "[" + attrs[i] + '="' + holder.getAttribute(attrs[i]) + '"]';
    }
    return null;
  }
  function trainLengths() {
    var out = {};
    host.querySelectorAll(".train").forEach(function (t) {
      out[t.dataset.train] = t.querySelectorAll(".ttile").length + "|" + (t.querySelector(".fold--wide") || { textContent: "" }).textContent;
    });
    return out;
  }

  function swap(html, newVersion) {
    var focused = focusKey(document.activeElement);
    var openDialog = host.querySelector("dialog[open]");
    var dialogId = openDialog ? openDialog.id : null;
    var before = trainLengths();
    var state = MT.hand && MT.hand.save ? MT.hand.save() : null;
    var old = boardEl();
    var oldTurn = old ? old.dataset.yourTurn : null;

    host.innerHTML = html;
    version = newVersion;
    var b = boardEl();
    if (!b) return;
    document.title = b.dataset.title || document.title;

    if (MT.hand && MT.hand.restore) MT.hand.restore(state);
    (MT.afterSwap || []).forEach(function (fn) { fn(b); });

    // A train that grew: its newest tile slides in (a computer's move is followed by eye).
    var after = trainLengths();
    Object.keys(after).forEach(function (key) {
      if (before[key] !== undefined && before[key] !== after[key]) {
        var t = host.querySelector('.train[data-train="' + key + '"] .ttile--last');
        if (t) t.classList.add("ttile--arrive");
      }
    });
    if (dialogId) {
      var again = document.getElementById(dialogId);
      if (again && again.showModal && !again.open) again.showModal();
    }
    if (focused && !b.querySelector(".cover")) { // under the relay cover, relay.js holds the focus
      var target = host.querySelector(focused);
      if (target && target.focus) target.focus({ preventScroll: true });
      else if (focused.indexOf("data-tile") >= 0 && MT.focusHand) MT.focusHand(); // that tile was played
      else if (focused.indexOf("data-train") >= 0 && MT.focusTrains) MT.focusTrains();
    }
    if (old && old.dataset.phase !== b.dataset.phase) countUp(b);
    var words = [b.dataset.lastEvent, b.dataset.status].filter(Boolean).join(". ");
    if (words && words !== lastSaid) {
      lastSaid = words;
      live.textContent = words;
    }
    turnSignals(b);
    if (b.dataset.yourTurn === "true" && oldTurn !== "true" && MT.notifyTurn) MT.notifyTurn(b);
  }
  MT.swap = swap;

  /** Your turn shows in the tab: "● " before the title and the favicon with its dot
   *  (static/img/favicon-turn.svg); both go back once the turn has passed. */
  var icon = document.getElementById("favicon");
  var plainIcon = icon ? icon.getAttribute("href") : null;
  function turnSignals(b, given) {
    if (!b) return;
    var yours = b.dataset.yourTurn === "true";
    var title = given || b.dataset.title || document.title.replace(/^● /, "");
    document.title = yours ? "● " + title : title;
    if (icon && icon.dataset.turnHref) icon.setAttribute("href", yours ? icon.dataset.turnHref : plainIcon);
  }

  /** The top bar stays one row (board.css). When the whose-turn words would be cut short
   *  (long words in es/de, the paused badge showing), the tools drop their words first:
   *  measured with the words shown, in the same frame, so nothing flickers. */
  function fitTopbar() {
    var bar = host.querySelector(".tbar");
    var status = bar && bar.querySelector(".tbar__status");
    if (!status) return;
    bar.classList.remove("tbar--tight");
    if (status.scrollWidth > status.clientWidth + 1) bar.classList.add("tbar--tight");
  }
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(fitTopbar);
  var fitFrame = 0;
  window.addEventListener("resize", function () {
    window.cancelAnimationFrame(fitFrame);
    fitFrame = window.requestAnimationFrame(fitTopbar);
  });
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitTopbar);

  /** R21: at the end of a round each penalty counts up from zero (once, when the round ends). */
  function countUp(b) {
    if (b.dataset.phase !== "round_over" && b.dataset.phase !== "match_over") return;
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    var cells = b.querySelectorAll("[data-count-up]");
    var start = null;
    function frame(now) {
      if (start === null) start = now;
      var k = Math.min(1, (now - start) / 700);
      cells.forEach(function (el) {
        var target = parseInt(el.dataset.countUp, 10) || 0;
        var text = el.textContent;
        el.textContent = text.replace(/\d+/, String(Math.round(target * k)));
      });
      if (k < 1) window.requestAnimationFrame(frame);
    }
    window.requestAnimationFrame(frame);
  }

  // ------------------------------------------------------------ receiving
  function onMessage(event) {
    var msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    if (msg.type === "board") {
      window.clearTimeout(syncTimer);
      if (typeof msg.version === "number" && msg.version < version) return; // an older board, overtaken
      swap(msg.html, msg.version);
      if (msg.title) turnSignals(boardEl(), msg.title);
    } else if (msg.type === "ack") {
      delete sent[msg.request_id];
      if (typeof msg.version === "number" && msg.version > version) {
        // The change is made; its board should follow. If it does not, ask for it.
        window.clearTimeout(syncTimer);
        syncTimer = window.setTimeout(MT.sync, 1500);
      }
    } else if (msg.type === "error") {
      var asked = sent[msg.request_id];
      delete sent[msg.request_id];
      MT.toast(msg.message || S.error, "error", msg.why_url);
      if (asked && asked.type === "act" && asked.action && asked.action.tile && MT.hand) {
        MT.hand.refused(asked.action.tile, msg.message, msg.why_url);
      }
      if (msg.code === "stale" || msg.code === "not_your_turn") MT.sync();
    } else if (msg.type === "hint") {
      if (MT.hand) MT.hand.showHint(msg);
    } else if (msg.type === "redirect") {
      // R29: the new match at this table has its own page.
      if (msg.url && msg.url.charAt(0) === "/") window.location.assign(msg.url);
    } else if (msg.type === "log") {
      var body = document.getElementById("log-body");
      if (body) body.innerHTML = msg.html;
    }
  }

  // ------------------------------------------------------------ connecting
  function url() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var u = scheme + window.location.host + table.dataset.wsPath;
    if (table.dataset.watch) u += "?watch=" + encodeURIComponent(table.dataset.watch);
    return u;
  }
  function status(text) {
    if (!conn) return;
    conn.textContent = text || "";
    conn.hidden = !text;
  }
  function connect() {
    window.clearTimeout(retryTimer);
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
    if (!("WebSocket" in window)) return;
    try {
      ws = new WebSocket(url());
    } catch (e) {
      later();
      return;
    }
    ws.onopen = function () {
      var wasRetrying = retries > 0;
      retries = 0;
      status("");
      if (wasRetrying) MT.say(S.connected);
      MT.sync(); // whatever happened meanwhile: a fresh board
      (MT.onConnect || []).forEach(function (fn) { fn(); });
    };
    ws.onmessage = onMessage;
    ws.onclose = function (event) {
      if (event && event.code === 4403) { // not allowed to watch this table: do not knock again
        ws = null;
        status(S.refused);
        return;
      }
      later();
    };
    ws.onerror = function () { /* onclose follows */ };
  }
  function later() {
    ws = null;
    status(S.reconnecting);
    // 0.5 s, 1 s, 2 s … up to 15 s, with jitter so a restarted server is not stormed.
    var delay = Math.min(15000, 500 * Math.pow(2, retries)) * (0.8 + Math.random() * 0.4);
    retries += 1;
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(connect, delay);
  }
  window.addEventListener("online", connect);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      if (!ws) connect();
      else check();
      turnSignals(boardEl());
    }
  });

  (MT.afterSwap || []).forEach(function (fn) { fn(boardEl()); });
  turnSignals(boardEl());
  if (MT.hand && MT.hand.restore) MT.hand.restore(null);
  connect();
})();
