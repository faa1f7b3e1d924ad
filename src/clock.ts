// The present moment for the rules the service computes in code (free appointment slots and reminders, WhatsApp's
// 24-hour window, review-request cooldowns, webhook retry times and signatures): one Clock, the process's in
// Deps.clock, which tests replace to move time. The times PostgreSQL stamps on rows are its own (src/db/change-time.ts).
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
