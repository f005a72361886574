import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

/** A club as GET /school/clubs answers it (text in the request's language). */
export interface Club {
  id: number;
  name: string;
  city: string;
  address: string;
  phone: string;
  lat: number;
  lng: number;
  /** an image URL, 750x420 */
  coverImage: string;
  /** "07:00-22:00", local time */
  openingHours: string;
}

/** A teacher as GET /school/teachers answers it. */
export interface Teacher {
  id: number;
  name: string;
  /** an image URL, 240x240 */
  photo: string;
  /** style keys (labels from the `style` dictionary) */
  styles: string[];
  years: number;
  clubId: number | null;
  clubName: string | null;
}

export interface ClubDetail extends Club {
  intro: string;
  teachers: Teacher[];
}

export interface TeacherDetail extends Teacher {
  bio: string;
  club: Club | null;
}

/** Metres from the member's position to one club. */
export interface ClubDistance {
  id: number;
  name: string;
  distance: number;
}

export interface Banner {
  id: number;
  title: string;
  /** an image URL, 750x320 */
  image: string;
  /** an app path, or null */
  link: string | null;
}

export interface Notice {
  id: number;
  title: string;
  body: string;
  createdAt: string;
  /** addressed to the caller (else a system notice) */
  personal: boolean;
  read: boolean;
}

export interface Activity {
  id: number;
  title: string;
  /** an image URL, 690x360 */
  image: string;
  summary: string;
  startsAt: string;
  endsAt: string;
  clubId: number | null;
  goodsId: number | null;
}

/** Goods as search answers them; `memberPriceCents` only comes with a valid token. */
export interface Goods {
  id: number;
  kind: string;
  cardType: string | null;
  name: string;
  image: string;
  listPriceCents: number;
  memberPriceCents?: number;
  onShelf: boolean;
  sellNumber: number;
  maxNumber: number | null;
  isUable: boolean;
  message: string | null;
}

export interface SearchResult {
  clubs: Club[];
  teachers: Teacher[];
  goods: Goods[];
  activities: Activity[];
}

export interface DictItem {
  value: string;
  label: string;
}

export interface Survey {
  id: number;
  question: string;
  options: { id: number; label: string }[];
}

export type SurveyAnswer = { surveyId: number; optionId: number } | { surveyId: number; skip: true };

/** Public catalogue calls (spec §7 paths, and the ones designed in their style). */
export function catalogCalls(http: ApiClient) {
  return {
    clubs: () => http.get<Club[]>('/school/clubs'),
    club: (id: number) => http.get<ClubDetail>('/school/clubs/detail', { query: { id } }),
    /** distances from the member's position (browser geolocation) to every club */
    clubDistances: (at: { lat: number; lng: number }) => http.get<ClubDistance[]>('/school/clubs/distance', { query: at }),
    teachers: (filter: { clubId?: number; style?: string } = {}) => http.get<Teacher[]>('/school/teachers', { query: filter }),
    teacher: (id: number) => http.get<TeacherDetail>('/school/teachers/detail', { query: { id } }),
    banners: () => http.get<Banner[]>('/index/home/banner'),
    notices: () => http.get<Notice[]>('/sys/notification'),
    /** the Homepage shows page 0 of 3 (spec §9) */
    activities: (page: { pagenum: number; pagesize: number }) => http.get<Paged<Activity>>('/activity/goods', { query: page }),
    search: (keywords: string) => http.get<SearchResult>('/index/home/search', { query: { keywords } }),
    dict: (type: 'cardType' | 'goodsKind' | 'classType' | 'style' | 'difficulty' | 'timeOfDay' | 'effect') =>
      http.get<DictItem[]>('/index/home/dict/select', { query: { type } }),
    /** members only: the survey to show now, or null */
    survey: () => http.get<Survey | null>('/survey'),
    answerSurvey: (body: SurveyAnswer) => http.post<{ surveyId: number; answered: boolean; skipUntil: string | null }>('/survey', { body }),
    /** spec §2: every navigation reports a page view (a valid token ties it to the account) */
    pageView: (body: { path: string; visitorId: string }) =>
      http.post<{ id: number }>('/stats/pageview', { body: { ...body, path: body.path.slice(0, 512) } }),
  };
}
