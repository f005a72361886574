import { describe, expect, it } from 'vitest';
import { advisers } from '../../../src/server/db/schema/index';
import { changedTables, tableChecksums } from '../support/db-checksum';
import { startTestServer } from '../support/harness';
import { othersRecords } from './support';

/**
 * Ownership: every endpoint that takes the id of something a member owns, called by another
 * member with a real id of theirs, answers exactly as it answers an id that does not exist, and changes
 * no row. The id-taking inputs are read from the OpenAPI document (generated from the route table), and
 * each must be classified below: a new endpoint with an id cannot be missed.
 */
const s = await startTestServer({ seed: true });

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: { $ref?: string; properties?: Record<string, unknown> } }> };
}
const doc = (await (await s.app.request('/api/openapi.json')).json()) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

/** An input naming a record: `id`, `…Id`, `…Ids`, `…No`, `…_no`, `…_id`, and every path parameter. */
const ID_NAME = /(^id$|Id$|Ids$|No$|_no$|_id$)/;

/** "POST /api/orders/pay body:orderNo" for every id-taking input in the document. */
function idInputs(): string[] {
  const keys: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) if (p.in === 'path' || ID_NAME.test(p.name)) keys.push(`${at} ${p.in}:${p.name}`);
      const schema = Object.values(op.requestBody?.content ?? {})[0]?.schema;
      const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
      for (const name of Object.keys(resolved?.properties ?? {})) if (ID_NAME.test(name)) keys.push(`${at} body:${name}`);
    }
  }
  return keys;
}

// ---- the fixture: member A owns one of everything; B is the caller ----
const {
  a,
  b,
  cPhone,
  cls,
  aCard,
  aBooking,
  aTransferCard,
  aImages,
  aTransfer,
  aCoupon,
  goods,
  aOrder,
  aComplaintImage,
  aFiledImage,
  aComplaint,
  refunder,
  aRefund,
  bCard,
  bImages,
  aPaidOrder,
  aInvoice,
} = await othersRecords(s);

/** an adviser of the catalogue, with the club they work at (decision 034) */
const [adviser] = await s.deps.db.select({ id: advisers.id, clubId: advisers.clubId }).from(advisers).limit(1);

const ABSENT_ID = 2_147_483_000;
const ABSENT_NO = 'NO0000000000ABSENT';

