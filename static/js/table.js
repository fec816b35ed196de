/* The table's websocket client: keeps #board live (games/table/board.py documents the messages).
 *
 * Opens ws(s)://<host>/ws/m/<id>/ (+ ?watch=<token> for spectators). A "board" message
 * swaps #board's innerHTML whole (as the socket opens, on a sync, a new round); an "update" message
 * (games/board/parts.py) carries only the parts that changed since this page's version,
 * each whole or as line edits of the text this page holds for it: each is morphed in by id with idiomorph (static/vendor/idiomorph.min.js), so focus,
 * selection, scroll and open dialogs survive, and the board element's changed attributes are set.
 * An update that does not start from this page's version asks for a sync. Each played
 * tile slides from the hand (own move: from where hand.js shows it on its way) or from its
 * player's label to its train
 * (≤ 300 ms, none under prefers-reduced-motion); clicks keep working meanwhile.
 * Reconnects with exponential backoff (the server sends the current board as the socket
 * opens); asks for a sync when an ack announces a version no
 * board brought or when a request is refused because this page was behind (quietly: the
 * board it gets says what changed), and sends the table's commands. The browser applies no rule: what is
 * clickable comes from the server.
 * Loaded after hand.js, actions.js, relay.js, lazy.js and keys.js, which register on MT; panels.js,
 * sound.js and notify.js come on first use (lazy.js).
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
  /* A small "why?" link to the rule's anchor on the rules page (games/words/__init__.py rule_url). */
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
      say.classList.remove("hand__say--hint", "hand__say--why"); // hand.js marks a hint or a refusal after
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
    toastTimer = window.setTimeout(function () { toastEl.hidden = true; }, kind === "hint" || kind === "news" ? 6000 : 4500);
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
  /** A command that takes a version and a request id (undo, restart, play_again …) */
  MT.command = function (type) {
    var id = uuid();
    sent[id] = { type: type };
    return send({ type: type, version: version, request_id: id });
  };
  /** A command without a version (pace, skip): `message` gets its request id here. */
  MT.request = function (message) {
    var id = uuid();
    message.request_id = id;
    sent[id] = { type: message.type };
    return send(message);
  };
  /** accept | decline: the answer to another person's undo or restart request `ask` */
  MT.answer = function (type, ask) {
    var id = uuid();
    sent[id] = { type: type };
    return send({ type: type, ask: ask, request_id: id });
  };
  MT.hint = function (seat) { return send({ type: "hint", seat: seat }); };
  MT.panel = function (open) { return send({ type: "panel", open: !!open }); };
  /** "Draw and pass for me when I have no play": kept on the account; the next board shows it */
  MT.autodraw = function (on) { return send({ type: "autodraw", on: !!on }); };
  /** Whether the table's socket is open now (quiet renewals skip sending when it is not). */
  MT.online = function () { return !!ws && ws.readyState === WebSocket.OPEN; };
  MT.reveal = function (seat) { return send({ type: "reveal", seat: seat }); };
  MT.sync = function () { return send({ type: "sync" }); };
  /** Send a command of another part of the page (chat.js): `message` as it is. */
  MT.send = send;

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
    if (el.id && el.matches("select")) return "#" + CSS.escape(el.id); // a choice of its own
    var attrs = ["data-tile", "data-train", "data-act", "data-confirm-act", "data-cmd", "data-panel", "data-dialog", "data-sort", "data-reveal",
      "data-pace", "data-away-limit", "data-autodraw", "data-sound", "data-notify", "data-skip", "data-cando"];
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

  // An undo or restart request waits a minute for answers: its closing time is shown in this
  // device's time zone, and then the server closes it for every board (the computer worker);
  // should that notice be lost, the page asks for a board itself a little later.
  var askTimer = null;
  function askExpiry(b) {
    window.clearTimeout(askTimer);
    var ask = b.querySelector("[data-ask-expires]");
    if (!ask) return;
    var at = Date.parse(ask.dataset.askExpires);
    var clock = ask.querySelector("time[data-ask-time]");
    if (clock && !isNaN(at)) {
      clock.textContent = new Date(at).toLocaleTimeString(document.documentElement.lang || undefined,
        { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    }
    if (!isNaN(at)) askTimer = window.setTimeout(MT.sync, Math.max(0, at - Date.now()) + 2500);
  }


  /** A menu (<details>) by its first class: the board holds one of each ("details.tmenu"). */
  function menuKey(el) { return el.classList.length ? "details." + el.classList[0] : null; }

  /** What a board change must keep: focus, the open dialog and menus, the hand's state, the turn. */
  function keep() {
    var openDialog = host.querySelector("dialog[open]");
    var old = boardEl();
    return {
      focused: focusKey(document.activeElement),
      dialogId: openDialog ? openDialog.id : null,
      menus: Array.prototype.map.call(host.querySelectorAll("details[open]"), menuKey).filter(Boolean),
      hand: MT.hand && MT.hand.save ? MT.hand.save() : null,
      phase: old ? old.dataset.phase : null,
      yourTurn: old ? old.dataset.yourTurn : null
    };
  }

  // Each part's text as this page holds it: the last whole board's, or as the updates since
  // made it. An update sends a part whole, or as line edits of that text ("edits": {id:
  // [[start, end, text], …]}: lines start..end become text's lines; games/board/parts.py).
  var boardText = "";
  var texts = {};
  /** The element with id `id` in `html`, as text (parts are whole elements whose tags of one
   *  name nest properly; parts.py `_element` reads them the same way). */
  function elementText(html, id) {
    var start = new RegExp('<([a-z][a-z0-9]*)\\b[^>]*?\\sid="' + id.replace(/[^\w-]/g, "\\$&") + '"[^>]*>').exec(html);
    if (!start) return null;
    var tags = new RegExp("<" + start[1] + "\\b[^>]*>|</" + start[1] + ">", "g");
    tags.lastIndex = start.index;
    var depth = 0, tag;
    while ((tag = tags.exec(html))) {
      depth += tag[0].charAt(1) === "/" ? -1 : 1;
      if (depth === 0) return html.slice(start.index, tags.lastIndex);
    }
    return null;
  }
  function partText(id) {
    if (!Object.prototype.hasOwnProperty.call(texts, id)) texts[id] = elementText(boardText, id);
    return texts[id];
  }
  function applyEdits(text, edits) {
    var lines = text.split("\n");
    edits.slice().sort(function (a, b) { return b[0] - a[0]; }).forEach(function (e) {
      Array.prototype.splice.apply(lines, [e[0], e[1] - e[0]].concat(e.length > 2 ? e[2].split("\n") : []));
    });
    return lines.join("\n");
  }

  function swap(html, newVersion, title) {
    var kept = keep();
    var before = trainLengths();
    host.innerHTML = html;
    boardText = html;
    texts = {};
    version = newVersion;
    host.dataset.synced = String(newVersion); // the board in place came over the socket
    var b = boardEl();
    if (!b) return;
    settle(b, kept, title);
    // A train that grew: its newest tile slides in (a computer's move is followed by eye).
    var after = trainLengths();
    Object.keys(after).forEach(function (key) {
      if (before[key] !== undefined && before[key] !== after[key]) {
        var t = host.querySelector('.train[data-train="' + key + '"] .ttile--last');
        if (t) t.classList.add("ttile--arrive");
      }
    });
  }
  MT.swap = swap;

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  /** Where each played tile comes from, measured before the parts change: the tile in this
   *  page's hand (its own move), else its player's mark on their train or in the scores. */
  function origins(events) {
    var out = [];
    (events || []).forEach(function (e) {
      if (e.e !== "play" || !e.tile || e.train === null || e.train === undefined) return;
      var flying = MT.hand && MT.hand.flying ? MT.hand.flying(e.tile) : null; // shown on its way already
      if (flying) { out.push({ train: String(e.train), rect: flying }); return; }
      var from = host.querySelector('#hand [data-tile="' + e.tile + '"]') ||
        host.querySelector('.train[data-owner="' + e.seat + '"] .seatmark') ||
        host.querySelector('.scores__seat[data-seat="' + e.seat + '"] .seatmark');
      if (from) out.push({ train: String(e.train), rect: from.getBoundingClientRect() });
    });
    return out;
  }

  /** A copy of `el` laid exactly over `rect`, fixed above everything (a train's row clips its
   *  tiles), hidden from screen readers: what flies when a tile moves (here and hand.js). */
  MT.ghost = function (el, rect, cls) {
    var ghost = el.cloneNode(true);
    ghost.classList.add(cls);
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.left = rect.left + "px";
    ghost.style.top = rect.top + "px";
    ghost.style.width = rect.width + "px";
    ghost.style.height = rect.height + "px";
    document.body.appendChild(ghost);
    return ghost;
  };

  var SLIDE_MS = window.MT_SLIDE_MS || 260; // tests set a longer one
  /** Each played tile slides from where it came from to its place on the train. It moves
   *  by a transform only, so nothing else waits for it: the next click works meanwhile. */
  function slide(list) {
    if (reducedMotion()) return;
    list.forEach(function (x) {
      var t = host.querySelector('.train[data-train="' + x.train + '"] .ttile--last');
      if (!t || !t.animate) return;
      var to = t.getBoundingClientRect();
      var dx = x.rect.left + x.rect.width / 2 - (to.left + to.width / 2);
      var dy = x.rect.top + x.rect.height / 2 - (to.top + to.height / 2);
      // A copy flies above everything, the tile itself waits.
      var ghost = MT.ghost(t, to, "ttile--ghost");
      t.classList.add("ttile--moving");
      var run = ghost.animate([{ transform: "translate(" + dx + "px, " + dy + "px)" }, { transform: "none" }],
        { duration: SLIDE_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
      run.onfinish = run.oncancel = function () {
        t.classList.remove("ttile--moving");
        if (ghost.parentNode) ghost.parentNode.removeChild(ghost);
      };
    });
  }

  var MORPH = {
    morphStyle: "outerHTML",
    callbacks: {
      // An open dialog or menu stays open (and a closed one closed): the server's HTML never
      // says "open", and what a person opened is theirs to close.
      beforeAttributeUpdated: function (name, el) {
        return !(name === "open" && (el.tagName === "DIALOG" || el.tagName === "DETAILS"));
      }
    }
  };

  /** An update frame: morph its parts in by id, set the board's attributes, animate. */
  function update(msg) {
    var b = boardEl();
    if (!b || msg.base !== version || !window.Idiomorph) { // a gap: this page missed a frame
      MT.sync();
      return;
    }
    var kept = keep();
    var from = origins(msg.events);
    var missing = false;
    var html = {};
    Object.keys(msg.parts || {}).forEach(function (id) { html[id] = msg.parts[id]; });
    Object.keys(msg.edits || {}).forEach(function (id) {
      var text = partText(id);
      if (text === null) missing = true;
      else html[id] = applyEdits(text, msg.edits[id]);
    });
    Object.keys(html).forEach(function (id) {
      texts[id] = html[id];
      var el = document.getElementById(id);
      if (!el || !b.contains(el)) { missing = true; return; }
      window.Idiomorph.morph(el, html[id], MORPH);
    });
    if (msg.board) { // the attributes that changed (null: removed)
      Object.keys(msg.board).forEach(function (name) {
        var value = msg.board[name];
        if (value === null) b.removeAttribute(name);
        else if (b.getAttribute(name) !== value) b.setAttribute(name, value);
      });
    }
    version = msg.v;
    host.dataset.synced = String(version);
    if (missing) { MT.sync(); return; }
    settle(b, kept);
    slide(from);
  }
  MT.update = update;

  /** After the board changed (swapped or morphed): what the page keeps and says. */
  function settle(b, kept, title) {
    var focused = kept.focused, dialogId = kept.dialogId;
    askExpiry(b);
    if (MT.hand && MT.hand.restore) MT.hand.restore(kept.hand);
    (MT.afterSwap || []).forEach(function (fn) { fn(b); });
    if (dialogId) {
      var again = document.getElementById(dialogId);
      if (again && again.showModal && !again.open) again.showModal();
    }
    (kept.menus || []).forEach(function (key) { // a whole new board: its menus open again
      var menu = host.querySelector(key);
      if (menu && !menu.open) menu.open = true;
    });
    if (focused && !b.querySelector(".cover")) { // under the relay cover, relay.js holds the focus
      var target = host.querySelector(focused);
      if (target && target.focus) target.focus({ preventScroll: true });
      else if (focused.indexOf("data-tile") >= 0 && MT.focusHand) MT.focusHand(); // that tile was played
      else if (focused.indexOf("data-train") >= 0 && MT.focusTrains) MT.focusTrains();
    }
    if (kept.phase !== null && kept.phase !== b.dataset.phase) countUp(b);
    var words = [b.dataset.lastEvent, b.dataset.status].filter(Boolean).join(". ");
    if (words && words !== lastSaid) {
      lastSaid = words;
      live.textContent = words;
    }
    turnSignals(b, title);
    if (b.dataset.yourTurn === "true" && kept.yourTurn !== "true" && MT.notifyTurn) MT.notifyTurn(b);
  }

  /** Your turn shows in the tab: "● " before the title and the favicon with its dot
   *  (static/img/favicon-turn.svg); both go back once the turn has passed. The title is
   *  `given` (a board message's own title) when there is one, else the board's data-title. */
  var icon = document.getElementById("favicon");
  var plainIcon = icon ? icon.getAttribute("href") : null;
  function turnSignals(b, given) {
    if (!b) return;
    var yours = b.dataset.yourTurn === "true";
    var title = given || b.dataset.title || document.title.replace(/^● /, "");
    document.title = yours ? "● " + title : title;
    if (icon && icon.dataset.turnHref) icon.setAttribute("href", yours ? icon.dataset.turnHref : plainIcon);
  }

  /** The top bar stays one row if it can (board.css). When its facts would be cut short (long
   *  words in es/de, a badge showing), the tools drop their words first (tbar--tight), then
   *  Undo its words too (tbar--tighter), then the pace badge goes; if whose turn it is would
   *  still be cut, the tools take a second row (tbar--wrap). Measured with the words shown, in the
   *  same frame, so nothing flickers. On a phone the tools are folded away: nothing to drop. */
  function fitTopbar() {
    var bar = host.querySelector(".tbar");
    var facts = bar && bar.querySelector(".tbar__facts");
    if (!facts) return;
    // whose turn it is ("Your turn" or another's, the one shown) and the name in it
    var words = bar.querySelectorAll(".tbar__status, .tbar__status .pname");
    function clipped(el) { return el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1; }
    function cut() {
      return facts.scrollWidth > facts.clientWidth + 1 || Array.prototype.some.call(words, clipped) ||
        Array.prototype.some.call(facts.querySelectorAll(".badge"), function (el) { return el.scrollWidth > el.clientWidth + 1; });
    }
    bar.classList.remove("tbar--tight", "tbar--tighter", "tbar--no-pace", "tbar--wrap");
    if (window.matchMedia && window.matchMedia("(max-width: 640px)").matches) return;
    if (cut()) bar.classList.add("tbar--tight");
    if (cut()) bar.classList.add("tbar--tighter");
    // Still no room: the pace badge goes rather than show cut (it is in the table's menu too),
    // and only then do the tools move to a row of their own.
    if (cut()) bar.classList.add("tbar--no-pace");
    if (cut()) bar.classList.add("tbar--wrap");
  }
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(fitTopbar);
  var fitFrame = 0;
  window.addEventListener("resize", function () {
    window.cancelAnimationFrame(fitFrame);
    fitFrame = window.requestAnimationFrame(fitTopbar);
  });
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitTopbar);

  /** A restart of the round (R28) is told on every page, once, in the reader's words: the
   *  hands go back to their deal, and nobody should wonder why. The board carries the
   *  round's latest restart (data-restarted); a page opened after it says nothing. */
  var restartSeen = null;
  function tellRestart(b) {
    if (!b) return;
    var key = b.dataset.restarted || "";
    if (restartSeen !== null && key && key !== restartSeen && b.dataset.restartedText) {
      MT.toast(b.dataset.restartedText, "news");
    }
    restartSeen = key;
  }
  MT.afterSwap.push(tellRestart);

  /** A link the board marks a[data-follow] is followed as soon as it appears (once the new match
   *  after "Play again" is made, the page of everyone who chose it goes there, R29); a page
   *  opened with the link already there stays, so the old match's result can still be read. */
  var goSeen = null;
  function follow(b) {
    var go = b ? b.querySelector("a[data-follow]") : null;
    var href = go ? go.getAttribute("href") : "";
    if (goSeen === false && href && href.charAt(0) === "/") window.location.assign(href);
    goSeen = !!href;
  }
  MT.afterSwap.push(follow);

  /** R21: at the end of a round each penalty counts up from zero (once, when the round ends). */
  function countUp(b) {
    if (b.dataset.phase !== "round_over" && b.dataset.phase !== "match_over") return;
    if (reducedMotion()) return;
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

  // ------------------------------------------------------------ catching up
  /* A request refused because this page was behind the table: the page asks for the board and
   * says nothing while it comes (the board shows what changed); only when no board comes
   * does the refusal's message ("refresh the page") show. */
  var behindTimer = 0;
  var BEHIND_MS = 4000;
  function resync(message) {
    window.clearTimeout(behindTimer);
    if (!MT.sync()) return; // offline: that is what the page says
    behindTimer = window.setTimeout(function () { MT.toast(message || S.error, "error"); }, BEHIND_MS);
  }

  // ------------------------------------------------------------ receiving
  function onMessage(event) {
    var msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    if (msg.type === "board") {
      window.clearTimeout(syncTimer);
      window.clearTimeout(behindTimer);
      if (typeof msg.version === "number" && msg.version < version) return; // an older board, overtaken
      swap(msg.html, msg.version, msg.title); // the message's title, when it has one, over the board's
    } else if (msg.type === "update") {
      window.clearTimeout(syncTimer);
      if (typeof msg.v === "number" && msg.v < version) return; // overtaken
      update(msg);
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
      var behind = msg.code === "stale"; // this page had not seen the table's last change
      if (behind) resync(msg.message);
      else MT.toast(msg.message || S.error, "error", msg.why_url);
      // A refused play puts its tile back; so does a refused Confirm engine that was to lay one.
      if (asked && asked.type === "act" && asked.action && (asked.action.tile || asked.action.act === "engine") && MT.hand) {
        MT.hand.refused(asked.action.tile || null, msg.message, msg.why_url, behind);
      }
      if (msg.code === "not_your_turn") MT.sync();
    } else if (msg.type === "hint") {
      if (MT.hand) MT.hand.showHint(msg);
    } else if (msg.type === "log") {
      var body = document.getElementById("log-body");
      if (body) body.innerHTML = msg.html;
    } else if (MT.frames && Object.prototype.hasOwnProperty.call(MT.frames, msg.type)) {
      MT.frames[msg.type](msg); // a frame of another part of the page (chat.js: "chat"), never the board
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
      // No "sync": the server sends the current board as the socket opens, whatever
      // happened meanwhile (games/table/consumers.py).
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
