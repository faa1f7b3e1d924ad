// A fresh database per test file, cloned from the run's template (see global-setup.ts): it has every migration
// already, so nothing runs them again (that took 0.2–1 s of round trips per file).
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

export const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('templateDatabase');
  const parentPid = template.split('_').at(-1);
  const name = `crm_test_${parentPid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    // Two files cloning the template at the same moment can collide; retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`create database ${name} template ${template}`);
        break;
      } catch (error) {
        if (attempt > 20 || !String(error).includes('being accessed by other users')) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
