// What a failed statement violated. drizzle wraps the driver's error (DrizzleQueryError), so the PostgreSQL
// fields are on the error or on its cause.
export function violatedConstraint(error: unknown): string | undefined {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = 'cause' in e ? e.cause : undefined) {
    if ('constraint_name' in e && typeof e.constraint_name === 'string') return e.constraint_name;
  }
  return undefined;
}
