// allowed: a lifecycle chart uses src/domain
import { CENTS } from '../../src/domain/ok-units';

export const cardMachine = { id: 'card', unit: CENTS };
