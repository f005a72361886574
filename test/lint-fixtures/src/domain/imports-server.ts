// wrong: src/domain imports nothing of ours
import { secret } from '../server/secret';

export const leaked = secret;
