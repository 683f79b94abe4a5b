// Where a result's problems go, on results shaped as the API returns them.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Submission, TestResult } from "../src/api";
import { problems, relocate } from "../src/results";

const SOURCE = "# numjudge: slow\nimport numpy as np\n\n\ndef solve(x):\n    return x\n";

function testResult(name: string, message: string, visibility: "public" | "hidden"): TestResult {
  return { name, title: name, message, visibility, status: "error", points: 0, max_points: 1 };
}

function submission(tests: TestResult[]): Submission {
  return {
    id: "s1", url: "/submissions/s1", exercise: "slow", kind: "submit", status: "done",
    verdict: "timeout", score: 0, max_score: tests.length, message: "", tests, output: "",
    duration_ms: 2000,
  } as Submission;
}

test("a time limit that stops fourteen tests is two problems, not fourteen", () => {
  const stopped = "time limit exceeded: test 'large' was stopped at its limit of 2 s of CPU time";
  const after = "the code was stopped when test 'large' reached its limit of 2 s";
  const tests = [testResult("large", stopped, "public"),
                 ...Array.from({ length: 13 }, (_, i) =>
                   testResult(`case ${i}`, after, i < 2 ? "public" : "hidden"))];
  const found = problems(submission(tests), SOURCE, "solve");
  assert.deepEqual(found.map((problem) => [problem.line, problem.message]), [
    [4, `large: ${stopped}`],
    [4, `13 tests (11 hidden): ${after}`],
  ]);
});

test("a line a message names is the file's line, unless the file has no such line", () => {
  const tests = [testResult("a", "raised ValueError on line 6: no", "public"),
                 testResult("b", "raised ValueError on line 60: no", "hidden")];
  assert.deepEqual(problems(submission(tests), SOURCE, "solve").map((problem) =>
    [problem.line, problem.message]), [
    [5, "a: raised ValueError on line 6: no"],
    [4, "b (hidden test): raised ValueError on line 60: no"],
  ]);
});

test("a line a Japanese message names is found too; a test shows its title", () => {
  const tests = [{ ...testResult("a", "6 行目で ValueError が発生しました：no", "public"),
                   title: "数値例" },
                 testResult("b", "ValueError が発生しました", "hidden")];
  assert.deepEqual(problems(submission(tests), SOURCE, "solve").map((problem) =>
    [problem.line, problem.message]), [
    [5, "数値例: 6 行目で ValueError が発生しました：no"],
    [4, "b (hidden test): ValueError が発生しました"],
  ]);
});

test("a graded line is found where edits moved it, else the nearest line that exists", () => {
  const graded = ["# header", "a = 1", "def f():", "    return a"];
  assert.equal(relocate(2, graded, ["# header", "", "", "a = 1", "def f():", "    return a"]), 4);
  assert.equal(relocate(3, graded, ["# header", "    return a", "a = 1"]), 1);
  assert.equal(relocate(3, graded, ["# header"]), 0);
  assert.equal(relocate(0, graded, [""]), 0);
});
