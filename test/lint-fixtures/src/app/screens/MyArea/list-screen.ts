// wrong: folder names are kebab-case too
export const listScreen = 'list';
