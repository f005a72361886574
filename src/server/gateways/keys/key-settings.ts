import type { LocalKeySettings } from './key-adapter';

/**
 * The development key-encryption key, used only in demo mode and tests when DATA_KEY is not set:
 * public (it is in the source), so nothing it protects is secret.
 */
export const DEMO_DATA_KEY_ID = 'demo-not-secret';
const DEMO_DATA_KEY = Buffer.alloc(32, 'demo-data-key-not-secret!');

const ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

function keyOf(name: string, value: string): Buffer {
  const key = Buffer.from(value, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || key.length !== 32)
    throw new Error(`${name} must be base64 of 32 bytes (e.g. openssl rand -base64 32)`);
  return key;
}

function idOf(name: string, value: string): string {
  if (!ID_RE.test(value)) throw new Error(`${name} must be 1-64 letters, digits, dot, dash or underscore (got ${JSON.stringify(value)})`);
  return value;
}

/**
 * Reads the key-encryption keys from the environment (decision 055): DATA_KEY (base64 of 32 bytes)
 * with its id DATA_KEY_ID (default `k1`), and DATA_KEYS_PREVIOUS (`id:base64,id:base64`), the
 * rotated-out keys old values were wrapped with. Without DATA_KEY only a demo start goes on, with the
 * public development key; a production start fails here, naming DATA_KEY.
 */
export function dataKeySettingsFromEnv(env: NodeJS.ProcessEnv, demo: boolean): LocalKeySettings {
  const previous = (env.DATA_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf(':');
      if (at < 1) throw new Error('DATA_KEYS_PREVIOUS must be id:base64 pairs separated by commas');
      return { id: idOf('DATA_KEYS_PREVIOUS', pair.slice(0, at)), key: keyOf('DATA_KEYS_PREVIOUS', pair.slice(at + 1)) };
    });
  if (!env.DATA_KEY) {
    if (!demo)
      throw new Error(
        'DATA_KEY is required outside demo mode: base64 of 32 bytes (e.g. openssl rand -base64 32), the key that protects ID numbers and photos at rest',
      );
    return { current: { id: DEMO_DATA_KEY_ID, key: DEMO_DATA_KEY }, previous };
  }
  const current = { id: idOf('DATA_KEY_ID', env.DATA_KEY_ID || 'k1'), key: keyOf('DATA_KEY', env.DATA_KEY) };
  if (previous.some((p) => p.id === current.id)) throw new Error(`DATA_KEYS_PREVIOUS repeats the current DATA_KEY_ID ${current.id}`);
  return { current, previous };
}
