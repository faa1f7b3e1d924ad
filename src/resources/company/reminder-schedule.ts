// The check of a new invoice reminder schedule beyond the contract's (0–5 steps of 1–365 days, known kinds): the
// days strictly increase. The API answers it as 422; the operator's CLI prints it.
import { type ReminderStep, stepsOutOfOrder } from '../../domain/reminder-schedule.ts';
import type { ApiProblem } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { companyMessages } from './messages.ts';

/** 422 validation_failed with `too_small` at each step not after the one before it, or undefined. */
export function reminderScheduleProblem(steps: readonly ReminderStep[]): ApiProblem | undefined {
  const wrong = stepsOutOfOrder(steps);
  if (wrong.length === 0) return undefined;
  return invalidFields(
    wrong.map((index) => ({
      pointer: `/steps/${index}/days_after_due`,
      parameter: null,
      code: 'too_small',
      detail: companyMessages.message('reminders.not_increasing', {
        previous: steps[index - 1]?.days_after_due ?? 0,
      }),
    })),
  );
}
