// allowed: a machine imports domain rules and types from src/api
import type { LoginResult } from '../src/api/client';
import { yuan } from '../src/domain/ok-money';

export const loginMachine = { id: 'login', price: yuan(100), result: null as LoginResult | null };
