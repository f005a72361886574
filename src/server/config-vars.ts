import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';

/**
 * The pieces the configuration's schema is made of. Each parses one environment variable (a string or
 * unset) and refuses garbage with a reason the start-up error puts beside the variable's name: a
 * malformed number or an unknown choice stops the start instead of falling back to a default.
 * An empty value counts as unset (env files and orchestrators often write `NAME=`).
 */

const unset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Optional text, trimmed. */
export const text = () => z.preprocess(unset, z.string().trim().optional());

/** A whole number from min to max, or `fallback` when unset. */
export const whole = (fallback: number, min: number, max: number) =>
  z.preprocess(unset, z.string().trim().optional()).transform((v, ctx) => {
    if (v === undefined) return fallback;
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
    ctx.addIssue({ code: 'custom', message: `a whole number from ${min} to ${max} (got "${v}")` });
    return z.NEVER;
  });

/** One of `choices`, or `fallback` when unset. */
export const oneOf = <T extends string>(choices: readonly [T, ...T[]], fallback: T) =>
  z.preprocess(unset, z.string().trim().optional()).transform((v, ctx): T => {
    if (v === undefined) return fallback;
    if ((choices as readonly string[]).includes(v)) return v as T;
    ctx.addIssue({ code: 'custom', message: `one of ${choices.join(', ')} (got "${v}")` });
    return z.NEVER;
  });

/** An http(s) origin without a trailing slash, or undefined. */
export const origin = () =>
  z.preprocess(unset, z.string().trim().optional()).transform((v, ctx) => {
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (u.protocol === 'http:' || u.protocol === 'https:') return v.replace(/\/+$/, '');
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: `an http:// or https:// address (got "${v}")` });
    return z.NEVER;
  });

/** A postgres:// or postgresql:// connection address, or undefined. */
export const databaseUrl = () =>
  z.preprocess(unset, z.string().trim().optional()).refine((v) => v === undefined || /^postgres(ql)?:\/\/\S+$/.test(v), {
    message: 'a postgres:// connection address',
  });

/**
 * Which forwarded addresses to believe (TRUST_PROXY): none; the last `hops` proxies in front of the
 * process; or proxies whose addresses fall in the listed ranges. The client is the first address,
 * read from the right of X-Forwarded-For, that is not a trusted proxy: the left end is whatever the
 * client wrote itself.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'ranges'; ranges: string[] };

/** An IPv4 or IPv6 address with an optional /prefix. */
export function isAddressRange(s: string): boolean {
  const [addr, prefix, extra] = s.split('/');
  if (!addr || extra !== undefined) return false;
  const bits = isIPv4(addr) ? 32 : isIPv6(addr) ? 128 : 0;
  if (!bits) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
}

export const trustProxy = () =>
  z.preprocess(unset, z.string().trim().optional()).transform((v, ctx): TrustProxy => {
    if (v === undefined || v === '0' || v === 'false') return { kind: 'none' };
    if (v === 'true') return { kind: 'hops', hops: 1 };
    if (/^\d+$/.test(v) && Number(v) <= 10) return { kind: 'hops', hops: Number(v) };
    const ranges = v.split(',').map((r) => r.trim());
    if (ranges.every(isAddressRange)) return { kind: 'ranges', ranges };
    ctx.addIssue({
      code: 'custom',
      message: `a number of proxy hops (1 to 10), or a comma list of proxy addresses or ranges like 10.0.0.0/8 (got "${v}")`,
    });
    return z.NEVER;
  });

/**
 * A group of settings that turns one provider on: all of `required` set, or none of them. Half a
 * provider is refused, naming what is missing, instead of quietly falling back to a stand-in.
 */
export function wholeGroup(
  env: Readonly<Record<string, unknown>>,
  provider: string,
  required: readonly string[],
): { on: boolean; missing: string[] } {
  const set = required.filter((k) => unset(env[k]) !== undefined);
  if (set.length === 0) return { on: false, missing: [] };
  const missing = required.filter((k) => !set.includes(k));
  return { on: missing.length === 0, missing: missing.map((k) => `${k}: needed with ${set.join(', ')} (${provider} is half-configured)`) };
}

/** 1/true or 0/false, or `fallback` when unset. */
export const flag = (fallback: boolean) =>
  z.preprocess(unset, z.string().trim().optional()).transform((v, ctx) => {
    if (v === undefined) return fallback;
    if (v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    ctx.addIssue({ code: 'custom', message: `1 or 0 (got "${v}")` });
    return z.NEVER;
  });
