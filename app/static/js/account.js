// The API-token page: copy the new token to the clipboard.
(function () {
  "use strict";
  var button = document.getElementById("copy-token");
  if (!button) return;
  button.addEventListener("click", function () {
    var input = document.getElementById("token");
    var state = document.getElementById("copy-state");
    input.select();
    (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject())
      .then(function () { state.textContent = button.dataset.copied; })
      .catch(function () { state.textContent = button.dataset.selected; });
  });
})();
