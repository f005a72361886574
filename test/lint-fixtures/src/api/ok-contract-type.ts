import type { Order } from '../contracts/ok-order';

export const orderNo = (o: Order) => o.orderNo;
