// A company's invoice reminder schedule (issue 52, point 6): the rules the API and the operator's CLI share, and
// which step of it an overdue invoice has reached.
import type { ReminderStep } from '../db/schema/index.ts';

export type { ReminderStep };
export const REMINDER_KINDS = ['friendly', 'second', 'final'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
export const MAX_REMINDER_STEPS = 5;
export const MAX_DAYS_AFTER_DUE = 365;

/** The steps whose `days_after_due` is not greater than the step before's: their positions in the list. */
export function stepsOutOfOrder(steps: readonly ReminderStep[]): number[] {
  return steps.flatMap((step, index) =>
    index > 0 && step.days_after_due <= (steps[index - 1]?.days_after_due ?? 0) ? [index] : [],
  );
}

/**
 * The kinds of a schedule given by its days only (CLI `--steps 7,14,30`): the first friendly, the last final, the
 * ones between second; one step alone is friendly.
 */
export function kindsByPosition(days: readonly number[]): ReminderStep[] {
  return days.map((day, index) => ({
    days_after_due: day,
    kind: index === 0 ? 'friendly' : index === days.length - 1 ? 'final' : 'second',
  }));
}

/**
 * The step an invoice `overdueDays` past its due date has reached: the latest whose day has come, or undefined.
 * Earlier steps it passed without a reminder are not sent afterwards: the customer gets only the latest one due.
 */
export function stepReached(steps: readonly ReminderStep[], overdueDays: number): ReminderStep | undefined {
  return steps.filter((step) => step.days_after_due <= overdueDays).at(-1);
}
