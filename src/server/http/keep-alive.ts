import type { Server } from 'node:http';

/**
 * Idle keep-alive connections stay open longer than clients and proxies keep theirs (Node's default
 * closes them after 5 s): a client reusing a socket the server was closing at that instant gets
 * ECONNRESET on a request the server never saw. 65 s outlasts the usual 60 s of proxies and browsers.
 */
export function keepConnectionsAlive(server: unknown): void {
  const s = server as Server;
  s.keepAliveTimeout = 65_000;
  s.headersTimeout = 66_000;
}
