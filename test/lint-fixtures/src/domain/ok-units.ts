export const CENTS = 100;
