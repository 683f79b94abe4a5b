// The `vscode` module as far as the extension uses it, recording what the extension asks for.
// Only this boundary is stubbed: the extension's HTTP calls reach the live server.
import Module = require("node:module");
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const events: string[] = [];
export const commands = new Map<string, () => Promise<void>>();
export const answers: { inputBox?: string; quickPick?: (items: Item[]) => Item | undefined;
                        message?: string } = {};
export const messages: { error: string[]; info: string[] } = { error: [], info: [] };
export const settings: Record<string, string> = {};
export const diagnostics = new Map<string, Diagnostic[]>();
// each panel's page now, and every page it showed, in order
export const panels: { html: string; revealed: number; shown: string[] }[] = [];
export const opened: Document[] = [];
export const secrets = new Map<string, string>();
export const executed: unknown[][] = [];
export const listeners: { activeEditor: ((editor: unknown) => void)[];
                          documentChange: ((change: { document: Document }) => void)[];
                          configuration: ((change: ConfigurationChange) => void)[] } =
  { activeEditor: [], documentChange: [], configuration: [] };
// The progress notification of the grade under way: its Cancel button.
export const progress: { cancel?: () => void } = {};
export const opensExternal: string[] = [];
export const trees = new Map<string, TreeProvider>();
export let inputBoxOptions: Record<string, unknown> | undefined;

interface Item { label: string; description: string; id: string }
interface ConfigurationChange { affectsConfiguration(section: string): boolean }

