import { createHash, createHmac } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from '../config';

/**
 * Where uploaded images' bytes live (DESIGN.md §1, decision 042). The default keeps them in
 * PostgreSQL, in the upload's own row (`storage` is null: nothing outside the database); a local
 * directory or an S3-compatible object store is chosen by configuration (PHOTO_STORAGE). The row
 * then keeps the object's key and the bytes stay outside.
 */
export interface ObjectStore {
  readonly provider: 'disk' | 's3';
  /** stores the bytes under the key (a key is written once); throws when the store is unreachable */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** the bytes under the key, null when there are none; throws when the store is unreachable */
  get(key: string): Promise<Buffer | null>;
}

export interface S3Settings {
  /** e.g. https://s3.ap-shanghai.amazonaws.com or http://minio:9000 (path-style requests) */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export type StorageConfig = { provider: 'database' } | { provider: 'disk'; dir: string } | { provider: 's3'; s3: S3Settings };

/** Keys are ours (`photos/<account>/<uuid>.jpg`): letters, digits, slash, dot, dash only. */
const KEY_RE = /^[a-z0-9][a-z0-9/._-]*$/;
const checkKey = (key: string): string => {
  if (!KEY_RE.test(key) || key.includes('..')) throw new Error(`bad storage key: ${key}`);
  return key;
};

/** A directory on this machine (one server, or a shared mount). */
export function diskStore(dir: string): ObjectStore {
  return {
    provider: 'disk',
    async put(key, bytes) {
      const path = join(dir, checkKey(key));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(`${path}.part`, bytes);
      await rename(`${path}.part`, path);
    },
    async get(key) {
      try {
        return await readFile(join(dir, checkKey(key)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
  };
}

const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const hmac = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();

/**
 * AWS Signature Version 4 for one request (S3 flavour: the payload's hash in x-amz-content-sha256):
 * the headers to send. `amzDate` is YYYYMMDDTHHMMSSZ. Tested against AWS's published example.
 */
export function signS3(
  req: { method: string; host: string; path: string; headers?: Record<string, string>; payloadHash: string; amzDate: string },
  s: Pick<S3Settings, 'region' | 'accessKeyId' | 'secretAccessKey'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...req.headers,
    host: req.host,
    'x-amz-content-sha256': req.payloadHash,
    'x-amz-date': req.amzDate,
  };
  const names = Object.keys(headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const signed = names.join(';');
  const canonical = [req.method, req.path, '', names.map((n) => `${n}:${lower[n]}\n`).join(''), signed, req.payloadHash].join('\n');
  const day = req.amzDate.slice(0, 8);
  const scope = `${day}/${s.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', req.amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${s.secretAccessKey}`, day), s.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const { host: _host, ...rest } = headers;
  return {
    ...rest,
    authorization: `AWS4-HMAC-SHA256 Credential=${s.accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
}

/** An S3-compatible object store (AWS S3, Tencent COS, MinIO), path-style, signed with SigV4. */
export function s3Store(s: S3Settings, deps: { fetch?: typeof fetch; now?: () => Date } = {}): ObjectStore {
  const doFetch = deps.fetch ?? fetch;
  const base = new URL(s.endpoint);
  const call = async (method: 'PUT' | 'GET', key: string, body?: Buffer, contentType?: string) => {
    const path = `/${encodeURIComponent(s.bucket)}/${checkKey(key).split('/').map(encodeURIComponent).join('/')}`;
    // the request's time stamp: the signature's, not a rule's (rules use the injected clock)
    const amzDate = (deps.now?.() ?? new Date())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const headers = signS3(
      {
        method,
        host: base.host,
        path,
        headers: contentType ? { 'content-type': contentType } : {},
        payloadHash: sha256(body ?? ''),
        amzDate,
      },
      s,
    );
    return doFetch(new URL(path, base), { method, headers, body: body ? new Uint8Array(body) : undefined });
  };
  return {
    provider: 's3',
    async put(key, bytes, contentType) {
      const r = await call('PUT', key, bytes, contentType);
      if (!r.ok) throw new Error(`s3 put ${key}: ${r.status}`);
    },
    async get(key) {
      const r = await call('GET', key);
      if (r.status === 404) return null;
      if (!r.ok) throw new Error(`s3 get ${key}: ${r.status}`);
      return Buffer.from(await r.arrayBuffer());
    },
  };
}

/** Reads PHOTO_STORAGE (database | disk | s3) and its settings. */
export function loadStorageConfig(env: NodeJS.ProcessEnv, dataDir: string): StorageConfig {
  const kind = env.PHOTO_STORAGE || 'database';
  if (kind === 'disk') return { provider: 'disk', dir: env.PHOTO_STORAGE_DIR || join(dataDir, 'photos') };
  if (kind === 's3') {
    const need = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((k) => !env[k]);
    if (need.length) throw new Error(`PHOTO_STORAGE=s3 needs ${need.join(', ')}`);
    return {
      provider: 's3',
      s3: {
        endpoint: env.S3_ENDPOINT!,
        bucket: env.S3_BUCKET!,
        region: env.S3_REGION || 'us-east-1',
        accessKeyId: env.S3_ACCESS_KEY_ID!,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      },
    };
  }
  if (kind !== 'database') throw new Error(`PHOTO_STORAGE must be database, disk or s3 (got ${kind})`);
  return { provider: 'database' };
}

/** The object store the configuration picks; null keeps the bytes in PostgreSQL. */
export function createStorage(config: Pick<Config, 'storage'>): ObjectStore | null {
  const c = config.storage;
  return c.provider === 'disk' ? diskStore(c.dir) : c.provider === 's3' ? s3Store(c.s3) : null;
}
