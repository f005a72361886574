import type { InferSelectModel } from 'drizzle-orm';
import type { activities, banners, clubs, teachers } from '../db/schema/index';
import type { Locale } from '../i18n';

/** Bilingual columns: the English text when asked for and present, else the Chinese source. */
export function loc(locale: Locale, zh: string, en: string | null | undefined): string {
  return locale === 'en' && en ? en : zh;
}

/** A LIKE pattern that matches the keywords literally (%, _ and \ escaped). */
export function containsPattern(keywords: string): string {
  return `%${keywords.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

type ClubRow = InferSelectModel<typeof clubs>;
type TeacherRow = InferSelectModel<typeof teachers>;
type ActivityRow = InferSelectModel<typeof activities>;
type BannerRow = InferSelectModel<typeof banners>;

export function clubOut(c: ClubRow, locale: Locale) {
  return {
    id: c.id,
    name: loc(locale, c.name, c.nameEn),
    city: loc(locale, c.city, c.cityEn),
    address: loc(locale, c.address, c.addressEn),
    phone: c.phone,
    lat: c.lat,
    lng: c.lng,
    coverImage: c.coverImage,
    openingHours: c.openingHours,
  };
}

export function teacherOut(t: TeacherRow, club: Pick<ClubRow, 'name' | 'nameEn'> | null, locale: Locale) {
  return {
    id: t.id,
    name: loc(locale, t.name, t.nameEn),
    photo: t.photo,
    styles: t.styles,
    years: t.years,
    clubId: t.clubId,
    clubName: club ? loc(locale, club.name, club.nameEn) : null,
  };
}

export function activityOut(a: ActivityRow, locale: Locale) {
  return {
    id: a.id,
    title: loc(locale, a.title, a.titleEn),
    image: a.image,
    summary: loc(locale, a.summary, a.summaryEn),
    startsAt: a.startsAt.toISOString(),
    endsAt: a.endsAt.toISOString(),
    clubId: a.clubId,
    goodsId: a.goodsId,
    places: a.places,
  };
}

export function bannerOut(b: BannerRow, locale: Locale) {
  return { id: b.id, title: loc(locale, b.title, b.titleEn), image: b.image, link: b.link };
}
