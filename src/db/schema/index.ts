export * from './crm.ts';
export * from './events.ts';
export * from './platform.ts';
export * from './shop.ts';
export * from './webhooks.ts';
