import { connect, type Socket } from 'node:net';

/**
 * A small HTTP/1.1 client for crowds of requests (the races in the bench and in the tests), written on
 * node:net: one request at a time on each keep-alive connection, as a member's phone sends them. It
 * spends a fourth of node:http's CPU per request (decision 048), which matters when the client shares
 * two cores with the servers and PostgreSQL it measures: the members' phones do not.
 *
 * It speaks what our server answers: a status line, headers, then a body sized by `content-length` or
 * sent `chunked`; `connection: close` ends the connection after the answer. Answers are read as UTF-8.
 */
export interface HttpAnswer {
  status: number;
  body: string;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** One keep-alive connection and the answer it is reading. */
class Connection {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (a: HttpAnswer) => void; reject: (e: Error) => void } | undefined;
  closed = false;
  private keep = true;

  constructor(
    readonly socket: Socket,
    private readonly release: (c: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('connection closed before the answer')));
  }

  send(head: string, body: Buffer | undefined): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1'));
    });
  }

  private fail(err: Error): void {
    this.closed = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(err);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const answer = this.parse();
    if (!answer || !this.waiting) return;
    const w = this.waiting;
    this.waiting = undefined;
    if (this.keep) this.release(this);
    else {
      this.closed = true;
      this.socket.destroy();
    }
    w.resolve(answer);
  }

  /** The whole answer once it is in the buffer (and the buffer emptied), else undefined. */
  private parse(): HttpAnswer | undefined {
    const buf = this.buffered;
    const headEnd = buf.indexOf(CRLF2);
    if (headEnd < 0) return undefined;
    const head = buf.toString('latin1', 0, headEnd);
    const status = Number(head.slice(9, 12));
    let length = -1;
    let chunked = false;
    this.keep = true;
    for (const line of head.split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value.includes('chunked');
      else if (name === 'connection') this.keep = value !== 'close';
    }
    const start = headEnd + 4;
    if (chunked) {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
        if (size === 0) {
          // the last chunk, no trailers: "0\r\n\r\n"
          if (buf.length < lineEnd + 4) return undefined;
          this.buffered = buf.subarray(lineEnd + 4);
          return { status, body: Buffer.concat(parts).toString('utf8') };
        }
        if (buf.length < lineEnd + 2 + size + 2) return undefined;
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    }
    if (length < 0) throw new Error(`answer without content-length or chunked encoding: ${head.split('\r\n')[0]}`);
    if (buf.length < start + length) return undefined;
    this.buffered = buf.subarray(start + length);
    return { status, body: buf.toString('utf8', start, start + length) };
  }
}

/** Keep-alive connections per host, up to `sockets` at once to each; every one kept open between requests. */
export class KeepAlive {
  private readonly idle = new Map<string, Connection[]>();
  private readonly open = new Map<string, number>();
  private readonly queued = new Map<string, ((c: Connection) => void)[]>();
  private readonly all = new Set<Connection>();

  constructor(private readonly sockets = Infinity) {}

  async take(url: URL): Promise<Connection> {
    const key = url.host;
    const idle = this.idle.get(key);
    while (idle?.length) {
      const c = idle.pop()!;
      if (!c.closed) return c;
    }
    if ((this.open.get(key) ?? 0) >= this.sockets) {
      return new Promise<Connection>((resolve) => this.queued.set(key, [...(this.queued.get(key) ?? []), resolve]));
    }
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
    const socket = connect({ host: url.hostname, port: Number(url.port) || 80 });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    }).catch((err: unknown) => {
      this.open.set(key, (this.open.get(key) ?? 1) - 1);
      throw err;
    });
    const c = new Connection(socket, (done) => this.give(key, done));
    socket.on('close', () => {
      this.all.delete(c);
      this.open.set(key, (this.open.get(key) ?? 1) - 1);
      // a request waiting for a connection gets a new one in place of the closed one
      const next = this.queued.get(key)?.shift();
      if (next) void this.take(url).then(next);
    });
    this.all.add(c);
    return c;
  }

  private give(key: string, c: Connection): void {
    const next = this.queued.get(key)?.shift();
    if (next) next(c);
    else this.idle.set(key, [...(this.idle.get(key) ?? []), c]);
  }

  /** Closes every connection. */
  destroy(): void {
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    this.idle.clear();
  }
}

/** Keep-alive connections, up to `sockets` at once to each host. */
export function keepAliveAgent(sockets = Infinity): KeepAlive {
  return new KeepAlive(sockets);
}

/** One request and its answer's text. */
export async function send(
  agent: KeepAlive,
  url: URL,
  method: string,
  headers: Record<string, string | number>,
  body?: string,
): Promise<HttpAnswer> {
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (payload) head += `content-length: ${payload.length}\r\n`;
  head += '\r\n';
  const c = await agent.take(url);
  return c.send(head, payload);
}
