import { afterEach, describe, expect, it } from 'vitest';
import { loadProductionReact } from '../../src/server/render';

/**
 * The built server renders with React's production build in every mode: demo mode (`npm start`)
 * leaves NODE_ENV unset, and React, which reads NODE_ENV when first loaded, rendered every page with
 * its development build.
 */
describe('loadProductionReact', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = saved;
  });

  it('loads React and React DOM with NODE_ENV=production, and puts NODE_ENV back as it was (unset in demo mode)', () => {
    delete process.env.NODE_ENV;
    const seen: [string, string | undefined][] = [];
    loadProductionReact((name) => seen.push([name, process.env.NODE_ENV]));
    expect(seen.map(([name]) => name)).toEqual(expect.arrayContaining(['react', 'react/jsx-runtime', 'react-dom/server']));
    expect(seen.every(([, env]) => env === 'production')).toBe(true);
    expect('NODE_ENV' in process.env).toBe(false);
  });

  it('puts a set NODE_ENV back, also when a load fails', () => {
    process.env.NODE_ENV = 'test';
    expect(() =>
      loadProductionReact(() => {
        throw new Error('missing');
      }),
    ).toThrow('missing');
    expect(process.env.NODE_ENV).toBe('test');
  });
});
