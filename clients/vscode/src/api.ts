// The numjudge HTTP API, typed from the service's OpenAPI schema (src/api-types.ts, generated).
// No VS Code import here: the editor glue is in extension.ts. Its sentences are in the
// learner's language through @vscode/l10n (extension.ts loads the bundle).
import { randomUUID } from "node:crypto";
import * as l10n from "@vscode/l10n";
import type { components } from "./api-types";

export type ExerciseSummary = components["schemas"]["ExerciseSummary"];
export type ExerciseDetail = components["schemas"]["ExerciseDetail"];
export type Submission = components["schemas"]["SubmissionOut"];
export type TestResult = components["schemas"]["TestResultOut"];
export type SubmissionSummary = components["schemas"]["SubmissionSummary"];
export type Assignment = components["schemas"]["AssignmentOut"];

export enum Kind {
  Run = "run",
  Submit = "submit",
}

/** Every failure, as a sentence a learner can act on. */
export class NumjudgeError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = "NumjudgeError";
  }
}

/** The learner stopped waiting; the server goes on grading the submission it accepted. */
export class Cancelled extends NumjudgeError {
  constructor(readonly page?: string) {
    super(page
      ? l10n.t("numjudge: cancelled. The server goes on grading what was sent; its result will be on {page}", { page })
      : l10n.t("numjudge: cancelled; nothing was sent."));
    this.name = "Cancelled";
  }
}

/** The languages the server speaks: statements, results, messages and hints. */
export enum Language {
  English = "en",
  Japanese = "ja",
}

/** The language of a BCP 47 tag (VS Code's display language: "ja", "en-us", "zh-cn"):
 * Japanese for Japanese, else English. */
export function languageOf(tag: string): Language {
  return tag.toLowerCase().split("-")[0] === Language.Japanese ? Language.Japanese
    : Language.English;
}

// The server holds a request at most this long (NUMJUDGE_MAX_WAIT_S); longer waits ask again.
const SERVER_WAIT_S = 30;

export interface GradeOptions {
  waitS?: number;
  cancel?: AbortSignal;
  accepted?: (submission: Submission) => void;
}

export class ApiClient {
  readonly server: string;

  constructor(server: string, private readonly token: string | undefined,
              private readonly timeoutS = 30, private readonly language = Language.English) {
    this.server = server.replace(/\/+$/, "");
  }

  get signedIn(): boolean {
    return Boolean(this.token);
  }

  async exercises(): Promise<ExerciseSummary[]> {
    return (await this.request("GET", "/exercises")) as ExerciseSummary[];
  }

  /** The exercise, its statement in the client's language (English where none). */
  async exercise(id: string): Promise<ExerciseDetail> {
    const path = `/exercises/${encodeURIComponent(id)}?lang=${this.language}`;
    return (await this.request("GET", path)) as ExerciseDetail;
  }

  /** The learner's graded submissions, newest first. */
  async history(): Promise<SubmissionSummary[]> {
    return (await this.request("GET", "/submissions?kind=submit&limit=1000", undefined,
                               true)) as SubmissionSummary[];
  }

  /** The schedule's assignments with the learner's score and due time (extensions included). */
  async assignments(): Promise<Assignment[]> {
    return (await this.request("GET", "/assignments", undefined, true)) as Assignment[];
  }

  /** Raises unless the server accepts the token. */
  async checkToken(): Promise<void> {
    await this.request("GET", "/submissions?limit=1", undefined, true);
  }

  async result(id: string): Promise<Submission> {
    return (await this.request("GET", `/submissions/${id}`, undefined, true)) as Submission;
  }

  /** The submission's page on the server, for a browser. */
  page(submission: Submission): string {
    return `${this.server}/history/${submission.id}`;
  }

