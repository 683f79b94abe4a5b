// The editor glue: commands, the results panel, diagnostics, the status bar, the token.
import * as vscode from "vscode";
import { ApiClient, Cancelled, Kind, Language, NumjudgeError, type Submission } from "./api";
import { exerciseHeader, exerciseOf, problems, relocate, resultsHtml, statusText } from "./results";
import { CatalogTree } from "./tree";

const DEFAULT_SERVER = "http://127.0.0.1:8000";
// True while the active editor holds an exercise file: the key bindings apply there only.
const EXERCISE_FILE = "numjudge.exerciseFile";
const FOLDER = "numjudge";

export function activate(context: vscode.ExtensionContext): void {
  const diagnostics = vscode.languages.createDiagnosticCollection("numjudge");
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left);
  const results = new ResultsPanel();
  const session = new Session(context.secrets);
  const tree = new CatalogTree(() => session.client());
  const grader = new Grader(session, status, diagnostics, results, tree);
  const command = (id: string, run: () => Promise<void>) =>
    vscode.commands.registerCommand(id, () => inWords(run));
  // From the catalog view: the exercise chosen there (no quick pick).
  const openCommand = vscode.commands.registerCommand("numjudge.openExercise",
    (id?: string) => inWords(() => openExercise(session, typeof id === "string" ? id : undefined)));
  context.subscriptions.push(
    diagnostics, status, results, tree,
    vscode.window.registerTreeDataProvider("numjudge.catalog", tree),
    command("numjudge.signIn", async () => { await session.signIn(); tree.refresh(); }),
    command("numjudge.signOut", async () => { await session.signOut(); tree.refresh(); }),
    command("numjudge.refresh", async () => tree.refresh()),
    openCommand,
    command("numjudge.statement", () => showActiveStatement(session)),
    command("numjudge.run", () => grader.grade(Kind.Run)),
    command("numjudge.submit", () => grader.grade(Kind.Submit)),
    command("numjudge.cancel", async () => grader.cancel()),
    vscode.window.onDidChangeActiveTextEditor(markExerciseFile),
    vscode.workspace.onDidChangeTextDocument((change) => {
      if (change.document === vscode.window.activeTextEditor?.document) {
        markExerciseFile(vscode.window.activeTextEditor);
      }
    }),
  );
  markExerciseFile(vscode.window.activeTextEditor);
}

export function deactivate(): void {
  // everything is disposed through the context's subscriptions
}

function markExerciseFile(editor: vscode.TextEditor | undefined): void {
  const exercise = editor ? exerciseOf(editor.document.lineAt(0).text) : undefined;
  void vscode.commands.executeCommand("setContext", EXERCISE_FILE, exercise !== undefined);
}

/** The server and language of the settings and the token kept for the server in VS Code's
 * SecretStorage. */
class Session {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  server(): string {
    const url = vscode.workspace.getConfiguration("numjudge").get<string>("serverUrl");
    return (url || DEFAULT_SERVER).replace(/\/+$/, "");
  }

  language(): Language {
    const chosen = vscode.workspace.getConfiguration("numjudge").get<string>("language");
    return chosen === Language.Japanese ? Language.Japanese : Language.English;
  }

  private key(server: string): string {
    return `numjudge.token ${server}`;
  }

  async client(): Promise<ApiClient> {
    const server = this.server();
    return new ApiClient(server, await this.secrets.get(this.key(server)), 30, this.language());
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

  async signOut(): Promise<void> {
    const server = this.server();
    await this.secrets.delete(this.key(server));
    void vscode.window.showInformationMessage(
      `numjudge: signed out of ${server}; the token is no longer kept in VS Code.`);
  }
}

/** `numjudge/<id>.py` in the first workspace folder: made from the starter the first time,
 * reopened as the learner left it every time after. */
async function openExercise(session: Session, chosen?: string): Promise<void> {
  const folder = workspaceFolder();
  const client = await session.client();
  const choice = chosen ? { id: chosen } : await pickExercise(client);
  if (!choice) return;
  const file = vscode.Uri.joinPath(folder.uri, FOLDER, `${choice.id}.py`);
  if (!(await exists(file))) {
    const exercise = await client.exercise(choice.id);
    const text = exerciseHeader(exercise.id, exercise.title) + exercise.starter_code;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder.uri, FOLDER));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
  }
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
  await showStatement(client, choice.id, folder.uri);
}

