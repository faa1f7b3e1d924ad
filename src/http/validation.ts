// Turns zod validation failures into one 422 problem listing every invalid input, each with a JSON
// Pointer (body) or parameter name (query, header, path).
import type { z } from 'zod';
import type { Language } from './language.ts';
import { ApiProblem, type FieldError } from './problems.ts';

type Target = 'json' | 'form' | 'query' | 'param' | 'header' | 'cookie' | 'text';

type Params = { type: string; format: string; values: string; max: string; min: string };
type Template = (p: Params) => string;

/** The per-field `detail` of a validation problem, in the request's language. */
const DETAILS: Record<string, Record<Language, Template>> = {
  required: {
    en: () => 'This field is required.',
    nl: () => 'Dit veld is verplicht.',
    de: () => 'Dieses Feld ist erforderlich.',
    fr: () => 'Ce champ est obligatoire.',
  },
  invalid_type: {
    en: (p) => `Must be of type ${p.type}.`,
    nl: (p) => `Moet van het type ${p.type} zijn.`,
    de: (p) => `Muss vom Typ ${p.type} sein.`,
    fr: (p) => `Doit être de type ${p.type}.`,
  },
  invalid_format: {
    en: (p) => `Must be a valid ${p.format}.`,
    nl: (p) => `Moet een geldige ${p.format} zijn.`,
    de: (p) => `Muss ein gültiger Wert im Format ${p.format} sein.`,
    fr: (p) => `Doit être une valeur ${p.format} valide.`,
  },
  invalid_enum: {
    en: (p) => `Must be one of: ${p.values}.`,
    nl: (p) => `Moet een van deze waarden zijn: ${p.values}.`,
    de: (p) => `Muss einer dieser Werte sein: ${p.values}.`,
    fr: (p) => `Doit être l’une de ces valeurs : ${p.values}.`,
  },
  too_long: {
    en: (p) => `Must be at most ${p.max} characters.`,
    nl: (p) => `Mag hoogstens ${p.max} tekens lang zijn.`,
    de: (p) => `Darf höchstens ${p.max} Zeichen lang sein.`,
    fr: (p) => `Ne doit pas dépasser ${p.max} caractères.`,
  },
  too_short: {
    en: (p) => `Must be at least ${p.min} characters.`,
    nl: (p) => `Moet minstens ${p.min} tekens lang zijn.`,
    de: (p) => `Muss mindestens ${p.min} Zeichen lang sein.`,
    fr: (p) => `Doit contenir au moins ${p.min} caractères.`,
  },
  too_big: {
    en: (p) => `Must be at most ${p.max}.`,
    nl: (p) => `Mag hoogstens ${p.max} zijn.`,
    de: (p) => `Darf höchstens ${p.max} sein.`,
    fr: (p) => `Doit être au plus ${p.max}.`,
  },
  too_small: {
    en: (p) => `Must be at least ${p.min}.`,
    nl: (p) => `Moet minstens ${p.min} zijn.`,
    de: (p) => `Muss mindestens ${p.min} sein.`,
    fr: (p) => `Doit être au moins ${p.min}.`,
  },
  unknown_field: {
    en: () => 'This field is not accepted here.',
    nl: () => 'Dit veld wordt hier niet geaccepteerd.',
    de: () => 'Dieses Feld wird hier nicht akzeptiert.',
    fr: () => 'Ce champ n’est pas accepté ici.',
  },
  unknown_parameter: {
    en: () => 'This query parameter is not accepted here.',
    nl: () => 'Deze queryparameter wordt hier niet geaccepteerd.',
    de: () => 'Dieser Query-Parameter wird hier nicht akzeptiert.',
    fr: () => 'Ce paramètre de requête n’est pas accepté ici.',
  },
};

function paramsOf(issue: z.core.$ZodIssue): Params {
  return {
    type: 'expected' in issue ? String(issue.expected) : 'value',
    format: 'format' in issue ? String(issue.format) : 'value',
    values: 'values' in issue ? (issue.values as unknown[]).map((v) => JSON.stringify(v)).join(', ') : '',
    max: 'maximum' in issue ? String(issue.maximum) : '',
    min: 'minimum' in issue ? String(issue.minimum) : '',
  };
}

const detailOf = (code: string, issue: z.core.$ZodIssue, language: Language) =>
  (DETAILS[code] ?? DETAILS.invalid_format)[language](paramsOf(issue));

/** The input at an issue's path: zod 4 issues do not carry the input itself. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function codeOf(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'required' : 'invalid_type';
    case 'too_big':
      return issue.origin === 'string' ? 'too_long' : 'too_big';
    case 'too_small':
      return issue.origin === 'string' ? 'too_short' : 'too_small';
    case 'invalid_format':
      return 'invalid_format';
    case 'invalid_value':
      return 'invalid_enum';
    case 'invalid_union':
      return 'invalid_type';
    default:
      return 'invalid_format';
  }
}

const pointerOf = (path: PropertyKey[]) =>
  `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

export function fieldErrors(
  error: z.ZodError,
  target: Target,
  input: unknown,
  language: Language = 'en',
): FieldError[] {
  const inBody = target === 'json' || target === 'form';
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const code = inBody ? 'unknown_field' : 'unknown_parameter';
        out.push({
          pointer: inBody ? pointerOf([...issue.path, key]) : null,
          parameter: inBody ? null : key,
          code,
          detail: detailOf(code, issue, language),
        });
      }
      continue;
    }
    const code = codeOf(issue, input);
    out.push({
      pointer: inBody ? pointerOf(issue.path) : null,
      parameter: inBody ? null : String(issue.path[0] ?? ''),
      code,
      detail: detailOf(code, issue, language),
    });
  }
  return out;
}

export function validationProblem(
  error: z.ZodError,
  target: Target,
  input: unknown,
  language: Language = 'en',
): ApiProblem {
  const errors = fieldErrors(error, target, input, language);
  const onlyUnknown = errors.length > 0 && errors.every((e) => e.code === 'unknown_field');
  const count = `${errors.length} invalid input${errors.length === 1 ? '' : 's'}`;
  return onlyUnknown
    ? new ApiProblem('unknown_field', 'The request body contains a field that this operation does not accept.', {
        errors,
      })
    : new ApiProblem('validation_failed', `The request has ${count}.`, { errors });
}

/** A single invalid input found by a handler (a duplicate email, an id of another company). */
export function invalidField(pointer: string, code: string, detail: string): ApiProblem {
  return invalidFields([{ pointer, parameter: null, code, detail }]);
}

/** Every invalid input a handler found at once (unknown references, amounts with too many decimals). */
export function invalidFields(errors: FieldError[]): ApiProblem {
  const count = `${errors.length} invalid input${errors.length === 1 ? '' : 's'}`;
  return new ApiProblem('validation_failed', `The request has ${count}.`, { errors });
}
