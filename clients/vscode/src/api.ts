// The numjudge HTTP API, typed from the service's OpenAPI schema (src/api-types.ts, generated).
// No VS Code import here: the editor glue is in extension.ts.
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

/** The learner cancelled the wait; the server may still grade what was sent. */
export class Cancelled extends NumjudgeError {
  constructor(message: string) {
    super(message);
    this.name = "Cancelled";
  }
}

/** The statement languages the server speaks. */
export enum Language {
  English = "en",
  Japanese = "ja",
}

// The server holds a request at most this long (NUMJUDGE_MAX_WAIT_S); longer waits poll.
const SERVER_WAIT_S = 30;
const POLL_MS = 500;

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

  /** The course's assignments with the learner's score and due time (extensions included). */
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

  /** Posts the code and waits up to `waitS` seconds for the final result; `cancel` stops the
   * wait (a `Cancelled` error). */
  async grade(kind: Kind, exercise: string, code: string, waitS = 120,
              cancel?: AbortSignal): Promise<Submission> {
    const deadline = Date.now() + waitS * 1000;
    const first = Math.min(waitS, SERVER_WAIT_S);
    let result = (await this.request("POST", `/${kind}?wait=${first}`, { exercise, code }, true,
                                     first + this.timeoutS, cancel)) as Submission;
    while (result.status !== "done") {
      if (Date.now() >= deadline) {
        throw new NumjudgeError(`No result for ${exercise} after ${waitS} s: the submission is ` +
                                `${result.status}. See ${this.server}${result.url}.`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (cancel?.aborted) throw cancelled(`${this.server}${result.url}`);
      result = (await this.request("GET", `/submissions/${result.id}`, undefined, true,
                                   this.timeoutS, cancel)) as Submission;
    }
    return result;
  }

  private async request(method: string, path: string, body?: unknown, signed = false,
                        timeoutS = this.timeoutS, cancel?: AbortSignal): Promise<unknown> {
    if (signed && !this.token) {
      throw new NumjudgeError('Not signed in: run "numjudge: Sign in" with a token from ' +
                              `${this.server}/account.`);
    }
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(this.server + path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        signal: either(cancel, AbortSignal.timeout(timeoutS * 1000)),
      });
    } catch (error) {
      if (cancel?.aborted) throw cancelled();
      const cause = error instanceof Error ? (error.cause ?? error) : error;
      if (error instanceof Error && error.name === "TimeoutError") {
        throw new NumjudgeError(`The numjudge server at ${this.server} did not answer within ` +
                                `${timeoutS} s; try again in a moment.`);
      }
      throw new NumjudgeError(`Cannot reach the numjudge server at ${this.server} ` +
                              `(${describe(cause)}). Check the "numjudge.serverUrl" setting and ` +
                              "that the server is running.");
    }
    if (response.ok) return response.json();
    const detail = await errorDetail(response);
    if (response.status === 401) {
      throw new NumjudgeError(`The server at ${this.server} refused the token (${detail}). ` +
                              `Create a new one on ${this.server}/account and run ` +
                              '"numjudge: Sign in" again.', 401);
    }
    if (response.status === 429) {
      const after = response.headers.get("Retry-After");
      throw new NumjudgeError(`Too many submissions: ${detail}. ` +
                              `Try again ${after ? `in ${after} s` : "in a moment"}.`, 429);
    }
    throw new NumjudgeError(`The server refused (${response.status}): ${detail}`,
                            response.status);
  }
}

function cancelled(url?: string): Cancelled {
  return new Cancelled("numjudge: cancelled. The server may still grade what was sent" +
                       (url ? `; its result will be at ${url}.` : "."));
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
