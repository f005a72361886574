/**
 * Everything a production start needs (no APP_MODE): the chain's database and address, SMS, the
 * messaging app's login, the security check and the data key. Test values, never real credentials.
 */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  DATABASE_URL: 'postgres://u@h/db',
  PUBLIC_URL: 'https://club.example',
  TENCENT_SMS_SECRET_ID: 'id',
  TENCENT_SMS_SECRET_KEY: 'key',
  TENCENT_SMS_SDK_APP_ID: '1400000000',
  TENCENT_SMS_SIGN_NAME: 'YogaClub',
  TENCENT_SMS_TEMPLATE_ID: '1',
  WECHAT_APP_ID: 'wx1',
  WECHAT_APP_SECRET: 's',
  TENCENT_CAPTCHA_SECRET_ID: 'cid',
  TENCENT_CAPTCHA_SECRET_KEY: 'ckey',
  TENCENT_CAPTCHA_APP_ID: '190000002',
  TENCENT_CAPTCHA_APP_SECRET_KEY: 'csecret',
  DATA_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
};
