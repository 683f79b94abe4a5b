// The exercise page: the editor, the saved draft, Run / Submit and the results shown in place.
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("exercise-config").textContent);
  var results = document.getElementById("results");
  var status = document.getElementById("status-line");
  var draftState = document.getElementById("draft-state");
  var runButton = document.getElementById("run-button");
  var submitButton = document.getElementById("submit-button");
  var resetButton = document.getElementById("reset-button");
  var progress = document.getElementById("progress");
  var submitBlocked = document.getElementById("submit-blocked");
  var budget = document.getElementById("submission-budget");
  var draftKey = "numjudge:draft:" + config.user + ":" + config.exercise;
  var busy = false;

  // N_ marks a text for `make messages`; it is translated (t) where it is shown.
  function N_(text) { return text; }
  var VERDICTS = {
    passed: N_("Passed"), failed: N_("Failed"), error: N_("Error"),
    timeout: N_("Time limit exceeded"), memory_limit: N_("Memory limit exceeded"),
  };

  // The page's words in the reader's language (app/web/i18n.py); {name} takes values[name].
  function t(text, values) {
    var template = (config.messages || {})[text] || text;
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  }

  function loadDraft() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(draftKey) || "null");
      if (saved && typeof saved.code === "string") return saved;
    } catch (err) { /* storage unavailable or corrupt: start from the starter */ }
    return null;
  }

  function saveDraft(code) {
    try {
      window.localStorage.setItem(draftKey, JSON.stringify({ code: code, savedAt: Date.now() }));
      draftState.textContent = t("Draft saved in this browser");
    } catch (err) {
      draftState.textContent = t("Draft could not be saved in this browser");
    }
  }

  var saveTimer = null;
  var pending = null;
  function scheduleSave(code) {
    draftState.textContent = t("Editing…");
    pending = code;
    window.clearTimeout(saveTimer);
    saveTimer = window.setTimeout(flushDraft, 300);
  }

  function flushDraft() {
    window.clearTimeout(saveTimer);
    if (pending !== null) saveDraft(pending);
    pending = null;
  }
  window.addEventListener("pagehide", flushDraft);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") flushDraft();
  });

  var draft = loadDraft();
  var host = document.getElementById("editor");
  var fallback = host.querySelector("textarea");
  var editor;
  if (window.NumjudgeEditor) {
    host.removeChild(fallback);
    editor = window.NumjudgeEditor.create({
      parent: host,
      doc: draft ? draft.code : config.starter,
      label: t("Your solution (Python)"),
      onChange: scheduleSave,
      onRun: function () { send("run"); },
      onSubmit: function () { send("submit"); },
    });
  } else {
    fallback.value = draft ? draft.code : config.starter;
    fallback.addEventListener("input", function () { scheduleSave(fallback.value); });
    editor = { getValue: function () { return fallback.value; },
               setValue: function (v) { fallback.value = v; }, focus: function () { fallback.focus(); } };
  }
  window.numjudgeEditor = editor;
  draftState.textContent = draft ? t("Restored your saved draft") : t("Starter code loaded");

  resetButton.addEventListener("click", function () {
    if (!window.confirm(t("Replace your code with the starter code?"))) return;
    editor.setValue(config.starter);
    saveDraft(config.starter);
    editor.focus();
  });

  // ---- rendering -------------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function fmt(x) {
    return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
  }

  function showError(message, link) {
    results.replaceChildren();
    var box = el("div", { class: "alert error", role: "alert" }, [el("span", { text: message })]);
    if (link) {
      box.appendChild(document.createTextNode(" "));
      box.appendChild(el("a", { href: link.href, text: link.text }));
    }
    results.appendChild(box);
    status.textContent = message;
    revealResults();
  }

  function renderResult(result, kind) {
    results.replaceChildren();
    var verdict = result.verdict || "error";
    var shown = { verdict: t(VERDICTS[verdict] || verdict) };
    var title = kind === "run" ? t("Run: {verdict}", shown) : t("Submission: {verdict}", shown);
    var head = el("div", { class: "verdict " + verdict, "data-verdict": verdict }, [
      el("span", { class: "label", text: title }),
      el("span", { class: "score", text: fmt(result.score) + " / " + fmt(result.max_score) }),
    ]);
    results.appendChild(head);
    if (result.message) {
      results.appendChild(el("div", { class: "alert error" }, [
        el("div", { class: "submission-message", text: result.message }),
      ]));
    }
    // A test's title is its name in the reader's language (the API answers in it).
    var titles = {};
    (result.tests || []).forEach(function (test) { titles[test.name] = test.title || test.name; });
    if (result.diagnosis) {
      var explained = result.diagnosis.cases.map(function (name) { return titles[name] || name; });
      results.appendChild(el("div", { class: "hint diagnosis" }, [
        el("strong", { text: t("Hint") }), document.createTextNode(" "),
        el("span", { class: "muted",
                     text: "(" + t("explains: {cases}", { cases: explained.join(", ") }) + ")" }),
        el("div", { text: result.diagnosis.hint }),
      ]));
    }
    var body = el("tbody");
    (result.tests || []).forEach(function (test) {
      var hidden = test.visibility === "hidden";
      var msg = el("td", { class: "message" });
      // A hidden test's message is the fixed text of its failure category: shown as the API gives it.
      if (hidden) {
        msg.appendChild(el("span", { class: "badge hidden-test", text: t("Hidden test") }));
        msg.appendChild(document.createTextNode(" "));
      }
      msg.appendChild(document.createTextNode(test.message || ""));
      body.appendChild(el("tr", { "data-status": test.status, "data-visibility": test.visibility }, [
        el("td", { text: titles[test.name] }),
        el("td", {}, [el("span", { class: "badge " + test.status, text: t(test.status) })]),
        el("td", { class: "num", text: fmt(test.points) + " / " + fmt(test.max_points) }),
        msg,
      ]));
    });
    var table = el("table", { class: "test-table" }, [
      el("caption", { text: t("{count} tests", { count: (result.tests || []).length }) +
        // A timed-out run's time is the part before the limit struck: beside "time limit
        // exceeded" it would read as the whole.
        (result.duration_ms != null && result.verdict !== "timeout"
          ? t(", graded in {ms} ms", { ms: result.duration_ms }) : "") }),
      el("thead", {}, [el("tr", {}, [
        el("th", { scope: "col", text: t("Test") }), el("th", { scope: "col", text: t("Status") }),
        el("th", { scope: "col", class: "num", text: t("Points") }),
        el("th", { scope: "col", text: t("Message") }),
      ])]),
      body,
    ]);
    results.appendChild(el("div", { class: "table-wrap" }, [table]));
    if (result.output) {
      results.appendChild(el("h3", { text: t("Output (public cases)") }));
      // tabindex: long output scrolls inside its box, which a keyboard must be able to reach.
      results.appendChild(el("pre", { class: "output", tabindex: "0", text: result.output }));
    }
    if (kind === "submit" && result.id) {
      results.appendChild(el("p", {}, [
        el("a", { href: config.historyUrl.replace("__ID__", result.id), text: t("Open this submission in your history") }),
      ]));
      refreshStanding();
    }
    document.dispatchEvent(new CustomEvent("numjudge:result", { detail: result })); // feedback.js
    status.textContent = t("{title}, score {score} of {max}",
                           { title: title, score: fmt(result.score), max: fmt(result.max_score) });
    revealResults();
  }

  // What the schedule counts changed with this submission: the server draws the learner's best
  // and the assignment's banner again (the standings are computed there, and only there), and
  // each part marked data-standing takes the place of the page's.
  function refreshStanding() {
    window.fetch(config.standingUrl, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        if (!html) return;
        var drawn = document.createElement("template");
        drawn.innerHTML = html;
        drawn.content.querySelectorAll("[data-standing]").forEach(function (fresh) {
          var old = document.querySelector('[data-standing="' + fresh.dataset.standing + '"]');
          if (old) old.replaceWith(fresh);
        });
      })
      .catch(function () { /* the page keeps the standing it had; a reload shows the new one */ });
  }

  // Bring the verdict into view on a short screen (the focus stays where it was).
  function revealResults() {
    var first = results.firstElementChild;
    if (!first) return;
    var box = first.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 160) {
      var smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      first.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
    }
  }

  // ---- talking to the server -------------------------------------------------------------
  function detailText(body, fallbackText) {
    if (!body || body.detail == null) return fallbackText;
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) {
      return body.detail.map(function (d) { return d.msg || JSON.stringify(d); }).join("; ");
    }
    return fallbackText;
  }

  function request(url, options) {
    return window.fetch(url, options).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (err) { body = null; }
        return { response: response, body: body };
      });
    });
  }

  function poll(url, deadline) {
    return request(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (!r.response.ok) return r;
        if (r.body && r.body.status === "done") return r;
        if (Date.now() > deadline) return { timeout: true };
        return new Promise(function (resolve) { window.setTimeout(resolve, 250); })
          .then(function () { return poll(url, deadline); });
      });
  }

  // What moves while a grading runs: the elapsed time (the status line tells screen readers
  // once), and the previous result dimmed under a note that it is the old one.
  var ticker = null;
  function startProgress(label) {
    var started = Date.now();
    function tick() {
      progress.textContent = label + " " +
        t("{seconds} s", { seconds: ((Date.now() - started) / 1000).toFixed(1) });
    }
    if (results.firstChild) {
      results.classList.add("stale");
      results.insertBefore(el("p", { class: "stale-note",
        text: t("Previous result: it is replaced when the new one is ready.") }), results.firstChild);
    }
    tick();
    progress.hidden = false;
    ticker = window.setInterval(tick, 100);
  }

  function stopProgress() {
    window.clearInterval(ticker);
    progress.hidden = true;
    results.classList.remove("stale");
    var note = results.querySelector(".stale-note");
    if (note) note.remove();
  }

  // aria-disabled, not disabled: a focused button keeps the focus while the result comes.
  function setBusy(on) {
    [runButton, submitButton].forEach(function (button) {
      if (button.disabled) return;
      if (on) button.setAttribute("aria-disabled", "true");
      else button.removeAttribute("aria-disabled");
    });
  }

  // The schedule's total is used up: Submit is off for good, and says why (Run still works).
  function blockSubmit() {
    submitButton.disabled = true;
    submitButton.setAttribute("aria-describedby", "submit-blocked");
    submitBlocked.hidden = false;
  }

  // One graded submission counted: the last one the schedule allows turns Submit off.
  function countSubmission() {
    if (!budget || budget.dataset.budgetLeft === "") return;
    var left = Math.max(0, Number(budget.dataset.budgetLeft) - 1);
    budget.dataset.budgetLeft = String(left);
    if (left === 0) blockSubmit();
  }

  // The refusal's Retry-After as a time in the schedule's zone and a wait from now: the
  // server's sentence names a UTC offset and seconds, which a learner has to work out.
  function pacedMessage(seconds) {
    var at = new Date(Date.now() + seconds * 1000);
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" };
    if (seconds > 12 * 3600) options.weekday = "short";
    var time;
    try {
      time = new Intl.DateTimeFormat(config.uiLang, Object.assign({ timeZone: config.zone }, options))
        .format(at);
    } catch (err) {  // an unknown zone: the reader's own clock
      time = new Intl.DateTimeFormat(config.uiLang, options).format(at);
    }
    var wait = seconds >= 120 ? t("in {count} minutes", { count: Math.ceil(seconds / 60) })
                              : t("in {count} seconds", { count: seconds });
    return t("Not graded yet: your next graded submission is possible at {time} ({wait}). Run public tests works meanwhile.",
             { time: time, wait: wait });
  }

  function send(kind) {
    if (busy || (kind === "submit" && submitButton.disabled)) return;
    flushDraft();
    var code = editor.getValue();
    if (!code.trim()) {
      showError(kind === "run" ? t("Your code is empty: write your solution before you run.")
                               : t("Your code is empty: write your solution before you submit."));
      return;
    }
    var size = new TextEncoder().encode(code).length;
    if (size > config.maxCodeBytes) {
      showError(t("Your code is too long ({size} bytes); the limit is {limit} bytes.",
                  { size: size, limit: config.maxCodeBytes }));
      return;
    }
    busy = true;
    setBusy(true);
    status.textContent = kind === "run" ? t("Running the public tests…")
                                        : t("Grading your submission…");
    startProgress(status.textContent);
    results.setAttribute("aria-busy", "true");
    request(config[kind + "Url"], {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
                 "X-CSRF-Token": config.csrf },
      body: JSON.stringify({ exercise: config.exercise, code: code }),
    }).then(function (r) {
      if (r.response.ok && r.body && r.body.status !== "done" && r.body.url) {
        return poll(r.body.url, Date.now() + 30000);
      }
      return r;
    }).then(function (r) {
      if (r.timeout) {
        showError(t("The grader is busy: your code is queued. Look for the result in your history."),
                  { href: config.historyListUrl, text: t("Open history") });
      } else if (r.response.status === 401) {
        showError(t("Your session has expired or you were signed out. Your code is kept in this browser."),
                  { href: config.loginUrl, text: t("Sign in again") });
      } else if (kind === "submit" && r.response.status === 429 &&
                 Number(r.response.headers.get("Retry-After")) > 0) {
        showError(pacedMessage(Number(r.response.headers.get("Retry-After"))));
      } else if (kind === "submit" && r.response.status === 403 && budget) {
        blockSubmit();
        showError(submitBlocked.textContent);
      } else if (!r.response.ok) {
        showError(detailText(r.body, t("The server could not grade this (HTTP {status}).",
                                       { status: r.response.status })));
      } else {
        renderResult(r.body, kind);
        if (kind === "submit") countSubmission();
      }
    }).catch(function () {
      showError(t("Could not reach the server. Check your connection and try again; your code is kept."));
    }).then(function () {
      stopProgress();
      busy = false;
      setBusy(false);
      results.removeAttribute("aria-busy");
    });
  }

  runButton.addEventListener("click", function () { send("run"); });
  submitButton.addEventListener("click", function () { send("submit"); });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
    event.preventDefault();
    send(event.shiftKey ? "run" : "submit");
  });
})();
