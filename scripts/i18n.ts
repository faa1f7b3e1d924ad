// Translations of the contract (openapi/overlays/<lang>.yaml, OpenAPI Overlay 1.0).
//   npm run check:i18n            every English text has a current translation in nl, de and fr that differs
//                                 from the English, and every overlay action targets an English text
//   tsx scripts/i18n.ts skeleton <lang>   adds an action (English placeholder) for every text not yet
//                                 translated or whose English changed, keeping current translations
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { sharedIdempotencyKey } from './lib/idempotency-examples.ts';
import { unmarkNotImplemented } from './lib/not-implemented.ts';
import { resolveTarget, TEXT_FIELDS, type TextField, translatables } from './lib/translatable.ts';

const LANGUAGES = ['nl', 'de', 'fr'] as const;
const NAMES = { nl: 'Nederlandse vertaling', de: 'Deutsche Übersetzung', fr: 'Traduction française' } as const;

type Action = { target: string; 'x-source-hash'?: string; update: Partial<Record<TextField, string>> };
type Overlay = { overlay: string; info: { title: string; version: string }; actions: Action[] };

/** Texts that are the same word in the language (names, codes, technical terms). */
const SAME_AS_ENGLISH: Record<(typeof LANGUAGES)[number], Set<string>> = {
  nl: new Set([
    'Webhooks',
    'Deals',
    'Events',
    'Key',
    'Webhook endpoints',
    'Pipeline stages',
    'Internal error',
    'Reviews',
  ]),
  de: new Set(['Webhooks', 'Deals', 'Events', 'Key', 'Webhook-Endpunkte', 'Pipeline stages']),
  fr: new Set(['Webhooks', 'Deals', 'Events', 'Notes', 'Conflict', 'Pipeline stages', 'Documents', 'Conversations']),
};

/** Texts with nothing to translate: code spans, identifiers and numbers only (e.g. `not_found (404)`). */
const isLanguageNeutral = (text: string) =>
  /^[a-z_]+ \(\d{3}\)$/.test(text) || !/[A-Za-z]{2}/.test(text.replace(/`[^`]*`/g, ''));

// The notice that generate adds to unbuilt operations is not part of their text (see lib/not-implemented.ts).
const english = sharedIdempotencyKey(
  unmarkNotImplemented(JSON.parse(readFileSync('generated/openapi.en.json', 'utf8'))),
);
const texts = translatables(english);
const byTarget = new Map(texts.map((t) => [t.target, t]));

const overlayPath = (lang: string) => `openapi/overlays/${lang}.yaml`;
const readOverlay = (lang: (typeof LANGUAGES)[number]): Overlay =>
  existsSync(overlayPath(lang))
    ? (parse(readFileSync(overlayPath(lang), 'utf8')) as Overlay)
    : { overlay: '1.0.0', info: { title: NAMES[lang], version: english.info.version }, actions: [] };

function problemsOf(lang: (typeof LANGUAGES)[number]): string[] {
  const overlay = readOverlay(lang);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const action of overlay.actions) {
    if (seen.has(action.target)) problems.push(`${lang}: ${action.target} is translated twice`);
    seen.add(action.target);
    // Redocly silently ignores a target that matches nothing: this check is what catches it.
    const source = byTarget.get(action.target);
    if (!source || resolveTarget(english, action.target) === undefined) {
      problems.push(`${lang}: ${action.target} targets no English text`);
      continue;
    }
    if (action['x-source-hash'] !== source.hash) problems.push(`${lang}: ${action.target} is stale (English changed)`);
    for (const field of TEXT_FIELDS) {
      const en = source.texts[field];
      const tr = action.update?.[field];
      if (en === undefined) continue;
      if (typeof tr !== 'string' || tr.trim() === '') problems.push(`${lang}: ${action.target} lacks ${field}`);
      else if (tr === en && !SAME_AS_ENGLISH[lang].has(en) && !isLanguageNeutral(en))
        problems.push(`${lang}: ${action.target} ${field} is English`);
    }
  }
  for (const text of texts) if (!seen.has(text.target)) problems.push(`${lang}: ${text.target} is not translated`);
  return problems;
}

function skeleton(lang: (typeof LANGUAGES)[number]) {
  const overlay = readOverlay(lang);
  const current = new Map(overlay.actions.map((a) => [a.target, a]));
  overlay.actions = texts.map((text) => {
    const existing = current.get(text.target);
    if (existing && existing['x-source-hash'] === text.hash) return existing;
    return { target: text.target, 'x-source-hash': text.hash, update: { ...text.texts } };
  });
  writeFileSync(overlayPath(lang), stringify(overlay, { lineWidth: 0 }));
  console.log(`${overlayPath(lang)}: ${overlay.actions.length} actions`);
}

const [command, lang] = process.argv.slice(2);
if (command === 'skeleton' && (LANGUAGES as readonly string[]).includes(lang)) {
  skeleton(lang as (typeof LANGUAGES)[number]);
} else if (command === 'check' || command === undefined) {
  const problems = LANGUAGES.flatMap(problemsOf);
  const counts = LANGUAGES.map((l) => `${l}: ${problemsOf(l).length}`).join(', ');
  if (problems.length > 0) {
    for (const p of problems.slice(0, 50)) console.error(p);
    console.error(`${problems.length} translation problems (${counts}) across ${texts.length} English texts`);
    process.exit(1);
  }
  console.log(`every one of ${texts.length} English texts is translated in ${LANGUAGES.join(', ')}`);
} else {
  console.error('usage: tsx scripts/i18n.ts check | skeleton nl|de|fr');
  process.exit(2);
}
