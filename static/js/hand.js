/* The hand: select a tile, see where it may go, play it by click, tap, drag or keyboard (R23, R30).
 *
 * Every tile button carries data-targets (the trains the server lists as legal for
 * it) and, when it fits nowhere, data-why (the server's reason). Selecting lifts
 * the tile, makes its trains glow and dims the rest; a glowing train plays it.
 * A second tap on a tile that fits exactly one train plays it there. A played tile leaves the
 * hand at once, shown on its way to its train until the next board confirms it or the server's
 * refusal puts it back with the reason; a tap on it meanwhile does nothing. In your first turn
 * (R8: your own train only) one tap on a lit tile lays it, and while the engine double
 * waits for you (R7) a tap on a tile that will start your train places the engine and
 * lays that tile. Dragging
 * (mouse, pen or an upward swipe on touch) drops it on a train. Arrow keys move
 * among tiles (←/→) and trains (↑/↓), Enter selects and plays, Esc deselects.
 * The hand's sort (by pips / by suit) is remembered in this browser; dragging a tile
 * onto another place in the hand (or Shift+←/→ on it) puts it there (its own order,
 * kept for this match).
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var stringsEl = document.getElementById("board-strings");
  MT.strings = MT.strings || (stringsEl ? JSON.parse(stringsEl.textContent) : {});
  var S = MT.strings;
  var host = document.getElementById("board");
  if (!host) return;

  var selected = null;      // data-tile of the selected tile
  var lastTap = { tile: null, at: 0 };
  var drag = null;
  var suppressClick = false;
  var SORT_KEY = "mt-hand-sort";
  var ORDER_KEY = "mt-hand-order-"; // + the match id: the order the player dragged the tiles into

  function board() { return host.querySelector(".board"); }
  function tiles() { return Array.prototype.slice.call(host.querySelectorAll(".htile")); }
  function trains() { return Array.prototype.slice.call(host.querySelectorAll(".train")); }
  function tileBtn(tile) { return host.querySelector('.htile[data-tile="' + tile + '"]'); }
  function targetsOf(btn) { return (btn.dataset.targets || "").split(" ").filter(Boolean); }
  function fmt(text, tile) { return (text || "").replace("{tile}", tile); }
  function handSeat() {
    var hand = host.querySelector(".hand[data-seat]");
    return hand ? parseInt(hand.dataset.seat, 10) : null;
  }

  // ------------------------------------------------------------ selection
  function clearMarks() {
    var b = board();
    if (b) b.classList.remove("is-selecting");
    tiles().forEach(function (t) { t.classList.remove("is-selected"); t.setAttribute("aria-pressed", "false"); });
    trains().forEach(function (t) { t.classList.remove("is-target", "is-drop"); });
  }
  function deselect(quiet) {
    if (selected === null) return;
    selected = null;
    clearMarks();
    if (!quiet) MT.say(S.deselected);
  }
  var whyTimer = 0;
  function shake(btn, why, whyUrl) {
    btn.classList.remove("is-shaking");
    void btn.offsetWidth; // restart the animation
    btn.classList.add("is-shaking");
    MT.say(why || S.fits_nowhere, why ? whyUrl || btn.dataset.whyUrl : "");
    // Why it did not go is shown where the eye is, even where the hand's line is only spoken
    // (a phone: board.css), until the next words or a little later.
    var say = document.getElementById("hand-say");
    if (!say) return;
    say.classList.add("hand__say--why");
    window.clearTimeout(whyTimer);
    whyTimer = window.setTimeout(function () { say.classList.remove("hand__say--why"); }, 8000);
  }
  function select(btn, quiet) {
    var targets = targetsOf(btn);
    if (!targets.length) {
      deselect(true);
      shake(btn, btn.dataset.why);
      return false;
    }
    clearMarks();
    selected = btn.dataset.tile;
    btn.classList.add("is-selected");
    btn.setAttribute("aria-pressed", "true");
    board().classList.add("is-selecting");
    trains().forEach(function (t) { t.classList.toggle("is-target", targets.indexOf(t.dataset.train) >= 0); });
    if (!quiet) MT.say(fmt(targets.length === 1 ? S.selected_one : S.selected, selected));
    return true;
  }

  function play(tile, train) {
    var seat = handSeat();
    if (seat === null) return;
    var btn = tileBtn(tile);
    if (pending) { // one play at a time: a tile tapped meanwhile goes once the board shows the first
      if (pending.tile !== tile && btn && targetsOf(btn).indexOf(train) >= 0) queued = { tile: tile, train: train };
      deselect(true);
      return;
    }
    if (!btn || targetsOf(btn).indexOf(train) < 0) {
      MT.say(S.not_target);
      return;
    }
    deselect(true);
    pending = { tile: tile, train: train, version: shownVersion(), follows: false, ghost: fly(btn, train) };
    markPending(btn);
    watchPending();
    if (!MT.act(seat, { seat: seat, act: "play", tile: tile, train: train === "mexican" ? "mexican" : parseInt(train, 10) })) {
      putBack(); // not sent (offline): the page says so, the tile is back in the hand
    }
  }

  // ------------------------------------------------------------ a play on its way
  /* A played tile (tap, drag or keyboard) leaves the hand at once: its place in the hand stays,
   * empty, so nothing slides under the finger and a second tap there is ignored, and a copy
   * of it flies to its train and waits there, faded, until a board shows it on that train
   * (confirmed) or the server refuses it (put back, with the reason). The page decides
   * nothing: the train is one the server listed as legal for that tile. */
  var pending = null;  // {tile, train, version, follows, ghost}: the play on its way
  var queued = null;   // {tile, train}: a tile tapped while another was on its way
  var pendingTimer = 0;
  var playedAt = 0;    // when a tap last played a tile: its double tap's second click is ignored
  var PENDING_MS = 8000; // no board by then: the page asks for one and puts the tile back

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }
  function markPending(btn) {
    btn.classList.add("is-pending");
    btn.setAttribute("aria-disabled", "true");
    var slot = btn.closest(".hand__slot");
    if (slot) slot.classList.add("hand__slot--pending");
  }
  function unmarkPending(btn) {
    btn.classList.remove("is-pending");
    btn.removeAttribute("aria-disabled");
    var slot = btn.closest(".hand__slot");
    if (slot) slot.classList.remove("hand__slot--pending");
  }
  /** A copy of the tile flies from the hand to where its train takes the next tile, and
   *  waits there (fixed over the page, above the train's row, which clips its tiles). */
  function fly(btn, train) {
    var svg = btn.querySelector("svg");
    var row = host.querySelector('.train[data-train="' + train + '"]');
    var to = row && (row.querySelector(".train__slot") || row);
    if (!svg || !to) return null;
    var from = svg.getBoundingClientRect();
    var end = to.getBoundingClientRect();
    if (!from.width || !end.width) return null;
    var ghost = MT.ghost(svg, from, "pending-tile");
    var ends = btn.dataset.tile.split("-");
    var turn = ends[0] === ends[1] ? "" : " rotate(-90deg)"; // a double lies across its train
    var k = Math.max(0.35, Math.min(1.2, (end.height * (turn ? 2 : 1.4)) / from.height));
    var dx = end.left + end.width / 2 - (from.left + from.width / 2);
    var dy = end.top + end.height / 2 - (from.top + from.height / 2);
    var there = "translate(" + dx + "px, " + dy + "px) scale(" + k + ")" + turn;
    ghost.style.transform = there;
    if (ghost.animate && !reducedMotion()) {
      ghost.animate([{ transform: "none" }, { transform: there }], { duration: 180, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
    }
    return ghost;
  }
  function dropGhost() {
    if (pending && pending.ghost && pending.ghost.parentNode) pending.ghost.parentNode.removeChild(pending.ghost);
  }
  function watchPending() {
    window.clearTimeout(pendingTimer);
    var mine = pending;
    pendingTimer = window.setTimeout(function () {
      if (pending !== mine) return;
      putBack();
      if (MT.sync) MT.sync();
    }, PENDING_MS);
  }
  /** The play did not happen: the tile is back in its place; `why` says why (shaking). */
  function putBack(why, whyUrl) {
    if (!pending) return;
    var tile = pending.tile;
    dropGhost();
    pending = null;
    queued = null;
    window.clearTimeout(pendingTimer);
    var btn = tileBtn(tile);
    if (!btn) return;
    unmarkPending(btn);
    if (why) shake(btn, why, whyUrl);
  }
  /** A board came (swapped or morphed): is the play on its way done, still on its way, or not made? */
  function settlePending() {
    if (!pending) return;
    var b = board();
    var btn = tileBtn(pending.tile);
    if (!btn) { // it left the hand: it lies on its train
      dropGhost();
      pending = null;
      window.clearTimeout(pendingTimer);
      var next = queued;
      queued = null;
      if (next) window.setTimeout(function () { playQueued(next); }, 0);
      return;
    }
    if (b && b.dataset.version !== pending.version) {
      if (pending.follows) { // the engine double's board: the tile's own play goes now (laterPlay)
        pending.follows = false;
        pending.version = b.dataset.version;
      } else { // a newer board that still has it in the hand: it was not played
        putBack();
        return;
      }
    }
    markPending(btn); // the same board again (a sync, a badge): still on its way
  }
  /** A tile tapped while another was on its way: played now if this board still offers its train. */
  function playQueued(next) {
    var btn = tileBtn(next.tile);
    if (!btn) return;
    if (targetsOf(btn).indexOf(next.train) >= 0) play(next.tile, next.train);
    else shake(btn, btn.dataset.why);
  }

  // ------------------------------------------------------------ one tap in the first turn
  /** In your first turn every tile goes on your own train (R8): the server lists that one
   *  train as its only target, so a tap (not a key: the keyboard keeps select, then train)
   *  on a lit tile lays it at once; its train glowed while the pointer was over it (R23). */
  function oneTap(btn, event) {
    var b = board();
    var targets = targetsOf(btn);
    return event.detail > 0 && selected === null && targets.length === 1 &&
      !!b && b.dataset.phase === "first" && b.dataset.yourTurn === "true";
  }
  /** The engine double waits for you, its holder (R7): shown in the centre first (R23), it is
   *  placed by its Confirm button or by tapping a tile the server marks as starting your train
   *  once it is placed (data-after-engine): that tap confirms the engine, and the tile is laid
   *  as the first of your first turn's chain (R8) when that board comes. */
  var afterEngine = null;  // {tile, train, version} or {pass, version}: what follows the engine's board
  function engineThenPlay(btn) {
    var seat = handSeat();
    var confirm = host.querySelector('[data-act="engine"]');
    if (seat === null || !confirm) return false;
    if (pending) return true; // a play is on its way already: this tap is ignored
    afterEngine = { tile: btn.dataset.tile, train: btn.dataset.afterEngine, version: shownVersion() };
    pending = { tile: btn.dataset.tile, train: btn.dataset.afterEngine, version: shownVersion(), follows: true,
                ghost: fly(btn, btn.dataset.afterEngine) };
    markPending(btn);
    watchPending();
    if (!MT.act(seat, { seat: seat, act: "engine" })) { afterEngine = null; putBack(); }
    return true;
  }
  function shownVersion() { var b = board(); return b ? b.dataset.version : ""; }
  // A holder with no tile to start their train: Confirm engine says it also passes (data-then),
  // the pass their first turn must be (R10).
  host.addEventListener("click", function (event) {
    var confirm = event.target.closest('[data-act="engine"][data-then="pass"]');
    if (confirm) afterEngine = { pass: true, version: shownVersion() };
  });
  function laterPlay() {
    if (!afterEngine) return;
    var b = board();
    if (!b || b.dataset.version === afterEngine.version) return;  // the engine's board is still to come
    var want = afterEngine;
    afterEngine = null;
    var seat = handSeat();
    if (want.pass) {
      var pass = host.querySelector('.hand__actions [data-act="pass"]');
      if (pass && seat !== null && b.dataset.phase === "first" && b.dataset.yourTurn === "true") {
        window.setTimeout(function () { MT.act(seat, { seat: seat, act: "pass" }); }, 0);
      }
      return;
    }
    var btn = tileBtn(want.tile);
    if (b.dataset.phase === "first" && b.dataset.yourTurn === "true" && btn &&
        targetsOf(btn).indexOf(want.train) >= 0 && seat !== null) {
      // Shown on its way since the tap: its play goes after this board settled.
      window.setTimeout(function () {
        if (!pending || pending.tile !== want.tile) return;
        watchPending();
        if (!MT.act(seat, { seat: seat, act: "play", tile: want.tile, train: want.train === "mexican" ? "mexican" : parseInt(want.train, 10) })) putBack();
      }, 0);
    } else if (pending && pending.tile === want.tile) {
      putBack(btn ? btn.dataset.why : "");
    }
  }
  host.addEventListener("pointerover", function (event) {
    var btn = event.target.closest(".htile");
    var b = board();
    if (!btn || selected !== null || drag || !b || b.dataset.phase !== "first" || b.dataset.yourTurn !== "true") return;
    var targets = targetsOf(btn);
    trains().forEach(function (t) { t.classList.toggle("is-lays-here", targets.indexOf(t.dataset.train) >= 0); });
  });
  host.addEventListener("pointerout", function (event) {
    if (!event.target.closest(".htile")) return;
    trains().forEach(function (t) { t.classList.remove("is-lays-here"); });
  });

  // ------------------------------------------------------------ clicks and taps
  host.addEventListener("click", function (event) {
    if (suppressClick) { suppressClick = false; event.preventDefault(); return; }
    var btn = event.target.closest(".htile");
    if (btn) {
      var tile = btn.dataset.tile;
      var now = Date.now();
      // On its way to its train: a second tap does nothing (the server has it already).
      if (pending && pending.tile === tile) return;
      // The second click of a double tap that played a tile, on the tile shown there since.
      if (event.detail > 1 && now - playedAt < 500) return;
      var again = lastTap.tile === tile && now - lastTap.at < 450;
      lastTap = { tile: tile, at: now };
      if (btn.dataset.afterEngine && engineThenPlay(btn)) { playedAt = now; return; }
      if (oneTap(btn, event)) { playedAt = now; play(tile, targetsOf(btn)[0]); return; }
      if (selected === tile) {
        var targets = targetsOf(btn);
        if (again && targets.length === 1) { playedAt = now; play(tile, targets[0]); } // double tap: its only train
        else deselect();
        return;
      }
      if (select(btn) && event.detail === 0) {
        // Keyboard (Enter/Space): go on to the first train it may go on.
        var first = host.querySelector(".train.is-target");
        if (first) focusTrain(first);
      }
      return;
    }
    var train = event.target.closest(".train");
    if (train) {
      if (pending && selected === null) return; // a second click on the train just played on
      if (selected !== null) {
        if (train.classList.contains("is-target")) play(selected, train.dataset.train);
        else MT.say(S.not_target);
      } else if (board() && board().dataset.yourTurn === "true" && tiles().length) {
        MT.say(S.select_first);
      }
      return;
    }
    if (!event.target.closest("button, a, summary, dialog, input")) deselect(true);
  });

  // ------------------------------------------------------------ keyboard (R30)
  function rove(list, current, step) {
    if (!list.length) return null;
    var i = list.indexOf(current);
    var next = list[Math.max(0, Math.min(list.length - 1, (i < 0 ? 0 : i + step)))];
    list.forEach(function (el) { el.tabIndex = el === next ? 0 : -1; });
    next.focus();
    next.scrollIntoView({ block: "nearest", inline: "nearest" });
    return next;
  }
  function focusTrain(train) {
    trains().forEach(function (el) { el.tabIndex = el === train ? 0 : -1; });
    train.focus();
  }
  MT.focusHand = function () {
    var list = tiles();
    var current = list.filter(function (t) { return t.tabIndex === 0; })[0] || list[0];
    if (current) rove(list, current, 0);
  };
  MT.focusTrains = function () {
    var list = trains();
    var current = host.querySelector(".train.is-target") || list.filter(function (t) { return t.tabIndex === 0; })[0] || list[0];
    if (current) focusTrain(current);
  };
  MT.deselect = deselect;

  host.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var btn = event.target.closest(".htile");
    var train = event.target.closest(".train");
    if (!btn && !train) return;
    var key = event.key;
    if (btn && event.shiftKey && (key === "ArrowLeft" || key === "ArrowRight")) {
      event.preventDefault(); // Shift+←/→: the keyboard's way of dragging a tile within the hand
      var slot = btn.closest(".hand__slot");
      var next = key === "ArrowLeft" ? slot.previousElementSibling : slot.nextElementSibling;
      if (next) moveTile(btn, { slot: next, after: key === "ArrowRight" });
      btn.focus();
    } else if (btn && (key === "ArrowLeft" || key === "ArrowRight")) {
      event.preventDefault();
      rove(visibleOrder(), btn, key === "ArrowLeft" ? -1 : 1);
    } else if (btn && key === "ArrowUp") {
      event.preventDefault();
      MT.focusTrains();
    } else if (train && (key === "ArrowUp" || key === "ArrowDown")) {
      event.preventDefault();
      rove(trains(), train, key === "ArrowUp" ? -1 : 1);
    } else if (train && (key === "ArrowLeft" || key === "ArrowRight")) {
      event.preventDefault();
      var sel = selected !== null ? tileBtn(selected) : null;
      if (sel) sel.focus(); else MT.focusHand();
    } else if (key === "Escape" && selected !== null) {
      event.preventDefault();
      var back = tileBtn(selected);
      deselect();
      if (back) back.focus();
    }
  });

  // ------------------------------------------------------------ drag and drop (pointer + touch)
  function trainAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el ? el.closest(".train") : null;
  }
  host.addEventListener("pointerdown", function (event) {
    var btn = event.target.closest(".htile");
    if (!btn || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (pending && pending.tile === btn.dataset.tile) return; // on its way: not dragged again
    drag = { btn: btn, id: event.pointerId, x: event.clientX, y: event.clientY, active: false, ghost: null, over: null };
  });
  host.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    var dx = event.clientX - drag.x;
    var dy = event.clientY - drag.y;
    if (!drag.active) {
      if (Math.abs(dx) + Math.abs(dy) < 10) return;
      // On touch, sideways swipes scroll the hand; only an upward drag lifts the tile.
      if (event.pointerType !== "mouse" && Math.abs(dy) < Math.abs(dx)) { drag = null; return; }
      // A tile that fits nowhere may still move within the hand; on a train it shakes.
      drag.playable = targetsOf(drag.btn).length > 0;
      if (drag.playable) select(drag.btn, true);
      drag.active = true;
      drag.btn.classList.add("is-dragging");
      try { drag.btn.setPointerCapture(drag.id); } catch (e) { /* ignore */ }
      var svg = drag.btn.querySelector("svg").cloneNode(true);
      svg.classList.add("drag-ghost");
      document.body.appendChild(svg);
      drag.ghost = svg;
    }
    event.preventDefault();
    drag.ghost.style.left = event.clientX + "px";
    drag.ghost.style.top = event.clientY + "px";
    var over = trainAt(event.clientX, event.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("is-drop");
      drag.over = over && over.classList.contains("is-target") ? over : null;
      if (drag.over) drag.over.classList.add("is-drop");
    }
    drag.place = drag.over ? null : placeAt(event.clientX, event.clientY, drag.btn);
    markPlace(drag.place);
  });
  /** Where in the hand a tile dragged to (x, y) would go: {slot, after}, or null. */
  function placeAt(x, y, btn) {
    var el = document.elementFromPoint(x, y);
    var slot = el ? el.closest(".hand__slot") : null;
    if (!slot || !host.contains(slot) || slot.contains(btn)) return null;
    var box = slot.getBoundingClientRect();
    return { slot: slot, after: x > box.left + box.width / 2 };
  }
  var placeMark = null;
  function markPlace(place) {
    if (placeMark) placeMark.classList.remove("is-place-before", "is-place-after");
    placeMark = place ? place.slot : null;
    if (place) place.slot.classList.add(place.after ? "is-place-after" : "is-place-before");
  }
  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.id) return;
    var d = drag;
    drag = null;
    if (!d.active) return;
    suppressClick = true;
    window.setTimeout(function () { suppressClick = false; }, 0);
    d.btn.classList.remove("is-dragging");
    if (d.ghost) d.ghost.remove();
    if (d.over) d.over.classList.remove("is-drop");
    var place = d.place;
    markPlace(null);
    if (!cancelled && d.over) play(d.btn.dataset.tile, d.over.dataset.train);
    else if (!cancelled && place) { deselect(true); moveTile(d.btn, place); }
    else if (!cancelled && !d.playable && trainAt(event.clientX, event.clientY)) shake(d.btn, d.btn.dataset.why);
    else deselect(true);
  }
  host.addEventListener("pointerup", function (e) { endDrag(e, false); });
  host.addEventListener("pointercancel", function (e) { endDrag(e, true); });

  // ------------------------------------------------------------ sorting
  function visibleOrder() { return tiles(); }
  function orderKey() {
    var b = board();
    return b ? ORDER_KEY + b.dataset.match : null;
  }
  /** The order the player dragged this match's tiles into (tile ids), or null. */
  function ownOrder() {
    try { return JSON.parse(window.localStorage.getItem(orderKey()) || "null"); } catch (e) { return null; }
  }
  /** Remember how the hand is sorted ("pips", "suit", "own" or "": as dealt) and, for
   *  "own", the order the tiles were dragged into; any other sort forgets that order. */
  function keepSort(kind, order) {
    try {
      if (kind === "own") window.localStorage.setItem(orderKey(), JSON.stringify(order));
      else window.localStorage.removeItem(orderKey());
      window.localStorage.setItem(SORT_KEY, kind);
    } catch (e) { /* private mode: this page only */ }
  }
  /** Put a dragged tile before or after another tile of the hand, and keep that order. */
  function moveTile(btn, place) {
    var slot = btn.closest(".hand__slot");
    place.slot.parentNode.insertBefore(slot, place.after ? place.slot.nextSibling : place.slot);
    keepSort("own", tiles().map(function (t) { return t.dataset.tile; }));
    sortHand("own");
    MT.say(fmt(S.moved, btn.dataset.tile));
  }
  function sortHand(kind) {
    var list = host.querySelector(".hand__tiles");
    if (!list) return;
    var own = kind === "own" ? ownOrder() : null;
    if (kind === "own" && !own) kind = ""; // dragged in another match: the server's order here
    var slots = Array.prototype.slice.call(list.children);
    var nums = function (slot) {
      var t = slot.querySelector(".htile").dataset.tile.split("-").map(Number);
      return { hi: Math.max(t[0], t[1]), lo: Math.min(t[0], t[1]) };
    };
    var served = function (slot) { return Number(slot.querySelector(".htile").dataset.order); };
    var place = function (slot) { // a tile drawn since the drag goes last, in the server's order
      var at = own.indexOf(slot.querySelector(".htile").dataset.tile);
      return at < 0 ? own.length + served(slot) : at;
    };
    slots.sort(function (a, b) {
      var x = nums(a), y = nums(b);
      if (kind === "pips") return (y.hi + y.lo) - (x.hi + x.lo) || y.hi - x.hi;
      if (kind === "suit") return y.hi - x.hi || y.lo - x.lo;
      if (kind === "own") return place(a) - place(b);
      return served(a) - served(b);
    });
    slots.forEach(function (slot) { list.appendChild(slot); });
    host.querySelectorAll("[data-sort]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.sort === kind ? "true" : "false");
    });
  }
  host.addEventListener("click", function (event) {
    var b = event.target.closest("[data-sort]");
    if (!b) return;
    var kind = b.getAttribute("aria-pressed") === "true" ? "" : b.dataset.sort;
    keepSort(kind); // a sort replaces the order the tiles were dragged into
    sortHand(kind);
    if (kind) MT.say(kind === "pips" ? S.sorted_pips : S.sorted_suit);
  });

  // ------------------------------------------------------------ hints and refusals
  /** The hint's words go on the hand's line, marked as a hint, where the eye already is.
   *  Only without that line is there a toast (at the top: it covers no tile). */
  function tellHint(text, again) {
    var say = document.getElementById("hand-say");
    if (again) { // shown again after a board swap: the same words, not announced twice
      if (say && say.offsetParent !== null) { say.textContent = text; say.classList.add("hand__say--hint"); }
      return;
    }
    MT.say(text);
    if (say && say.offsetParent !== null) say.classList.add("hand__say--hint");
    else MT.toast(text, "hint");
  }
  /** The board a hint was given for: its version and seat (a hint holds for that state only). */
  function boardKey() {
    var b = board();
    return b ? b.dataset.version + "|" + b.dataset.seat : "";
  }
  /** The last hint and the board it was for: a swap of the same board (a pause badge, a
   *  resync, a reconnect) shows it again instead of losing it; a new version drops it. */
  var hinted = null;
  function showHint(msg, again) {
    hinted = { msg: msg, key: boardKey() };
    host.querySelectorAll(".is-hint").forEach(function (el) { el.classList.remove("is-hint"); });
    if (!msg.act) { tellHint(msg.reason || S.hint_none, again); return; }
    if (msg.tile) {
      var btn = tileBtn(msg.tile) || tileBtn(msg.tile.split("-").reverse().join("-"));
      if (btn) {
        btn.classList.add("is-hint");
        if (!again) btn.scrollIntoView({ block: "nearest", inline: "nearest" });
      }
    }
    if (msg.train !== null && msg.train !== undefined) {
      var train = host.querySelector('.train[data-train="' + msg.train + '"]');
      if (train) train.classList.add("is-hint");
    } else if (msg.act) {
      var action = host.querySelector('[data-act="' + msg.act + '"]');
      if (action) action.classList.add("is-hint");
    }
    tellHint(S.hint + " " + msg.reason, again);
  }
  /** The server refused the play of `tile` (null: an action that was to lay the tile on its way,
   *  Confirm engine): back in the hand, shaking, with `why`; `quiet`
   *  (the page was behind and syncs): back in the hand and nothing said. */
  function refused(tile, why, whyUrl, quiet) {
    var btn = tileBtn(tile) || tileBtn(String(tile).split("-").reverse().join("-"));
    if (pending && (tile === null || (btn && pending.tile === btn.dataset.tile))) {
      afterEngine = null;
      putBack(quiet ? "" : why || S.error, whyUrl);
    } else if (btn && !quiet) shake(btn, why, whyUrl);
  }

  // ------------------------------------------------------------ across board swaps
  MT.hand = {
    save: function () { return { selected: selected, hinted: hinted }; },
    restore: function (state) {
      settlePending();
      laterPlay();
      var kind = "";
      try { kind = window.localStorage.getItem(SORT_KEY) || ""; } catch (e) { /* private mode */ }
      sortHand(kind);
      selected = null;
      if (state && state.selected) {
        var btn = tileBtn(state.selected);
        if (btn && targetsOf(btn).length) select(btn, true); // still playable: keep it lifted
      }
      hinted = null;
      if (state && state.hinted && state.hinted.key === boardKey()) showHint(state.hinted.msg, true);
    },
    showHint: function (msg) { showHint(msg, false); },
    refused: refused,
    deselect: deselect,
    /** Where the copy of `tile`, on its way to its train, is now (null: none is): a move's
     *  slide (table.js) starts there. */
    flying: function (tile) {
      return pending && pending.tile === tile && pending.ghost && pending.ghost.parentNode ? pending.ghost.getBoundingClientRect() : null;
    }
  };
})();
