// The replay viewer (templates/history/_viewer.html): steps through an ended round.
// Every position is a link (?round=R&step=K) that works without this script; with it
// the board is fetched as JSON (games/history/views.py replay_step) and swapped in,
// the address follows, ←/→/Home/End step and Space plays or pauses at the chosen speed.
// "Show the expert's choices" shows, at each person's move, what the expert computer would
// have played (games/history/reviews.py): the button asks for them once (a POST: they are
// worked out by the worker, never in the request) and the page asks again every few
// seconds until they are ready.
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

  // The position's sentence, each tile it names kept on one line (as in the list of moves).
  function setLine(text) {
    line.textContent = "";
    text.split(/(\b\d{1,2}-\d{1,2}\b)/).forEach(function (part, i) {
      if (i % 2) {
        var tile = document.createElement("span");
        tile.className = "nobreak";
        tile.textContent = part;
        line.appendChild(tile);
      } else if (part) {
        line.appendChild(document.createTextNode(part));
      }
    });
  }

  function show(data) {
    step = data.step;
    root.dataset.step = String(step);
    board.innerHTML = data.html;
    range.value = String(step);
    pos.textContent = pos.dataset.template.replace("%(step)s", step).replace("%(last)s", last);
    setLine(data.line);
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
    expertNote();
    if (step < last) fetchStep(step + 1).catch(function () {});  // ready for the next press
  }

  // ---------------------------------------------------------------- the expert's choices
  var expert = document.getElementById("replay-expert");
  var expertToggle = document.getElementById("replay-expert-toggle");
  var expertBox = document.getElementById("replay-expert-note");
  var expertNotes = document.getElementById("replay-expert-notes");
  var expertPoll = null;

  function expertShown() { return !!expertToggle && expertToggle.getAttribute("aria-pressed") === "true"; }

  function expertNote() {
    if (!expert || !expertShown()) return;
    var note = expertNotes.querySelector('li[data-step="' + step + '"]');
    var text = expert.dataset.status === "done" ? expert.dataset.elsewhere : expert.dataset.computing;
    if (note) {
      expertBox.innerHTML = note.innerHTML;
    } else {
      expertBox.innerHTML = "";
      var p = document.createElement("p");
      p.textContent = text;
      expertBox.appendChild(p);
    }
  }

  function expertMarks() {
    // A mark on each log line where the expert chose differently (shown with the choices).
    if (!lines || !expertNotes) return;
    expertNotes.querySelectorAll("li[data-differs]").forEach(function (li) {
      var a = lines.querySelector('a[data-step="' + li.dataset.step + '"]');
      if (!a || a.querySelector(".replay__differs")) return;
      var mark = document.createElement("span");
      mark.className = "replay__differs";
      mark.title = expert.dataset.differsText;
      mark.innerHTML = '<span aria-hidden="true">◆</span><span class="visually-hidden"></span>';
      mark.lastChild.textContent = " (" + expert.dataset.differsText + ")";
      a.appendChild(mark);
    });
  }

  function expertAsk(method) {
    var form = expertToggle.form;
    var headers = {Accept: "application/json"};
    var token = form && form.querySelector("[name=csrfmiddlewaretoken]");
    if (method === "POST" && token) headers["X-CSRFToken"] = token.value;
    return fetch(expert.dataset.url, {method: method, credentials: "same-origin", headers: headers})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        expert.dataset.status = data.status;
        expertNotes.innerHTML = data.notes;
        expertMarks();
        expertNote();
        if (data.status === "ask" && method === "GET") {
          expertAsk("POST");  // not queued (or the round's log changed): ask for it
        } else if (data.status === "computing" || data.status === "ask") {
          expertPoll = setTimeout(function () { expertAsk("GET"); }, 3000);
        } else {
          expertPoll = null;
        }
      })
      .catch(function () { expertPoll = setTimeout(function () { expertAsk("GET"); }, 10000); });
  }

  function expertSet(on) {
    expertToggle.setAttribute("aria-pressed", on ? "true" : "false");
    expertToggle.textContent = on ? expertToggle.dataset.hideText : expertToggle.dataset.showText;
    expertBox.hidden = !on;
    root.classList.toggle("is-expert", on);
    if (on) {
      expertNote();
      var status = expert.dataset.status;
      if (status === "ask") expertAsk("POST");
      else if (status === "computing" && expertPoll === null) expertAsk("GET");
    }
  }

  if (expert && expertToggle && expertBox && expertNotes) {
    expertMarks();
    expertToggle.form.addEventListener("submit", function (e) {
      e.preventDefault();
      expertSet(!expertShown());
    });
    if (expertShown() && expert.dataset.status !== "done") expertAsk("GET");
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
