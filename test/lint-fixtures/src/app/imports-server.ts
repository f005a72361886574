// wrong: the app reaches the server over HTTP only
import { secret } from '../server/secret';

export const shown = secret;
