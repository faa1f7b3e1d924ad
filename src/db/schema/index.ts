export * from './crm.ts';
export * from './events.ts';
export * from './platform.ts';
export * from './sales.ts';
export * from './webhooks.ts';
