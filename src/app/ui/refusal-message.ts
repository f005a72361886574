import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { errorByCode } from '../../domain/errors';

/*
 * The one way a screen turns a server refusal's code into the member's words. Apart from the
 * screens' label files: the schedule's class rows (on the Homepage's first load) need those, and not
 * the whole error catalogue this pulls in.
 */

/** An area's own words for some codes, where the catalogue's would mislead on its screen (code → message). */
export type RefusalOverrides = Readonly<Partial<Record<number, MessageDescriptor>>>;

/** A refusal whose code the catalogue does not know and the server gave no words for: names nothing it cannot know. */
export const REFUSAL_FALLBACK: MessageDescriptor = msg`操作失败，请稍后再试`;

/**
 * A refusal's message by its catalogue code (src/domain/errors.ts): the area's override for that
 * code if it has one, else the catalogue's words, else the fallback.
 */
export function refusalMessage(code: number | null | undefined, overrides?: RefusalOverrides): MessageDescriptor {
  if (code == null) return REFUSAL_FALLBACK;
  return overrides?.[code] ?? errorByCode(code)?.message ?? REFUSAL_FALLBACK;
}

export interface RefusalTextOptions {
  /** the area's own words for some codes; they win over the server's */
  readonly overrides?: RefusalOverrides;
  /** the envelope's message: the server translates through the same catalogue, with its values filled */
  readonly serverMessage?: string | null;
  /** values for the message's placeholders (`{field}`, `{seconds}`) */
  readonly values?: Record<string, unknown>;
}

/**
 * A refusal as the member reads it: the area's override, else the server's own translated words when
 * it sent them, else {@link refusalMessage}'s (with the values given).
 */
export function refusalText(i18n: I18n, code: number | null | undefined, options: RefusalTextOptions = {}): string {
  const { overrides, serverMessage, values } = options;
  const override = code == null ? undefined : overrides?.[code];
  if (!override && serverMessage) return serverMessage;
  const message = refusalMessage(code, overrides);
  // the extractor reads only literal descriptors: the one with values is built first
  const withValues: MessageDescriptor = values ? { ...message, values: { ...message.values, ...values } } : message;
  return i18n._(withValues);
}
