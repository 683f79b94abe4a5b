// Renders the math spans that the server's markdown leaves (class "math inline" / "math block").
(function () {
  "use strict";

  function renderMath(root) {
    if (!window.katex) return;
    root.querySelectorAll(".math.inline, .math.block").forEach(function (el) {
      if (el.dataset.rendered) return;
      var tex = el.textContent.trim();
      try {
        window.katex.render(tex, el, {
          displayMode: el.classList.contains("block"),
          throwOnError: false,
          output: "htmlAndMathml",
        });
        el.dataset.rendered = "true";
        el.setAttribute("data-tex", tex);
      } catch (err) {
        el.textContent = tex;
      }
    });
    markScrollable(root);
  }

  // A display equation wider than the column scrolls sideways: make it reachable by keyboard.
  function markScrollable(root) {
    root.querySelectorAll(".math.block").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "group");
        el.setAttribute("aria-label", "Equation, scrolls sideways");
      } else if (el.getAttribute("role") === "group") {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
    });
  }

  window.numjudgeRenderMath = renderMath;
  document.addEventListener("DOMContentLoaded", function () {
    renderMath(document);
    if (document.fonts && document.fonts.ready) {
      document.fonts.ready.then(function () { markScrollable(document); });
    }
    var timer = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { markScrollable(document); }, 150);
    });
  });
})();
