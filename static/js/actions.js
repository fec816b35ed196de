/* The action bar and the table's commands: Confirm engine (R7), Draw with its
 * face-down preview (R15), Pass, End first turn with its preview (R9), and
 * Hint, Undo, Redo, Restart, Next round, Play again (R23, R27–R29), and a choice that is
 * a command of its own (select[data-choose], as who takes a left seat in the new match).
 *
 * Buttons exist only when the server offers them (data-act / data-cmd); a
 * button with data-dialog opens its confirmation (an in-page <dialog>) first.
 */
(function () {
  "use strict";
  var MT = (window.MT = window.MT || {});
  var host = document.getElementById("table");
  if (!host) return;

  function seatOf(el) {
    var raw = el.dataset.seat;
    if (raw === undefined || raw === "") {
      var b = MT.board && MT.board();
      raw = b ? b.dataset.seat : "";
    }
    return raw === "" || raw === undefined ? null : parseInt(raw, 10);
  }
  function openDialog(id) {
    var dialog = document.getElementById(id);
    if (!dialog) return;
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute("open", "");
    var first = dialog.querySelector(".btn--primary, [data-close]");
    if (first) first.focus();
  }
  MT.openDialog = openDialog;

  host.addEventListener("click", function (event) {
    var el = event.target.closest("[data-act], [data-confirm-act], [data-cmd], [data-dialog], [data-close]");
    if (!el || el.closest(".htile")) return;
    if (el.hasAttribute("data-close")) {
      var dialog = el.closest("dialog");
      if (dialog) dialog.close();
      return;
    }
    if (el.hasAttribute("data-dialog") && !el.hasAttribute("data-act")) {
      var inMenu = el.closest("details");
      if (inMenu) inMenu.open = false;
      openDialog(el.dataset.dialog);
      return;
    }
    if (el.hasAttribute("data-act")) {
      if (el.dataset.dialog) { openDialog(el.dataset.dialog); return; } // previewed, then confirmed
      var seat = seatOf(el);
      if (seat !== null) MT.act(seat, { seat: seat, act: el.dataset.act });
      return;
    }
    if (el.hasAttribute("data-confirm-act")) {
      var s = seatOf(el);
      var box = el.closest("dialog");
      if (box) {
        box.classList.add("is-flipping");
        box.close();
      }
      if (s !== null) MT.act(s, { seat: s, act: el.dataset.confirmAct });
      return;
    }
    var cmd = el.dataset.cmd;
    if (cmd === "hint") {
      var me = seatOf(el);
      if (me !== null) MT.hint(me);
      return;
    }
    var menu = el.closest("details");
    if (menu) menu.open = false;
    var asked = el.closest("dialog"); // a command confirmed in its dialog (Restart round)
    if (asked) asked.close();
    if (el.dataset.ask) { MT.answer(cmd, parseInt(el.dataset.ask, 10)); return; }
    MT.command(cmd);
  });

  // A choice that is a command of its own (select[data-choose]): the command named there,
  // its chosen value as the field data-field names, and the seat of data-seat when it has one
  // (the creator's choice of who takes a left seat in the new match, R29).
  host.addEventListener("change", function (event) {
    var el = event.target.closest("select[data-choose]");
    if (!el || !el.dataset.field) return;
    var message = { type: el.dataset.choose };
    message[el.dataset.field] = el.value;
    if (el.dataset.seat !== undefined && el.dataset.seat !== "") message.seat = parseInt(el.dataset.seat, 10);
    MT.request(message);
  });
})();
