// "Copy" buttons next to a link (data-copy="<input id>"): copies the link and says so on the button.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    input.select();
    var done = function () {
      var text = button.textContent;
      button.textContent = button.dataset.copied;
      setTimeout(function () { button.textContent = text; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });
})();
