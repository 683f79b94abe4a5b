// The live `numjudge serve` that tests/clients/test_vscode.py started for these tests.
import { readFileSync } from "node:fs";
import { join } from "node:path";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run these tests through ` +
                    "`pytest tests/clients/test_vscode.py`, which starts a numjudge server");
  }
  return value;
}

export const SERVER = required("NUMJUDGE_TEST_SERVER");
export const TOKEN = required("NUMJUDGE_TEST_TOKEN");
// A second server that takes one submission per learner per minute, and a learner of it.
export const LIMITED_SERVER = required("NUMJUDGE_TEST_LIMITED_SERVER");
export const LIMITED_TOKEN = required("NUMJUDGE_TEST_LIMITED_TOKEN");
export const EXERCISE = "gru-update-gate";

export function exerciseFile(relative: string): string {
  return readFileSync(join(required("NUMJUDGE_TEST_EXERCISES"), EXERCISE, relative), "utf8");
}
