/* Table talk (games/chat): the chat panel of the table page, on the table's websocket.
 *
 * It never touches #board: its frames are {"type": "chat", "event": …} (games/chat/live.py),
 * handed over by table.js (MT.frames.chat). On each (re)connect the page asks ("chat_join"),
 * and the "history" frame fills the panel:
 * the lines of the rooms this reader reads, whether the chat is on, what this reader may
 * do, the phrase menu in the reader's language. A phrase or reaction is sent as its code
 * ("chat_say"); each reader's page shows it in their own language. Free text ("chat_text")
 * is set as text inside <bdi>, never as HTML, so a link or a tag stays words.
 * The button shows how many lines came while the panel was closed; C or the button opens
 * it (focus goes to the title, Esc closes it and gives focus back). New lines are read out
 * by the list's aria-live while open.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var panel = document.getElementById("chat-panel");
  var toggle = document.getElementById("chat-toggle");
  if (!panel || !toggle) return;
  var table = document.getElementById("table");
  var list = document.getElementById("chat-lines");
  var unreadEl = document.getElementById("chat-unread");
  var form = document.getElementById("chat-form");
  var input = document.getElementById("chat-text");
  var statusEl = document.getElementById("chat-status");
  var roomsEl = document.getElementById("chat-rooms");
  var D = panel.dataset;
  // The button goes into the site's top bar, after the brand (before the phone's menu button):
  // outside the board, it covers none of it on any screen.
  // On a phone the table folds the site's top bar away (one menu button, the table's): the
  // button then stands in the table's own top bar, before its menu button, so the table's top
  // stays one row; after the board is swapped or morphed it is put back there.
  var bar = document.querySelector(".topbar__inner");
  function place() {
    var top = bar && bar.closest(".topbar");
    var tbar = document.querySelector("#board .tbar");
    if (top && getComputedStyle(top).display !== "none") {
      if (toggle.parentNode !== bar) bar.insertBefore(toggle, bar.querySelector(".menubtn"));
      toggle.classList.remove("chat-toggle--bar");
    } else if (tbar && toggle.parentNode !== tbar) {
      tbar.insertBefore(toggle, tbar.querySelector("#tools"));
      toggle.classList.add("chat-toggle--bar");
    }
  }
  place();
  window.addEventListener("resize", place);
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(place);

  var state = { own: "players", shown: "players", rooms: {}, may: {}, on: true, unread: 0, built: false };
  var MAX_LINES = 200;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; });
  }
  function uuid() { return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10); }
  function send(message) { return MT.send ? MT.send(message) : false; }
  function say(text) { statusEl.textContent = text || ""; }

  // ------------------------------------------------------------ reactions, drawn
  /** A reaction's drawing (templates/games/_chat.html: "reaction-" and its symbol's first code
   *  point in hex), so that it reads without an emoji font; null for any other text. */
  var SVG = "http://www.w3.org/2000/svg";
  function drawn(symbol) {
    var id = "reaction-" + (symbol.codePointAt(0) || 0).toString(16);
    if (!symbol || !document.getElementById(id)) return null;
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "chat__icon");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#" + id);
    svg.appendChild(use);
    return svg;
  }

  // ------------------------------------------------------------ lines
  function lineEl(line) {
    var li = document.createElement("li");
    li.className = "chat__line" + (line.mine ? " chat__line--mine" : "") + (line.free ? "" : " chat__line--phrase");
    li.dataset.id = line.id;
    li.dataset.room = line.room;
    var name = document.createElement("bdi");
    name.className = "chat__name";
    name.textContent = line.name;
    var text = document.createElement("bdi");
    text.className = "chat__text";
    text.textContent = line.text; // always text: never markup, never a link
    if (line.label) {
      text.setAttribute("role", "img"); text.setAttribute("aria-label", line.label); text.title = line.label;
      var icon = drawn(line.text);
      if (icon) { text.textContent = ""; text.appendChild(icon); }
    }
    li.appendChild(name);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(text);
    if (!line.mine && state.may.report) {
      var tools = document.createElement("span");
      tools.className = "chat__tools";
      tools.appendChild(tool(D.mute, fill(D.muteLabel, { name: line.name }), "chat_mute", line.id));
      tools.appendChild(tool(D.report, D.reportLabel, "chat_report", line.id));
      li.appendChild(tools);
    }
    return li;
  }
  function tool(words, label, type, id) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "chat__tool";
    b.textContent = words;
    b.setAttribute("aria-label", label);
    b.title = label;
    b.addEventListener("click", function () { send({ type: type, ref: id }); });
    return b;
  }
  function render() {
    list.textContent = "";
    (state.rooms[state.shown] || []).forEach(function (line) { list.appendChild(lineEl(line)); });
    list.scrollTop = list.scrollHeight;
  }
  function add(line) {
    var lines = state.rooms[line.room] || (state.rooms[line.room] = []);
    lines.push(line);
    if (lines.length > MAX_LINES) lines.shift();
    if (line.room === state.shown) {
      var near = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
      list.appendChild(lineEl(line));
      while (list.children.length > MAX_LINES) list.removeChild(list.firstChild);
      if (near || line.mine) list.scrollTop = list.scrollHeight;
    }
    if (!line.mine && (panel.hidden || line.room !== state.shown)) setUnread(state.unread + 1);
  }
  function setUnread(n) {
    state.unread = n;
    unreadEl.hidden = n === 0;
    unreadEl.textContent = n > 99 ? "99+" : String(n);
    var label = fill(D.unread, { n: n });
    unreadEl.setAttribute("aria-label", label);
    toggle.title = n ? label : toggle.getAttribute("data-title");
  }

  // ------------------------------------------------------------ what this reader may do
  function build(menu) {
    if (state.built) return;
    state.built = true;
    var reactions = document.getElementById("chat-reactions");
    var phrases = document.getElementById("chat-phrases");
    menu.reactions.forEach(function (r) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "chat__reaction";
      var icon = drawn(r.text);
      if (icon) b.appendChild(icon); else b.textContent = r.text;
      b.setAttribute("aria-label", r.label);
      b.title = r.label;
      b.addEventListener("click", function () { post({ type: "chat_say", say: r.code }); });
      reactions.appendChild(b);
    });
    menu.phrases.forEach(function (p) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "chat__phrase";
      b.textContent = p.text;
      b.addEventListener("click", function () {
        post({ type: "chat_say", say: p.code });
        var menu = b.closest("details");  // said: the list goes, the table under it shows again
        if (menu) menu.open = false;
      });
      phrases.appendChild(b);
    });
  }
  function post(message) {
    message.room = state.shown;
    message.request_id = uuid();
    send(message);
  }
  function rights() {
    var mayPost = !!state.may.post && state.on && (state.shown === state.own || state.shown === "spectators");
    document.getElementById("chat-write").hidden = !mayPost;
    form.hidden = !state.may.free_text;
    document.getElementById("chat-guest").hidden = !!state.may.free_text;
    document.getElementById("chat-off").hidden = state.on;
    roomsEl.hidden = !state.may.open_spectators;
    roomsEl.querySelectorAll("[data-room]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.room === state.shown));
    });
    var settings = document.getElementById("chat-settings");
    settings.hidden = !state.may.report;
    document.getElementById("chat-switch-row").hidden = !state.may.switch;
    document.getElementById("chat-switch").checked = state.on;
  }
  function mutes(list_) {
    var ul = document.getElementById("chat-muted");
    ul.textContent = "";
    (list_ || []).forEach(function (m) {
      var li = document.createElement("li");
      var name = document.createElement("bdi");
      name.textContent = m.name;
      li.appendChild(name);
      li.appendChild(document.createTextNode(" "));
      var b = document.createElement("button");
      b.type = "button";
      b.className = "chat__tool";
      b.textContent = fill(D.unmute, { name: m.name });
      b.addEventListener("click", function () { send({ type: "chat_unmute", ref: m.id }); });
      li.appendChild(b);
      ul.appendChild(li);
    });
  }

  // ------------------------------------------------------------ frames
  MT.frames = MT.frames || {};
  MT.frames.chat = function (msg) {
    if (msg.event === "history") {
      state.own = msg.own;
      state.on = msg.on;
      state.may = msg.may || {};
      state.rooms = msg.rooms || {};
      if (state.shown === "spectators" && state.own === "players" && state.may.open_spectators) {
        state.rooms.spectators = []; // reconnected with the spectators' room open: open it again ("room" fills it)
        send({ type: "chat_open", open: true });
      } else if (!state.rooms[state.shown]) {
        state.shown = state.own;
      }
      build(msg.menu);
      mutes(msg.mutes);
      rights();
      render();
      toggle.hidden = false;
    } else if (msg.event === "message") {
      add(msg.line);
    } else if (msg.event === "room") {
      state.rooms[msg.room] = msg.lines;
      if (msg.room === state.shown) render();
    } else if (msg.event === "hidden") {
      Object.keys(state.rooms).forEach(function (room) {
        state.rooms[room] = state.rooms[room].filter(function (l) { return l.id !== msg.id; });
      });
      var el = list.querySelector('[data-id="' + Number(msg.id) + '"]');
      if (el) el.parentNode.removeChild(el);
    } else if (msg.event === "state") {
      state.on = msg.on;
      rights();
    } else if (msg.event === "ack") {
      if (input.dataset.sending === msg.request_id) { input.value = ""; delete input.dataset.sending; }
      say("");
    } else if (msg.event === "error") {
      say(msg.message);
      if (panel.hidden && MT.toast) MT.toast(msg.message, "error");
    } else if (msg.event === "notice") {
      say(msg.message);
      if (msg.mutes) {
        mutes(msg.mutes);
        var muted = {};
        msg.mutes.forEach(function (m) { muted[m.name] = true; });
        list.querySelectorAll(".chat__line").forEach(function (li) {
          var n = li.querySelector(".chat__name");
          if (n && muted[n.textContent]) li.parentNode.removeChild(li);
        });
        Object.keys(state.rooms).forEach(function (room) {
          state.rooms[room] = state.rooms[room].filter(function (l) { return !muted[l.name] || l.mine; });
        });
      }
    }
  };

  // Each (re)connect: the history (and this page's lines from then on). Now too if the
  // socket opened before this script ran (the scripts load one by one; it may open between).
  function join() { send({ type: "chat_join" }); }
  MT.onConnect = MT.onConnect || [];
  MT.onConnect.push(join);
  if (MT.online && MT.online()) join();

  // ------------------------------------------------------------ opening and closing
  toggle.setAttribute("data-title", toggle.title);
  function open(on) {
    panel.hidden = !on;
    toggle.setAttribute("aria-expanded", String(on));
    table.classList.toggle("table--chat", on);
    document.body.classList.toggle("chat-open", on);
    if (on) {
      if (state.shown === state.own) setUnread(0);
      list.scrollTop = list.scrollHeight;
      document.getElementById("chat-title").focus({ preventScroll: true });
      showTrains();
    } else {
      toggle.focus({ preventScroll: true });
    }
  }
  MT.chatOpen = open;
  /** Phone: the panel stays at the top of the screen (sticky), the hand at the bottom; the
   *  page scrolls so that the trains come right under the panel. */
  function showTrains() {
    if (!window.matchMedia || !window.matchMedia("(max-width: 640px)").matches) return;
    var trains = document.querySelector("#board .trains");
    if (!trains) return;
    var gap = trains.getBoundingClientRect().top - panel.getBoundingClientRect().bottom - 4;
    if (gap > 0) window.scrollBy(0, gap);
  }
  toggle.addEventListener("click", function () { open(panel.hidden); });
  panel.querySelector("[data-chat-close]").addEventListener("click", function () { open(false); });
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); open(false); }
  });
  roomsEl.addEventListener("click", function (event) {
    var b = event.target.closest("[data-room]");
    if (!b || b.dataset.room === state.shown) return;
    state.shown = b.dataset.room;
    if (state.shown === "spectators") send({ type: "chat_open", open: true });
    else { send({ type: "chat_open", open: false }); setUnread(0); }
    rights();
    render();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    var id = uuid();
    input.dataset.sending = id;
    send({ type: "chat_text", room: state.shown, text: text, request_id: id });
  });
  document.getElementById("chat-switch").addEventListener("change", function (event) {
    send({ type: "chat_switch", on: event.target.checked });
  });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.toLowerCase() !== "c" || toggle.hidden) return;
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (document.querySelector("dialog[open]") || document.querySelector(".cover")) return;
    event.preventDefault();
    open(panel.hidden);
  });
})();
