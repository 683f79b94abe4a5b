// The editor glue: commands, the results panel, diagnostics, the status bar, the token.
import * as vscode from "vscode";
import { ApiClient, Kind, NumjudgeError, type Submission } from "./api";
import { exerciseHeader, exerciseOf, problems, resultsHtml } from "./results";

const DEFAULT_SERVER = "http://127.0.0.1:8000";

export function activate(context: vscode.ExtensionContext): void {
  const diagnostics = vscode.languages.createDiagnosticCollection("numjudge");
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left);
  const results = new ResultsPanel();
  const session = new Session(context.secrets);
  const command = (id: string, run: () => Promise<void>) =>
    vscode.commands.registerCommand(id, () => inWords(run));
  context.subscriptions.push(
    diagnostics, status, results,
    command("numjudge.signIn", () => session.signIn()),
    command("numjudge.openExercise", () => openExercise(session)),
    command("numjudge.run", () => grade(Kind.Run, session, status, diagnostics, results)),
    command("numjudge.submit", () => grade(Kind.Submit, session, status, diagnostics, results)),
  );
}

export function deactivate(): void {
  // everything is disposed through the context's subscriptions
}

/** The server of the settings and the token kept for it in VS Code's SecretStorage. */
class Session {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  server(): string {
    const url = vscode.workspace.getConfiguration("numjudge").get<string>("serverUrl");
    return (url || DEFAULT_SERVER).replace(/\/+$/, "");
  }

  private key(server: string): string {
    return `numjudge.token ${server}`;
  }

  async client(): Promise<ApiClient> {
    const server = this.server();
    return new ApiClient(server, await this.secrets.get(this.key(server)));
  }

  async signIn(): Promise<void> {
    const server = this.server();
    const token = (await vscode.window.showInputBox({
      title: `numjudge: sign in to ${server}`, password: true, ignoreFocusOut: true,
      prompt: `Paste an API token from ${server}/account`,
    }))?.trim();
    if (!token) return; // cancelled
    await new ApiClient(server, token).checkToken();
    await this.secrets.store(this.key(server), token);
    void vscode.window.showInformationMessage(`numjudge: signed in to ${server}.`);
  }
}

async function openExercise(session: Session): Promise<void> {
  const client = await session.client();
  const exercises = await client.exercises();
  const choice = await vscode.window.showQuickPick(
    exercises.map((e) => ({ label: e.title, description: e.id,
                            detail: [e.difficulty, ...e.tags].join(" · "), id: e.id })),
    { title: "numjudge: open exercise", placeHolder: "Choose an exercise",
      matchOnDescription: true });
  if (!choice) return;
  const exercise = await client.exercise(choice.id);
  const document = await vscode.workspace.openTextDocument({
    language: "python", content: exerciseHeader(exercise.id, exercise.title) + exercise.starter_code,
  });
  await vscode.window.showTextDocument(document);
}

async function grade(kind: Kind, session: Session, status: vscode.StatusBarItem,
                     diagnostics: vscode.DiagnosticCollection,
                     results: ResultsPanel): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) {
    throw new NumjudgeError("Open the Python file of an exercise first " +
                            '("numjudge: Open exercise" makes one).');
  }
  const source = document.getText();
  const id = exerciseOf(source);
  if (!id) {
    throw new NumjudgeError("The first line of this file does not name an exercise: write " +
                            '"# numjudge: EXERCISE-ID" there, or start from ' +
                            '"numjudge: Open exercise".');
  }
  status.text = `$(sync~spin) numjudge: ${kind === Kind.Run ? "running" : "grading"} ${id}…`;
  status.show();
  let result: Submission;
  let exercise;
  try {
    const client = await session.client();
    exercise = await client.exercise(id);
    result = await client.grade(kind, id, source);
  } finally {
    status.hide();
  }
  diagnostics.set(document.uri, problems(result, source, exercise.entry).map((problem) => {
    const range = document.lineAt(problem.line).range;
    const diagnostic = new vscode.Diagnostic(range, problem.message,
                                             vscode.DiagnosticSeverity.Error);
    diagnostic.source = "numjudge";
    diagnostic.relatedInformation = problem.hints.map((hint) =>
      new vscode.DiagnosticRelatedInformation(new vscode.Location(document.uri, range),
                                              `Hint: ${hint}`));
    return diagnostic;
  }));
  results.show(resultsHtml(result, exercise.title));
}

/** One panel beside the editor, reused for every result. */
class ResultsPanel {
  private panel: vscode.WebviewPanel | undefined;

  show(html: string): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        "numjudge.results", "numjudge results",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false });
      this.panel.onDidDispose(() => { this.panel = undefined; });
    }
    this.panel.webview.html = html;
    this.panel.reveal(vscode.ViewColumn.Beside, true);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

async function inWords(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const message = error instanceof NumjudgeError ? error.message
      : `numjudge: something unexpected went wrong (${String(error)}).`;
    void vscode.window.showErrorMessage(message);
  }
}
