import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { MyIdNumber, PersonInfoBody, PersonInfoPage, PersonInfoView } from '../../contracts/person-info';
import type { AppEnv, Caller } from '../env';
import { requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { memberIdNumber, personInfoPage, savePersonInfo } from '../services/person/person-info';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['personal information'];
const me = (c: Context<AppEnv>) => (c.var.caller as Caller).accountId;

/** Personal information (spec §3, §5; decision 032): /mine/improvePersonInfo's calls. */
export const personRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'My personal information, the real name and ID number masked (null when none yet), and the favourite styles to choose from',
      middleware: [requireAuth] as const,
      responses: { 200: json(PersonInfoPage), 401: refusals[401] },
    }),
    async (c) => ok(c, await personInfoPage(c.var.deps.db, c.var.deps.gateways.keys, me(c), c.var.deps.clock.now())),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/id-number',
      tags,
      summary: "My own whole ID number (null when none stored); only ever the caller's own",
      middleware: [requireAuth] as const,
      responses: { 200: json(MyIdNumber), 401: refusals[401] },
    }),
    async (c) => ok(c, { idNumber: (await memberIdNumber(c.var.deps.db, c.var.deps.gateways.keys, me(c))) ?? null }),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/',
      tags,
      summary:
        'Store my personal information: 70100 real name (required, at most 20 characters, not numeric), 70101 ID number not 18 characters, 70102 its birth date not real, 70103 its check character wrong; 70104 a different name or ID number after a transfer or refund used them (staff change it). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: PersonInfoBody } }, required: true } },
      responses: { 200: json(PersonInfoView), 400: refusals[400], 401: refusals[401], 409: refusals[409] },
    }),
    async (c) => ok(c, await savePersonInfo(c.var.deps.db, c.var.deps.clock, c.var.deps.gateways.keys, me(c), c.req.valid('json'))),
  );
