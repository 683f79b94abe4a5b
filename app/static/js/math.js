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

  // A display equation, a table or a code block wider than the column scrolls sideways: make
  // it reachable by keyboard. Only an equation becomes a labelled group (a table keeps its
  // own role); data-scrolls marks what this function made focusable, to undo on a resize.
  function markScrollable(root) {
    root.querySelectorAll(".math.block, .prose table, .prose pre").forEach(function (el) {
      var equation = el.classList.contains("math");
      if (el.scrollWidth > el.clientWidth + 1) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("data-scrolls", "");
        if (equation) {
          el.setAttribute("role", "group");
          el.setAttribute("aria-label", "Equation, scrolls sideways");
        }
      } else if (el.hasAttribute("data-scrolls")) {
        el.removeAttribute("tabindex");
        el.removeAttribute("data-scrolls");
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
