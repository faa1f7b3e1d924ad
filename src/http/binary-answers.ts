// Operations whose success answer is a file (a binary body, such as a PDF or a download) rather than JSON.
import type { OperationId } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';

/**
 * Whether the operation's success answer is a file (a binary body, such as a PDF or a download) rather than
 * JSON: zod cannot describe such a body, so the route is served but left out of the routes' own document.
 */
export function answersBinary(id: OperationId): boolean {
  const responses: Record<string, { content?: Record<string, unknown> }> = routes[id].responses;
  return Object.entries(responses).some(
    ([status, response]) =>
      status.startsWith('2') && response.content !== undefined && !('application/json' in response.content),
  );
}
