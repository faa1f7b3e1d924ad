// How the texts of problems are defined and rendered: a catalogue of entries, each in the four languages with the
// same `{placeholders}` (compile-time checked), and `localize`, which writes a message in a language. The shared
// entries are in messages.ts, each resource's in its own messages.ts.
import { PLACEHOLDER, pluralForm } from '../domain/locale-format.ts';
import type { Language } from './language.ts';

/** The templates of one text, by language. */
export type Templates = Readonly<Record<Language, string>>;

/** The names in `{…}` of a template. */
type Placeholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `${infer Bare}|${string}` ? Bare : Name) | Placeholders<Rest>
  : never;

/** A list is joined with the language's "or" (`deals.read or customers.read`). */
export type Param = string | number | readonly string[];

/** A text to show, in no language yet: a catalogue entry (its id and templates) and the values of its placeholders. */
export type Message = {
  readonly id: string;
  readonly templates: Templates;
  readonly params: Readonly<Record<string, Param>>;
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The ids of entries where a translation has other placeholders than the English template. */
type Mismatched<C extends Record<string, Templates>> = {
  [Id in keyof C]: {
    [L in Language]: Same<Placeholders<C[Id][L]>, Placeholders<C[Id]['en']>>;
  }[Language] extends true
    ? never
    : Id;
}[keyof C];

/**
 * A catalogue of texts (the shared one below, and each resource's `messages.ts`) and its `message` function:
 * `message('body.too_large', { max })` takes exactly the entry's placeholders. Every entry has all four languages,
 * and a translation with other placeholders than the English template is a compile-time error.
 */
export function defineMessages<const C extends Record<string, Templates>>(
  entries: C,
  ..._placeholdersAgree: [Mismatched<C>] extends [never] ? [] : [{ placeholdersDiffer: Mismatched<C> }]
) {
  type NamesOf<Id extends keyof C> = Placeholders<C[Id]['en']>;
  return {
    entries,
    message<Id extends keyof C & string>(
      id: Id,
      ...[params]: [NamesOf<Id>] extends [never] ? [] : [{ readonly [Name in NamesOf<Id>]: Param }]
    ): Message {
      return { id, templates: entries[id], params: params ?? {} };
    },
  };
}

const OR: Record<Language, string> = { en: ' or ', nl: ' of ', de: ' oder ', fr: ' ou ' };

/**
 * The message's text in `language`. A placeholder is `{name}`, or `{name|one:# thing|other:# things}` where the
 * count chooses the form by the language's plural rules (src/domain/locale-format.ts, pluralForm).
 */
export function localize({ templates, params }: Message, language: Language): string {
  return templates[language].replace(PLACEHOLDER, (_, name: string, forms: string | undefined) => {
    const value = params[name];
    if (typeof value === 'object') return value.join(OR[language]);
    if (forms !== undefined && value !== '' && Number.isFinite(Number(value)))
      return pluralForm(forms, Number(value), language);
    return String(value);
  });
}
