import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { staticPaths } from '../../../src/app/layout/warm-linked-screens';
import { routeObjects } from '../../../src/app/routes';

describe('the static paths the screens ahead are found by', () => {
  const routes = routeObjects();
  const table = staticPaths(routes);

  it('names, for every route path without a parameter, the route React Router matches', () => {
    expect(table.size).toBeGreaterThan(50);
    for (const [path, route] of table) expect(matchRoutes(routes, path)?.at(-1)?.route, path).toBe(route);
  });

  it('holds the Homepage and leaves out paths with a parameter', () => {
    expect(table.get('/')?.index).toBe(true);
    expect(table.has('/mine/carddetail')).toBe(true);
    expect([...table.keys()].filter((p) => /[:*]/.test(p))).toEqual([]);
  });
});
