/* Pass-and-play relay (R24): while the cover is up the page holds no hand at all
 * (the server renders the cover instead); "Show my tiles" asks the server for this
 * seat's board. The cover takes the focus so the next player can just press Enter.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var host = document.getElementById("board");
  if (!host) return;

  host.addEventListener("click", function (event) {
    var btn = event.target.closest("[data-reveal]");
    if (!btn) return;
    btn.disabled = true;
    MT.reveal(parseInt(btn.dataset.reveal, 10));
  });

  function onBoard(board) {
    var cover = board && board.querySelector(".cover");
    document.documentElement.classList.toggle("has-cover", !!cover);
    if (board) {
      // Everything behind the cover is out of reach (keyboard and screen readers alike).
      var holder = cover ? cover.closest("#cover") : null; // the cover's part (games/board/parts.py)
      Array.prototype.forEach.call(board.children, function (el) {
        if (el !== cover && el !== holder) el.inert = !!cover;
      });
    }
    if (cover) {
      var go = cover.querySelector("[data-reveal]");
      if (go) go.focus({ preventScroll: true });
    }
  }
  MT.afterSwap = MT.afterSwap || [];
  MT.afterSwap.push(onBoard);
})();
