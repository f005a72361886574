import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The races' yardsticks, shared by the booking and flash-sale sections. */

const PGBENCH_CLIENTS = 8;
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS) || 10;

/** pgbench's rate of `UPDATE one_row SET n = n + 1 WHERE id = 1` on a scratch database: the hot-row ceiling. */
export function hotRowRate(url: string): { tps: number; note: string } {
  const u = new URL(url);
  const dir = mkdtempSync(path.join(tmpdir(), 'pgbench-'));
  try {
    const script = path.join(dir, 'one-row.sql');
    writeFileSync(script, 'UPDATE one_row SET n = n + 1 WHERE id = 1;\n');
    const pgbench = process.env.PGBENCH || '/usr/bin/pgbench';
    const args = [
      '-n',
      '-c',
      String(PGBENCH_CLIENTS),
      '-j',
      '2',
      '-T',
      String(PGBENCH_SECONDS),
      '-f',
      script,
      '-h',
      u.hostname,
      '-p',
      u.port || '5432',
      '-U',
      decodeURIComponent(u.username || 'postgres'),
      u.pathname.slice(1),
    ];
    const r = spawnSync(pgbench, args, { encoding: 'utf8', env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) } });
    if (r.status !== 0) throw new Error(`pgbench failed (exit ${r.status}): ${(r.stderr || r.stdout).slice(-400)}`);
    const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(r.stdout) ?? /tps = ([\d.]+)/.exec(r.stdout);
    if (!m) throw new Error(`pgbench: no tps in its output: ${r.stdout.slice(-400)}`);
    return { tps: Number(m[1]), note: `pgbench -c ${PGBENCH_CLIENTS} -T ${PGBENCH_SECONDS}, one UPDATE per transaction, same PostgreSQL` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** hotRowRate on a scratch database of its own on `base`'s server (created with its one row, then dropped). */
export async function hotRowRateOn(base: string): Promise<{ tps: number; note: string }> {
  const { default: postgres } = await import('postgres');
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const name = `bench_pgbench_${randomBytes(4).toString('hex')}`;
  await admin.unsafe(`create database ${name}`);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    await sql.unsafe('create table one_row (id int primary key, n bigint not null); insert into one_row values (1, 0)');
    await sql.end();
    return hotRowRate(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
