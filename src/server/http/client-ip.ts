import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { TrustProxy } from '../config';
import type { AppEnv } from '../env';
import { addressInRanges } from './address-ranges';

/**
 * The caller's address, for per-network caps. Proxies append the address they received from to
 * X-Forwarded-For, so only its right end is theirs; the left end is whatever the client wrote. The
 * client is therefore read from the right: past the trusted proxies (TRUST_PROXY: a number of hops,
 * or address ranges), the first address that is not one. Without TRUST_PROXY: the socket's address.
 */
export function clientIp(c: Context<AppEnv>): string {
  const trust = c.var.deps?.config.trustProxy ?? { kind: 'none' };
  const socket = socketAddress(c);
  if (trust.kind === 'none') return socket;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return clientFrom(socket, forwarded, trust);
}

/** The client among the socket's address and the forwarded ones (left to right, as the header lists them). */
export function clientFrom(socket: string, forwarded: readonly string[], trust: TrustProxy): string {
  // nearest first: the socket is the last proxy (or the client), then the header from its right end
  const chain = [socket, ...[...forwarded].reverse()];
  if (trust.kind === 'none') return socket;
  if (trust.kind === 'hops') return stripPort(chain[Math.min(trust.hops, chain.length - 1)]!);
  let i = 0;
  while (i < chain.length - 1 && addressInRanges(stripPort(chain[i]!), trust.ranges)) i++;
  return stripPort(chain[i]!);
}

/** An IPv4 "a.b.c.d:port" some proxies write, without the port (a port per connection would split one network's count). */
function stripPort(a: string): string {
  return /^\d+\.\d+\.\d+\.\d+:\d+$/.test(a) ? a.slice(0, a.lastIndexOf(':')) : a;
}

function socketAddress(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
