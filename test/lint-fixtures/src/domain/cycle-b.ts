// wrong: cycle-b -> cycle-a -> cycle-b
import { a } from './cycle-a';

export const b = (): number => (Math.random() > 2 ? a() : 0);
