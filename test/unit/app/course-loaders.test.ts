import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api/index';
import { catalogueLoader } from '../../../src/app/screens/catalog/courses/catalogue-view';
import { courseDetailLoader } from '../../../src/app/screens/catalog/courses/course-detail-view';

const ok = <T>(data: T) => Promise.resolve({ code: 200, status: true, data });
const refused = (code: number) => Promise.resolve({ code, status: false, data: null });

function fakeApi(detail: ReturnType<typeof vi.fn> = vi.fn(() => ok({ id: 15, kind: 'training', teacherId: 6, clubId: 3 }))) {
  const goods = { list: vi.fn(() => ok({ list: [{ id: 11 }], total: 1, pagenum: 0, pagesize: 10 })), detail };
  const catalog = { teacher: vi.fn(() => ok({ id: 6, name: 't' })), club: vi.fn(() => ok({ id: 3, name: 'c' })) };
  return { goods, catalog, context: { api: { goods, catalog } as unknown as Api } };
}

const args = (url: string, context: unknown) =>
  ({ request: new Request(`http://x${url}`), context, params: {} }) as unknown as Parameters<ReturnType<typeof catalogueLoader>>[0];

function unwrap(r: unknown): { value: Record<string, unknown>; status?: number } {
  const d = r as { type?: string; data?: unknown; init?: { status?: number } };
  if (d && d.type === 'DataWithResponseInit') return { value: d.data as Record<string, unknown>, status: d.init?.status };
  return { value: r as Record<string, unknown> };
}

describe('class-type catalogue loader', () => {
  it('asks goodList for page 0 of its own kind', async () => {
    const { goods, context } = fakeApi();
    const d = await catalogueLoader('workshop')(args('/greatworkshop', context));
    expect(goods.list).toHaveBeenCalledWith({ kind: 'workshop', pagenum: 0, pagesize: 10 });
    expect(d.page.list).toHaveLength(1);
  });

  it('a refused list is a 503, not an empty catalogue', async () => {
    const { goods, context } = fakeApi();
    goods.list.mockImplementation(() => refused(500) as never);
    await expect(catalogueLoader('open')(args('/commonClass', context))).rejects.toMatchObject({ status: 503 });
  });
});

describe('class-type detail loader', () => {
  it('loads the goods, its teacher and club, and keeps a choice carried in the URL', async () => {
    const { catalog, context } = fakeApi();
    const { value, status } = unwrap(await courseDetailLoader('training')(args('/tt/ttDetails?id=15&phaseId=2&teacherId=x', context)));
    expect(status).toBeUndefined();
    expect(value.goods).toMatchObject({ id: 15 });
    expect(catalog.teacher).toHaveBeenCalledWith(6);
    expect(catalog.club).toHaveBeenCalledWith(3);
    expect(value.choice).toEqual({ phaseId: 2 });
  });

  it('a missing, malformed or unknown id, or goods of another kind, is the 404 state', async () => {
    const { context } = fakeApi();
    for (const url of ['/tt/ttDetails', '/tt/ttDetails?id=abc', '/tt/ttDetails?id=0']) {
      const r = unwrap(await courseDetailLoader('training')(args(url, context)));
      expect(r.status, url).toBe(404);
      expect(r.value.goods).toBeNull();
    }
    const other = unwrap(await courseDetailLoader('workshop')(args('/greatworkshop/greatWorkShopDetails?id=15', context)));
    expect(other.status).toBe(404);
    const unknown = fakeApi(vi.fn(() => refused(70004)));
    expect(unwrap(await courseDetailLoader('training')(args('/tt/ttDetails?id=9', unknown.context))).status).toBe(404);
  });

  it('a server that cannot answer is a 503', async () => {
    const { context } = fakeApi(vi.fn(() => refused(500)));
    await expect(courseDetailLoader('training')(args('/tt/ttDetails?id=15', context))).rejects.toMatchObject({ status: 503 });
  });
});
