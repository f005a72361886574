// wrong: the shared contracts import neither side
import { secret } from '../server/secret';

export const leaked = secret;
