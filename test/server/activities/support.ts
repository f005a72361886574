import { activities } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';

const DAY = 86_400_000;

/** An activity live from yesterday for `days` days; `places` null takes no sign-up. */
export async function newActivity(s: TestServer, places: number | null, days = 10) {
  const now = s.clock.now().getTime();
  const [a] = await s.deps.db
    .insert(activities)
    .values({
      title: '周末户外瑜伽',
      titleEn: 'Outdoor yoga weekend',
      image: '/img/a.jpg',
      body: '在公园里练习',
      bodyEn: 'Practice in the park',
      startsAt: new Date(now - DAY),
      endsAt: new Date(now + days * DAY),
      places,
    })
    .returning();
  return a!;
}

export const signUp = (s: TestServer, token: string | undefined, id: number) =>
  s.call('POST', '/api/customers/activities/signup', { token, body: { id } });
export const detail = (s: TestServer, token: string | undefined, id: number) => s.call('GET', `/api/activity/detail?id=${id}`, { token });
