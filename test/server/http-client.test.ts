import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAliveAgent, send } from './support/http-client';

/**
 * The races' HTTP/1.1 client (test/server/support/http-client.ts) against node's own server: the
 * answers it must read as the bench and the race tests get them.
 */
describe('the races’ HTTP client', () => {
  let server: Server;
  let base: URL;
  const sockets = new Set<string>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      sockets.add(`${req.socket.remotePort}`);
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const url = new URL(req.url!, 'http://x');
        if (url.pathname === '/chunked') {
          // no length: node sends it chunked; the first chunk ends inside a character's UTF-8 bytes
          const text = Buffer.from('{"part":"一二"}');
          res.writeHead(201, { 'content-type': 'application/json' });
          res.write(text.subarray(0, 10));
          setTimeout(() => res.end(text.subarray(10)), 5);
        } else if (url.pathname === '/close') {
          res.writeHead(200, { connection: 'close', 'content-length': '2' });
          res.end('ok');
        } else {
          const text = JSON.stringify({ method: req.method, path: req.url, token: req.headers['authorization-token'], body });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
          res.end(text);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the method, path, query, headers and a UTF-8 body, and reads an answer sized by content-length', async () => {
    const agent = keepAliveAgent();
    const a = await send(agent, new URL('/book?x=1', base), 'POST', { 'authorization-token': 't1' }, JSON.stringify({ name: '瑜伽' }));
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ method: 'POST', path: '/book?x=1', token: 't1', body: '{"name":"瑜伽"}' });
    agent.destroy();
  });

  it('reads a chunked answer whole, its characters split across chunks', async () => {
    const agent = keepAliveAgent();
    const a = await send(agent, new URL('/chunked', base), 'GET', {});
    expect(a).toEqual({ status: 201, body: '{"part":"一二"}' });
    agent.destroy();
  });

  it('keeps a connection for the next request, opens a new one after connection: close, and queues past its limit', async () => {
    const agent = keepAliveAgent(2);
    sockets.clear();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => send(agent, new URL(`/n${i}`, base), 'GET', {})));
    expect(answers.map((a) => JSON.parse(a.body).path)).toEqual(['/n0', '/n1', '/n2', '/n3', '/n4', '/n5']);
    expect(sockets.size).toBe(2);
    expect((await send(agent, new URL('/close', base), 'GET', {})).body).toBe('ok');
    sockets.clear();
    await send(agent, new URL('/again', base), 'GET', {});
    await send(agent, new URL('/again', base), 'GET', {});
    expect(sockets.size).toBe(1);
    agent.destroy();
  });
});
