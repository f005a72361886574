import { z } from '@hono/zod-openapi';
import { CARD_TYPE_VALUES, GOODS_KIND_VALUES } from '../domain/catalog';
import { SURVEY_SKIP_DAYS } from '../domain/limits';
import { ScheduleItem } from './booking';
import { IdField } from './common';

/** The public catalogue's answers (clubs, teachers, home page, goods): the server documents and checks them, the app reads their types. */
const IsoTime = z.string().openapi({ example: '2026-11-20T02:00:00.000Z' });

export const Club = z
  .object({
    id: z.number().int(),
    name: z.string(),
    city: z.string(),
    address: z.string(),
    phone: z.string(),
    lat: z.number(),
    lng: z.number(),
    coverImage: z.string(),
    openingHours: z.string().openapi({ example: '07:00-22:00' }),
  })
  .openapi('Club');
export type Club = z.infer<typeof Club>;

export const Teacher = z
  .object({
    id: z.number().int(),
    name: z.string(),
    photo: z.string(),
    styles: z.array(z.string()),
    years: z.number().int(),
    clubId: z.number().int().nullable(),
    clubName: z.string().nullable(),
  })
  .openapi('Teacher');
export type Teacher = z.infer<typeof Teacher>;

export const ClubDetail = Club.extend({
  intro: z.string(),
  teachers: z.array(Teacher),
}).openapi('ClubDetail');
export type ClubDetail = z.infer<typeof ClubDetail>;

export const TeacherDetail = Teacher.extend({
  bio: z.string(),
  club: Club.nullable(),
}).openapi('TeacherDetail');
export type TeacherDetail = z.infer<typeof TeacherDetail>;

export const ClubDistance = z
  .object({ id: z.number().int(), name: z.string(), distance: z.number().int().openapi({ description: 'metres' }) })
  .openapi('ClubDistance');
export type ClubDistance = z.infer<typeof ClubDistance>;

export const Banner = z
  .object({ id: z.number().int(), title: z.string(), image: z.string(), link: z.string().nullable() })
  .openapi('Banner');
export type Banner = z.infer<typeof Banner>;

export const Activity = z
  .object({
    id: z.number().int(),
    title: z.string(),
    image: z.string(),
    summary: z.string(),
    startsAt: IsoTime,
    endsAt: IsoTime,
    clubId: z.number().int().nullable(),
    goodsId: z.number().int().nullable(),
    places: z.number().int().nullable().openapi({ description: 'places for sign-up (decision 033); null: the activity takes no sign-up' }),
  })
  .openapi('Activity');
export type Activity = z.infer<typeof Activity>;

export const ActivityDetail = Activity.extend({
  body: z.string(),
  placesLeft: z.number().int().nullable().openapi({ description: 'places not yet taken; null: no sign-up' }),
  signedUp: z.boolean().openapi({ description: 'I have a place (with a token)' }),
  signup: z
    .object({
      allowed: z.boolean(),
      code: z.number().int().nullable().openapi({ description: 'why not: 70150-70153, or 70001 for a visitor' }),
    })
    .nullable()
    .openapi({ description: 'whether I may sign up now; null: no sign-up' }),
}).openapi('ActivityDetail');

/** POST /customers/activities/signup. */
export const ActivitySignupBody = z.object({ id: IdField }).openapi('ActivitySignup');
export type ActivityDetail = z.infer<typeof ActivityDetail>;

export const Goods = z
  .object({
    id: z.number().int(),
    kind: z.enum(GOODS_KIND_VALUES),
    cardType: z.enum(CARD_TYPE_VALUES).nullable(),
    name: z.string(),
    image: z.string(),
    listPriceCents: z.number().int(),
    memberPriceCents: z.number().int().optional().openapi({ description: 'only with a valid token' }),
    stock: z.number().int().nullable().openapi({ description: 'units left; null = unlimited' }),
    sellNumber: z.number().int(),
    maxNumber: z.number().int().nullable(),
    onShelf: z.boolean(),
    uses: z.number().int().nullable(),
    validityDays: z.number().int().nullable(),
    clubId: z.number().int().nullable(),
    teacherId: z.number().int().nullable(),
    startsAt: IsoTime.nullable(),
    endsAt: IsoTime.nullable(),
    newCustomersOnly: z.boolean(),
    perPersonLimit: z.number().int().nullable(),
    isUable: z.boolean().openapi({ description: 'can be bought now (spec spelling)' }),
    message: z.string().nullable().openapi({ description: 'why not, when isUable is false' }),
  })
  .openapi('Goods');