async function pickExercise(client: ApiClient): Promise<{ id: string } | undefined> {
  const exercises = await client.exercises();
  return vscode.window.showQuickPick(
    exercises.map((e) => ({ label: e.title, description: e.id,
                            detail: [e.difficulty, ...e.tags].join(" · "), id: e.id })),
    { title: "numjudge: open exercise", placeHolder: "Choose an exercise",
      matchOnDescription: true });
}

function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new NumjudgeError("Open a folder first (File > Open Folder): numjudge keeps each " +
                            `exercise there as ${FOLDER}/<exercise>.py.`);
  }
  return folder;
}

async function showActiveStatement(session: Session): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  const id = document ? exerciseOf(document.getText()) : undefined;
  if (!id) {
    throw new NumjudgeError("Open the file of an exercise first: its first line names it.");
  }
  await showStatement(await session.client(), id, workspaceFolder().uri);
}

/** The statement in the chosen language, as `numjudge/<id>.md` (the server's text, rewritten
 * each time) in VS Code's Markdown preview beside the code: it renders the formulas (KaTeX). */
async function showStatement(client: ApiClient, id: string, folder: vscode.Uri): Promise<void> {
  const exercise = await client.exercise(id);
  const file = vscode.Uri.joinPath(folder, FOLDER, `${id}.md`);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, FOLDER));
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(exercise.statement_markdown));
  await vscode.commands.executeCommand("markdown.showPreviewToSide", file);
}

async function exists(file: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(file);
    return true;
  } catch {
    return false; // FileNotFound: the first time this exercise is opened
  }
}

/** Grades the active file, one run at a time; the status bar item cancels the wait. */
class Grader {
  private running: { id: string; stop: AbortController } | undefined;

  constructor(private readonly session: Session, private readonly status: vscode.StatusBarItem,
              private readonly diagnostics: vscode.DiagnosticCollection,
              private readonly results: ResultsPanel, private readonly tree: CatalogTree) {}

  cancel(): void {
    if (!this.running) {
      void vscode.window.showInformationMessage("numjudge: nothing is being graded.");
      return;
    }
    this.running.stop.abort();
  }

  async grade(kind: Kind): Promise<void> {
    if (this.running) {
      throw new NumjudgeError(`numjudge is still grading ${this.running.id}: wait for its ` +
                              'result, or stop waiting with "numjudge: Cancel".');
    }
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
    this.diagnostics.delete(document.uri); // last run's problems are not this run's
    this.running = { id, stop: new AbortController() };
    this.status.text = `$(sync~spin) numjudge: ${kind === Kind.Run ? "running" : "grading"} ` +
      `${id}… (click to cancel)`;
    this.status.command = "numjudge.cancel";
    this.status.show();
    let result: Submission;
    let exercise;
    try {
      const client = await this.session.client();
      exercise = await client.exercise(id);
      result = await client.grade(kind, id, source, 120, this.running.stop.signal);
    } catch (error) {
      this.status.hide();
      if (error instanceof Cancelled) {
        void vscode.window.showInformationMessage(error.message);
        return;
      }
      throw error;
    } finally {
      this.running = undefined;
    }
    this.show(document, source, result, exercise.entry, exercise.title);
    this.status.text = statusText(result, id);
    this.status.command = undefined;
    this.status.show();
    if (kind === Kind.Submit) this.tree.refresh(); // a new best score, perhaps
  }

  /** The problems placed on the document as it is now, which may have been edited while the
   * server graded `source`. */
  private show(document: vscode.TextDocument, source: string, result: Submission,
               entry: string, title: string): void {
    const graded = source.split("\n");
    const current = document.getText().split("\n");
    this.diagnostics.set(document.uri, problems(result, source, entry).map((problem) => {
      const range = document.lineAt(relocate(problem.line, graded, current)).range;
      const diagnostic = new vscode.Diagnostic(range, problem.message,
                                               vscode.DiagnosticSeverity.Error);
      diagnostic.source = "numjudge";
      diagnostic.relatedInformation = problem.hints.map((hint) =>
        new vscode.DiagnosticRelatedInformation(new vscode.Location(document.uri, range),
                                                `Hint: ${hint}`));
      return diagnostic;
    }));
    this.results.show(resultsHtml(result, title));
  }
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
