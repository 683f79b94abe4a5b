// The editor glue with the VS Code API stubbed at its boundary, against the live server.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, test } from "node:test";
import * as stub from "./vscode-stub";
import { activate } from "../src/extension";
import { ApiClient, Kind } from "../src/api";
import { EXERCISE, SERVER, TOKEN, exerciseFile } from "./live";

stub.settings["numjudge.serverUrl"] = SERVER + "/";
activate(stub.context as never);
beforeEach(stub.reset);

async function run(command: string): Promise<void> {
  const handler = stub.commands.get(command);
  assert.ok(handler, `${command} is not registered`);
  await handler();
}

const WORKSPACE = mkdtempSync(join(tmpdir(), "numjudge-workspace-"));
const PACKAGE = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"));

test("the commands are registered, declared, and disposed with the extension", () => {
  const commands = ["numjudge.cancel", "numjudge.openExercise", "numjudge.refresh",
                    "numjudge.run", "numjudge.signIn", "numjudge.signOut", "numjudge.statement",
                    "numjudge.submit"];
  assert.deepEqual([...stub.commands.keys()].sort(), commands);
  assert.deepEqual(PACKAGE.contributes.commands.map((c: { command: string }) => c.command).sort(),
                   commands);
  // the diagnostics, status bar item, panel, catalog and its view; the commands; 3 listeners
  assert.equal(stub.context.subscriptions.length, 5 + commands.length + 3);
});

test("the key bindings apply in an exercise file only, never over the find widget's", () => {
  // Ctrl+Alt+Enter is the find widget's Replace All: with it open, the editor's own wins.
  for (const binding of PACKAGE.contributes.keybindings) {
    assert.equal(binding.when, "editorTextFocus && numjudge.exerciseFile && !findWidgetVisible");
  }
  const [onEditor] = stub.listeners.activeEditor;
  onEditor({ document: new stub.Document(`# numjudge: ${EXERCISE}\nx = 1\n`) });
  onEditor({ document: new stub.Document("import numpy as np\n") });
  onEditor(undefined);
  assert.deepEqual(stub.executed, [["setContext", "numjudge.exerciseFile", true],
                                   ["setContext", "numjudge.exerciseFile", false],
                                   ["setContext", "numjudge.exerciseFile", false]]);
});

test("grading before signing in says how to sign in", async () => {
  stub.window.activeTextEditor = { document: new stub.Document(`# numjudge: ${EXERCISE}\nx = 1\n`) };
  await run("numjudge.submit");
  assert.equal(stub.messages.error.length, 1);
  assert.match(stub.messages.error[0], /^Not signed in: run "numjudge: Sign in" with a token from http:\/\/127\.0\.0\.1:\d+\/account\.$/);
});

test("a wrong token is refused in words and not kept", async () => {
  stub.answers.inputBox = "nj_wrong";
  await run("numjudge.signIn");
  assert.equal(stub.inputBoxOptions?.password, true);
  assert.match(stub.messages.error[0], /refused the token \(Invalid, expired or revoked API token\)/);
  assert.equal(stub.secrets.size, 0);
});

test("sign in keeps the token in SecretStorage for the configured server", async () => {
  stub.answers.inputBox = ` ${TOKEN} `;
  await run("numjudge.signIn");
  assert.deepEqual([...stub.secrets.entries()], [[`numjudge.token ${SERVER}`, TOKEN]]);
  assert.deepEqual(stub.messages.info, [`numjudge: signed in to ${SERVER}.`]);
  assert.deepEqual(stub.messages.error, []);
});

test("open exercise needs a folder to keep the exercise in", async () => {
  await run("numjudge.openExercise");
  assert.deepEqual(stub.messages.error, [
    "Open a folder first (File > Open Folder): numjudge keeps each exercise there as " +
    "numjudge/<exercise>.py."]);
});

