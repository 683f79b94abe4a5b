// The editor glue: commands, the results panel, diagnostics, the status bar, the token, the
// learner's language.
import { join } from "node:path";
import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { ApiClient, Cancelled, Kind, Language, NumjudgeError, languageOf,
         type ExerciseDetail, type Submission } from "./api";
import { PanelState, exerciseHeader, exerciseOf, problems, relocate, resultsHtml, stateHtml,
         statusText } from "./results";
import { CatalogTree } from "./tree";

const DEFAULT_SERVER = "http://127.0.0.1:8000";
// True while the active editor holds an exercise file: the key bindings apply there only.
const EXERCISE_FILE = "numjudge.exerciseFile";
const FOLDER = "numjudge";
// "numjudge.language" set to this (its default): VS Code's display language.
const DISPLAY_LANGUAGE = "auto";

export function activate(context: vscode.ExtensionContext): void {
  const diagnostics = vscode.languages.createDiagnosticCollection("numjudge");
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left);
  const results = new ResultsPanel();
  const session = new Session(context.secrets);
  const tree = new CatalogTree(() => session.client());
  speak(session.language(), context.extensionPath);
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
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration("numjudge.language")) {
        speak(session.language(), context.extensionPath);
        tree.refresh(); // its titles and words are in the language
      }
    }),
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

/** The extension's own sentences in `language`: the l10n bundle VS Code's l10n mechanism
 * would load for that display language (l10n/bundle.l10n.<language>.json), read with
 * @vscode/l10n because the learner's choice may differ from VS Code's display language
 * (vscode.l10n follows the display language only). English is the sentences as written. */
function speak(language: Language, extensionPath: string): void {
  if (language === Language.English) l10n.config({ contents: {} });
  else l10n.config({ fsPath: join(extensionPath, "l10n", `bundle.l10n.${language}.json`) });
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

  /** The learner's language: the setting's, else VS Code's display language. */
  language(): Language {
    const chosen = vscode.workspace.getConfiguration("numjudge").get<string>("language");
    return languageOf(!chosen || chosen === DISPLAY_LANGUAGE ? vscode.env.language : chosen);
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
      title: l10n.t("numjudge: sign in to {server}", { server }), password: true,
      ignoreFocusOut: true, prompt: l10n.t("Paste an API token from {server}/account", { server }),
    }))?.trim();
    if (!token) return; // cancelled
    await new ApiClient(server, token, 30, this.language()).checkToken();
    await this.secrets.store(this.key(server), token);
    void vscode.window.showInformationMessage(l10n.t("numjudge: signed in to {server}.",
                                                     { server }));
  }

  async signOut(): Promise<void> {
    const server = this.server();
    await this.secrets.delete(this.key(server));
    void vscode.window.showInformationMessage(
      l10n.t("numjudge: signed out of {server}; the token is no longer kept in VS Code.",
             { server }));
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
    { title: l10n.t("numjudge: open exercise"), placeHolder: l10n.t("Choose an exercise"),
      matchOnDescription: true });
}

function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new NumjudgeError(l10n.t("Open a folder first (File > Open Folder): numjudge keeps each exercise there as {file}.",
                                   { file: `${FOLDER}/<exercise>.py` }));
  }
  return folder;
}

