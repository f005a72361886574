import { DEFAULT_TEACHER_CONFIRM_HOURS } from '../../../domain/limits';
import { DAY_MS, shanghaiDateAfter, shanghaiMidnight } from '../../../domain/time';
import type { ClassTypeKey, Difficulty } from '../../../domain/catalog';
import type { Clock } from '../../../domain/clock';
import type { Tx } from '../client';
import { classes } from '../schema/index';

/**
 * Two weeks of classes at every club (3 days back for past bookings, 10 ahead), relative to the
 * clock: six slots a day, the club's teachers and styles, mixed types, levels and capacities.
 * A small generator with a fixed seed keeps every run (and every id) the same.
 */
export const CLASS_DAYS_BACK = 3;
export const CLASS_DAYS_AHEAD = 10;
/** The first day (from today) whose classes of the demo teacher still wait for their confirmation. */
export const DEMO_TEACHER_WAITS_FROM_DAY = 4;

/** Local start "HH:MM" and duration of each daily slot; slots of one club never overlap. */
const SLOTS = [
  ['07:00', 60],
  ['09:00', 75],
  ['12:15', 45],
  ['15:00', 60],
  ['18:30', 60],
  ['20:00', 75],
] as const;

/** The teachers of each club (indices into the seeded teachers, as seed/clubs.ts orders them) and their styles. */
const CLUB_TEACHERS: readonly (readonly [number, readonly string[]])[][] = [
  [
    [0, ['hatha', 'yin']],
    [1, ['ashtanga', 'vinyasa']],
    [8, ['prenatal', 'hatha']],
  ],
  [
    [2, ['aerial', 'pilates']],
    [3, ['vinyasa', 'power']],
  ],
  [
    [4, ['yin', 'restorative', 'meditation']],
    [5, ['pilates', 'hatha']],
  ],
  [
    [6, ['ashtanga', 'hatha']],
    [7, ['power', 'vinyasa']],
  ],
];

const STYLE_TEXT: Record<string, [string, string, string]> = {
  hatha: ['哈他瑜伽', 'Hatha', 'flexibility'],
  vinyasa: ['流瑜伽', 'Vinyasa flow', 'strength'],
  yin: ['阴瑜伽', 'Yin yoga', 'relaxation'],
  ashtanga: ['阿斯汤加', 'Ashtanga', 'strength'],
  aerial: ['空中瑜伽', 'Aerial yoga', 'balance'],
  pilates: ['普拉提', 'Pilates', 'posture'],
  restorative: ['修复瑜伽', 'Restorative', 'relaxation'],
  power: ['力量瑜伽', 'Power yoga', 'strength'],
  prenatal: ['孕产瑜伽', 'Prenatal yoga', 'relaxation'],
  meditation: ['冥想', 'Meditation', 'relaxation'],
};

const LEVELS: readonly Difficulty[] = ['beginner', 'beginner', 'intermediate', 'intermediate', 'advanced'];

/** A tiny deterministic generator (LCG): the seed is data, not chance. */
export function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface SeededClass {
  id: number;
  clubIndex: number;
  day: number;
  slot: number;
  capacity: number;
  startsAt: Date;
  durationMin: number;
  classType: ClassTypeKey;
  teacherIndex: number;
  style: string;
}

