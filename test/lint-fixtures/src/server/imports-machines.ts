// wrong: the server may run machines/domain charts, not the app's flow machines
import { cardMachine } from '../../machines/domain/ok-card.machine';
import { loginMachine } from '../../machines/ok-login.machine';

export const charts = [cardMachine, loginMachine];
