import type { Handlers } from '../../http/handler.ts';

export const handlers = {
  getMe: (c) => {
    const { key } = c.get('auth');
    const windows = c.get('deps').keyLimits.windowsWith(key.company.rateLimits);
    return c.json(
      {
        data: {
          object: 'api_key' as const,
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          scopes: key.scopes,
          expires_at: key.expiresAt?.toISOString() ?? null,
          created_at: key.createdAt.toISOString(),
          company: { object: 'company' as const, id: key.company.id, name: key.company.name },
          rate_limits: windows.map((w) => ({ name: w.name, limit: w.limit, window_seconds: w.windowSeconds })),
        },
      },
      200,
    );
  },
} satisfies Partial<Handlers>;
