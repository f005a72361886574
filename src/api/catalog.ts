import type {
  Activity,
  ActivityDetail,
  Banner,
  Club,
  ClubDetail,
  ClubDistance,
  DictItem,
  Goods,
  Notice,
  SearchResult,
  SurveyAnswerIn,
  SurveyOut,
  SurveyState,
  Teacher,
  TeacherDetail,
} from '../contracts/catalog';
import type { DictQuery, DistanceQuery, SearchQuery, TeachersQuery } from '../contracts/catalog-queries';
import type { PageQuery } from '../contracts/common';
import type { PageViewBody, PageViewRecorded } from '../contracts/platform-stats';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/catalog.ts): they cannot drift.
export type {
  Activity,
  ActivityDetail,
  Banner,
  Club,
  ClubDetail,
  ClubDistance,
  DictItem,
  Goods,
  Notice,
  SearchResult,
  SurveyState,
  Teacher,
  TeacherDetail,
};
export type Survey = SurveyOut;

/**
 * What answering the survey sends: an option, or a skip. The contract's object (SurveyAnswerIn) takes
 * either field and refuses both or neither; the app's type says the same as a union
 * (test/unit/contracts.test-d.ts checks it fits the contract).
 */
export type SurveyAnswer = Pick<SurveyAnswerIn, 'surveyId'> & ({ optionId: number; skip?: never } | { skip: true; optionId?: never });

/** Public catalogue calls (spec §7 paths, and the ones designed in their style). */
export function catalogCalls(http: ApiClient) {
  return {
    clubs: () => http.get<Club[]>('/school/clubs'),
    club: (id: number) => http.get<ClubDetail>('/school/clubs/detail', { query: { id } }),
    /** distances from the member's position (browser geolocation) to every club */
    clubDistances: (at: DistanceQuery) => http.get<ClubDistance[]>('/school/clubs/distance', { query: at }),
    teachers: (filter: TeachersQuery = {}) => http.get<Teacher[]>('/school/teachers', { query: filter }),
    teacher: (id: number) => http.get<TeacherDetail>('/school/teachers/detail', { query: { id } }),
    banners: () => http.get<Banner[]>('/index/home/banner'),
    notices: () => http.get<Notice[]>('/sys/notification'),
    /** the Homepage shows page 0 of 3 (spec §9) */
    activities: (page: PageQuery) => http.get<Paged<Activity>>('/activity/goods', { query: page }),
    /** one activity with its places and (with a token) whether I have one or may sign up (decision 033) */
    activity: (id: number) => http.get<ActivityDetail>('/activity/detail', { query: { id } }),
    signUp: (id: number, idempotencyKey: string) =>
      http.post<ActivityDetail>('/customers/activities/signup', { body: { id }, idempotencyKey }),
    search: (keywords: SearchQuery['keywords']) => http.get<SearchResult>('/index/home/search', { query: { keywords } }),
    dict: (type: DictQuery['type']) => http.get<DictItem[]>('/index/home/dict/select', { query: { type } }),
    /** members only: the survey to show now, or null */
    survey: () => http.get<Survey | null>('/survey'),
    answerSurvey: (body: SurveyAnswer) => http.post<SurveyState>('/survey', { body }),
    /** spec §2: every navigation reports a page view (a valid token ties it to the account) */
    pageView: (body: PageViewBody) => http.post<PageViewRecorded>('/stats/pageview', { body: { ...body, path: body.path.slice(0, 512) } }),
  };
}
