// The exercise page's feedback beyond the test table: the error pictures of a result's failed
// public tests (drawn on the server, /history/{id}/pictures) and custom inputs
// (POST /exercises/{id}/try). Its words come translated in the page (_custom_inputs.html).
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("exercise-config").textContent);
  var results = document.getElementById("results");

  // exercise.js announces each result it draws; a result with error maps gets its pictures.
  document.addEventListener("numjudge:result", function (event) {
    var result = event.detail;
    var drawn = (result.tests || []).some(function (test) { return test.error_map; });
    if (!drawn || !result.id) return;
    window.fetch(config.picturesUrl.replace("__ID__", result.id),
                 { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        if (!html) return;
        var box = document.createElement("div");
        box.className = "error-pictures-box";
        box.innerHTML = html; // the server's own markup: SVG and tables, no script
        results.appendChild(box);
      })
      .catch(function () { /* the table and messages above already say it all */ });
  });

  var form = document.getElementById("try-form");
  if (!form) return;

  // Each input as tall as its value: CSS field-sizing does it where supported (feedback.css).
  if (!(window.CSS && CSS.supports("field-sizing", "content"))) {
    Array.prototype.forEach.call(form.querySelectorAll("textarea"), function (area) {
      function fit() {
        area.style.height = "auto";
        area.style.height = area.scrollHeight + area.offsetHeight - area.clientHeight + "px";
      }
      area.addEventListener("input", fit);
      fit();
    });
  }
  var out = document.getElementById("try-result");
  var button = document.getElementById("try-button");

  function block(label, text, className) {
    var wrap = document.createElement("div");
    var head = document.createElement("h3");
    head.textContent = label;
    var pre = document.createElement("pre");
    pre.className = className;
    pre.textContent = text;
    wrap.appendChild(head);
    wrap.appendChild(pre);
    return wrap;
  }

  function show(body) {
    out.replaceChildren();
    var message = document.createElement("p");
    message.className = "try-message " + body.status;
    message.setAttribute("data-status", body.status);
    message.textContent = body.message;
    out.appendChild(message);
    var sides = document.createElement("div");
    sides.className = "try-sides";
    sides.appendChild(block(form.dataset.yours, body.yours, "output try-yours"));
    sides.appendChild(block(form.dataset.reference, body.reference, "output try-reference"));
    out.appendChild(sides);
    if (body.output) out.appendChild(block(form.dataset.printed, body.output, "output"));
  }

  function refuse(text) {
    out.replaceChildren();
    var box = document.createElement("div");
    box.className = "alert error";
    box.setAttribute("role", "alert");
    box.textContent = text;
    out.appendChild(box);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (button.getAttribute("aria-disabled") === "true") return;
    var inputs = {};
    Array.prototype.forEach.call(form.querySelectorAll("textarea"), function (area) {
      inputs[area.name] = area.value;
    });
    button.setAttribute("aria-disabled", "true");
    out.textContent = form.dataset.busy;
    window.fetch(form.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
                 "X-CSRF-Token": config.csrf },
      body: JSON.stringify({ code: window.numjudgeEditor.getValue(), inputs: inputs }),
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (body) {
        if (response.ok && body) show(body);
        else refuse(body && typeof body.detail === "string" ? body.detail
                    : form.dataset.failed.replace("{status}", response.status));
      });
    }).catch(function () {
      refuse(form.dataset.failed.replace("{status}", "—"));
    }).then(function () { button.removeAttribute("aria-disabled"); });
  });
})();
