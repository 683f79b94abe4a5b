// The editor glue with the VS Code API stubbed at its boundary, against the live server.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { beforeEach, test } from "node:test";
import * as stub from "./vscode-stub";
import { activate } from "../src/extension";
import { EXERCISE, SERVER, TOKEN, exerciseFile } from "./live";

stub.settings["numjudge.serverUrl"] = SERVER + "/";
activate(stub.context as never);
beforeEach(stub.reset);

async function run(command: string): Promise<void> {
  const handler = stub.commands.get(command);
  assert.ok(handler, `${command} is not registered`);
  await handler();
}

test("the four commands are registered and disposed with the extension", () => {
  assert.deepEqual([...stub.commands.keys()].sort(),
                   ["numjudge.openExercise", "numjudge.run", "numjudge.signIn", "numjudge.submit"]);
  assert.equal(stub.context.subscriptions.length, 7);
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

test("open exercise makes a file from the starter, named on its first line", async () => {
  let offered: string[] = [];
  stub.answers.quickPick = (items) => {
    offered = items.map((item) => item.description);
    return items.find((item) => item.id === EXERCISE);
  };
  await run("numjudge.openExercise");
  assert.equal(offered[0], EXERCISE);
  const document = stub.opened.at(-1);
  assert.ok(document);
  assert.equal(document.languageId, "python");
  const [first, ...rest] = document.getText().split("\n");
  assert.match(first, /^# numjudge: gru-update-gate \(.+\)$/);
  assert.equal(rest.join("\n"), exerciseFile("starter.py"));
  assert.equal(stub.window.activeTextEditor?.document, document);
});

test("a failing submission: diagnostics on the entry line with hints, the table, the status bar",
     async () => {
  const source = `# numjudge: ${EXERCISE}\n` + exerciseFile("mistakes/one_minus_z.py");
  stub.window.activeTextEditor = { document: new stub.Document(source, "python", "file:///gate.py") };
  await run("numjudge.submit");
  assert.deepEqual(stub.messages.error, []);
  assert.deepEqual(stub.events, [`status shown: $(sync~spin) numjudge: grading ${EXERCISE}…`,
                                 "status hidden", "diagnostics set", "panel html"]);
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
  const html = stub.panels.at(-1)?.html ?? "";
  assert.match(html, /<div class="verdict failed" data-verdict="failed"><span>Failed<\/span>/);
  assert.match(html, /<tr data-status="failed" data-visibility="hidden">/);
  assert.match(html, /Hint: <\/b>Your gate and the expected one add up to 1/);
  if (process.env.NUMJUDGE_PANEL_HTML) writeFileSync(process.env.NUMJUDGE_PANEL_HTML, html);
});

test("a passing run clears the diagnostics and reuses the panel", async () => {
  const source = `# numjudge: ${EXERCISE}\n` + exerciseFile("solution.py");
  stub.window.activeTextEditor = { document: new stub.Document(source, "python", "file:///gate.py") };
  await run("numjudge.run");
  assert.deepEqual(stub.messages.error, []);
  assert.equal(stub.events[0], `status shown: $(sync~spin) numjudge: running ${EXERCISE}…`);
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
  assert.deepEqual(stub.events, ["status shown: $(sync~spin) numjudge: grading nope…",
                                 "status hidden"]);
});
