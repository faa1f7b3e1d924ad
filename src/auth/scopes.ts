// Scopes come from the contract (Scope schema); presets for key creation.
import type { z } from 'zod';
import { ScopeSchema } from '../../generated/routes.ts';

export type Scope = z.infer<typeof ScopeSchema>;
export const ALL_SCOPES: readonly Scope[] = ScopeSchema.options;
export const READ_SCOPES: readonly Scope[] = ALL_SCOPES.filter((s) => s.endsWith('.read'));

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);

/** `all`, `read`, or a comma list of scopes; throws on an unknown scope. */
export function scopesFrom(preset: string): Scope[] {
  if (preset === 'all') return [...ALL_SCOPES];
  if (preset === 'read') return [...READ_SCOPES];
  const list = preset
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !isScope(s));
  if (unknown.length) throw new Error(`unknown scope(s): ${unknown.join(', ')}`);
  return list.filter(isScope);
}
