export * from './crm.ts';
export * from './events.ts';
export * from './files.ts';
export * from './platform.ts';
export * from './quote-attachments.ts';
export * from './sales.ts';
export * from './webhooks.ts';