async function showActiveStatement(session: Session): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  const id = document ? exerciseOf(document.getText()) : undefined;
  if (!id) {
    throw new NumjudgeError(l10n.t("Open the file of an exercise first: its first line names it."));
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

/** Grades the active file, one run at a time; the progress notification's Cancel, the status
 * bar item and "numjudge: Cancel grading" stop the wait. */
class Grader {
  private running: { id: string; stop: AbortController } | undefined;

  constructor(private readonly session: Session, private readonly status: vscode.StatusBarItem,
              private readonly diagnostics: vscode.DiagnosticCollection,
              private readonly results: ResultsPanel, private readonly tree: CatalogTree) {}

  cancel(): void {
    if (!this.running) {
      void vscode.window.showInformationMessage(l10n.t("numjudge: nothing is being graded."));
      return;
    }
    this.running.stop.abort();
  }

  async grade(kind: Kind): Promise<void> {
    if (this.running) {
      throw new NumjudgeError(l10n.t("numjudge is still grading {exercise}: wait for its result, or stop waiting with \"numjudge: Cancel\".",
                                     { exercise: this.running.id }));
    }
    const document = vscode.window.activeTextEditor?.document;
    if (!document) {
      throw new NumjudgeError(l10n.t("Open the Python file of an exercise first (\"numjudge: Open exercise\" makes one)."));
    }
    const source = document.getText();
    const id = exerciseOf(source);
    if (!id) {
      throw new NumjudgeError(l10n.t("The first line of this file does not name an exercise: write \"# numjudge: EXERCISE-ID\" there, or start from \"numjudge: Open exercise\"."));
    }
    const language = this.session.language();
    const stop = new AbortController();
    this.running = { id, stop };
    // last run's problems and result are not this run's
    this.diagnostics.delete(document.uri);
    this.results.show(stateHtml(PanelState.Grading, id, kind, language));
    const doing = kind === Kind.Run ? l10n.t("numjudge: running {exercise}…", { exercise: id })
      : l10n.t("numjudge: grading {exercise}…", { exercise: id });
    this.status.text = `$(sync~spin) ${doing} ${l10n.t("(click to cancel)")}`;
    this.status.command = "numjudge.cancel";
    this.status.show();
    let graded: { exercise: ExerciseDetail; result: Submission };
    try {
      graded = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: doing, cancellable: true },
        async (_progress, cancelled) => {
          cancelled.onCancellationRequested(() => stop.abort());
          const client = await this.session.client();
          const exercise = await client.exercise(id);
          // once the server has the code, the panel links the submission's page
          const accepted = (submission: Submission) => this.results.show(
            stateHtml(PanelState.Grading, id, kind, language, "", client.page(submission)));
          const result = await client.grade(kind, id, source,
                                            { cancel: stop.signal, accepted });
          return { exercise, result };
        });
    } catch (error) {
      this.status.hide();
      if (error instanceof Cancelled) {
        const said = error.page
          ? l10n.t("The server goes on grading what was sent; its result will be on its page:")
          : l10n.t("Nothing was sent.");
        this.results.show(stateHtml(PanelState.Cancelled, id, kind, language, said, error.page));
        void this.toldCancelled(error);
        return;
      }
      this.results.show(stateHtml(PanelState.Failed, id, kind, language, inWordsOf(error)));
      throw error;
    } finally {
      this.running = undefined;
    }
    this.show(document, source, graded.result, graded.exercise, language);
    this.status.text = statusText(graded.result, id);
    this.status.command = undefined;
    this.status.show();
    if (kind === Kind.Submit) this.tree.refresh(); // a new best score, perhaps
  }

  /** The cancelled wait in a notification, with a button to the submission's page when the
   * server has it. */
  private async toldCancelled(cancelled: Cancelled): Promise<void> {
    const open = l10n.t("Open its page");
    const chosen = cancelled.page
      ? await vscode.window.showInformationMessage(cancelled.message, open)
      : await vscode.window.showInformationMessage(cancelled.message);
    if (chosen === open && cancelled.page) {
      await vscode.env.openExternal(vscode.Uri.parse(cancelled.page));
    }
  }

  /** The problems placed on the document as it is now, which may have been edited while the
   * server graded `source`. */
  private show(document: vscode.TextDocument, source: string, result: Submission,
               exercise: ExerciseDetail, language: Language): void {
    const graded = source.split("\n");
    const current = document.getText().split("\n");
    this.diagnostics.set(document.uri, problems(result, source, exercise.entry).map((problem) => {
      const range = document.lineAt(relocate(problem.line, graded, current)).range;
      const diagnostic = new vscode.Diagnostic(range, problem.message,
                                               vscode.DiagnosticSeverity.Error);
      diagnostic.source = "numjudge";
      diagnostic.relatedInformation = problem.hints.map((hint) =>
        new vscode.DiagnosticRelatedInformation(new vscode.Location(document.uri, range),
                                                l10n.t("Hint: {hint}", { hint })));
      return diagnostic;
    }));
    this.results.show(resultsHtml(result, exercise.title, language));
  }
}

/** One panel beside the editor, reused for every result. */
class ResultsPanel {
  private panel: vscode.WebviewPanel | undefined;

  show(html: string): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        "numjudge.results", l10n.t("numjudge results"),
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

/** A failure as the learner reads it. */
function inWordsOf(error: unknown): string {
  return error instanceof NumjudgeError ? error.message
    : l10n.t("numjudge: something unexpected went wrong ({error}).", { error: String(error) });
}

async function inWords(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    void vscode.window.showErrorMessage(inWordsOf(error));
  }
}
