// First-time tips at the table (games/learn.py): a short note the first times something
// happens to this player. Which moment it is comes from the board the server rendered
// (its data attributes and classes); this script works out no rule. The tips still to
// show, their words (translated on the server) and the address that remembers a dismissed
// tip or "don't show tips again" on the account come from #table-tips.
//
// A tip shows only while its moment holds; a dismissed one is remembered on the account (a
// guest's too), so it stays dismissed in every later match.
// Where a tip sits: on a wide screen over the side panel, level with its top (it moves no
// train); up to 900px wide (board.css) a card docked just above the hand, over the bottom of the
// trains, so the trains and the hand do not move (your train and the Mexican train come
// first there, above it). Escape dismisses it like "Got it" when nothing else is open; it
// never takes the focus when it appears (it is announced), and when it goes while the
// focus was in it, the focus goes back to where it was before, or to the hand.
(function () {
  "use strict";
  var source = document.getElementById("table-tips");
  var host = document.getElementById("board");
  if (!source || !host) return;
  var data = JSON.parse(source.textContent);
  if (data.off || !data.tips.length) return;

  var yours = function (b) { return b.dataset.yourTurn === "true"; };
  // tip id -> whether the board shows its moment (ids: games.learn.TIPS)
  var MOMENTS = {
    // the engine double and its search: while it waits to be placed and during the first turns
    engine: function (b) { return b.dataset.phase === "engine" || b.dataset.phase === "first"; },
    first_chain: function (b) { return b.dataset.phase === "first" && yours(b); },
    end_open_double: function (b) { return !!b.querySelector("#end-dialog .confirm__tile"); },
    // your own train (the board's data-seat, the train's data-owner) carries the marker
    marker: function (b) { return !!b.dataset.seat && !!b.querySelector('.train--open[data-owner="' + b.dataset.seat + '"]'); },
    open_double: function (b) { return b.dataset.phase !== "first" && yours(b) && !!b.querySelector(".badge--doubles"); },
    going_out: function (b) { return yours(b) && b.querySelectorAll(".hand__tiles .htile").length === 1; },
    scoring: function (b) { return b.dataset.phase === "round_over" || b.dataset.phase === "match_over"; }
  };
  var left = data.tips.slice();
  var box = null;
  var shown = null;

  function remember(fields) {
    var body = new FormData();
    Object.keys(fields).forEach(function (k) { body.append(k, fields[k]); });
    return fetch(data.url, {method: "POST", body: body, credentials: "same-origin",
                            headers: {"X-CSRFToken": data.csrf}}).catch(function () {});
  }

  var cameFrom = null;  // what had the focus before it went into the tip
  function hide() {
    var hadFocus = box && box.contains(document.activeElement);
    if (box) box.hidden = true;
    shown = null;
    if (hadFocus) {
      var back = cameFrom && document.contains(cameFrom) && !box.contains(cameFrom) ? cameFrom : null;
      if (back) back.focus({preventScroll: true});
      else if (window.MT && MT.focusHand) MT.focusHand();
    }
    cameFrom = null;
    check();  // the next tip whose moment it is
  }
  function dismiss() {  // "Got it": this one tip, for good
    if (!shown) return;
    var id = shown.id;
    left = left.filter(function (t) { return t.id !== id; });
    hide();
    remember({tip: id});
  }

  /** On a phone (board.css) the tip docks just above the hand, which stays at the bottom.
   *  When the whole card would cover a row the player needs (your train, the Mexican train,
   *  a train open to you, the engine to confirm), it shows only its title with "Read" and
   *  "Got it" (tip--compact), and where even that would cover one, it lies under the hand when
   *  the page leaves room there, never over a tile. "Read" opens the whole
   *  card over the trains until it is dismissed. */
  var phone = window.matchMedia ? window.matchMedia("(max-width: 900px)") : null;
  var reading = false;  // the player opened the whole card
  var GAP = 8;
  function needed(b, handTop) {
    var mine = b && b.dataset.seat !== "" ? ', #board .train[data-owner="' + b.dataset.seat + '"]' : "";
    var bottom = 0;
    document.querySelectorAll("#board .train--mexican, #board .train--open, #board .hub__confirm" + mine)
      .forEach(function (el) {
        var r = el.getBoundingClientRect();
        if (r.height && r.bottom > 0 && r.top < handTop) bottom = Math.max(bottom, r.bottom);
      });
    return bottom;
  }
  /** The lowest bottom of the rows the player needs (as `needed`), wherever they are. */
  function lowest(b) {
    var mine = b && b.dataset.seat !== "" ? ', #board .train[data-owner="' + b.dataset.seat + '"]' : "";
    var bottom = 0;
    document.querySelectorAll("#board .train--mexican, #board .train--open, #board .hub__confirm" + mine)
      .forEach(function (el) {
        var r = el.getBoundingClientRect();
        if (r.height) bottom = Math.max(bottom, r.bottom);
      });
    return bottom;
  }
  /** On a wide screen the tip lies over the side panel (the totals), level with its top: it
   *  pushes no train and no hand down, and covers no train (issue 19: an open tip pushed the
   *  board ~185 px down). Placed when it shows, the board changes or the window is resized. */
  function dockWide(scrolling) {
    box.style.removeProperty("--tip-above");
    box.classList.remove("tip--compact");
    if (scrolling) return;
    var side = document.getElementById("board-side");
    var table = host.parentNode;
    if (!side || !table || !table.getBoundingClientRect) return;
    var sideTop = side.getBoundingClientRect().top;
    box.style.top = Math.max(0, Math.round(sideTop - table.getBoundingClientRect().top)) + "px";
    // Where the whole card would reach down over the hand (a short board: the hand comes right
    // after the trains), it shows only its title with "Read" and "Got it" (tip--compact).
    var hand = document.querySelector("#board .hand");
    if (reading || !hand) return;
    box.classList.toggle("tip--compact", box.offsetHeight > hand.getBoundingClientRect().top - sideTop - GAP);
  }
  function dock(event) {
    if (!box || box.hidden) return;
    if (!phone || !phone.matches) {
      dockWide(!!event && event.type === "scroll");
      return;
    }
    box.style.removeProperty("top");
    var vh = window.innerHeight;
    var hand = document.querySelector("#board .hand");
    var handTop = hand ? Math.min(hand.getBoundingClientRect().top, vh) : vh;
    var room = handTop - needed(host.querySelector(".board"), handTop) - 2 * GAP;
    box.classList.remove("tip--compact");
    var compact = !reading && box.offsetHeight > room;
    box.classList.toggle("tip--compact", compact);
    var above = vh - handTop;
    // No room above the hand: under it when the page is short enough to leave room there
    // (the hand follows the trains), else right above it, over the bottom of the trains; never
    // over the hand's tiles (on a phone its heading is one short line, issue 19).
    var below = vh - (hand ? hand.getBoundingClientRect().bottom : vh) - GAP;
    if (compact && box.offsetHeight > room && below >= box.offsetHeight + GAP) above = below - box.offsetHeight - GAP;
    box.style.setProperty("--tip-above", Math.max(0, Math.round(above)) + "px");
  }

  function build() {
    box = document.createElement("section");
    box.className = "tip";
    box.id = "tip";
    box.setAttribute("role", "note");
    box.setAttribute("aria-live", "polite");
    box.setAttribute("aria-labelledby", "tip-title");
    box.innerHTML = '<p class="tip__title" id="tip-title"></p><p class="tip__text"></p>' +
      '<p class="tip__more"><a target="_blank" rel="noopener"></a></p>' +
      '<div class="tip__buttons"><button type="button" class="btn tip__read" data-tip-read></button>' +
      '<button type="button" class="btn btn--primary" data-tip-ok></button>' +
      '<button type="button" class="btn btn--quiet" data-tip-never></button></div>';
    box.querySelector("[data-tip-ok]").textContent = data.ok;
    box.querySelector("[data-tip-never]").textContent = data.never;
    box.querySelector(".tip__more a").textContent = data.more;
    box.querySelector("[data-tip-read]").textContent = data.read;
    box.querySelector("[data-tip-read]").addEventListener("click", function () {
      reading = true;
      dock();
      box.querySelector("[data-tip-ok]").focus();  // "Read" itself is gone now
    });
    box.querySelector("[data-tip-ok]").addEventListener("click", dismiss);
    box.addEventListener("focusin", function (event) {
      if (!cameFrom && event.relatedTarget && !box.contains(event.relatedTarget)) cameFrom = event.relatedTarget;
    });
    box.querySelector("[data-tip-never]").addEventListener("click", function () {
      left = [];
      hide();
      remember({off: "1"});
    });
    host.parentNode.insertBefore(box, host);  // wide: in the flow above the board; phone: docked (board.css)
  }

  function show(tip) {
    if (!box) build();
    shown = tip;
    reading = false;
    box.dataset.tip = tip.id;
    box.querySelector(".tip__title").textContent = data.label + ": " + tip.title;
    box.querySelector(".tip__text").textContent = tip.text;
    box.querySelector(".tip__more a").href = data.rules + "#" + tip.rule;
    box.hidden = false;
    dock();
  }

  function check() {
    var b = host.querySelector(".board");
    if (!b || b.dataset.seat === "" || b.dataset.cover) return;
    if (shown) {
      // A tip shows only while its moment holds (issue 19: no "Your first turn" in a later turn,
      // no "Round scoring" as the next round starts): when it has passed the tip goes, not
      // dismissed, and comes again the next time its moment comes.
      if (MOMENTS[shown.id] && MOMENTS[shown.id](b)) return;
      hide();
      return;
    }
    for (var i = 0; i < left.length; i++) {
      if (MOMENTS[left[i].id] && MOMENTS[left[i].id](b)) {
        show(left[i]);
        return;
      }
    }
  }

  // After every board the page gets: swapped in whole, or changed by an update frame's
  // parts (table.js settle), which leaves #board's children in place.
  var MT = window.MT = window.MT || {};
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(function () { check(); dock(); });
  window.addEventListener("resize", dock);
  window.addEventListener("scroll", dock, {passive: true});
  // Escape: "Got it", unless a dialog or a menu is open or the board used the key (a lifted tile).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !shown || event.defaultPrevented) return;
    if (document.querySelector("dialog[open], details[open]")) return;
    event.preventDefault();
    dismiss();
  });
  check();
})();
