// wrong: a contract's schema value would pull zod into the client bundle
import { Order } from '../contracts/ok-order';

export const parseOrder = Order.parse;