type Call = { method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> };
const get = (path: string, query: Record<string, string | number>): Call => ({
  method: 'GET',
  path: `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
});
const post = (path: string, body: Record<string, unknown>): Call => ({ method: 'POST', path, body });

/** Owned records: A's real id, and the call B makes with an id (A's, or one that does not exist). */
interface Owned {
  theirs: number | string;
  absent: number | string;
  call: (id: never) => Call;
  /** the endpoint's documented answer to an id that is not the caller's: 404 70004 unless it names its own */
  notFound: string;
}
const owned = <T extends number | string>(theirs: T, call: (id: T) => Call, notFound = '404 70004'): Owned => ({
  theirs,
  absent: typeof theirs === 'number' ? ABSENT_ID : ABSENT_NO,
  call: call as (id: never) => Call,
  notFound,
});

const OWNED: Record<string, Owned> = {
  'POST /api/customers/classes/book body:cardId': owned(aCard.id, (cardId) =>
    post('/api/customers/classes/book', { classId: cls.id, cardId, agreeNotice: true }),
  ),
  'POST /api/customers/classes/cancel body:bookingId': owned(aBooking, (bookingId) => post('/api/customers/classes/cancel', { bookingId })),
  'POST /api/customers/classes/queue/cancel body:bookingId': owned(aBooking, (bookingId) =>
    post('/api/customers/classes/queue/cancel', { bookingId }),
  ),
  'GET /api/customers/classes/ics query:bookingId': owned(aBooking, (bookingId) => get('/api/customers/classes/ics', { bookingId })),
  'POST /api/orders/create body:couponId': owned(
    aCoupon,
    (couponId) => post('/api/orders/create', { goodsId: goods.id, couponId, agreementAccepted: true }),
    '409 40007',
  ),
  'POST /api/orders/quote body:couponId': owned(
    aCoupon,
    (couponId) => post('/api/orders/quote', { goodsId: goods.id, couponId }),
    '409 40007',
  ),
  'GET /api/orders/detail query:orderNo': owned(aOrder, (orderNo) => get('/api/orders/detail', { orderNo })),
  'POST /api/orders/cancel body:orderNo': owned(aOrder, (orderNo) => post('/api/orders/cancel', { orderNo })),
  'POST /api/orders/pay body:orderNo': owned(aOrder, (orderNo) => post('/api/orders/pay', { orderNo, method: 'balance' })),
  'POST /api/orders/split body:orderNo': owned(aOrder, (orderNo) => post('/api/orders/split', { orderNo, parts: [9_900, 10_000] })),
  'POST /api/orders/unsplit body:orderNo': owned(aOrder, (orderNo) => post('/api/orders/unsplit', { orderNo })),
  'GET /api/orders/friend/invitation query:orderNo': owned(aOrder, (orderNo) => get('/api/orders/friend/invitation', { orderNo })),
  'POST /api/orders/friend/invite body:orderNo': owned(aOrder, (orderNo) => post('/api/orders/friend/invite', { orderNo })),
  'POST /api/orders/friend/withdraw body:orderNo': owned(aOrder, (orderNo) => post('/api/orders/friend/withdraw', { orderNo })),
  'GET /api/customers/cards/detail query:id': owned(aCard.id, (id) => get('/api/customers/cards/detail', { id })),
  'POST /api/customers/cards/activate body:id': owned(aCard.id, (id) => post('/api/customers/cards/activate', { id })),
  'POST /api/customers/cards/freeze body:id': owned(aCard.id, (id) =>
    post('/api/customers/cards/freeze', { id, from: '2026-12-01', until: '2026-12-10' }),
  ),
  'POST /api/customers/cards/unfreeze body:id': owned(aCard.id, (id) => post('/api/customers/cards/unfreeze', { id })),
  'POST /api/customers/cards/extend body:id': owned(aCard.id, (id) => post('/api/customers/cards/extend', { id, until: '2027-12-31' })),
  'GET /api/customers/cards/history query:id': owned(aCard.id, (id) => get('/api/customers/cards/history', { id })),
  'POST /api/customers/transfers/apply body:cardId': owned(aCard.id, (cardId) =>
    post('/api/customers/transfers/apply', {
      cardId,
      phone: cPhone,
      name: '王小明',
      idNumber: '11010519491231002X',
      agreed: true,
      ...bImages,
    }),
  ),
  'POST /api/customers/transfers/apply body:idPhotoId': owned(
    aImages.idPhotoId,
    (idPhotoId) =>
      post('/api/customers/transfers/apply', {
        cardId: bCard.id,
        phone: cPhone,
        name: '王小明',
        idNumber: '11010519491231002X',
        agreed: true,
        idPhotoId,
        photoId: bImages.photoId,
      }),
    '400 70003',
  ),
  'POST /api/customers/transfers/apply body:photoId': owned(
    aImages.photoId,
    (photoId) =>
      post('/api/customers/transfers/apply', {
        cardId: bCard.id,
        phone: cPhone,
        name: '王小明',
        idNumber: '11010519491231002X',
        agreed: true,
        idPhotoId: bImages.idPhotoId,
        photoId,
      }),
    '400 70003',
  ),
  'POST /api/customers/transfers/cancel body:id': owned(aTransfer, (id) => post('/api/customers/transfers/cancel', { id })),
  'GET /api/customers/transfers/mine query:cardId': owned(aTransferCard.id, (cardId) => get('/api/customers/transfers/mine', { cardId })),
  'GET /api/customers/cards/refund/quote query:cardId': owned(refunder.card.id, (cardId) =>
    get('/api/customers/cards/refund/quote', { cardId }),
  ),
  'POST /api/customers/cards/refund body:cardId': owned(refunder.card.id, (cardId) =>
    post('/api/customers/cards/refund', { cardId, agreed: true }),
  ),
  'POST /api/customers/cards/refund/cancel body:id': owned(aRefund, (id) => post('/api/customers/cards/refund/cancel', { id })),
  'GET /api/customers/cards/refund/mine query:cardId': owned(refunder.card.id, (cardId) =>
    get('/api/customers/cards/refund/mine', { cardId }),
  ),
  'GET /api/customers/complaints/image/{id} path:id': owned(aFiledImage, (id) => ({
    method: 'GET',
    path: `/api/customers/complaints/image/${id}`,
  })),
  'POST /api/customers/complaints body:imageIds': owned(
    aComplaintImage,
    (id) => post('/api/customers/complaints', { content: '教室太冷', imageIds: [id] }),
    '400 70143',
  ),
  'GET /api/customers/complaints/detail query:id': owned(aComplaint, (id) => get('/api/customers/complaints/detail', { id })),
  'POST /api/customers/complaints/rate body:id': owned(aComplaint, (id) => post('/api/customers/complaints/rate', { id, satisfied: true })),
  'POST /api/customers/invoices body:orderIds': owned(aPaidOrder, (id) =>
    post('/api/customers/invoices', {
      orderIds: [id],
      title: '上海静心瑜伽文化有限公司',
      taxNumber: '91350100M000100Y43',
      address: '上海市静安区',
    }),
  ),
  'GET /api/customers/invoices/{id}/pdf path:id': owned(aInvoice, (id) => ({ method: 'GET', path: `/api/customers/invoices/${id}/pdf` })),
  'GET /api/customers/coupons/detail query:id': owned(aCoupon, (id) => get('/api/customers/coupons/detail', { id })),
  'GET /api/customers/cards/family query:id': owned(aCard.id, (id) => get('/api/customers/cards/family', { id })),
  'POST /api/customers/cards/family/add body:id': owned(aCard.id, (id) => post('/api/customers/cards/family/add', { id, phone: cPhone })),
  'POST /api/customers/cards/family/remove body:id': owned(aCard.id, (id) => post('/api/customers/cards/family/remove', { id, subId: 1 })),
  'POST /api/customers/cards/gift body:id': owned(aCard.id, (id) => post('/api/customers/cards/gift', { id, phone: cPhone })),
  'POST /api/customers/cards/adviser body:id': owned(aCard.id, (id) =>
    post('/api/customers/cards/adviser', { id, clubId: adviser!.clubId, adviserId: adviser!.id }),
  ),
  'POST /api/customers/coupons/gift body:couponId': owned(aCoupon, (couponId) =>
    post('/api/customers/coupons/gift', { couponId, phone: cPhone, agreed: true }),
  ),
};

/** Ids of the public catalogue (anyone may name them): clubs, teachers, classes, goods and their phases, activities, surveys. */
const PUBLIC: Record<string, string> = {
  'GET /api/school/clubs/detail query:id': 'club',
  'GET /api/school/teachers query:clubId': 'club',
  'GET /api/school/teachers/detail query:id': 'teacher',
  'GET /api/activity/detail query:id': 'activity',
  'POST /api/customers/activities/signup body:id': 'activity (the sign-up is the caller’s own)',
  'GET /api/product/goods/goodList query:clubId': 'club',
  'GET /api/product/goods/detail query:id': 'goods',
  'GET /api/product/goods/activity query:id': 'goods',
  'POST /api/survey body:surveyId': 'survey',
  'POST /api/survey body:optionId': 'survey option',
  'GET /api/customers/classes/schedule query:clubId': 'club',
  'GET /api/customers/classes/detail query:id': 'class',
  'GET /api/customers/classes/cards query:classId': 'class (the cards listed are the caller’s own)',
  'POST /api/customers/classes/book body:classId': 'class',
  'POST /api/customers/classes/checkin body:classId': 'class (with the code shown in the room)',
  'POST /api/orders/create body:goodsId': 'goods',
  'POST /api/orders/create body:phaseId': 'goods phase',
  'POST /api/orders/create body:teacherId': 'teacher',
  'POST /api/orders/quote body:goodsId': 'goods',
  'POST /api/orders/quote body:phaseId': 'goods phase',
  'POST /api/orders/quote body:teacherId': 'teacher',
  'POST /api/customers/complaints body:clubId': 'club',
  'GET /api/customers/cards/advisers query:clubId': 'club',
  'POST /api/customers/cards/adviser body:clubId': 'club',
  'POST /api/customers/cards/adviser body:adviserId': "a club's adviser (decision 034: staff of the club, listed to every member)",
  'POST /api/bind/new-teacher body:clubId': 'club',
  'GET /api/bind/new-teacher/{id}/photo path:id': "a confirmed teacher's catalogue photo",
  'GET /api/media/{kind}/{file} path:kind': 'media kind (banners, teachers, goods images)',
  'GET /api/media/{kind}/{file} path:file': 'a catalogue image file',
};

/** Neither owned by a member nor public, with the reason. */
const EXEMPT: Record<string, string> = {
  'POST /api/stats/pageview body:visitorId': "the visitor's own random id, made by the app; nothing is read back by it",
  'POST /api/teacher/schedule/{id}/confirm path:id':
    "a class (public); another teacher's class is 403 70008 (test/server/schedule/schedule.test.ts)",
  'POST /api/teacher/schedule/{id}/decline path:id':
    "a class (public); another teacher's class is 403 70008 (test/server/schedule/schedule.test.ts)",
  'GET /api/dev/sms/{phone} path:phone': 'demo mode only: the SMS stand-in’s outbox',
  'POST /api/customers/cards/family/remove body:subId':
    "a sub card looked up only on the caller's own card named by `id` (owned, above): another card's sub card answers 404 30055 like an absent one (test/server/cards/family.test.ts)",
};
/** Whole areas: staff act on every member's records (the role guard is tested per area); /api/dev is the demo-mode stand-ins of outside services. */
const EXEMPT_AREAS: Record<string, string> = {
  '/api/staff/': 'staff console: staff act on every member’s records; members get 403 70008',
  '/api/dev/': 'demo-mode stand-ins of WeChat and the payment providers, off in production',
};
const classified = (key: string) =>
  key in OWNED || key in PUBLIC || key in EXEMPT || Object.keys(EXEMPT_AREAS).some((area) => key.split(' ')[1]!.startsWith(area));

describe("another member's ids (ownership)", () => {
  it('every id-taking input in the OpenAPI document is classified: owned (tested below), public, or exempt with a reason', () => {
    const inputs = idInputs();
    expect(inputs.length).toBeGreaterThan(60);
    expect(inputs.filter((k) => !classified(k))).toEqual([]);
    expect(classified('GET /api/customers/new-thing/{id} path:id'), 'a new endpoint is unclassified').toBe(false);
    // and nothing classified is gone from the document (a renamed endpoint is re-classified, not forgotten)
    expect([...Object.keys(OWNED), ...Object.keys(PUBLIC), ...Object.keys(EXEMPT)].filter((k) => !inputs.includes(k))).toEqual([]);
  });

  it('each owned id of another member is answered as if it did not exist, and no row changes', async () => {
    const before = await tableChecksums(s);
    const leaks: string[] = [];
    for (const [key, o] of Object.entries(OWNED)) {
      const send = async (id: number | string) => {
        const c = o.call(id as never);
        const r = await s.call(c.method, c.path, { token: b.token, body: c.body });
        return `${r.status} ${r.body?.code}`;
      };
      const absent = await send(o.absent);
      const theirs = await send(o.theirs);
      if (theirs !== absent || !/^4\d\d /.test(absent)) leaks.push(`${key}: theirs ${theirs}, absent ${absent}`);
    }
    expect(leaks).toEqual([]);
    expect(changedTables(before, await tableChecksums(s))).toEqual([]);
  });

  it("the answer is 404 70004, or the endpoint's documented one for an id that is not mine (a coupon 40007, an uploaded image 70003 or 70143)", async () => {
    const wrong: string[] = [];
    for (const [key, o] of Object.entries(OWNED)) {
      const c = o.call(o.theirs as never);
      const r = await s.call(c.method, c.path, { token: b.token, body: c.body });
      if (`${r.status} ${r.body?.code}` !== o.notFound) wrong.push(`${key}: ${r.status} ${r.body?.code}, documented ${o.notFound}`);
    }
    expect(wrong).toEqual([]);
  });

  it("the fixture is real: A's own calls find every record (so B's refusals are about ownership, not absence)", async () => {
    for (const [key, path] of [
      ['booking', `/api/customers/classes/ics?bookingId=${aBooking}`],
      ['order', `/api/orders/detail?orderNo=${aOrder}`],
      ['card', `/api/customers/cards/detail?id=${aCard.id}`],
      ['transfer', `/api/customers/transfers/mine?cardId=${aTransferCard.id}`],
      ['complaint', `/api/customers/complaints/detail?id=${aComplaint}`],
      ['coupon', `/api/customers/coupons/detail?id=${aCoupon}`],
    ] as const) {
      expect((await s.call('GET', path, { token: a.token })).status, key).toBe(200);
    }
    expect(
      (await s.call('GET', `/api/customers/cards/refund/mine?cardId=${refunder.card.id}`, { token: refunder.m.token })).body.data,
    ).toMatchObject({ id: aRefund });
  });
});