test("open exercise makes numjudge/<id>.py from the starter once, then reopens the work",
     async () => {
  stub.workspace.workspaceFolders = [{ uri: stub.Uri.file(WORKSPACE) }];
  let offered: string[] = [];
  stub.answers.quickPick = (items) => {
    offered = items.map((item) => item.description);
    return items.find((item) => item.id === EXERCISE);
  };
  await run("numjudge.openExercise");
  assert.deepEqual(stub.messages.error, []);
  assert.ok(offered.includes(EXERCISE), String(offered));
  const path = join(WORKSPACE, "numjudge", `${EXERCISE}.py`);
  const document = stub.opened.at(-1);
  assert.ok(document);
  assert.equal(document.uri.toString(), `file://${path}`);
  assert.equal(stub.window.activeTextEditor?.document, document);
  const [first, ...rest] = document.getText().split("\n");
  assert.match(first, /^# numjudge: gru-update-gate \(.+\)$/);
  assert.equal(rest.join("\n"), exerciseFile("starter.py"));
  // the statement, beside the code, in VS Code's Markdown preview
  const statement = join(WORKSPACE, "numjudge", `${EXERCISE}.md`);
  assert.equal(readFileSync(statement, "utf8"), exerciseFile("statement.md"));
  assert.deepEqual(stub.executed.map((call) => String(call[0])),
                   ["markdown.showPreviewToSide"]);
  assert.equal(String(stub.executed[0][1]), `file://${statement}`);

  writeFileSync(path, `${first}\ndef update_gate(x_t, h_prev, W_z, b_z):\n    return 0  # my work\n`);
  await run("numjudge.openExercise");
  assert.match(stub.opened.at(-1)?.getText() ?? "", /# my work/);
});

test("the statement comes in the language of the settings", async () => {
  stub.configure("numjudge.language", "ja");
  try {
    stub.window.activeTextEditor = { document: new stub.Document(`# numjudge: ${EXERCISE}\n`) };
    await run("numjudge.statement");
  } finally {
    stub.configure("numjudge.language", undefined);
  }
  assert.deepEqual(stub.messages.error, []);
  const statement = join(WORKSPACE, "numjudge", `${EXERCISE}.md`);
  assert.equal(readFileSync(statement, "utf8"), exerciseFile("statement.ja.md"));
});

test("a failing submission: diagnostics on the entry line with hints, the table, the status bar",
     async () => {
  const source = `# numjudge: ${EXERCISE}\n` + exerciseFile("mistakes/one_minus_z.py");
  stub.window.activeTextEditor = { document: new stub.Document(source, "python", "file:///gate.py") };
  await run("numjudge.submit");
  assert.deepEqual(stub.messages.error, []);
  assert.deepEqual(stub.events.slice(0, -1), ["diagnostics cleared", "panel html",
                                 `status shown: $(sync~spin) numjudge: grading ${EXERCISE}… ` +
                                 "(click to cancel)",
                                 `progress: numjudge: grading ${EXERCISE}…`, "panel html",
                                 "diagnostics set", "panel html"]);
  // grading, then grading with the submission's page once the server has it, then the result
  const [grading, sent] = stub.panels.at(-1)?.shown.slice(-3) ?? [];
  assert.match(grading, /data-state="grading"><span>Grading your submission…<\/span>/);
  assert.doesNotMatch(grading, /submission-page/);
  assert.match(sent, new RegExp(`<a class="submission-page" href="${SERVER}/history/[0-9a-f]+">`));
  // the verdict and score stay in the status bar until the next run
  assert.match(stub.events.at(-1) ?? "",
               new RegExp(`^status shown: \\$\\(error\\) numjudge: ${EXERCISE} Failed \\d+ / 26$`));
  const entryLine = source.split("\n").findIndex((line) => line.startsWith("def update_gate("));
  const problems = stub.diagnostics.get("file:///gate.py") ?? [];
  assert.ok(problems.length > 0);
  for (const problem of problems) {
    assert.equal(problem.range.start.line, entryLine);
    assert.equal(problem.severity, stub.DiagnosticSeverity.Error);
    assert.equal(problem.source, "numjudge");
    assert.match(problem.relatedInformation?.[0].message ?? "", /^Hint: Your gate and the expected one add up to 1/);
  }
  assert.match(problems[0].message, /^numerical example: values: 3 of 3 elements/);
  assert.match(problems.at(-1)?.message ?? "", /hidden tests?\b/);
  assert.equal(new Set(problems.map((problem) => problem.message)).size, problems.length);
  const html = stub.panels.at(-1)?.html ?? "";
  assert.match(html, /<div class="verdict failed" data-verdict="failed"><span>Failed<\/span>/);
  assert.match(html, /<tr data-status="failed" data-visibility="hidden"><td>[^<]+ <span class="tag hidden"/);
  assert.match(html, /<caption>\d+ tests \(\d+ hidden\), graded in/);
  assert.match(html, /Hint: <\/b>Your gate and the expected one add up to 1/);
  if (process.env.NUMJUDGE_PANEL_HTML) writeFileSync(process.env.NUMJUDGE_PANEL_HTML, html);
});

test("a passing run clears the diagnostics and reuses the panel", async () => {
  const source = `# numjudge: ${EXERCISE}\n` + exerciseFile("solution.py");
  stub.window.activeTextEditor = { document: new stub.Document(source, "python", "file:///gate.py") };
  await run("numjudge.run");
  assert.deepEqual(stub.messages.error, []);
  assert.equal(stub.events[2], `status shown: $(sync~spin) numjudge: running ${EXERCISE}… ` +
               "(click to cancel)");
  assert.match(stub.panels[0].shown.at(-3) ?? "", /<span>Running the public tests…<\/span>/);
  assert.match(stub.events.at(-1) ?? "",
               new RegExp(`^status shown: \\$\\(pass\\) numjudge: ${EXERCISE} Passed (\\d+) / \\1$`));
  assert.deepEqual(stub.diagnostics.get("file:///gate.py"), []);
  assert.equal(stub.panels.length, 1);
  assert.match(stub.panels[0].html, /data-verdict="passed"/);
  assert.doesNotMatch(stub.panels[0].html, /data-visibility="hidden"/);
});

test("a file without the exercise line, and no file at all, are explained", async () => {
  stub.window.activeTextEditor = { document: new stub.Document("x = 1\n") };
  await run("numjudge.run");
  stub.window.activeTextEditor = undefined;
  await run("numjudge.submit");
  assert.deepEqual(stub.messages.error, [
    'The first line of this file does not name an exercise: write "# numjudge: EXERCISE-ID" ' +
    'there, or start from "numjudge: Open exercise".',
    'Open the Python file of an exercise first ("numjudge: Open exercise" makes one).']);
  assert.deepEqual(stub.events, []);
});

test("an unknown exercise named on the first line gives the server's sentence", async () => {
  stub.window.activeTextEditor = { document: new stub.Document("# numjudge: nope\nx = 1\n") };
  await run("numjudge.submit");
  assert.deepEqual(stub.messages.error, ["The server refused (404): Exercise 'nope' not found"]);
  assert.deepEqual(stub.events, ["diagnostics cleared", "panel html",
                                 "status shown: $(sync~spin) numjudge: grading nope… " +
                                 "(click to cancel)",
                                 "progress: numjudge: grading nope…", "status hidden",
                                 "panel html"]);
  // the panel says why there is no result, and shows no earlier one
  const html = stub.panels[0].html;
  assert.match(html, /<div class="verdict error" data-state="error"><span>No result<\/span>/);
  assert.match(html, /<pre class="message-box">The server refused \(404\): Exercise &#39;nope&#39; not found<\/pre>/);
  assert.doesNotMatch(html, /data-verdict|test-table/);
});

const RAISING = `# numjudge: ${EXERCISE}
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    return checked(h_prev)


def checked(h):
    width = np.shape(h)[-1]
    raise ValueError(f"not yet: {width}")
`;

test("a message naming a line is placed there, once for all the tests it fails", async () => {
  const document = new stub.Document(RAISING, "python", "file:///raising.py");
  stub.window.activeTextEditor = { document };
  await run("numjudge.submit");
  assert.deepEqual(stub.messages.error, []);
  const problems = stub.diagnostics.get("file:///raising.py") ?? [];
  const lines = RAISING.split("\n");
  const raiseLine = lines.findIndex((line) => line.includes("raise ValueError"));
  const entryLine = lines.findIndex((line) => line.startsWith("def update_gate"));
  assert.deepEqual(problems.map((problem) => problem.range.start.line), [raiseLine, entryLine]);
  assert.deepEqual(problems.map((problem) => problem.message), [
    `numerical example, batch of two: raised ValueError on line ${raiseLine + 1}: not yet: 3`,
    "11 hidden tests: raised an exception (details are not shown for hidden tests)"]);

  // An errored run leaves no problems of the last one behind.
  document.text = RAISING.replace(EXERCISE, "nope");
  await run("numjudge.submit");
  assert.equal(stub.messages.error.length, 1);
  assert.equal(stub.diagnostics.has("file:///raising.py"), false);
});

test("editing the file while it is graded keeps the result, the problems on the lines moved",
     async () => {
  const document = new stub.Document(RAISING, "python", "file:///edited.py");
  stub.window.activeTextEditor = { document };
  const grading = run("numjudge.submit");
  document.text = RAISING.replace("import numpy as np\n", "import numpy as np\n\n# a note\n");
  await grading;
  assert.deepEqual(stub.messages.error, []);
  const lines = document.text.split("\n");
  assert.deepEqual((stub.diagnostics.get("file:///edited.py") ?? [])
    .map((problem) => problem.range.start.line),
    [lines.findIndex((line) => line.includes("raise")),
     lines.findIndex((line) => line.startsWith("def update_gate"))]);

  const shortened = run("numjudge.submit"); // the line named is gone: the nearest that exists
  document.text = `# numjudge: ${EXERCISE}\n`;
  await shortened;
  assert.deepEqual(stub.messages.error, []);
  assert.deepEqual((stub.diagnostics.get("file:///edited.py") ?? [])
    .map((problem) => problem.range.start.line), [1, 1]);
  assert.match(stub.panels[0].html, /data-verdict="failed"/);
});

/** Resolves once the results panel's page says `what` (the grade goes on meanwhile). */
async function panelSays(what: RegExp): Promise<void> {
  while (!what.test(stub.panels[0]?.html ?? "")) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("one grade at a time, and cancel stops the wait", async () => {
  const source = `# numjudge: ${EXERCISE}\n` + exerciseFile("solution.py");
  stub.window.activeTextEditor = { document: new stub.Document(source, "python", "file:///c.py") };
  const first = run("numjudge.submit");
  await run("numjudge.run");
  assert.deepEqual(stub.messages.error, [
    `numjudge is still grading ${EXERCISE}: wait for its result, or stop waiting with ` +
    '"numjudge: Cancel".']);
  await run("numjudge.cancel"); // before the code was sent: nothing is
  await first;
  assert.deepEqual(stub.messages.info, ["numjudge: cancelled; nothing was sent."]);
  assert.equal(stub.events.at(-2), "status hidden");
  assert.match(stub.panels[0].html, /data-state="cancelled"><span>Stopped waiting<\/span><\/div>\n<p class="detail">Nothing was sent\.<\/p><\/body>/);
  assert.equal(stub.diagnostics.has("file:///c.py"), false);

  await run("numjudge.cancel"); // nothing left to cancel
  assert.equal(stub.messages.info.at(-1), "numjudge: nothing is being graded.");
  await run("numjudge.run"); // and the next grade runs
  assert.deepEqual(stub.diagnostics.get("file:///c.py"), []);
});

test("the progress notification's cancel, once the code is sent, links the submission the " +
     "server goes on grading", async () => {
  const slow = `# numjudge: ${EXERCISE}\nimport time\ntime.sleep(2)\n` + exerciseFile("solution.py");
  stub.window.activeTextEditor = { document: new stub.Document(slow, "python", "file:///s.py") };
  stub.answers.message = "Open its page";
  const grading = run("numjudge.submit");
  await panelSays(/class="submission-page"/);
  const page = /href="([^"]+)"/.exec(stub.panels[0].html)?.[1] ?? "";
  assert.match(page, new RegExp(`^${SERVER}/history/[0-9a-f]+$`));
  assert.ok(stub.progress.cancel, "the notification has a Cancel button");
  stub.progress.cancel();
  await grading;
  assert.deepEqual(stub.messages.error, []);
  assert.deepEqual(stub.messages.info, ["numjudge: cancelled. The server goes on grading " +
                                        `what was sent; its result will be on ${page}`]);
  const html = stub.panels[0].html;
  assert.match(html, /data-state="cancelled"><span>Stopped waiting<\/span>/);
  assert.match(html, new RegExp(`<a class="submission-page" href="${page}">`));
  assert.doesNotMatch(html, /data-verdict/);
  await new Promise((resolve) => setImmediate(resolve)); // the button's answer
  assert.deepEqual(stub.opensExternal, [page]);
  // the server has it and goes on: it is the learner's submission of this code
  const submission = await new ApiClient(SERVER, TOKEN).result(page.split("/").at(-1) ?? "");
  assert.equal(submission.exercise, EXERCISE);
  assert.equal(submission.kind, "submit");
});

test("in Japanese: the server's results, messages and hints, the extension's own words, and " +
     "the lines Japanese messages name", async () => {
  stub.configure("numjudge.language", "ja");
  try {
    const document = new stub.Document(RAISING, "python", "file:///ja.py");
    stub.window.activeTextEditor = { document };
    await run("numjudge.submit");
    assert.deepEqual(stub.messages.error, []);
    const lines = RAISING.split("\n");
    const raiseLine = lines.findIndex((line) => line.includes("raise ValueError"));
    const entryLine = lines.findIndex((line) => line.startsWith("def update_gate"));
    const problems = stub.diagnostics.get("file:///ja.py") ?? [];
    assert.deepEqual(problems.map((problem) => problem.range.start.line), [raiseLine, entryLine]);
    assert.equal(problems[0].message, "数値例、大きさ 2 のバッチ：" +
                 `${raiseLine + 1} 行目で ValueError が発生しました：not yet: 3`);
    assert.match(problems[1].message, /^非公開テスト 11 件：/);
    assert.match(stub.events[2], /^status shown: \$\(sync~spin\) numjudge：gru-update-gate を採点しています… （クリックで待機をやめる）$/);
    assert.match(stub.events.at(-1) ?? "", /^status shown: \$\(error\) numjudge: gru-update-gate 不正解 0 \/ 26$/);
    const html = stub.panels.at(-1)?.html ?? "";
    assert.match(html, /^<!DOCTYPE html><html lang="ja">/);
    assert.match(html, /<span>不正解<\/span>/);
    assert.match(html, /<th>テスト<\/th><th>状態<\/th><th>得点<\/th><th>メッセージ<\/th>/);
    assert.match(html, /<caption>テスト 13 件（うち非公開 11 件）、採点時間 \d+ ミリ秒<\/caption>/);

    // a mistake's hint, in the exercise's Japanese
    document.text = `# numjudge: ${EXERCISE}\n` + exerciseFile("mistakes/one_minus_z.py");
    await run("numjudge.submit");
    const hinted = stub.diagnostics.get("file:///ja.py") ?? [];
    assert.match(hinted[0].relatedInformation?.[0].message ?? "",
                 /^ヒント：あなたのゲートと期待されるゲートは、どの要素でも足すと 1 になります/);

    await run("numjudge.cancel");
    assert.equal(stub.messages.info.at(-1), "numjudge：採点中のものはありません。");
  } finally {
    stub.configure("numjudge.language", undefined);
  }
});

test("by default, VS Code's display language", async () => {
  for (const [display, said] of [["ja", "numjudge：採点中のものはありません。"],
                                 ["en-us", "numjudge: nothing is being graded."]]) {
    stub.env.language = display;
    stub.configure("numjudge.language", "auto");
    await run("numjudge.cancel");
    assert.equal(stub.messages.info.at(-1), said);
  }
  stub.configure("numjudge.language", undefined);
  assert.equal(stub.settings["numjudge.language"], undefined);
  assert.equal(PACKAGE.contributes.configuration.properties["numjudge.language"].default, "auto");
});

test("the Japanese bundles say everything the English ones do", () => {
  const read = (name: string) => JSON.parse(readFileSync(join(__dirname, "..", "..", name), "utf8"));
  for (const [english, japanese] of [["l10n/bundle.l10n.json", "l10n/bundle.l10n.ja.json"],
                                     ["package.nls.json", "package.nls.ja.json"]]) {
    const en = read(english);
    const ja = read(japanese);
    assert.deepEqual(Object.keys(ja).sort(), Object.keys(en).sort(), japanese);
    for (const [key, text] of Object.entries(ja)) {
      assert.ok(typeof text === "string" && text.trim(), `${japanese}: ${key}`);
      // every placeholder of the English is kept
      assert.deepEqual(String(text).match(/\{\w+\}/g)?.sort(), String(en[key]).match(/\{\w+\}/g)?.sort(), key);
    }
  }
});

test("the catalog view: assignments with due times and scores, each exercise's best score",
     async () => {
  const solution = `# numjudge: ${EXERCISE}\n` + exerciseFile("solution.py");
  const graded = await new ApiClient(SERVER, TOKEN).grade(Kind.Submit, EXERCISE, solution);
  assert.equal(graded.verdict, "passed");
  const tree = stub.trees.get("numjudge.catalog");
  assert.ok(tree);
  const groups = await tree.getChildren() as { label: string; description: string }[];
  const items = groups.map((group) => tree.getTreeItem(group));
  assert.deepEqual(items.map((item) => item.label).slice(-1), ["All exercises"]);
  const gru = items.find((item) => item.label.startsWith("The lesson's gated unit"));
  assert.ok(gru);
  assert.match(gru.description ?? "", /^(opens|due|late since|closed since) \d{4}-\d\d-\d\d \d\d:\d\d · [\d.]+ \/ [\d.]+$/);
  const every = await tree.getChildren(groups.at(-1));
  const gate = every.map((exercise) => tree.getTreeItem(exercise))
    .find((item) => item.tooltip === EXERCISE);
  assert.ok(gate);
  assert.equal(gate.description, `best ${graded.score} / ${graded.max_score}`);
  assert.deepEqual(gate.command?.arguments, [EXERCISE]);

  // choosing it in the view opens its file, no quick pick
  stub.answers.quickPick = () => assert.fail("no quick pick when the view chose the exercise");
  const handler = stub.commands.get("numjudge.openExercise") as (id: string) => Promise<void>;
  await handler(EXERCISE);
  assert.deepEqual(stub.messages.error, []);
  assert.equal(stub.window.activeTextEditor?.document.uri.toString(),
               `file://${join(WORKSPACE, "numjudge", `${EXERCISE}.py`)}`);
});

test("sign out forgets the token of the configured server", async () => {
  await run("numjudge.signOut");
  assert.equal(stub.secrets.size, 0);
  assert.deepEqual(stub.messages.info, [
    `numjudge: signed out of ${SERVER}; the token is no longer kept in VS Code.`]);
  stub.window.activeTextEditor = { document: new stub.Document(`# numjudge: ${EXERCISE}\n`) };
  await run("numjudge.submit");
  assert.match(stub.messages.error[0], /^Not signed in/);
  const tree = stub.trees.get("numjudge.catalog");
  const [first] = await tree?.getChildren() ?? [];
  assert.deepEqual(tree?.getTreeItem(first).command?.command, "numjudge.signIn");
});