/** Inserts the schedule; returns what the booking seed needs to fill it. */
export async function seedClasses(tx: Tx, clock: Clock, clubIds: readonly number[], teacherIds: readonly number[]): Promise<SeededClass[]> {
  const rnd = generator(20_261_120);
  const now = clock.now();
  const plan: (Omit<SeededClass, 'id'> & { row: typeof classes.$inferInsert })[] = [];
  for (let day = -CLASS_DAYS_BACK; day <= CLASS_DAYS_AHEAD; day++) {
    for (const [clubIndex, clubId] of clubIds.entries()) {
      const staff = CLUB_TEACHERS[clubIndex] ?? CLUB_TEACHERS[0]!;
      SLOTS.forEach(([hhmm, durationMin], slot) => {
        const [teacherIndex, styles] = staff[(day + 30 + slot + clubIndex) % staff.length]!;
        const style = styles[(day + 30 + slot) % styles.length]!;
        const [zh, en, effect] = STYLE_TEXT[style]!;
        const roll = rnd();
        // mostly regular group classes; a small group most days, a private session, a weekly open class,
        // workshop and teacher-training session (trainees book it with a card that covers training)
        let classType: ClassTypeKey = 'regular';
        let capacity = [10, 12, 14][Math.floor(rnd() * 3)]!;
        if (slot === 3 && (day + 30) % 7 === (clubIndex + 4) % 7) [classType, capacity] = ['training', 16];
        else if (slot === 3 && roll < 0.5) [classType, capacity] = ['small-group', 6];
        else if (slot === 2 && roll < 0.2) [classType, capacity] = ['private', 1];
        else if (slot === 1 && (day + 30) % 7 === clubIndex) [classType, capacity] = ['open', 14];
        else if (slot === 5 && (day + 30) % 7 === clubIndex + 2) [classType, capacity] = ['workshop', 12];
        const difficulty =
          style === 'restorative' || style === 'prenatal' || style === 'meditation'
            ? 'beginner'
            : LEVELS[Math.floor(rnd() * LEVELS.length)]!;
        const [h, m] = hhmm.split(':').map(Number) as [number, number];
        const startsAt = new Date(shanghaiMidnight(shanghaiDateAfter(now, day)).getTime() + (h * 60 + m) * 60_000);
        const prefix =
          classType === 'small-group'
            ? ['小班', 'Small group: ']
            : classType === 'private'
              ? ['私教', 'Private: ']
              : classType === 'open'
                ? ['公开课', 'Open class: ']
                : classType === 'workshop'
                  ? ['工作坊', 'Workshop: ']
                  : classType === 'training'
                    ? ['教培', 'Teacher training: ']
                    : ['', ''];
        plan.push({
          clubIndex,
          day,
          slot,
          capacity,
          startsAt,
          durationMin,
          classType,
          teacherIndex,
          style,
          row: {
            clubId,
            room: style === 'aerial' ? '空中瑜伽室' : slot % 2 === 0 ? 'A教室' : 'B教室',
            roomEn: style === 'aerial' ? 'Aerial room' : slot % 2 === 0 ? 'Studio A' : 'Studio B',
            teacherId: teacherIds[teacherIndex] ?? null,
            // the teacher schedule (decision 029): the demo teacher's classes from four days on wait for
            // their confirmation (the /bindPage/teacherConfirm demo); every other class is confirmed
            ...(teacherIndex === 0 && day >= DEMO_TEACHER_WAITS_FROM_DAY
              ? {
                  teacherState: 'waiting' as const,
                  teacherConfirmBy: new Date(startsAt.getTime() - DEFAULT_TEACHER_CONFIRM_HOURS * 3_600_000),
                }
              : { teacherState: 'confirmed' as const }),
            classType,
            style,
            effect,
            difficulty,
            title: prefix[0] ? `${prefix[0]}·${zh}` : zh,
            titleEn: `${prefix[1]}${en}`,
            startsAt,
            durationMin,
            capacity,
            bookedCount: 0,
            queueCapacity: classType === 'private' ? 0 : 10,
            // the price rule of a class: how many uses of a card it costs
            usesCost: classType === 'private' || classType === 'workshop' || classType === 'training' ? 2 : 1,
            createdAt: new Date(now.getTime() - 30 * DAY_MS),
          },
        });
      });
    }
  }
  const ids: number[] = [];
  for (let i = 0; i < plan.length; i += 200) {
    const rows = await tx
      .insert(classes)
      .values(plan.slice(i, i + 200).map((p) => p.row))
      .returning({ id: classes.id });
    ids.push(...rows.map((r) => r.id));
  }
  return plan.map(({ row: _row, ...p }, i) => ({ ...p, id: ids[i]! }));
}
