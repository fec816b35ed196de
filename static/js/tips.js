// First-time tips at the table (games/lobby/learn.py): a short note the first times something
// happens to this player. Which moment it is comes from the board the server rendered
// (its data attributes and classes); this script works out no rule. The tips still to
// show, their words (translated on the server) and the address that remembers a dismissed
// tip or "don't show tips again" on the account come from #table-tips.
//
// A tip shows only while its moment holds; a dismissed one is remembered on the account (a
// guest's too), so it stays dismissed in every later match.
// Where a tip sits: in its own slot under the hand, reserved while tips are left (`reserve`), so
// it moves nothing and lies over no train, no tile and no score, on a phone as on a wide
// screen. Escape dismisses it like "Got it" when nothing else is open; it
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
  var over = function (b) { return b.dataset.phase === "round_over" || b.dataset.phase === "match_over"; };
  // tip id -> whether the board shows its moment (ids: games.lobby.learn.TIPS)
  var MOMENTS = {
    // the engine double and its search: while it waits to be placed and during the first turns
    engine: function (b) { return b.dataset.phase === "engine" || b.dataset.phase === "first"; },
    first_chain: function (b) { return b.dataset.phase === "first" && yours(b); },
    end_open_double: function (b) { return !!b.querySelector("#end-dialog .confirm__tile"); },
    // your own train (the board's data-seat, the train's data-owner) carries the marker, while the
    // round is played (at its end the result's tip has the place)
    marker: function (b) { return !over(b) && !!b.dataset.seat && !!b.querySelector('.train--open[data-owner="' + b.dataset.seat + '"]'); },
    open_double: function (b) { return b.dataset.phase !== "first" && yours(b) && !!b.querySelector(".badge--doubles"); },
    going_out: function (b) { return yours(b) && b.querySelectorAll(".hand__tiles .htile").length === 1; },
    scoring: function (b) { return over(b); }
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
    if (!left.length) reserve();
    remember({tip: id});
  }

  /** The tip's own place (a tip hid the last train row on a phone, and the player's
   *  totals on a wide screen): a slot under the hand, reserved from the page's first board while
   *  tips are left to show, so that a tip showing or going moves nothing and covers nothing. On a
   *  short page it is the free space under the hand; on a long one it stays at the bottom of the
   *  screen with the hand just above it (board.css: the hand's sticky bottom is --tip-slot), and
   *  the page is as much longer, so every train still scrolls into view above them.
   *  Its height is the tallest card of the tips left: each whole (title, words, buttons) where
   *  that takes at most SHARE of the screen's height, else each as its title, wrapped whole,
   *  with "Read" and "Got it" (tip--compact); "Read" opens the whole card, which lies over the
   *  hand until it is dismissed. Measured again when the window is resized. */
  var SHARE = 0.12;
  var slot = null;
  var reading = false;  // the player opened the whole card
  var compact = false;
  function fill(tip) {
    box.querySelector(".tip__title").textContent = data.label + ": " + tip.title;
    box.querySelector(".tip__text").textContent = tip.text;
    box.querySelector(".tip__more a").href = data.rules + "#" + tip.rule;
  }
  function tallest(asCompact) {
    box.classList.toggle("tip--compact", asCompact);
    var most = 0;
    left.forEach(function (tip) { fill(tip); most = Math.max(most, box.offsetHeight); });
    return most;
  }
  function reserve() {
    if (!slot) return;
    var table = host.parentNode;
    if (!left.length) {  // none left (the player dismissed the last one): the slot goes too
      slot.hidden = true;
      table.style.removeProperty("--tip-slot");
      return;
    }
    // Measured out of sight in one go, before the page is painted again.
    var wasHidden = box.hidden;
    box.style.visibility = "hidden";
    box.hidden = false;
    compact = tallest(false) > SHARE * window.innerHeight;
    var height = compact ? tallest(true) : tallest(false);
    if (shown) fill(shown);
    box.classList.toggle("tip--compact", compact && !reading);
    box.hidden = wasHidden;
    box.style.removeProperty("visibility");
    slot.style.minHeight = height + parseFloat(getComputedStyle(slot).paddingTop) + "px";  // border-box
    table.style.setProperty("--tip-slot", slot.offsetHeight + "px");
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
      box.classList.remove("tip--compact");
      box.querySelector("[data-tip-ok]").focus();  // "Read" itself is gone now
    });
    box.querySelector("[data-tip-ok]").addEventListener("click", dismiss);
    box.addEventListener("focusin", function (event) {
      if (!cameFrom && event.relatedTarget && !box.contains(event.relatedTarget)) cameFrom = event.relatedTarget;
    });
    box.querySelector("[data-tip-never]").addEventListener("click", function () {
      left = [];
      hide();
      reserve();
      remember({off: "1"});
    });
    box.hidden = true;
    slot = document.createElement("div");
    slot.className = "tip-slot";
    slot.appendChild(box);
    host.parentNode.insertBefore(slot, host.nextSibling);  // under the board and its hand
    reserve();
  }

  function show(tip) {
    if (!box) build();
    shown = tip;
    reading = false;
    box.dataset.tip = tip.id;
    fill(tip);
    box.classList.toggle("tip--compact", compact);
    box.hidden = false;
  }

  function check() {
    var b = host.querySelector(".board");
    if (!b || b.dataset.seat === "" || b.dataset.cover) return;
    if (!box) build();  // the slot is there from the first board on, a tip in it or not
    if (shown) {
      // A tip shows only while its moment holds (no "Your first turn" in a later turn,
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
  MT.afterSwap.push(check);
  window.addEventListener("resize", reserve);
  // Escape: "Got it", unless a dialog or a menu is open or the board used the key (a lifted tile).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !shown || event.defaultPrevented) return;
    if (document.querySelector("dialog[open], details[open]")) return;
    event.preventDefault();
    dismiss();
  });
  check();
})();
