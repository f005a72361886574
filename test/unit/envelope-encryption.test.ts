import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, openText, seal, sealText } from '../../src/server/gateways/keys/envelope';
import { dataKeySettingsFromEnv, DEMO_DATA_KEY_ID } from '../../src/server/gateways/keys/key-settings';
import { localKeys } from '../../src/server/gateways/keys/local-keys';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const ctx = 'person_info.id_number:7';

describe('envelope encryption at rest (decision 055)', () => {
  it('a value sealed under a fresh data key opens back to itself, and its ciphertext does not hold it', async () => {
    const keys = localKeys({ current: { id: 'a', key: keyA }, previous: [] });
    const s = await sealText(keys, '11010519491231002X', ctx);
    expect(s.keyId).toBe('a');
    expect(s.cipher.toString('latin1')).not.toContain('11010519491231002X');
    expect(await openText(keys, s, ctx)).toBe('11010519491231002X');
    // each value its own data key and nonce
    const again = await sealText(keys, '11010519491231002X', ctx);
    expect(again.wrappedKey.equals(s.wrappedKey)).toBe(false);
    expect(again.nonce.equals(s.nonce)).toBe(false);
  });

  it('a wrong key-encryption key is refused', async () => {
    const s = await seal(localKeys({ current: { id: 'a', key: keyA }, previous: [] }), Buffer.from('photo bytes'), ctx);
    const other = localKeys({ current: { id: 'a', key: keyB }, previous: [] });
    await expect(open(other, s, ctx)).rejects.toThrow();
  });

  it("a tampered ciphertext, wrapped key or nonce, or another row's context, is refused", async () => {
    const keys = localKeys({ current: { id: 'a', key: keyA }, previous: [] });
    const s = await seal(keys, Buffer.from('photo bytes'), ctx);
    const flip = (b: Buffer, i: number) => {
      const c = Buffer.from(b);
      c[i] = c[i]! ^ 1;
      return c;
    };
    await expect(open(keys, { ...s, cipher: flip(s.cipher, 0) }, ctx)).rejects.toThrow();
    await expect(open(keys, { ...s, cipher: flip(s.cipher, s.cipher.length - 1) }, ctx)).rejects.toThrow();
    await expect(open(keys, { ...s, wrappedKey: flip(s.wrappedKey, 14) }, ctx)).rejects.toThrow();
    await expect(open(keys, { ...s, nonce: flip(s.nonce, 0) }, ctx)).rejects.toThrow();
    await expect(open(keys, s, 'person_info.id_number:8')).rejects.toThrow();
    expect((await open(keys, s, ctx)).toString()).toBe('photo bytes');
  });

  it('after a rotation new values use the new key id and old values still read; a key no longer held is refused', async () => {
    const before = localKeys({ current: { id: 'k1', key: keyA }, previous: [] });
    const old = await sealText(before, 'old value', ctx);
    const after = localKeys({ current: { id: 'k2', key: keyB }, previous: [{ id: 'k1', key: keyA }] });
    const fresh = await sealText(after, 'new value', ctx);
    expect(fresh.keyId).toBe('k2');
    expect(await openText(after, old, ctx)).toBe('old value');
    expect(await openText(after, fresh, ctx)).toBe('new value');
    const dropped = localKeys({ current: { id: 'k2', key: keyB }, previous: [] });
    await expect(openText(dropped, old, ctx)).rejects.toThrow(/k1/);
  });
});

describe('DATA_KEY settings', () => {
  const good = keyA.toString('base64');

  it('production without DATA_KEY fails naming it; demo falls back to the public development key', () => {
    expect(() => dataKeySettingsFromEnv({}, false)).toThrow(/DATA_KEY/);
    expect(dataKeySettingsFromEnv({}, true).current.id).toBe(DEMO_DATA_KEY_ID);
  });

  it('a set DATA_KEY is used in demo mode too, with DATA_KEY_ID (default k1)', () => {
    expect(dataKeySettingsFromEnv({ DATA_KEY: good }, true).current).toEqual({ id: 'k1', key: keyA });
    expect(dataKeySettingsFromEnv({ DATA_KEY: good, DATA_KEY_ID: '2026-12' }, false).current.id).toBe('2026-12');
  });

  it('a malformed key is refused naming the variable', () => {
    expect(() => dataKeySettingsFromEnv({ DATA_KEY: 'short' }, false)).toThrow(/DATA_KEY must be base64 of 32 bytes/);
    expect(() => dataKeySettingsFromEnv({ DATA_KEY: randomBytes(16).toString('base64') }, true)).toThrow(/DATA_KEY/);
    expect(() => dataKeySettingsFromEnv({ DATA_KEY: good, DATA_KEY_ID: 'no spaces' }, false)).toThrow(/DATA_KEY_ID/);
    expect(() => dataKeySettingsFromEnv({ DATA_KEY: good, DATA_KEYS_PREVIOUS: 'k0' }, false)).toThrow(/DATA_KEYS_PREVIOUS/);
    expect(() => dataKeySettingsFromEnv({ DATA_KEY: good, DATA_KEYS_PREVIOUS: 'k0:xyz' }, false)).toThrow(
      /DATA_KEYS_PREVIOUS must be base64/,
    );
  });

  it('DATA_KEYS_PREVIOUS keeps rotated-out keys readable', () => {
    const s = dataKeySettingsFromEnv({ DATA_KEY: good, DATA_KEY_ID: 'k2', DATA_KEYS_PREVIOUS: `k1:${keyB.toString('base64')}` }, false);
    expect(s.previous).toEqual([{ id: 'k1', key: keyB }]);
  });
});
