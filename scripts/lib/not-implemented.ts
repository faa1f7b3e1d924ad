// Operations that answer 501 until they are built carry `x-not-implemented: true` in the contract. So that the
// served contract and the docs say so in every language, `npm run generate` gives each of them a badge and
// starts its description with the notice at the contract's root (`x-not-implemented-notice`, translated by the
// overlays like every other text). check:i18n takes the notice off again: translations follow the
// operation's own text, which does not change when the operation is built.
type Notice = { title: string; description: string };
type Operation = { description?: string; 'x-not-implemented'?: boolean; 'x-badges'?: unknown };
type Doc = { paths: Record<string, Record<string, unknown>>; 'x-not-implemented-notice'?: Notice };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function* markedOperations(doc: Doc): Generator<Operation> {
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (op?.['x-not-implemented'] === true) yield op;
    }
  }
}

function noticeOf(doc: Doc): Notice {
  const notice = doc['x-not-implemented-notice'];
  if (!notice) throw new Error('the contract has no x-not-implemented-notice');
  return notice;
}

const quote = (notice: Notice) => `> **${notice.title}.** ${notice.description}\n\n`;

/** Adds the badge and the notice (in the document's language) to every operation marked not implemented. */
export function markNotImplemented<D extends Doc>(doc: D): D {
  const notice = noticeOf(doc);
  for (const op of markedOperations(doc)) {
    op['x-badges'] = [{ name: notice.title, color: '#b45309', position: 'after' }];
    op.description = quote(notice) + (op.description ?? '');
  }
  return doc;
}

/** The reverse of markNotImplemented: the operations' own texts, as the English source has them. */
export function unmarkNotImplemented<D extends Doc>(doc: D): D {
  const notice = noticeOf(doc);
  for (const op of markedOperations(doc)) {
    delete op['x-badges'];
    if (op.description?.startsWith(quote(notice))) op.description = op.description.slice(quote(notice).length);
  }
  return doc;
}