/** A setting changed as the Settings editor changes it: the extension hears of it. */
export function configure(key: string, value: string | undefined): void {
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  for (const listener of listeners.configuration) {
    listener({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  }
}
interface TreeProvider {
  getChildren(node?: unknown): Promise<unknown[]>;
  getTreeItem(node: unknown): TreeItem;
  onDidChangeTreeData: (listener: () => void) => unknown;
}

export enum TreeItemCollapsibleState { None = 0, Collapsed = 1, Expanded = 2 }

export class TreeItem {
  description?: string;
  tooltip?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(readonly label: string, readonly collapsibleState: TreeItemCollapsibleState) {}
}

export class EventEmitter<T> {
  private readonly listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void) => {
    this.listeners.push(listener);
    return disposable;
  };
  fire(value: T): void { for (const listener of this.listeners) listener(value); }
  dispose(): void { this.listeners.length = 0; }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

export class Uri {
  constructor(readonly path: string) {}
  static file(path: string): Uri { return new Uri(`file://${path}`); }
  static parse(text: string): Uri { return new Uri(text); }
  static joinPath(base: Uri, ...parts: string[]): Uri { return Uri.file(join(base.fsPath, ...parts)); }
  get fsPath(): string { return this.path.replace(/^file:\/\//, ""); }
  toString(): string { return this.path; }
}

export class Location {
  constructor(readonly uri: Uri, readonly range: Range) {}
}

export class DiagnosticRelatedInformation {
  constructor(readonly location: Location, readonly message: string) {}
}

export enum DiagnosticSeverity { Error = 0, Warning = 1, Information = 2, Hint = 3 }
export enum StatusBarAlignment { Left = 1, Right = 2 }
export enum ViewColumn { Active = -1, Beside = -2, One = 1 }
export enum ProgressLocation { SourceControl = 1, Window = 10, Notification = 15 }

export class Diagnostic {
  source?: string;
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(readonly range: Range, readonly message: string,
              readonly severity: DiagnosticSeverity) {}
}

export class Document {
  readonly uri: Uri;
  // `text` changes as the learner types (a test assigns it)
  constructor(public text: string, readonly languageId = "python", name = "untitled:1") {
    this.uri = new Uri(name);
  }
  getText(): string { return this.text; }
  get lineCount(): number { return this.text.split("\n").length; }
  lineAt(line: number): { range: Range; text: string } {
    if (!Number.isInteger(line) || line < 0 || line >= this.lineCount) {
      throw new Error("Illegal value for line"); // as VS Code's own TextDocument does
    }
    const text = this.text.split("\n")[line];
    return { range: new Range(line, 0, line, text.length), text };
  }
}

const disposable = { dispose: () => undefined };

export const window = {
  activeTextEditor: undefined as { document: Document } | undefined,
  createStatusBarItem: () => ({
    text: "",
    show() { events.push(`status shown: ${this.text}`); },
    hide() { events.push("status hidden"); },
    dispose() { /* nothing held */ },
  }),
  createWebviewPanel: () => {
    const panel = { html: "", revealed: 0, shown: [] as string[] };
    panels.push(panel);
    return {
      webview: {
        set html(value: string) {
          panel.html = value;
          panel.shown.push(value);
          events.push("panel html");
        },
        get html() { return panel.html; },
      },
      reveal: () => { panel.revealed += 1; },
      onDidDispose: () => disposable,
      dispose: () => undefined,
    };
  },
  showInputBox: async (options: Record<string, unknown>) => {
    inputBoxOptions = options;
    return answers.inputBox;
  },
  showQuickPick: async (items: Item[]) => answers.quickPick?.(items),
  showErrorMessage: async (message: string) => { messages.error.push(message); },
  showInformationMessage: async (message: string, ...items: string[]) => {
    messages.info.push(message);
    return items.find((item) => item === answers.message);
  },
  withProgress: async <T>(options: { title: string; cancellable: boolean },
                          task: (progress: unknown, token: unknown) => Promise<T>): Promise<T> => {
    events.push(`progress: ${options.title}`);
    const cancelled: (() => void)[] = [];
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: () => void) => { cancelled.push(listener); return disposable; },
    };
    if (options.cancellable) {
      progress.cancel = () => {
        token.isCancellationRequested = true;
        for (const listener of cancelled) listener();
      };
    }
    try {
      return await task({ report: () => undefined }, token);
    } finally {
      progress.cancel = undefined;
    }
  },
  showTextDocument: async (document: Document) => {
    window.activeTextEditor = { document };
  },
  registerTreeDataProvider: (id: string, provider: TreeProvider) => {
    trees.set(id, provider);
    return disposable;
  },
  onDidChangeActiveTextEditor: (listener: (editor: unknown) => void) => {
    listeners.activeEditor.push(listener);
    return disposable;
  },
};

// The workspace's files are real files in the test's folder (`workspaceFolders`).
export const workspace = {
  workspaceFolders: undefined as { uri: Uri }[] | undefined,
  getConfiguration: (section: string) => ({
    get: (key: string) => settings[`${section}.${key}`],
  }),
  openTextDocument: async (uri: Uri) => {
    const document = new Document(readFileSync(uri.fsPath, "utf8"), "python", uri.toString());
    opened.push(document);
    return document;
  },
  onDidChangeTextDocument: (listener: (change: { document: Document }) => void) => {
    listeners.documentChange.push(listener);
    return disposable;
  },
  onDidChangeConfiguration: (listener: (change: ConfigurationChange) => void) => {
    listeners.configuration.push(listener);
    return disposable;
  },
  fs: {
    stat: async (uri: Uri) => statSync(uri.fsPath),
    createDirectory: async (uri: Uri) => { mkdirSync(uri.fsPath, { recursive: true }); },
    writeFile: async (uri: Uri, content: Uint8Array) => { writeFileSync(uri.fsPath, content); },
  },
};

export const languages = {
  createDiagnosticCollection: () => ({
    set: (uri: Uri, list: Diagnostic[]) => {
      diagnostics.set(uri.toString(), list);
      events.push("diagnostics set");
    },
    delete: (uri: Uri) => {
      diagnostics.delete(uri.toString());
      events.push("diagnostics cleared");
    },
    dispose: () => undefined,
  }),
};

const commandsApi = {
  registerCommand: (id: string, run: () => Promise<void>) => {
    commands.set(id, run);
    return disposable;
  },
  executeCommand: async (...call: unknown[]) => { executed.push(call); },
};

// VS Code's display language, and what it opens in the browser
export const env = {
  language: "en",
  openExternal: async (uri: Uri) => { opensExternal.push(uri.toString()); return true; },
};

export const context = {
  subscriptions: [] as unknown[],
  extensionPath: join(__dirname, "..", ".."), // out/test/ is two folders below it
  secrets: {
    get: async (key: string) => secrets.get(key),
    store: async (key: string, value: string) => { secrets.set(key, value); },
    delete: async (key: string) => { secrets.delete(key); },
  },
};

const vscode = {
  Position, Range, Uri, Location, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
  StatusBarAlignment, ViewColumn, ProgressLocation, TreeItem, TreeItemCollapsibleState,
  EventEmitter, window, workspace, languages, env, commands: commandsApi,
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Loader };
const load = loader._load;
loader._load = function (request: string, parent: unknown, isMain: boolean): unknown {
  return request === "vscode" ? vscode : load.call(this, request, parent, isMain);
};

export function reset(): void {
  events.length = 0;
  messages.error.length = 0;
  messages.info.length = 0;
  diagnostics.clear();
  executed.length = 0;
  opensExternal.length = 0;
  answers.message = undefined;
  window.activeTextEditor = undefined;
}
