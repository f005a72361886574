import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/server/services/auth-password';

describe('password hashes (scrypt)', () => {
  it('hash at N=2^15, r=8, p=1 unless told otherwise, in the stored format scrypt$N$r$p$salt$hash', async () => {
    const stored = await hashPassword('yoga1234');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('yoga1234', stored)).toBe(true);
    expect(await verifyPassword('yoga12345', stored)).toBe(false);
  });

  it('verify a hash by the cost stored in it, so hashes made at another cost keep working', async () => {
    const cheap = await hashPassword('yoga1234', 2 ** 10);
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('yoga1234', cheap)).toBe(true);
    expect(await verifyPassword('other', cheap)).toBe(false);
    expect(await verifyPassword('yoga1234', 'bcrypt$x')).toBe(false);
    expect(await verifyPassword('yoga1234', null)).toBe(false);
  });
});
