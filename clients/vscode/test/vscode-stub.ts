// The `vscode` module as far as the extension uses it, recording what the extension asks for.
// Only this boundary is stubbed: the extension's HTTP calls reach the live server.
import Module = require("node:module");

export const events: string[] = [];
export const commands = new Map<string, () => Promise<void>>();
export const answers: { inputBox?: string; quickPick?: (items: Item[]) => Item | undefined } = {};
export const messages: { error: string[]; info: string[] } = { error: [], info: [] };
export const settings: Record<string, string> = {};
export const diagnostics = new Map<string, Diagnostic[]>();
export const panels: { html: string; revealed: number }[] = [];
export const opened: Document[] = [];
export const secrets = new Map<string, string>();
export let inputBoxOptions: Record<string, unknown> | undefined;

interface Item { label: string; description: string; id: string }

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

export class Diagnostic {
  source?: string;
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(readonly range: Range, readonly message: string,
              readonly severity: DiagnosticSeverity) {}
}

export class Document {
  readonly uri: Uri;
  constructor(readonly text: string, readonly languageId = "python", name = "untitled:1") {
    this.uri = new Uri(name);
  }
  getText(): string { return this.text; }
  lineAt(line: number): { range: Range } {
    const length = this.text.split("\n")[line].length;
    return { range: new Range(line, 0, line, length) };
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
    const panel = { html: "", revealed: 0 };
    panels.push(panel);
    return {
      webview: {
        set html(value: string) { panel.html = value; events.push("panel html"); },
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
  showInformationMessage: async (message: string) => { messages.info.push(message); },
  showTextDocument: async (document: Document) => {
    window.activeTextEditor = { document };
  },
};

export const workspace = {
  getConfiguration: (section: string) => ({
    get: (key: string) => settings[`${section}.${key}`],
  }),
  openTextDocument: async (options: { language: string; content: string }) => {
    const document = new Document(options.content, options.language,
                                  `untitled:${opened.length + 1}`);
    opened.push(document);
    return document;
  },
};

export const languages = {
  createDiagnosticCollection: () => ({
    set: (uri: Uri, list: Diagnostic[]) => {
      diagnostics.set(uri.toString(), list);
      events.push("diagnostics set");
    },
    dispose: () => undefined,
  }),
};

const commandsApi = {
  registerCommand: (id: string, run: () => Promise<void>) => {
    commands.set(id, run);
    return disposable;
  },
};

export const context = {
  subscriptions: [] as unknown[],
  secrets: {
    get: async (key: string) => secrets.get(key),
    store: async (key: string, value: string) => { secrets.set(key, value); },
    delete: async (key: string) => { secrets.delete(key); },
  },
};

const vscode = {
  Position, Range, Uri, Location, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
  StatusBarAlignment, ViewColumn, window, workspace, languages, commands: commandsApi,
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
  window.activeTextEditor = undefined;
}
