// The code editor of the exercise page: CodeMirror 6 with Python, bundled by build.mjs.
// Exposes window.NumjudgeEditor.create(options) -> {getValue, setValue, focus, view}.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { EditorState, Prec } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

const calmTheme = EditorView.theme({
  "&": { fontSize: "14px", backgroundColor: "#fff" },
  ".cm-content": { fontFamily: "var(--mono, ui-monospace, monospace)", minHeight: "min(18rem, 36vh)" },
  ".cm-gutters": { backgroundColor: "#f6f7f9", color: "#52606d", borderRight: "1px solid #e5e7eb" },
  ".cm-activeLineGutter": { color: "#1f2933" },
  "&.cm-focused": { outline: "2px solid #2563eb", outlineOffset: "-1px" },
  ".cm-scroller": { lineHeight: "1.5" },
});

function create(options) {
  const { parent, doc = "", label = "Code editor", onChange, onRun, onSubmit } = options;
  const shortcuts = Prec.highest(
    keymap.of([
      { key: "Mod-Enter", run: () => { if (onSubmit) onSubmit(); return true; } },
      { key: "Shift-Mod-Enter", run: () => { if (onRun) onRun(); return true; } },
    ]),
  );
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        shortcuts,
        basicSetup,
        python(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        keymap.of([indentWithTab]),
        calmTheme,
        EditorView.lineWrapping,  // a long starter comment wraps instead of hiding past the edge
        EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && onChange) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    getValue: () => view.state.doc.toString(),
    setValue: (text) =>
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}

window.NumjudgeEditor = { create };
