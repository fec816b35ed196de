// The replay viewer (templates/history/_viewer.html): steps through an ended round.
// Every position is a link (?round=R&step=K) that works without this script; with it
// the board is fetched as JSON (games/history/views.py replay_step) and swapped in,
// the address follows, ←/→/Home/End step and Space plays or pauses at the chosen speed.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var board = document.getElementById("replay-board");
  var range = document.getElementById("replay-range");
  var pos = document.getElementById("replay-pos");
  var line = document.getElementById("replay-line");
  var link = document.getElementById("replay-link");
  var play = document.getElementById("replay-play");
  var speed = document.getElementById("replay-speed");
  var lines = document.getElementById("replay-lines");
  var round = Number(root.dataset.round);
  var step = Number(root.dataset.step);
  var last = Number(root.dataset.last);
  var timer = null;
  var pending = null;
  var cache = {};

  function fetchStep(k) {
    if (cache[k]) return Promise.resolve(cache[k]);
    var url = root.dataset.stepUrl + "?round=" + round + "&step=" + k;
    return fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) { cache[k] = data; return data; });
  }

  function show(data) {
    step = data.step;
    root.dataset.step = String(step);
    board.innerHTML = data.html;
    range.value = String(step);
    pos.textContent = pos.dataset.template.replace("%(step)s", step).replace("%(last)s", last);
    line.textContent = data.line;
    // Relative, so the admin's copy of the viewer keeps its own address.
    var here = "?round=" + data.round + "&step=" + data.step;
    link.href = here;
    if (window.history && window.history.replaceState) window.history.replaceState(null, "", here);
    if (lines) {
      var current = lines.querySelector("[aria-current]");
      if (current) current.removeAttribute("aria-current");
      var mine = lines.querySelector('[data-step="' + step + '"]');
      if (mine) {
        mine.setAttribute("aria-current", "step");
        var box = lines.parentElement;
        if (box && box.scrollHeight > box.clientHeight) {
          box.scrollTop = mine.offsetTop - box.offsetTop - box.clientHeight / 2;
        }
      }
    }
    if (step < last) fetchStep(step + 1).catch(function () {});  // ready for the next press
  }

  function go(k) {
    k = Math.max(0, Math.min(last, k));
    pending = k;
    return fetchStep(k).then(function (data) { if (pending === k) show(data); })
      .catch(function () { stop(); });
  }

  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    play.textContent = play.dataset.playText;
  }

  function tick() {
    if (step >= last) { stop(); return; }
    go(step + 1).then(function () {
      if (step >= last) stop();  // the round's end: the button says Play again
      else if (timer !== null) timer = setTimeout(tick, Number(speed.value));
    });
  }

  function start() {
    if (step >= last) go(0);
    play.setAttribute("aria-pressed", "true");
    play.textContent = play.dataset.pauseText;
    timer = setTimeout(tick, Number(speed.value));
  }

  function toggle() { if (timer !== null) stop(); else start(); }

  root.addEventListener("click", function (e) {
    var target = e.target.closest("[data-go], [data-step]");
    if (!target || !root.contains(target)) return;
    if (target.dataset.go) {
      var to = {first: 0, prev: step - 1, next: step + 1, last: last}[target.dataset.go];
      go(to);
    } else if (target.closest("#replay-lines")) {
      e.preventDefault();
      stop();
      go(Number(target.dataset.step));
    }
  });
  play.addEventListener("click", toggle);
  range.addEventListener("input", function () { go(Number(range.value)); });
  speed.addEventListener("change", function () {
    if (timer !== null) { clearTimeout(timer); timer = setTimeout(tick, Number(speed.value)); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName) && e.target !== range) return;
    var moves = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last};
    if (e.key in moves) {
      e.preventDefault();
      stop();
      go(moves[e.key]);
    } else if (e.key === " " && e.target.tagName !== "BUTTON" && e.target.tagName !== "A") {
      e.preventDefault();
      toggle();
    }
  });
})();
