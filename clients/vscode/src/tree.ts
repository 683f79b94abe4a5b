// The catalog view in the Explorer: assignments with their due times and scores, every exercise
// with the learner's best score; choosing an exercise opens its file.
import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { type ApiClient, NumjudgeError } from "./api";
import { type CatalogExercise, type CatalogGroup, catalog } from "./catalog";

type Node = CatalogGroup | CatalogExercise | { notice: string; command?: string };

export class CatalogTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly client: () => Promise<ApiClient>) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node) return "exercises" in node ? node.exercises : [];
    try {
      const client = await this.client();
      const exercises = await client.exercises();
      if (!client.signedIn) {
        return [{ notice: l10n.t("Sign in to see your scores and assignments"),
                  command: "numjudge.signIn" },
                ...catalog(exercises, [], [])];
      }
      const [history, assignments] = await Promise.all([client.history(), client.assignments()]);
      return catalog(exercises, history, assignments);
    } catch (error) {
      // a view cannot raise: the reason takes the place of the catalog
      return [{ notice: error instanceof NumjudgeError ? error.message : String(error) }];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if ("notice" in node) {
      const item = new vscode.TreeItem(node.notice, vscode.TreeItemCollapsibleState.None);
      if (node.command) item.command = { command: node.command, title: node.notice };
      return item;
    }
    if ("exercises" in node) {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = node.description;
      item.tooltip = node.tooltip;
      return item;
    }
    const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.None);
    item.description = node.best;
    item.tooltip = node.id;
    item.command = { command: "numjudge.openExercise", title: l10n.t("Open exercise"),
                     arguments: [node.id] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
