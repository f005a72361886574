// allowed: contracts build on src/domain
import { yuan } from '../domain/ok-money';

export const Order = { parse: (v: unknown) => v as { orderNo: string; amountCents: number } };
export type Order = ReturnType<typeof Order.parse>;
export const toYuan = yuan;
