// wrong: a machine's API calls are provided actors, never imported values
import { login } from '../src/api/client';

export const eager = login;
