// What a result looks like in the editor: the web page's table (as webview HTML) and the
// failing tests placed on the lines their messages name, in the learner's language
// (@vscode/l10n, the bundle extension.ts loads). No VS Code import: tests run it as is.
import * as l10n from "@vscode/l10n";
import { Kind, type Language, type Submission, type TestResult } from "./api";

/** A verdict's or a state's words, as the web pages say them. */
function label(state: string): string {
  switch (state) {
    case "passed": return l10n.t("Passed");
    case "failed": return l10n.t("Failed");
    case "error": return l10n.t("Error");
    case "timeout": return l10n.t("Time limit exceeded");
    case "memory_limit": return l10n.t("Memory limit exceeded");
    case "queued": return l10n.t("Queued");
    case "running": return l10n.t("Running");
    default: return state;
  }
}

/** The first line of a file opened by "Open exercise" names its exercise. */
export const HEADER = /^#\s*numjudge:\s*([A-Za-z0-9_.-]+)/;

export function exerciseHeader(id: string, title: string): string {
  return `# numjudge: ${id} (${title})\n`;
}

export function exerciseOf(source: string): string | undefined {
  return HEADER.exec(source.split("\n", 1)[0])?.[1];
}

export interface Problem {
  line: number; // zero-based
  message: string;
  hints: string[];
}

// A message naming a line of the submission, in English ("raised ValueError on line 7",
// "(line 5, in f)") or in Japanese ("7 行目で ValueError が発生しました").
const NAMED_LINE = /\bline (\d+)|(\d+)\s*行目/;

/** One problem per distinct message (the tests it failed named in it), on the line the message
 * names, else on the line that defines the entry function (else the first line); the
 * submission's one hint goes with the failing tests it explains. A time limit that stops ten
 * tests is one problem, not ten. */
export function problems(result: Submission, source: string, entry: string): Problem[] {
  const lines = source.split("\n");
  const definition = new RegExp(`^\\s*(async\\s+)?def\\s+${entry}\\s*\\(`);
  const entryLine = Math.max(lines.findIndex((line) => definition.test(line)), 0);
  const lineOf = (message: string): number => {
    const named = NAMED_LINE.exec(message);
    const line = named ? Number(named[1] ?? named[2]) - 1 : -1;
    return line >= 0 && line < lines.length ? line : entryLine;
  };
  const diagnosis = result.diagnosis;
  const byMessage = new Map<string, { tests: TestResult[]; hints: Set<string> }>();
  for (const test of (result.tests ?? []).filter((test) => test.status !== "passed")) {
    const message = test.message || test.status;
    const group = byMessage.get(message) ?? { tests: [], hints: new Set<string>() };
    group.tests.push(test);
    if (diagnosis && diagnosis.cases.includes(test.name)) group.hints.add(diagnosis.hint);
    byMessage.set(message, group);
  }
  const found = [...byMessage].map(([message, group]) => ({
    line: lineOf(message),
    message: l10n.t("{tests}: {message}", { tests: testsNamed(group.tests), message }),
    hints: [...group.hints],
  }));
  if (result.message && result.verdict !== "passed") {
    found.unshift({ line: lineOf(result.message), message: result.message, hints: [] });
  }
  return found;
}

/** A test's name in the reader's language (the server's `title`), else its name. */
function testTitle(test: TestResult): string {
  return test.title || test.name;
}

/** The tests a message is about: by name when they are few, else how many (and how many of
 * them are hidden). */
function testsNamed(tests: TestResult[]): string {
  if (tests.length <= 3) {
    return tests.map((test) => test.visibility === "hidden"
      ? l10n.t("{test} (hidden test)", { test: testTitle(test) }) : testTitle(test))
      .join(l10n.t(", "));
  }
  return testCount(tests);
}

