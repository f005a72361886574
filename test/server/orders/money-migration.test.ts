import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, type Database } from '../../../src/server/db/client';
import { usePostgres } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';

/**
 * Migration 0018 (decision 021) on a database holding orders made the old way: each order's money
 * becomes its parts, payments and refunds, and nothing it held before changes. The database is
 * migrated to 0017 from a copy of the migrations cut there, filled by SQL as the old code wrote it,
 * then migrated on with the real folder.
 */
const dir = mkdtempSync(join(tmpdir(), 'mig0017-'));
cpSync(migrationsFolder(), dir, { recursive: true });
const journalFile = join(dir, 'meta/_journal.json');
const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
journal.entries = journal.entries.filter((e) => e.tag <= '0017_zzz');
writeFileSync(journalFile, JSON.stringify(journal));
rmSync(join(dir, '0018_money_model.sql'));

// PGlite, or (TEST_DB=postgres) a fresh PostgreSQL database of its own: the SQL must run on both
let pg: { url: string; drop: () => Promise<void> } | undefined;
if (usePostgres) {
  const { default: postgres } = await import('postgres');
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  const name = `t_mig_${process.pid}_${Date.now().toString(36)}`;
  await admin.unsafe(`create database ${name}`);
  pg = {
    url: Object.assign(new URL(process.env.TEST_DATABASE_URL!), { pathname: `/${name}` }).toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
const saved = process.env.MIGRATIONS_DIR;
process.env.MIGRATIONS_DIR = dir;
let database: Database;
try {
  database = await openDatabase(pg ? { url: pg.url, max: 2 } : { dataDir: 'memory' });
} finally {
  if (saved === undefined) delete process.env.MIGRATIONS_DIR;
  else process.env.MIGRATIONS_DIR = saved;
}
const db = database.db;
afterAll(async () => {
  await database.close();
  await pg?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function q<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
  const r = await db.execute(query);
  return (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as T[];
}
const one = async (query: ReturnType<typeof sql>) => (await q<{ id: number }>(query))[0]!.id;

const T0 = '2026-11-01T02:00:00Z';
const acc = await one(sql`insert into accounts (phone, created_at) values ('13900000001', ${T0}) returning id`);
const g = await one(
  sql`insert into goods (kind, name, image, list_price_cents, member_price_cents, created_at) values ('card', 'c', '/c.jpg', 2000, 1000, ${T0}) returning id`,
);
await db.execute(
  sql`insert into balance_ledger (account_id, change_cents, reason, order_id, created_at) values (${acc}, 100000, 'topup', null, ${T0})`,
);

async function order(no: string, state: string, balanceUsed: number, toPay: number, payMethod: string | null) {
  const paid = ['paid', 'fully_paid'].includes(state) ? T0 : null;
  const cancelled = state === 'cancelled' ? T0 : null;
  return one(sql`insert into orders (order_no, account_id, goods_id, list_price_cents, member_price_cents, price_cents, balance_used_cents, amount_to_pay_cents, state, pay_method, created_at, paid_at, cancelled_at)
    values (${no}, ${acc}, ${g}, 2000, 1000, ${balanceUsed + toPay}, ${balanceUsed}, ${toPay}, ${state}, ${payMethod}, ${T0}, ${paid}, ${cancelled}) returning id`);
}
const ledger = (orderId: number, cents: number, reason: string) =>
  one(
    sql`insert into balance_ledger (account_id, change_cents, reason, order_id, created_at) values (${acc}, ${cents}, ${reason}, ${orderId}, ${T0}) returning id`,
  );
const attempt = (orderId: number, seq: number, no: string, provider: string, state: string) =>
  one(
    sql`insert into payment_attempts (order_id, seq, out_trade_no, provider, state, created_at) values (${orderId}, ${seq}, ${`${no}-${seq}`}, ${provider}, ${state}, ${T0}) returning id`,
  );
const payment = (orderId: number, attemptId: number, provider: string, txn: string, cents: number, status: string) =>
  one(
    sql`insert into payments (order_id, attempt_id, provider, provider_txn_id, amount_cents, status, source, created_at) values (${orderId}, ${attemptId}, ${provider}, ${txn}, ${cents}, ${status}, 'notify', ${T0}) returning id`,
  );

// paid by balance, nothing deducted at checkout
const byBalance = await order('O1', 'paid', 0, 1000, 'balance');
const byBalanceLedger = await ledger(byBalance, -1000, 'order');
// balance used at checkout, the rest paid by balance
const deductedThenBalance = await order('O2', 'paid', 300, 700, 'balance');
const o2Deduction = await ledger(deductedThenBalance, -300, 'order');
const o2Pay = await ledger(deductedThenBalance, -700, 'order');
// balance used at checkout, the rest paid by WeChat Pay
const byWechat = await order('O3', 'paid', 200, 800, 'wechat');
await ledger(byWechat, -200, 'order');
const o3Attempt = await attempt(byWechat, 1, 'O3', 'wechat', 'paid');
const o3Payment = await payment(byWechat, o3Attempt, 'wechat', 'wx-3', 800, 'paid');
// cancelled: the balance used came back
const cancelled = await order('O4', 'cancelled', 500, 500, null);
await ledger(cancelled, -500, 'order');
const o4Back = await ledger(cancelled, 500, 'cancel');
// paid by WeChat Pay after an Alipay trade that took the money too (needs_refund)
const twice = await order('O5', 'paid', 0, 900, 'wechat');
const o5Old = await attempt(twice, 1, 'O5', 'alipay', 'paid');
const o5Unwanted = await payment(twice, o5Old, 'alipay', 'ali-5', 900, 'needs_refund');
const o5New = await attempt(twice, 2, 'O5', 'wechat', 'paid');
await payment(twice, o5New, 'wechat', 'wx-5', 900, 'paid');
// the mismatch bug: a wrong amount recorded, the attempt left open, the order paying
const stuck = await order('O6', 'paying', 0, 600, 'wechat');
const o6Attempt = await attempt(stuck, 1, 'O6', 'wechat', 'open');
const o6Mismatch = await payment(stuck, o6Attempt, 'wechat', 'wx-6', 601, 'mismatch');

const before = {
  orders: await q(sql`select * from orders order by id`),
  ledger: await q(sql`select * from balance_ledger order by id`),
};

const { migrate } = pg ? await import('drizzle-orm/postgres-js/migrator') : await import('drizzle-orm/pglite/migrator');
await migrate(db as never, { migrationsFolder: migrationsFolder() });

const parts = (orderId: number) =>
  q(sql`select seq, kind, amount_cents, state from payment_parts where order_id = ${orderId} order by seq`);
const paymentsOf = (orderId: number) =>
  q(
    sql`select p.id, t.seq, p.provider, p.amount_cents, p.status, p.ledger_id, p.attempt_id from payments p join payment_parts t on t.id = p.part_id where p.order_id = ${orderId} order by t.seq, p.id`,
  );
const refundsOf = (orderId: number) =>
  q(
    sql`select r.payment_id, r.amount_cents, r.cause, r.key, r.state, r.ledger_id from refunds r join payments p on p.id = r.payment_id where p.order_id = ${orderId} order by r.id`,
  );

describe('migration 0018: existing orders as parts, payments and refunds', () => {
  it('leaves the orders and the ledger as they were', async () => {
    expect(await q(sql`select * from orders order by id`)).toEqual(before.orders);
    expect(await q(sql`select * from balance_ledger order by id`)).toEqual(before.ledger);
  });

  it('paid by balance: one paid share, its balance payment on the ledger row', async () => {
    expect(await parts(byBalance)).toEqual([{ seq: 1, kind: 'share', amount_cents: 1000, state: 'paid' }]);
    expect(await paymentsOf(byBalance)).toMatchObject([
      { seq: 1, provider: 'balance', amount_cents: 1000, status: 'paid', ledger_id: byBalanceLedger },
    ]);
    expect(await refundsOf(byBalance)).toEqual([]);
  });

  it('a checkout deduction and the rest by balance: the first ledger row is the deduction, the second the share', async () => {
    expect(await parts(deductedThenBalance)).toEqual([
      { seq: 0, kind: 'deduction', amount_cents: 300, state: 'paid' },
      { seq: 1, kind: 'share', amount_cents: 700, state: 'paid' },
    ]);
    expect(await paymentsOf(deductedThenBalance)).toMatchObject([
      { seq: 0, provider: 'balance', amount_cents: 300, ledger_id: o2Deduction },
      { seq: 1, provider: 'balance', amount_cents: 700, ledger_id: o2Pay },
    ]);
  });

  it('paid by WeChat Pay: its payment and attempt belong to the share, the member is the payer', async () => {
    expect(await parts(byWechat)).toEqual([
      { seq: 0, kind: 'deduction', amount_cents: 200, state: 'paid' },
      { seq: 1, kind: 'share', amount_cents: 800, state: 'paid' },
    ]);
    expect((await paymentsOf(byWechat)).map((p) => [p.seq, p.provider, p.id === o3Payment])).toEqual([
      [0, 'balance', false],
      [1, 'wechat', true],
    ]);
    expect(
      await q(
        sql`select t.seq, a.payer_account_id from payment_attempts a join payment_parts t on t.id = a.part_id where a.id = ${o3Attempt}`,
      ),
    ).toEqual([{ seq: 1, payer_account_id: acc }]);
  });

  it('cancelled: the deduction given back, its refund the cancel ledger row; the share dropped', async () => {
    expect(await parts(cancelled)).toEqual([
      { seq: 0, kind: 'deduction', amount_cents: 500, state: 'given_back' },
      { seq: 1, kind: 'share', amount_cents: 500, state: 'dropped' },
    ]);
    expect(await refundsOf(cancelled)).toMatchObject([
      { amount_cents: 500, cause: 'order_cancelled', key: `cancel:${cancelled}`, state: 'succeeded', ledger_id: o4Back },
    ]);
  });

  it('needs_refund and mismatch money: held refunds in full for staff (nothing returned twice); the open trade asked again', async () => {
    expect(await refundsOf(twice)).toEqual([
      {
        payment_id: o5Unwanted,
        amount_cents: 900,
        cause: 'unwanted_payment',
        key: `migrated:${o5Unwanted}`,
        state: 'held',
        ledger_id: null,
      },
    ]);
    expect(await refundsOf(stuck)).toEqual([
      {
        payment_id: o6Mismatch,
        amount_cents: 601,
        cause: 'amount_mismatch',
        key: `migrated:${o6Mismatch}`,
        state: 'held',
        ledger_id: null,
      },
    ]);
    expect(await parts(stuck)).toEqual([{ seq: 1, kind: 'share', amount_cents: 600, state: 'unpaid' }]);
    expect(await q(sql`select kind, payload from jobs where kind = 'payment.query'`)).toEqual([
      { kind: 'payment.query', payload: { outTradeNo: 'O6-1', provider: 'wechat', attempt: 1 } },
    ]);
  });

  it('every attempt and payment has a part, and the money invariants hold', async () => {
    expect(await q(sql`select count(*)::int as n from payment_attempts where part_id is null`)).toEqual([{ n: 0 }]);
    await assertMoneyInvariants(db);
  });
});
