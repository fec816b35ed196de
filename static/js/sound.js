/* The optional sound on your turn (table-ux.md "Your turn: … optional sound").
 *
 * Off until the player turns it on in the table's menu ("Sound on your turn"); the
 * choice is kept in this browser (localStorage). A short two-note chime is made with
 * Web Audio (no sound file), only when the turn comes to this device: the board
 * swaps from "not your turn" to "your turn" — not when the page opens on your turn,
 * not for spectators (they have no such menu item). Turning it on plays the chime once,
 * which is also the click browsers ask for before a page may make sounds.
 */
(function () {
  "use strict";
  var MT = window.MT = window.MT || {};
  var S = MT.strings || {};
  var KEY = "mt-turn-sound";
  var host = document.getElementById("board");
  if (!host) return;
  var audio = null;
  var wasYourTurn = null; // null until the first board: opening the page makes no sound

  var remembered = false; // the player's choice: kept in this browser, read once
  try { remembered = window.localStorage.getItem(KEY) === "on"; } catch (e) { /* private mode: off */ }
  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
    remembered = on;
  }

  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "suspended" && audio.resume) audio.resume();
      var now = audio.currentTime;
      [[660, 0], [880, 0.12]].forEach(function (note) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = note[0];
        gain.gain.setValueAtTime(0.0001, now + note[1]);
        gain.gain.exponentialRampToValueAtTime(0.18, now + note[1] + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + note[1] + 0.22);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(now + note[1]);
        osc.stop(now + note[1] + 0.24);
      });
    } catch (e) { /* no audio device: the title and the hand's border still say it */ }
  }
  MT.chime = chime;

  function mark() {
    host.querySelectorAll("[data-sound]").forEach(function (btn) {
      btn.setAttribute("aria-pressed", remembered ? "true" : "false");
    });
  }

  function onBoard(b) {
    mark();
    if (!b) return;
    var yours = b.dataset.yourTurn === "true";
    if (yours && wasYourTurn === false && remembered && host.querySelector("[data-sound]")) chime();
    wasYourTurn = yours;
  }

  host.addEventListener("click", function (event) {
    var btn = event.target.closest("[data-sound]");
    if (!btn || !host.contains(btn)) return;
    remember(!remembered);
    mark();
    if (remembered) chime();
    if (MT.say) MT.say(remembered ? S.sound_on : S.sound_off);
  });

  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(onBoard);
  onBoard(host.querySelector(".board")); // loaded on first use (lazy.js): the board as it is now
})();
