import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A certificate for 127.0.0.1 and its key, as files (the server reads TLS_CERT_FILE and TLS_KEY_FILE). */
export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** the certificate itself (PEM), for a client that trusts it */
  cert: string;
  /** deletes the files (a server reads them when it starts) */
  remove(): void;
}

/**
 * A self-signed P-256 certificate for 127.0.0.1 and localhost, valid two days, made by the openssl
 * command (Node can sign but not write X.509). Null when openssl is not installed.
 */
export function selfSignedCertificate(): TestCertificate | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'yoga-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'];
  args.push('-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile);
  const made = spawnSync('openssl', args, { stdio: 'ignore' });
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (made.error || made.status !== 0) {
    remove();
    return null;
  }
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), remove };
}

/**
 * One request over HTTPS trusting `ca` (Node's fetch takes no certificate per call): the status and
 * the Set-Cookie headers, or the error.
 */
export function httpsRequest(
  url: string,
  ca: string,
  opts: { method?: string; json?: unknown; timeoutMs?: number } = {},
): Promise<{ status: number; setCookie: string[] }> {
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, method: opts.method ?? 'GET', headers, timeout: opts.timeoutMs ?? 2000 }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [] });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}
