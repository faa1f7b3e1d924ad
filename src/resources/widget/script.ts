// GET /widget.js: the embeddable chat widget (widget-client.js), read once at start. Loaded by a script tag on
// the company's own website, so it may be fetched from any origin and is cached briefly by browsers.
import { readFileSync } from 'node:fs';
import type { Context } from 'hono';

const SCRIPT = readFileSync(new URL('./widget-client.js', import.meta.url), 'utf8');

export function serveWidgetScript(c: Context) {
  return c.body(SCRIPT, 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
    // A page that isolates itself (Cross-Origin-Embedder-Policy) may still load it.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
}
