// The catalog view's content: the assignments (due time, score) with their exercises, then every
// exercise, each with the learner's best submitted score, in the learner's language
// (@vscode/l10n). No VS Code import: tests run it as is.
import * as l10n from "@vscode/l10n";
import type { Assignment, ExerciseSummary, SubmissionSummary } from "./api";

export interface CatalogExercise {
  id: string;
  title: string;
  best: string; // "best 26 / 26", or "not submitted"
}

export interface CatalogGroup {
  label: string;
  description: string;
  tooltip: string;
  exercises: CatalogExercise[];
}

/** "due 2026-12-14 23:59": when an assignment opens, is due, or was. */
function stateAt(state: Assignment["state"], time: string): string {
  switch (state) {
    case "upcoming": return l10n.t("opens {time}", { time });
    case "open": return l10n.t("due {time}", { time });
    case "late": return l10n.t("late since {time}", { time });
    case "closed": return l10n.t("closed since {time}", { time });
  }
}

/** The best score of each exercise among the learner's graded submissions. */
export function bestScores(history: SubmissionSummary[]): Map<string, string> {
  const best = new Map<string, { score: number; max: number }>();
  for (const submission of history) {
    if (submission.kind !== "submit" || submission.score == null || submission.max_score == null) {
      continue;
    }
    const known = best.get(submission.exercise);
    if (!known || submission.score > known.score) {
      best.set(submission.exercise, { score: submission.score, max: submission.max_score });
    }
  }
  return new Map([...best].map(([id, { score, max }]) =>
    [id, l10n.t("best {score} / {max}", { score, max })]));
}

/** The time as the schedule wrote it ("2026-12-14 23:59"), its zone in the tooltip. */
function when(iso: string): string {
  return iso.slice(0, 16).replace("T", " ");
}

export function catalog(exercises: ExerciseSummary[], history: SubmissionSummary[],
                        assignments: Assignment[]): CatalogGroup[] {
  const best = bestScores(history);
  const titles = new Map(exercises.map((exercise) => [exercise.id, exercise.title]));
  const entry = (id: string): CatalogExercise => ({
    id, title: titles.get(id) ?? id, best: best.get(id) ?? l10n.t("not submitted"),
  });
  const groups = assignments.map((assignment) => {
    const time = assignment.state === "upcoming" ? assignment.opens : assignment.due;
    const times = { opens: assignment.opens, due: assignment.due };
    return {
      label: assignment.title,
      description: `${stateAt(assignment.state, when(time))} · ` +
        `${assignment.score} / ${assignment.max_score}`,
      tooltip: assignment.extended ? l10n.t("opens {opens}, due {due} (extended for you)", times)
        : l10n.t("opens {opens}, due {due}", times),
      exercises: assignment.exercises.map((exercise) => entry(exercise.id)),
    };
  });
  groups.push({
    label: l10n.t("All exercises"), description: `${exercises.length}`,
    tooltip: l10n.t("the whole course"),
    exercises: exercises.map((exercise) => entry(exercise.id)),
  });
  return groups;
}
