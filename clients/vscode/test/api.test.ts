// The client layer against the live server.
import assert from "node:assert/strict";
import { createServer as createHttpServer, type RequestListener } from "node:http";
import { createServer } from "node:net";
import { test } from "node:test";
import { ApiClient, Cancelled, Kind, Language, NumjudgeError, type Submission,
         languageOf } from "../src/api";
import { EXERCISE, LIMITED_SERVER, LIMITED_TOKEN, SERVER, TOKEN, exerciseFile } from "./live";

const client = new ApiClient(SERVER, TOKEN);

async function rejectsWith(promise: Promise<unknown>, message: string | RegExp): Promise<void> {
  await assert.rejects(promise, (error: Error) => {
    assert.ok(error instanceof NumjudgeError, String(error));
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

test("exercises and their starter come from the server", async () => {
  const exercises = await new ApiClient(SERVER, undefined).exercises();
  assert.ok(exercises.some((exercise) => exercise.id === EXERCISE));
  assert.ok(exercises.length > 1);
  const detail = await client.exercise(EXERCISE);
  assert.equal(detail.entry, "update_gate");
  assert.equal(detail.starter_code, exerciseFile("starter.py"));
});

test("a classic mistake fails with its hint; the reference passes", async () => {
  const failed = await client.grade(Kind.Submit, EXERCISE, exerciseFile("mistakes/one_minus_z.py"));
  assert.equal(failed.status, "done");
  assert.equal(failed.verdict, "failed");
  assert.equal(failed.kind, "submit");
  const failing = (failed.tests ?? []).filter((t) => t.status === "failed").map((t) => t.name);
  assert.ok(failed.diagnosis?.hint.includes("add up to 1"), String(failed.diagnosis?.hint));
  assert.deepEqual(failed.diagnosis?.cases, failing);
  const passed = await client.grade(Kind.Submit, EXERCISE, exerciseFile("solution.py"));
  assert.equal(passed.verdict, "passed");
  assert.equal(passed.score, passed.max_score);
});

test("a run grades the public cases only", async () => {
  const run = await client.grade(Kind.Run, EXERCISE, exerciseFile("solution.py"));
  assert.equal(run.kind, "run");
  assert.deepEqual(new Set((run.tests ?? []).map((t) => t.visibility)), new Set(["public"]));
});

test("a wrong token, no token and an unknown exercise are said in words", async () => {
  await rejectsWith(new ApiClient(SERVER, "nj_wrong").grade(Kind.Submit, EXERCISE, "x = 1"),
                    `The server at ${SERVER} refused the token (Invalid, expired or revoked API ` +
                    `token). Create a new one on ${SERVER}/account and run ` +
                    '"numjudge: Sign in" again.');
  await rejectsWith(new ApiClient(SERVER, undefined).checkToken(), /^Not signed in/);
  await rejectsWith(client.grade(Kind.Submit, "nope", "x = 1"),
                    "The server refused (404): Exercise 'nope' not found");
});

test("an unreachable server is said in words", async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  await rejectsWith(new ApiClient(url, TOKEN).exercises(),
                    new RegExp(`^Cannot reach the numjudge server at ${url} \\(ECONNREFUSED`));
});

test("waiting longer than allowed names the submission", async () => {
  const slow = "import time\ntime.sleep(2)\n" + exerciseFile("solution.py");
  await rejectsWith(client.grade(Kind.Submit, EXERCISE, slow, { waitS: 0.3 }),
                    new RegExp("^No result for gru-update-gate after 0.3 s: the submission is " +
                               `(queued|running)\\. See ${SERVER}/history/[0-9a-f]+$`));
});

// The live server always answers: a silent one is a local HTTP server of the test's own.
async function withServer(listener: RequestListener, use: (url: string) => Promise<void>) {
  const server = createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    await use(`http://127.0.0.1:${port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

test("too many submissions say when to try again", async () => {
  const limited = new ApiClient(LIMITED_SERVER, LIMITED_TOKEN);
  assert.equal((await limited.grade(Kind.Submit, EXERCISE, exerciseFile("solution.py"))).verdict,
               "passed");
  await rejectsWith(limited.grade(Kind.Submit, EXERCISE, exerciseFile("solution.py")),
                    /^Too many submissions: You sent 1 submissions in the last minute \(the limit is 1\)\. Try again in \d+ s\.$/);
});

test("a server that does not answer in time is said in words", async () => {
  await withServer(() => { /* never answers */ }, async (url) => {
    await rejectsWith(new ApiClient(url, TOKEN, 0.2).exercises(),
                      `The numjudge server at ${url} did not answer within 0.2 s; try again ` +
                      "in a moment.");
  });
});

test("results, messages and hints come in the client's language", async () => {
  const japanese = new ApiClient(SERVER, TOKEN, 30, Language.Japanese);
  const failed = await japanese.grade(Kind.Submit, EXERCISE,
                                      exerciseFile("mistakes/one_minus_z.py"));
  assert.equal(failed.verdict, "failed");
  const numerical = (failed.tests ?? []).find((test) => test.name === "numerical example");
  assert.equal(numerical?.title, "数値例"); // the name stays, the title is the reader's
  assert.match(failed.diagnosis?.hint ?? "", /^あなたのゲートと期待されるゲートは/);
  const english = await client.result(failed.id);
  assert.match(english.diagnosis?.hint ?? "", /^Your gate and the expected one add up to 1/);
  await rejectsWith(japanese.grade(Kind.Submit, "nope", "x = 1"),
                    /^The server refused \(404\): /); // the extension's own words: its bundle
});

test("VS Code's display language picks Japanese for Japanese only", () => {
  assert.deepEqual(["ja", "ja-JP", "en", "en-us", "zh-cn", "de"].map(languageOf),
                   [Language.Japanese, Language.Japanese, Language.English, Language.English,
                    Language.English, Language.English]);
});

test("the wait answers the submission the code made; a cancelled wait names its page",
     async () => {
  const slow = "import time\ntime.sleep(2)\n" + exerciseFile("solution.py");
  let made: Submission | undefined;
  const passed = await client.grade(Kind.Submit, EXERCISE, slow,
                                    { accepted: (submission) => { made = submission; } });
  assert.equal(passed.verdict, "passed");
  assert.equal(passed.id, made?.id); // waiting sent the code again: no second submission

  const stop = new AbortController();
  let page = "";
  const cancelled = client.grade(Kind.Submit, EXERCISE, slow, {
    cancel: stop.signal, accepted: (submission) => {
      made = submission;
      page = client.page(submission);
      stop.abort(); // the learner stops waiting once it is sent
    },
  });
  await assert.rejects(cancelled, (error: Error) => {
    assert.ok(error instanceof Cancelled, String(error));
    assert.equal(error.page, `${SERVER}/history/${made?.id}`);
    assert.equal(error.message, "numjudge: cancelled. The server goes on grading what was " +
                 `sent; its result will be on ${page}`);
    return true;
  });
  const goesOn = await client.result(made?.id ?? "");
  assert.equal(goesOn.exercise, EXERCISE);
  assert.equal(goesOn.kind, "submit");

  const before = new AbortController();
  before.abort();
  await assert.rejects(client.grade(Kind.Submit, EXERCISE, slow, { cancel: before.signal }),
                       /^Cancelled: numjudge: cancelled; nothing was sent\.$/);
});
