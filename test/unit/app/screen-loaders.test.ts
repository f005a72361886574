import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api/index';
import { loader as clubDetailLoader } from '../../../src/app/screens/catalog/club/club-detail-screen';
import { loader as homeLoader } from '../../../src/app/screens/catalog/home/home-screen';
import { loader as tutorDetailLoader } from '../../../src/app/screens/catalog/tutor/tutor-detail-screen';

const ok = <T>(data: T) => Promise.resolve({ code: 200, status: true, data });
const refused = (code: number) => Promise.resolve({ code, status: false, data: null });

function fakeCatalog(over: Partial<Record<string, ReturnType<typeof vi.fn>>> = {}) {
  const catalog = {
    banners: vi.fn(() => ok([{ id: 1, title: 'b', image: '/b.svg', link: null }])),
    notices: vi.fn(() => ok([{ id: 1, title: 'n', body: '', createdAt: '2026-11-20T00:00:00Z', personal: false, read: false }])),
    activities: vi.fn(() => ok({ list: [{ id: 1, title: 'a' }], total: 1, pagenum: 0, pagesize: 3 })),
    clubs: vi.fn(() => ok([{ id: 1, name: 'c' }])),
    search: vi.fn(() => ok({ clubs: [], teachers: [], goods: [], activities: [] })),
    club: vi.fn(() => ok({ id: 1, name: 'c', teachers: [] })),
    teacher: vi.fn(() => ok({ id: 1, name: 't' })),
    dict: vi.fn(() => ok([])),
    ...over,
  };
  return { catalog, context: { api: { catalog } as unknown as Api } };
}

const args = (url: string, context: unknown, params: Record<string, string> = {}) =>
  ({ request: new Request(`http://x${url}`), context, params }) as unknown as Parameters<typeof homeLoader>[0];

/** A loader's value, whether returned plainly or through data() with a status. */
function unwrap(r: unknown): { value: Record<string, unknown>; status?: number } {
  const d = r as { type?: string; data?: unknown; init?: { status?: number } };
  if (d && d.type === 'DataWithResponseInit') return { value: d.data as Record<string, unknown>, status: d.init?.status };
  return { value: r as Record<string, unknown> };
}

describe('Homepage loader', () => {
  it('asks for the three activities of page 0 (spec §9) and no search without keywords', async () => {
    const { catalog, context } = fakeCatalog();
    const d = await homeLoader(args('/', context));
    expect(catalog.activities).toHaveBeenCalledWith({ pagenum: 0, pagesize: 3 });
    expect(catalog.search).not.toHaveBeenCalled();
    expect(d).toMatchObject({ keywords: '', search: null });
    expect(d.activities).toHaveLength(1);
  });

  it('a part that fails leaves the rest of the page', async () => {
    const { context } = fakeCatalog({ notices: vi.fn(() => Promise.reject(new Error('network'))), banners: vi.fn(() => refused(500)) });
    const d = await homeLoader(args('/', context));
    expect(d.notices).toEqual([]);
    expect(d.banners).toEqual([]);
    expect(d.clubs).toHaveLength(1);
  });

  it('searches the trimmed keywords', async () => {
    const { catalog, context } = fakeCatalog();
    const d = await homeLoader(args(`/?keywords=${encodeURIComponent('  静安 ')}`, context));
    expect(catalog.search).toHaveBeenCalledWith('静安');
    expect(d.keywords).toBe('静安');
  });
});

describe('detail loaders: missing, malformed or unknown ids are not found (DESIGN.md §5)', () => {
  it('club detail', async () => {
    const { catalog, context } = fakeCatalog({ club: vi.fn(() => refused(70004)) });
    for (const url of ['/club/detail', '/club/detail?id=', '/club/detail?id=abc', '/club/detail?id=0']) {
      const r = unwrap(await clubDetailLoader(args(url, context)));
      expect(r.status, url).toBe(404);
      expect(r.value.club).toBeNull();
    }
    expect(catalog.club).not.toHaveBeenCalled();
    const unknown = unwrap(await clubDetailLoader(args('/club/detail?id=99', context)));
    expect(catalog.club).toHaveBeenCalledWith(99);
    expect(unknown).toMatchObject({ status: 404, value: { club: null } });
  });

  it('club detail found', async () => {
    const { context } = fakeCatalog();
    const r = unwrap(await clubDetailLoader(args('/club/detail?id=1', context)));
    expect(r.status).toBeUndefined();
    expect(r.value.club).toMatchObject({ id: 1 });
  });

  it('tutor detail takes a numeric path id', async () => {
    const { catalog, context } = fakeCatalog();
    const bad = unwrap(await tutorDetailLoader(args('/tutor/tutorDetail/abc', context, { id: 'abc' })));
    expect(bad).toMatchObject({ status: 404, value: { teacher: null } });
    expect(catalog.teacher).not.toHaveBeenCalled();
    const good = unwrap(await tutorDetailLoader(args('/tutor/tutorDetail/1', context, { id: '1' })));
    expect(good.value.teacher).toMatchObject({ id: 1 });
  });

  it('a server failure is an error, not a not-found', async () => {
    const { context } = fakeCatalog({ club: vi.fn(() => refused(500)) });
    await expect(clubDetailLoader(args('/club/detail?id=1', context))).rejects.toBeInstanceOf(Response);
  });
});
