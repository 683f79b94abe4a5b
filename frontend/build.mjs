// Bundles CodeMirror 6 and copies KaTeX and Swagger UI (the API page, /docs) into
// ../app/static/vendor/ (run: npm ci && npm run build),
// and copies axe-core (accessibility checks of the end-to-end tests) into ../tests/e2e/vendor/.
import { build } from "esbuild";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "app", "static", "vendor");
const modules = join(here, "node_modules");
const version = (name) => JSON.parse(readFileSync(join(modules, name, "package.json"))).version;

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "katex", "fonts"), { recursive: true });

await build({
  entryPoints: [join(here, "src", "editor.js")],
  outfile: join(out, "editor.min.js"),
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "none",
  logLevel: "warning",
});

const katex = join(modules, "katex", "dist");
cpSync(join(katex, "katex.min.js"), join(out, "katex", "katex.min.js"));
cpSync(join(katex, "katex.min.css"), join(out, "katex", "katex.min.css"));
for (const font of readdirSync(join(katex, "fonts")).filter((f) => f.endsWith(".woff2"))) {
  cpSync(join(katex, "fonts", font), join(out, "katex", "fonts", font));
}

// Swagger UI's prebuilt bundle and stylesheet; /docs starts it from app/static/js/api-docs.js
// (no inline script, so the page's Content-Security-Policy allows only this origin's scripts).
const swagger = join(modules, "swagger-ui-dist");
mkdirSync(join(out, "swagger-ui"), { recursive: true });
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
  cpSync(join(swagger, file), join(out, "swagger-ui", file));
}

const packages = [
  "codemirror", "@codemirror/view", "@codemirror/state", "@codemirror/commands",
  "@codemirror/language", "@codemirror/lang-python", "katex", "swagger-ui-dist",
];
const licenses = packages.map((name) => {
  const text = readFileSync(join(modules, name, "LICENSE"), "utf8");
  return `== ${name} ${version(name)} ==\n\n${text.trim()}\n`;
});
writeFileSync(join(out, "LICENSES.txt"), licenses.join("\n"));

const testVendor = join(here, "..", "tests", "e2e", "vendor");
mkdirSync(testVendor, { recursive: true });
cpSync(join(modules, "axe-core", "axe.min.js"), join(testVendor, "axe.min.js"));
writeFileSync(join(testVendor, "VERSIONS.txt"), `axe-core ${version("axe-core")} (MPL-2.0)\n`);
writeFileSync(
  join(out, "VERSIONS.txt"),
  packages.map((name) => `${name} ${version(name)}`).join("\n") + "\n",
);
