// The whole schema, one file per area. drizzle-kit reads this file (drizzle.config.ts).
export * from './accounts';
export * from './catalog';
export * from './platform';
export * from './payments-standin';
export * from './booking';
export * from './orders';
export * from './money';
export * from './buying';
export * from './flash-sale';
export * from './photos';
export * from './transfers';
export * from './binding';
export * from './member-services';
export * from './person';
export * from './card-records';
export * from './invoices';
export * from './audit';
