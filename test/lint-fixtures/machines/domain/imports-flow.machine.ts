// wrong: lifecycle charts are shared with the server, so they never import the app's flow machines
import { loginMachine } from '../ok-login.machine';

export const flow = loginMachine;
