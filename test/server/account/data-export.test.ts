import { getTableColumns, getTableName } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { allTables, EXPORTED, NOT_EXPORTED } from '../../../src/server/services/person/data-export';
import { tokenFor } from '../catalog/support';
import { startTestServer } from '../support/harness';

describe('a member downloads their data (GET /api/customers/me/export)', async () => {
  const s = await startTestServer({ seed: true });
  const token = await tokenFor(s, '13800000001');
  const me = (await s.call('GET', '/api/customers/me', { token })).body.data.id as number;

  it('as a JSON file of every table that names them, only their own rows, without secrets or photo bytes', async () => {
    const res = await s.app.request('/api/customers/me/export', { headers: { 'authorization-token': token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="yoga-club-my-data-${me}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const { data } = JSON.parse(text) as { data: Record<string, unknown> };
    expect(data.account).toMatchObject({ id: me, phone: '13800000001', name: '张小雨' });
    expect(text).not.toMatch(/scrypt\$|passwordHash|tokenHash/);
    for (const e of EXPORTED) {
      const key = Object.entries(getTableColumns(e.table)).find(([, col]) => col === e.owner)![0];
      const rows = data[e.name] as Record<string, unknown>[];
      expect(Array.isArray(rows), e.name).toBe(true);
      for (const row of rows) expect(row[key], `${e.name}.${key}`).toBe(me);
    }
    // the demo member has cards, bookings and a balance: the sections are not empty
    for (const name of ['cards', 'bookings', 'balanceLedger', 'sessions'])
      expect((data[name] as unknown[]).length, name).toBeGreaterThan(0);
  });

  it('holds their own ID number whole, although it is sealed at rest', async () => {
    const saved = await s.call('PUT', '/api/customers/person-info', {
      token,
      body: {
        realName: '张小雨',
        idNumber: '110101199003071233',
        yogaAge: 3,
        styles: ['hatha'],
        practiceTime: 'evening',
        salutation: '小雨',
      },
    });
    expect(saved.body.code).toBe(200);
    const { body } = await s.call('GET', '/api/customers/me/export', { token });
    expect(body.data.personInfo).toMatchObject([{ idNumber: '110101199003071233', realName: '张小雨' }]);
  });

  it('by a plain link (the token cookie), and never without a login', async () => {
    const byCookie = await s.app.request('/api/customers/me/export', { headers: { cookie: `token=${token}` } });
    expect(byCookie.status).toBe(200);
    expect((await s.call('GET', '/api/customers/me/export')).status).toBe(401);
  });

  it('another member gets only their own', async () => {
    const other = await tokenFor(s, '13800000002');
    const { body } = await s.call('GET', '/api/customers/me/export', { token: other });
    expect(body.data.account.phone).toBe('13800000002');
    expect(JSON.stringify(body.data)).not.toContain('13800000001');
  });

  it('covers every column of the schema that names an account: exported, or left out with a reason', () => {
    const exported = new Set(EXPORTED.map((e) => `${getTableName(e.table)}.${e.owner.name}`));
    const named = allTables().flatMap((t) =>
      getTableConfig(t)
        .columns.filter((c) => /(^|_)account_id$/.test(c.name))
        .map((c) => `${getTableName(t)}.${c.name}`),
    );
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => !exported.has(n) && !(n in NOT_EXPORTED))).toEqual([]);
  });
});
