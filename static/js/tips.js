// First-time tips at the table (games/learn.py): a short note the first times something
// happens to this player. Which moment it is comes from the board the server rendered
// (its data attributes and classes); this script works out no rule. The tips still to
// show, their words (translated on the server) and the address that remembers a dismissed
// tip or "don't show tips again" on the account come from #table-tips.
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

  function hide() {
    if (box) box.hidden = true;
    shown = null;
    check();  // the next tip whose moment it is
  }

  function build() {
    box = document.createElement("section");
    box.className = "tip";
    box.id = "tip";
    box.setAttribute("role", "note");
    box.setAttribute("aria-labelledby", "tip-title");
    box.innerHTML = '<p class="tip__title" id="tip-title"></p><p class="tip__text"></p>' +
      '<p class="tip__more"><a target="_blank" rel="noopener"></a></p>' +
      '<div class="tip__buttons"><button type="button" class="btn btn--primary" data-tip-ok></button>' +
      '<button type="button" class="btn btn--quiet" data-tip-never></button></div>';
    box.querySelector("[data-tip-ok]").textContent = data.ok;
    box.querySelector("[data-tip-never]").textContent = data.never;
    box.querySelector(".tip__more a").textContent = data.more;
    box.querySelector("[data-tip-ok]").addEventListener("click", function () {
      if (!shown) return;
      var id = shown.id;
      left = left.filter(function (t) { return t.id !== id; });
      hide();
      remember({tip: id});
    });
    box.querySelector("[data-tip-never]").addEventListener("click", function () {
      left = [];
      hide();
      remember({off: "1"});
    });
    host.parentNode.insertBefore(box, host);  // in the flow above the board: it covers nothing
  }

  function show(tip) {
    if (!box) build();
    shown = tip;
    box.dataset.tip = tip.id;
    box.querySelector(".tip__title").textContent = data.label + ": " + tip.title;
    box.querySelector(".tip__text").textContent = tip.text;
    box.querySelector(".tip__more a").href = data.rules + "#" + tip.rule;
    box.hidden = false;
  }

  function check() {
    var b = host.querySelector(".board");
    if (!b || b.dataset.seat === "" || b.dataset.cover) return;
    if (shown) return;  // a tip stays until it is dismissed (a moment may pass in a second)
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
  check();
})();
