import { Agent, request } from 'node:http';

/**
 * A plain node:http client for crowds of requests (the races in the bench and in the tests): a
 * fraction of fetch's CPU per request, which matters when the client shares two cores with the
 * servers and PostgreSQL it measures (decision 048).
 */
export interface HttpAnswer {
  status: number;
  body: string;
}

/** Keep-alive connections, up to `sockets` at once, every one kept open between requests (node keeps 256 by default). */
export function keepAliveAgent(sockets = Infinity): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

/** One request and its answer's text. */
export function send(agent: Agent, url: URL, method: string, headers: Record<string, string | number>, body?: string): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = request(url, { method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
