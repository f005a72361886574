import type { ErrorDef } from '../../domain/errors';

/** A refusal from the catalogue: the error handler turns it into the envelope with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly def: ErrorDef,
    readonly options: { field?: string; values?: Record<string, unknown>; data?: unknown } = {},
  ) {
    super(`error ${def.code}${options.field ? ` (${options.field})` : ''}`);
  }
}
