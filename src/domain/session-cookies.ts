/** The session cookies of DESIGN.md §5 (spec §3: 300 days), set by the server and readable by the app. */
export const SESSION_COOKIE_NAMES = ['token', 'openId', 'username', 'userLevel', 'wxAvatar', 'wxNicName', 'customerId'] as const;

export type SessionCookieName = (typeof SESSION_COOKIE_NAMES)[number];
