// What a result looks like in the editor: the web page's table (as webview HTML) and the
// failing tests placed on the lines their messages name. No VS Code import: tests run it as is.
import type { Submission, TestResult } from "./api";

const LABELS: Record<string, string> = {
  passed: "Passed", failed: "Failed", error: "Error", timeout: "Time limit exceeded",
  memory_limit: "Memory limit exceeded", queued: "Queued", running: "Running",
};

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

// A message naming a line of the submission: "raised ValueError on line 7", "(line 5, in f)".
const NAMED_LINE = /\bline (\d+)/;

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
    const line = named ? Number(named[1]) - 1 : -1;
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
    line: lineOf(message), message: `${testsNamed(group.tests)}: ${message}`,
    hints: [...group.hints],
  }));
  if (result.message && result.verdict !== "passed") {
    found.unshift({ line: lineOf(result.message), message: result.message, hints: [] });
  }
  return found;
}

/** The tests a message is about: by name when they are few, else how many (and how many of
 * them are hidden). */
function testsNamed(tests: TestResult[]): string {
  if (tests.length <= 3) {
    return tests.map((test) => test.visibility === "hidden" ? `${test.name} (hidden test)`
      : test.name).join(", ");
  }
  const hidden = tests.filter((test) => test.visibility === "hidden").length;
  if (hidden === tests.length) return `${hidden} hidden tests`;
  return `${tests.length} tests` + (hidden ? ` (${hidden} hidden)` : "");
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
  return `${icon} numjudge: ${id} ${LABELS[state] ?? state} ${scoreText(result)}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function row(test: TestResult): string {
  const hidden = test.visibility === "hidden"
    ? ' <span class="tag hidden" title="a hidden test: its inputs are not shown">hidden</span>'
    : "";
  return `<tr data-status="${test.status}" data-visibility="${test.visibility}">` +
    `<td>${escape(test.name)}${hidden}</td><td><span class="badge ${test.status}">${test.status}</span></td>` +
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
.verdict.queued, .verdict.running { background: #e8effd; color: #1e3a8a; border-color: #b9ccf6; }
table { border-collapse: collapse; margin-top: 0.5rem; width: 100%; }
caption { text-align: left; padding: 0.3rem 0; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem;
  border-bottom: 1px solid rgba(128, 128, 128, 0.35); }
td.num { text-align: right; white-space: nowrap; }
td.message { font-family: var(--vscode-editor-font-family, monospace); white-space: pre-wrap; }
.hint { font-family: var(--vscode-font-family, sans-serif); color: #b26a00; margin: 0.5rem 0; }
.tag.hidden { font-size: 0.8em; border: 1px solid rgba(128, 128, 128, 0.6); border-radius: 4px;
  padding: 0 0.3rem; opacity: 0.85; }
.badge { border-radius: 999px; padding: 0 0.55rem; font-size: 0.85em; font-weight: 600; }
.badge.passed { background: #e7f6ec; color: #166534; }
.badge.failed, .badge.error { background: #fdecea; color: #b42318; }
.message-box { white-space: pre-wrap; background: #fdecea; color: #b42318; padding: 0.6rem 1rem; }
pre.output { background: #111827; color: #e5e7eb; padding: 0.6rem 1rem; white-space: pre-wrap; }`;

/** The results panel's page: verdict and score, the whole-submission message, the tests. */
export function resultsHtml(result: Submission, title: string): string {
  const state = result.verdict ?? result.status;
  const parts = [
    `<h2>${escape(title)} (${result.kind})</h2>`,
    `<div class="verdict ${state}" data-verdict="${state}"><span>${LABELS[state] ?? state}` +
    `</span><span>${escape(scoreText(result))}</span></div>`,
  ];
  if (result.message) parts.push(`<pre class="message-box">${escape(result.message)}</pre>`);
  if (result.diagnosis) {
    parts.push(`<div class="hint diagnosis"><b>Hint: </b>${escape(result.diagnosis.hint)}` +
      ` (explains: ${escape(result.diagnosis.cases.join(", "))})</div>`);
  }
  const tests = result.tests ?? [];
  if (tests.length) {
    const graded = result.duration_ms == null ? "" : `, graded in ${result.duration_ms} ms`;
    const hidden = tests.filter((test) => test.visibility === "hidden").length;
    const count = `${tests.length} tests` + (hidden ? ` (${hidden} hidden)` : "");
    parts.push(`<table class="test-table"><caption>${count}${graded}` +
      "</caption><thead><tr><th>Test</th><th>Status</th><th>Points</th><th>Message</th>" +
      `</tr></thead><tbody>${tests.map(row).join("")}</tbody></table>`);
  }
  if (result.output) {
    parts.push(`<h3>Output (public cases)</h3><pre class="output">${escape(result.output)}</pre>`);
  }
  return `<!DOCTYPE html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; ` +
    `style-src 'unsafe-inline';"><style>${STYLE}</style></head>` +
    `<body>${parts.join("\n")}</body></html>`;
}
