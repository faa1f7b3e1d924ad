// The human texts of the bundled English contract that a translation overlay must cover: every summary,
// description and title, a tag's display name, a problem code's causes and fix and the detail of its example,
// and the prose of example problems — the title and detail of a problem in an example value and the detail of
// each of its errors (not other example values, identifiers or codes), addressed by a JSONPath the overlay
// can target, with a hash of the English it translates so a changed English text shows up as stale.
import { createHash } from 'node:crypto';

export const TEXT_FIELDS = ['summary', 'description', 'title', 'x-displayName', 'x-causes', 'x-fix', 'detail'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type Translatable = { target: string; texts: Partial<Record<TextField, string>>; hash: string };

/**
 * Keys whose values are data, never prose to translate — except as the name of a property (`Deal.value`, a
 * checklist item's `required`), whose description is prose like any other.
 */
const SKIP = new Set(['example', 'value', 'enum', 'const', 'default', 'pattern', 'required', 'x-generated']);

const segment = (key: string | number) =>
  typeof key === 'number'
    ? `[${key}]`
    : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
      ? `.${key}`
      : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;

export const hashOf = (texts: Partial<Record<TextField, string>>) =>
  createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 12);

type Json = Record<string, unknown>;
const isObject = (node: unknown): node is Json => !!node && typeof node === 'object' && !Array.isArray(node);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * An RFC 9457 problem as an example shows it: a code and a status, or a type URI and a title (not, say, an
 * appointment's `type` and `title`, which are data).
 */
const isProblem = (node: Json) =>
  (typeof node.code === 'string' && typeof node.status === 'number') ||
  (typeof node.type === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(node.type) && typeof node.title === 'string');

/**
 * The prose of the problems in an example value (the value itself, or a problem nested in it such as a batch
 * item's): a problem's title and detail and the detail of each of its errors. Everything else in the value —
 * codes, pointers, parameters, ids, type URLs, instance — is data and stays as it is.
 */
function problemTexts(node: unknown, path: string, out: Translatable[]) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) problemTexts(item, path + segment(i), out);
    return;
  }
  if (!isObject(node)) return;
  if (!isProblem(node)) {
    for (const [key, value] of Object.entries(node)) problemTexts(value, path + segment(key), out);
    return;
  }
  const texts: Partial<Record<TextField, string>> = {};
  if (nonEmpty(node.title)) texts.title = node.title;
  if (nonEmpty(node.detail)) texts.detail = node.detail;
  if (Object.keys(texts).length > 0) out.push({ target: path, texts, hash: hashOf(texts) });
  if (Array.isArray(node.errors))
    for (const [i, error] of node.errors.entries()) {
      if (isObject(error) && nonEmpty(error.detail)) {
        const errorTexts = { detail: error.detail };
        out.push({ target: `${path}.errors${segment(i)}`, texts: errorTexts, hash: hashOf(errorTexts) });
      }
    }
}

export function translatables(doc: unknown): Translatable[] {
  const out: Translatable[] = [];
  const walk = (node: unknown, path: string, inProperties = false) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, path + segment(i));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const texts: Partial<Record<TextField, string>> = {};
    for (const [key, value] of Object.entries(node)) {
      if ((TEXT_FIELDS as readonly string[]).includes(key) && typeof value === 'string' && value.trim() !== '') {
        texts[key as TextField] = value;
      } else if (inProperties || !SKIP.has(key)) {
        walk(value, path + segment(key), !inProperties && key === 'properties');
      } else if (key === 'value' || key === 'example') {
        problemTexts(value, path + segment(key), out);
      }
    }
    if (Object.keys(texts).length > 0) out.push({ target: path, texts, hash: hashOf(texts) });
  };
  walk(doc, '$');
  return out;
}

/** Resolves one of the targets `translatables` writes (no filters or wildcards). */
export function resolveTarget(doc: unknown, target: string): unknown {
  const tokens = target.slice(1).match(/\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\]|\['(?:[^'\\]|\\.)*'\]/g) ?? [];
  if (tokens.join('') !== target.slice(1)) return undefined;
  let node: unknown = doc;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') return undefined;
    const key = token.startsWith('.')
      ? token.slice(1)
      : token.startsWith("['")
        ? token.slice(2, -2).replace(/\\(.)/g, '$1')
        : Number(token.slice(1, -1));
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
