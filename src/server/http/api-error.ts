import type { MessageDescriptor } from '@lingui/core';
import type { ErrorDef } from '../../domain/errors';

/** A refusal from the catalogue: the error handler turns it into the envelope with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly def: ErrorDef,
    readonly options: {
      field?: string;
      values?: Record<string, unknown>;
      data?: unknown;
      /** a fuller wording of the def's message, with `values` */ message?: MessageDescriptor;
    } = {},
  ) {
    super(`error ${def.code}${options.field ? ` (${options.field})` : ''}`);
  }
}