  /** Posts the code, then waits up to `waitS` seconds for the final result; `accepted` hears
   * of the submission as soon as the server has it, `cancel` stops the wait (a `Cancelled`
   * error naming the submission's page). The code is sent first without waiting, and
   * `cancel` does not interrupt that: a learner who stops waiting learns which submission the
   * server goes on grading. The wait then sends the same Idempotency-Key again, which answers
   * that submission (never another) once it is final, up to the server's longest hold. */
  async grade(kind: Kind, exercise: string, code: string,
              { waitS = 120, cancel, accepted }: GradeOptions = {}): Promise<Submission> {
    const deadline = Date.now() + waitS * 1000;
    const key = randomUUID();
    const send = async (holdS: number, signal?: AbortSignal): Promise<Submission> =>
      (await this.request("POST", `/${kind}?wait=${holdS}`, { exercise, code }, true,
                          holdS + this.timeoutS, signal, key)) as Submission;
    if (cancel?.aborted) throw new Cancelled(); // before anything was sent
    let result = await send(0);
    accepted?.(result);
    while (result.status !== "done") {
      if (cancel?.aborted) throw new Cancelled(this.page(result));
      const leftS = (deadline - Date.now()) / 1000;
      if (leftS <= 0) {
        throw new NumjudgeError(l10n.t("No result for {exercise} after {seconds} s: the submission is {status}. See {page}",
                                       { exercise, seconds: waitS, status: result.status,
                                         page: this.page(result) }));
      }
      try {
        result = await send(Math.min(leftS, SERVER_WAIT_S), cancel);
      } catch (error) {
        if (error instanceof Cancelled) throw new Cancelled(this.page(result));
        throw error;
      }
    }
    return result;
  }

  /** One call; the server answers in the client's language (Accept-Language): the results'
   * test names, messages and hints, and its refusals. */
  private async request(method: string, path: string, body?: unknown, signed = false,
                        timeoutS = this.timeoutS, cancel?: AbortSignal,
                        idempotencyKey?: string): Promise<unknown> {
    if (signed && !this.token) {
      throw new NumjudgeError(l10n.t("Not signed in: run \"numjudge: Sign in\" with a token from {server}/account.", { server: this.server }));
    }
    const headers: Record<string, string> = {
      Accept: "application/json", "Accept-Language": this.language,
    };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(this.server + path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        signal: either(cancel, AbortSignal.timeout(timeoutS * 1000)),
      });
    } catch (error) {
      if (cancel?.aborted) throw new Cancelled();
      const cause = error instanceof Error ? (error.cause ?? error) : error;
      if (error instanceof Error && error.name === "TimeoutError") {
        throw new NumjudgeError(l10n.t("The numjudge server at {server} did not answer within {seconds} s; try again in a moment.",
                                       { server: this.server, seconds: timeoutS }));
      }
      throw new NumjudgeError(l10n.t("Cannot reach the numjudge server at {server} ({cause}). Check the \"numjudge.serverUrl\" setting and that the server is running.",
                                     { server: this.server, cause: describe(cause) }));
    }
    if (response.ok) return response.json();
    const detail = await errorDetail(response);
    if (response.status === 401) {
      throw new NumjudgeError(l10n.t("The server at {server} refused the token ({detail}). Create a new one on {server}/account and run \"numjudge: Sign in\" again.", { server: this.server, detail }), 401);
    }
    if (response.status === 429) {
      const after = response.headers.get("Retry-After");
      throw new NumjudgeError(after
        ? l10n.t("Too many submissions: {detail}. Try again in {seconds} s.",
                 { detail, seconds: after })
        : l10n.t("Too many submissions: {detail}. Try again in a moment.", { detail }), 429);
    }
    throw new NumjudgeError(l10n.t("The server refused ({status}): {detail}",
                                   { status: response.status, detail }), response.status);
  }
}

/** A signal that aborts when either does (AbortSignal.any is newer than VS Code 1.90's node). */
function either(first: AbortSignal | undefined, second: AbortSignal): AbortSignal {
  if (!first) return second;
  const both = new AbortController();
  for (const signal of [first, second]) {
    if (signal.aborted) both.abort(signal.reason);
    signal.addEventListener("abort", () => both.abort(signal.reason), { once: true });
  }
  return both.signal;
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}

async function errorDetail(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === "string") return body.detail;
  } catch {
    // not JSON: the text itself says what happened
  }
  return text.slice(0, 300) || response.statusText;
}
