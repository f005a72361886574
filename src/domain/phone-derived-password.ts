/** How many of the phone's last digits the old default passwords ended with, at the fewest (decision 045). */
export const PHONE_DIGITS_MIN = 4;

/**
 * Whether a password may be one of the old phone-derived defaults (decision 045: any letters or
 * digits, then the phone's last 4 to 11 digits), so a login with it is refused as expired and a new
 * password may not be one (decision 054). Every such default is letters and digits ending in the
 * phone's last 4 digits; that is the test, so no prefix or digit count a club ever configured escapes.
 */
export function isPhoneDerivedPassword(phone: string, password: string): boolean {
  const digits = phone.trim();
  const pw = password.trim();
  if (digits.length < PHONE_DIGITS_MIN || !/^[A-Za-z0-9]+$/.test(pw)) return false;
  return pw.endsWith(digits.slice(-PHONE_DIGITS_MIN));
}
