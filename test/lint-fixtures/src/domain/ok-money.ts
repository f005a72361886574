// allowed: domain imports only domain
import { CENTS } from './ok-units';

export const yuan = (cents: number): number => cents / CENTS;
