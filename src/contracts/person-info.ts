import { z } from '@hono/zod-openapi';
import { TIMES_OF_DAY } from '../domain/catalog';
import { SALUTATION_MAX } from '../domain/limits';

/** Personal information (spec §3, §5; decision 032): what the member stores once and sees masked. */

const TIME_VALUES = TIMES_OF_DAY.map((e) => e.value) as ['morning', 'afternoon', 'evening'];

/** Spec §3: how long a member has practised, in whole years. */
export const YOGA_AGE_MAX = 60;
export { SALUTATION_MAX };

/**
 * PUT /customers/person-info. The real name and ID number arrive as typed (trimmed) and the server
 * says which rule they break (70100-70103), so the form can say it too; the rest is the contract's.
 */
export const PersonInfoBody = z
  .object({
    realName: z
      .string()
      .trim()
      .max(100)
      .openapi({ description: 'required, at most 20 characters, not numeric (70100)', example: '王小明' }),
    idNumber: z.string().trim().max(40).openapi({
      description: 'mainland resident ID: 18 characters (70101), a real birth date (70102), the check character (70103)',
      example: '11010519491231002X',
    }),
    yogaAge: z.number().int().min(0).max(YOGA_AGE_MAX).nullable().openapi({ description: 'years of practice; null: not said', example: 3 }),
    styles: z
      .array(z.string().trim().min(1).max(40))
      .max(20)
      .openapi({ description: 'favourite style keys (GET /index/home/dict/select?type=style)', example: ['hatha'] }),
    practiceTime: z.enum(TIME_VALUES).nullable().openapi({ description: 'when the member likes to practise; null: not said' }),
    salutation: z.string().trim().max(SALUTATION_MAX).openapi({ description: 'how to be addressed', example: '王老师' }),
  })
  .openapi('PersonInfoSave');
export type PersonInfoBody = z.input<typeof PersonInfoBody>;

/** One favourite-style choice. */
export const StyleOption = z.object({ value: z.string(), zh: z.string(), en: z.string() }).openapi('StyleOption');
export type StyleOption = z.infer<typeof StyleOption>;

/** What is stored, as the member sees it afterwards: the name and ID number masked. */
export const PersonInfoView = z
  .object({
    realName: z.string().openapi({ description: 'all but the last character masked', example: '**明' }),
    idNumber: z.string().openapi({ description: 'the first and last four characters', example: '1101**********002X' }),
    yogaAge: z.number().int().nullable(),
    styles: z.array(z.string()),
    practiceTime: z.enum(TIME_VALUES).nullable(),
    salutation: z.string(),
    identityLocked: z
      .boolean()
      .openapi({ description: 'a transfer or refund has used the name and ID number: they change only through staff (70104)' }),
  })
  .openapi('PersonInfo');
export type PersonInfoView = z.infer<typeof PersonInfoView>;

/** GET /customers/person-info/id-number: my own whole ID number (decision 055: shown masked elsewhere). */
export const MyIdNumber = z
  .object({ idNumber: z.string().nullable().openapi({ description: 'null when none stored', example: '11010519491231002X' }) })
  .openapi('MyIdNumber');
export type MyIdNumber = z.infer<typeof MyIdNumber>;

/** GET /customers/person-info: what is stored (null: nothing yet) and the styles to choose from. */
export const PersonInfoPage = z
  .object({
    info: PersonInfoView.nullable(),
    styleOptions: z.array(StyleOption),
    today: z.string().openapi({
      example: '2026-12-04',
      description: 'the Shanghai calendar day: the form refuses a birth date after it, as the save does',
    }),
  })
  .openapi('PersonInfoPage');
export type PersonInfoPage = z.infer<typeof PersonInfoPage>;
