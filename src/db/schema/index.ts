export * from './appointments.ts';
export * from './crm.ts';
export * from './events.ts';
export * from './platform.ts';
export * from './webhooks.ts';
