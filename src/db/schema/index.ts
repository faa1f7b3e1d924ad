export * from './appointments.ts';
export * from './crm.ts';
export * from './events.ts';
export * from './inbox.ts';
export * from './platform.ts';
export * from './shop.ts';
export * from './tasks.ts';
export * from './webhooks.ts';
