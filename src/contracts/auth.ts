import { z } from '@hono/zod-openapi';

/** Login, SMS codes, tokens and the member's profile (spec §7 /oauth/*, /customers/me). */

/** What POST /oauth/login takes; the login type is checked by the service (10005), not here. */
/** The security check's answer, as Tencent Captcha's widget gives it to the member. */
export const CaptchaAnswer = z
  .object({
    ticket: z.string().min(1).max(2048).openapi({ description: "the widget's ticket" }),
    randstr: z.string().min(1).max(128).openapi({ description: "the widget's random string" }),
  })
  .openapi('CaptchaAnswer');
export type CaptchaAnswer = z.infer<typeof CaptchaAnswer>;

/** What a refusal asking for (10020) or refusing (10021) the security check carries: the widget's app id. */
export const CaptchaNeeded = z
  .object({
    captchaAppId: z.number().int(),
    widget: z.enum(['tencent', 'stand-in']).openapi({ description: "Tencent Captcha's widget, or the stand-in's in demo mode" }),
  })
  .openapi('CaptchaNeeded');
export type CaptchaNeeded = z.infer<typeof CaptchaNeeded>;

export const LoginBody = z
  .object({
    username: z.string().max(64).nullish().openapi({ description: 'phone (trimmed); unused for openid' }),
    password: z.string().max(128).nullish().openapi({ description: 'password or 6-digit code (trimmed)' }),
    loginType: z.string().max(16).openapi({ description: 'password | code | openid' }),
    openid: z.string().max(128).nullish().openapi({ description: 'an open-id ticket (never a raw open id)' }),
    weixinPicture: z.string().max(1000).nullish(),
    nicName: z.string().max(100).nullish(),
    captcha: CaptchaAnswer.nullish().openapi({ description: 'the security check, once a refusal (10020) asked for it' }),
  })
  .openapi('LoginRequest');
export type LoginBody = z.infer<typeof LoginBody>;

/** The member as GET /customers/me (and the login answer's data) describes them. */
export const Profile = z
  .object({
    id: z.number().int(),
    username: z.string(),
    phone: z.string(),
    level: z.string(),
    role: z.string(),
    name: z.string().nullable(),
    wxAvatar: z.string().nullable(),
    wxNickname: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  })
  .openapi('Profile');
export type Profile = z.infer<typeof Profile>;

/** The login answer's data: the profile, under the spec's names too; the token sits beside `data`. */
export const LoginData = Profile.extend({
  weixinPicture: z.string().nullable(),
  nicName: z.string().nullable(),
  wxBound: z.boolean().openapi({ description: 'an open id is bound to this account' }),
  mustChangePassword: z.boolean().openapi({
    description:
      'logged in with an initial password from the front desk: this session may only set a new password (POST /customers/password) and log out; everything else answers 10016',
  }),
}).openapi('LoginData');
export type LoginData = z.infer<typeof LoginData>;

export const CodeQuery = z.object({
  phone: z.string().max(64).optional(),
  ticket: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .openapi({ param: { name: 'ticket', in: 'query' }, description: 'the security check, once 10020 asked for it' }),
  randstr: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({ param: { name: 'randstr', in: 'query' } }),
});

/** A code texted: valid `expiresIn` seconds; the next one can be asked after `resendAfter` seconds. */
export const CodeSent = z
  .object({
    expiresIn: z.number().int(),
    resendAfter: z
      .number()
      .int()
      .openapi({ description: 'seconds before this phone can be texted another code (the app counts them down)' }),
  })
  .openapi('CodeSent');
export type CodeSent = z.infer<typeof CodeSent>;

/** The data of the refusal to text a code within the resend cooldown (10007): the seconds left. */
export const CodeTooSoon = z.object({ retryAfter: z.number().int() }).openapi('CodeTooSoon');
export type CodeTooSoon = z.infer<typeof CodeTooSoon>;

export const TokenVerifyBody = z.object({ token: z.string().max(256) }).openapi('TokenVerifyRequest');
export type TokenVerifyBody = z.infer<typeof TokenVerifyBody>;

/** Whether a token is live; every dead case answers `valid: false, id: null, level: null` alike. */
export const TokenCheck = z
  .discriminatedUnion('valid', [
    z.object({ valid: z.literal(true), id: z.number().int(), level: z.string() }),
    z.object({ valid: z.literal(false), id: z.null(), level: z.null() }),
  ])
  .openapi('TokenCheck');
export type TokenCheck = z.infer<typeof TokenCheck>;
