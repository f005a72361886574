export const screen = 'a screen';
