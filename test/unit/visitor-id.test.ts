import { describe, expect, it } from 'vitest';
import { visitorId } from '../../src/app/layout/visitor-id';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe('page-view visitor id', () => {
  it('is random, 128 bits of hex, and kept in storage', () => {
    const s = memoryStorage();
    const id = visitorId(s);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(s.data.get('visitorId')).toBe(id);
    expect(visitorId(s)).toBe(id);
  });

  it('reuses the kept id', () => {
    const kept = 'a'.repeat(32);
    expect(visitorId(memoryStorage({ visitorId: kept }))).toBe(kept);
  });

  it('still answers when storage throws (private mode)', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    const id = visitorId(broken);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(visitorId(broken)).toBe(id);
  });
});
