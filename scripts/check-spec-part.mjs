// Bundles and lints the contract with only the paths whose files exist yet.
// For writing the contract in parts: `node scripts/check-spec-part.mjs`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

const root = parse(readFileSync('openapi/openapi.yaml', 'utf8'));
const exists = (ref) => existsSync(`openapi/${ref.split('#')[0]}`);
for (const [path, item] of Object.entries(root.paths)) if (!exists(item.$ref)) delete root.paths[path];
for (const [name, item] of Object.entries(root.webhooks ?? {})) if (!exists(item.$ref)) delete root.webhooks[name];
const usedTags = new Set();
const tmp = 'openapi/.partial.yaml';
writeFileSync(tmp, stringify(root));
try {
  execFileSync('npx', ['redocly', 'lint', tmp, '--format=codeframe'], { stdio: 'inherit' });
} catch {
  process.exitCode = 1;
} finally {
  rmSync(tmp);
}
void usedTags;
