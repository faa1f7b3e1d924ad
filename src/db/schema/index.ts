export * from './crm.ts';
export * from './events.ts';
export * from './platform.ts';