export type Goods = z.infer<typeof Goods>;

export const GoodsPhase = z
  .object({
    id: z.number().int(),
    name: z.string(),
    startsAt: IsoTime.nullable(),
    endsAt: IsoTime.nullable(),
    listPriceCents: z.number().int().optional().openapi({ description: 'present when the phase has its own price' }),
    memberPriceCents: z.number().int().optional().openapi({ description: 'logged-in callers only' }),
    isUable: z.boolean().openapi({ description: 'false once the phase has started' }),
    message: z.string().nullable(),
  })
  .openapi('GoodsPhase');
export type GoodsPhase = z.infer<typeof GoodsPhase>;

export const GoodsTeacher = z
  .object({ id: z.number().int(), name: z.string(), photo: z.string(), clubName: z.string().nullable() })
  .openapi('GoodsTeacher');
export type GoodsTeacher = z.infer<typeof GoodsTeacher>;

export const GoodsDetail = Goods.extend({
  description: z.string(),
  phases: z.array(GoodsPhase).openapi({ description: 'a training course with phases: one must be chosen (phaseId), else 50007' }),
  teachers: z.array(GoodsTeacher).openapi({ description: 'a private class with teachers: one must be chosen (teacherId), else 50008' }),
}).openapi('GoodsDetail');
export type GoodsDetail = z.infer<typeof GoodsDetail>;

export const Notice = z
  .object({
    id: z.number().int(),
    title: z.string(),
    body: z.string(),
    createdAt: IsoTime,
    personal: z.boolean().openapi({ description: 'addressed to the caller (else a system notice)' }),
    read: z.boolean(),
  })
  .openapi('Notice');
export type Notice = z.infer<typeof Notice>;

export const DictItem = z.object({ value: z.string(), label: z.string() }).openapi('DictItem');
export type DictItem = z.infer<typeof DictItem>;

export const SearchResult = z
  .object({
    classes: z.array(ScheduleItem).openapi({
      description:
        "classes of the next week not yet started whose title, style, type or teacher matches, the title's matches first, then by start; with the caller's state",
    }),
    clubs: z.array(Club),
    teachers: z.array(Teacher),
    goods: z.array(Goods),
    activities: z.array(Activity),
  })
  .openapi('SearchResult');
export type SearchResult = z.infer<typeof SearchResult>;

/** The survey a member sees now (spec §7 GET /survey). */
export const SurveyOut = z
  .object({
    id: z.number().int(),
    question: z.string(),
    options: z.array(z.object({ id: z.number().int(), label: z.string() })),
  })
  .openapi('Survey');
export type SurveyOut = z.infer<typeof SurveyOut>;

export const SurveyAnswerIn = z
  .object({
    surveyId: IdField,
    optionId: IdField.optional().openapi({ description: 'the chosen answer' }),
    skip: z
      .literal(true)
      .optional()
      .openapi({ description: `hide the survey for ${SURVEY_SKIP_DAYS} days` }),
  })
  .refine((b) => (b.optionId === undefined) !== (b.skip === undefined), { path: ['optionId'], message: 'give optionId or skip, not both' })
  .openapi('SurveyAnswer');
export type SurveyAnswerIn = z.infer<typeof SurveyAnswerIn>;

export const SurveyState = z
  .object({ surveyId: z.number().int(), answered: z.boolean(), skipUntil: z.string().nullable() })
  .openapi('SurveyState');
export type SurveyState = z.infer<typeof SurveyState>;
