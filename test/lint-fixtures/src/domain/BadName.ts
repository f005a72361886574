// wrong: file names are kebab-case
export const badName = 1;
