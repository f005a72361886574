import { ID_NUMBER } from '../cards/transfer-support';

/**
 * The fixed cases of the generated bad requests (decision 053), read from the OpenAPI document: every
 * integer field of every JSON body, and every text field under a "not numeric" rule, each with a body
 * that is otherwise good so that the field under test is the one the 400 names.
 */
/** A JSON schema of the OpenAPI document, as far as the generated bad requests read it. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
  example?: unknown;
  description?: string;
};

/** A JSON value that is not a JSON integer, each once read as one by a coercing schema. */
export const NOT_INTEGERS: ReadonlyArray<[string, unknown]> = [
  ['a boolean', true],
  ['an array holding an integer', [5]],
  ['a hex string', '0x1f'],
];

/** Digits that are digits in any script: a text made of them is numeric. */
export const FULL_WIDTH_DIGITS = '１２３４５';

/** Whether a field's rule says it may not be numeric (its description in the document says so). */
export const notNumericRule = (s: Schema) => /not (numeric|a number)/.test(s.description ?? '');

/** The schema itself, or its one non-null alternative (a nullable field). */
function bare(s: Schema, resolve: (s: Schema) => Schema): Schema {
  const r = resolve(s);
  const alts = (r.anyOf ?? r.oneOf)?.map(resolve).filter((a) => a.type !== 'null');
  return alts?.length === 1 ? bare(alts[0]!, resolve) : r;
}
const isType = (s: Schema, t: string) => (Array.isArray(s.type) ? s.type.includes(t) : s.type === t);

/** The body's fields to break, and what the 400 names: an integer (`name`) or an array of integers (`name.0`). */
export function integerFields(body: Schema, resolve: (s: Schema) => Schema): Array<{ field: string; named: string; inArray: boolean }> {
  return Object.entries(body.properties ?? {}).flatMap(([name, s0]): Array<{ field: string; named: string; inArray: boolean }> => {
    const s = bare(s0, resolve);
    if (isType(s, 'integer')) return [{ field: name, named: name, inArray: false }];
    if (isType(s, 'array') && s.items && isType(bare(s.items, resolve), 'integer'))
      return [{ field: name, named: `${name}.0`, inArray: true }];
    return [];
  });
}

/** Good values by field name, where the field's own rule needs more than its type (a phone, an ID number, a day). */
const BY_NAME: Record<string, unknown> = {
  phone: '13800000000',
  username: '13800000000',
  name: '王小明',
  realName: '王小明',
  idNumber: ID_NUMBER,
};

/** A value the schema accepts, as plain as can be. */
export function goodValue(s0: Schema, name: string, resolve: (s: Schema) => Schema, depth = 0): unknown {
  const s = bare(s0, resolve);
  if (name in BY_NAME && isType(s, 'string')) return BY_NAME[name];
  if (s.enum?.length) return s.enum[0];
  if (s.example !== undefined) return s.example;
  if (isType(s, 'integer') || isType(s, 'number')) return Math.max(s.minimum ?? 1, 1);
  if (isType(s, 'boolean')) return true;
  if (isType(s, 'string')) {
    if (s.pattern?.includes('\\d{2}-\\d{2}')) return '2026-12-20';
    if (s.pattern?.includes('\\d{4}-')) return '2026-12';
    if (s.pattern?.includes(':')) return '19:00';
    return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
  }
  if (isType(s, 'array'))
    return depth > 3 || !s.items ? [] : Array.from({ length: s.minItems ?? 0 }, () => goodValue(s.items!, name, resolve, depth + 1));
  if (s.properties) return goodBody(s, resolve, depth + 1);
  return null;
}

/** A body the schema accepts: its required fields, and the optional ones too (so each can be broken). */
export function goodBody(body: Schema, resolve: (s: Schema) => Schema, depth = 0): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body.properties ?? {}).map(([k, v]) => [k, goodValue(v, k, resolve, depth)]));
}