/** "26 tests (11 hidden)", "11 hidden tests", "15 tests". */
function testCount(tests: TestResult[]): string {
  const hidden = tests.filter((test) => test.visibility === "hidden").length;
  if (hidden === tests.length) return l10n.t("{count} hidden tests", { count: hidden });
  return hidden ? l10n.t("{count} tests ({hidden} hidden)", { count: tests.length, hidden })
    : l10n.t("{count} tests", { count: tests.length });
}

/** Where a line of the code that was graded is now, after edits made while it was graded: the
 * same line if it still reads the same, else the nearest line that does, else the nearest line
 * that exists. */
export function relocate(line: number, graded: string[], current: string[]): number {
  const text = graded[line];
  for (let distance = 0; distance < current.length; distance++) {
    for (const candidate of [line - distance, line + distance]) {
      if (candidate >= 0 && candidate < current.length && current[candidate] === text) {
        return candidate;
      }
    }
  }
  return Math.min(Math.max(line, 0), Math.max(current.length - 1, 0));
}

export function scoreText(result: Submission): string {
  return result.score == null || result.max_score == null
    ? "–" : `${result.score} / ${result.max_score}`;
}

/** The status bar's text after a result, until the next run: the verdict and score at a glance
 * once the panel is closed. */
export function statusText(result: Submission, id: string): string {
  const state = result.verdict ?? result.status;
  const icon = state === "passed" ? "$(pass)" : "$(error)";
  return `${icon} numjudge: ${id} ${label(state)} ${scoreText(result)}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function row(test: TestResult): string {
  const hidden = test.visibility === "hidden"
    ? ` <span class="tag hidden" title="${escape(l10n.t("a hidden test: its inputs are not shown"))}">${escape(l10n.t("hidden"))}</span>`
    : "";
  return `<tr data-status="${test.status}" data-visibility="${test.visibility}">` +
    `<td>${escape(testTitle(test))}${hidden}</td>` +
    `<td><span class="badge ${test.status}">${escape(label(test.status))}</span></td>` +
    `<td class="num">${test.points} / ${test.max_points}</td>` +
    `<td class="message">${escape(test.message ?? "")}</td></tr>`;
}

// The web page's colours (app/static/css/numjudge.css); VS Code's theme supplies the text colour.
const STYLE = `
body { font-family: var(--vscode-font-family, sans-serif); padding: 0.5rem 1rem; }
.verdict { display: flex; justify-content: space-between; padding: 0.6rem 1rem; border-radius: 8px;
  font-weight: 700; border: 1px solid; }
.verdict.passed { background: #e7f6ec; color: #166534; border-color: #a7d8b5; }
.verdict.failed, .verdict.error, .verdict.timeout, .verdict.memory_limit {
  background: #fdecea; color: #b42318; border-color: #f3b4ad; }
.verdict.queued, .verdict.running, .verdict.grading {
  background: #e8effd; color: #1e3a8a; border-color: #b9ccf6; }
.verdict.cancelled { background: #fff7e6; color: #8a4b00; border-color: #f5d39b; }
table { border-collapse: collapse; margin-top: 0.5rem; width: 100%; }
caption { text-align: left; padding: 0.3rem 0; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem;
  border-bottom: 1px solid rgba(128, 128, 128, 0.35); }
td.num { text-align: right; white-space: nowrap; }
td.message { font-family: var(--vscode-editor-font-family, monospace); white-space: pre-wrap; }
.hint { font-family: var(--vscode-font-family, sans-serif); color: #b26a00; margin: 0.5rem 0; }
.tag.hidden { font-size: 0.8em; border: 1px solid rgba(128, 128, 128, 0.6); border-radius: 4px;
  padding: 0 0.3rem; opacity: 0.85; }
.badge { border-radius: 999px; padding: 0 0.55rem; font-size: 0.85em; font-weight: 600;
  white-space: nowrap; }
.badge.passed { background: #e7f6ec; color: #166534; }
.badge.failed, .badge.error { background: #fdecea; color: #b42318; }
.message-box { white-space: pre-wrap; background: #fdecea; color: #b42318; padding: 0.6rem 1rem; }
pre.output { background: #111827; color: #e5e7eb; padding: 0.6rem 1rem; white-space: pre-wrap; }`;

/** The results panel's heading: the exercise and whether it is a submission or a run. */
function heading(title: string, kind: Kind): string {
  return `<h2>${escape(kind === Kind.Submit ? l10n.t("{exercise} (submission)", { exercise: title })
    : l10n.t("{exercise} (public tests)", { exercise: title }))}</h2>`;
}

/** A whole page of the panel, in `language` (which picks the fonts of its script). */
function page(language: Language, parts: string[]): string {
  return `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; ` +
    `style-src 'unsafe-inline';"><style>${STYLE}</style></head>` +
    `<body>${parts.join("\n")}</body></html>`;
}

/** What the panel shows between results: never the last result, which is no longer the
 * code's. */
export enum PanelState {
  Grading = "grading", // sent, the result not in yet
  Failed = "error", // no result: the server refused, or could not be reached
  Cancelled = "cancelled", // the learner stopped waiting; the server goes on grading
}

/** The panel while there is no result: grading (as soon as a grade starts), the reason
 * there is none, or the page where the result of a cancelled wait will be. */
export function stateHtml(state: PanelState, title: string, kind: Kind, language: Language,
                          detail = "", link?: string): string {
  const headline = {
    [PanelState.Grading]: kind === Kind.Submit ? l10n.t("Grading your submission…")
      : l10n.t("Running the public tests…"),
    [PanelState.Failed]: l10n.t("No result"),
    [PanelState.Cancelled]: l10n.t("Stopped waiting"),
  }[state];
  const parts = [
    heading(title, kind),
    `<div class="verdict ${state}" data-state="${state}"><span>${escape(headline)}</span></div>`,
  ];
  // a failure in the colours of a failed result's message; anything else as a sentence
  if (detail) {
    parts.push(state === PanelState.Failed ? `<pre class="message-box">${escape(detail)}</pre>`
      : `<p class="detail">${escape(detail)}</p>`);
  }
  if (link) parts.push(`<p><a class="submission-page" href="${escape(link)}">${escape(link)}</a></p>`);
  return page(language, parts);
}

/** The results panel's page: verdict and score, the whole-submission message, the tests. */
export function resultsHtml(result: Submission, title: string, language: Language): string {
  const state = result.verdict ?? result.status;
  const parts = [
    heading(title, result.kind === Kind.Submit ? Kind.Submit : Kind.Run),
    `<div class="verdict ${state}" data-verdict="${state}"><span>${escape(label(state))}` +
    `</span><span>${escape(scoreText(result))}</span></div>`,
  ];
  if (result.message) parts.push(`<pre class="message-box">${escape(result.message)}</pre>`);
  const tests = result.tests ?? [];
  if (result.diagnosis) {
    const titles = new Map(tests.map((test) => [test.name, testTitle(test)]));
    const explained = result.diagnosis.cases.map((name) => titles.get(name) ?? name);
    parts.push(`<div class="hint diagnosis"><b>${escape(l10n.t("Hint: "))}</b>` +
      escape(l10n.t("{hint} (explains: {tests})", { hint: result.diagnosis.hint,
                                                    tests: explained.join(l10n.t(", ")) })) +
      "</div>");
  }
  if (tests.length) {
    const caption = result.duration_ms == null ? testCount(tests)
      : l10n.t("{tests}, graded in {ms} ms", { tests: testCount(tests), ms: result.duration_ms });
    const columns = [l10n.t("Test"), l10n.t("Status"), l10n.t("Points"), l10n.t("Message")];
    parts.push(`<table class="test-table"><caption>${escape(caption)}</caption><thead><tr>` +
      columns.map((column) => `<th>${escape(column)}</th>`).join("") +
      `</tr></thead><tbody>${tests.map(row).join("")}</tbody></table>`);
  }
  if (result.output) {
    parts.push(`<h3>${escape(l10n.t("Output (public cases)"))}</h3>` +
      `<pre class="output">${escape(result.output)}</pre>`);
  }
  return page(language, parts);
}
