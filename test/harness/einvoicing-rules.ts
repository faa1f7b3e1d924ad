// The official e-invoicing validation rules, run with Saxon-HE (Debian libsaxonhe-java): the CEN/TC 434 EN 16931
// rules for UBL and CII and the Peppol BIS Billing 3.0 rules, as XSLT kept in test/fixtures/einvoicing (see its
// README for versions and origin). Each rule set runs once per batch of documents, in the run's one rules server
// (rules-server/RulesServer.java, started by global-setup.ts: each rule set compiled once per run, which cost 2.5 s
// of CPU per batch), or, where it cannot start (a JRE without the JDK's compiler), in a JVM of its own per batch.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { create } from 'xmlbuilder2';

const run = promisify(execFile);

export const SAXON_JAR = '/usr/share/java/Saxon-HE.jar';
export const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'einvoicing');

export const RULES = {
  'en16931-ubl': join(FIXTURES, 'en16931', 'EN16931-UBL-validation.xslt'),
  'en16931-cii': join(FIXTURES, 'en16931', 'EN16931-CII-validation.xslt'),
  'peppol-ubl': join(FIXTURES, 'peppol', 'PEPPOL-EN16931-UBL.xslt'),
} as const;
export type RuleSet = keyof typeof RULES;
/** What a UBL document must pass, and a CII one. */
export const UBL_RULES: RuleSet[] = ['en16931-ubl', 'peppol-ubl'];
export const CII_RULES: RuleSet[] = ['en16931-cii'];

/**
 * A short-lived JVM's settings: compiled by the quick compiler only, one GC thread, the shared class archive. A rule
 * set over 64 documents took 40 % less CPU so (peppol-ubl 9.1 → 5.9 s, en16931-ubl 9.0 → 4.9 s), the reports the
 * same.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xshare:auto'];

/** Why the rules cannot run here, or null when java and Saxon-HE are present. */
export function rulesUnavailable(): string | null {
  if (!existsSync(SAXON_JAR))
    return `${SAXON_JAR} is missing (Debian package libsaxonhe-java): the e-invoicing validation tests skip`;
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    return 'java is missing (Debian package default-jdk-headless): the e-invoicing validation tests skip';
  }
  return null;
}

/** One failed assertion of a rule set's SVRL report. */
export type Failure = { id: string; flag: string; location: string; text: string };
export type Report = { ruleSet: RuleSet; failures: Failure[] };

const SVRL = 'http://purl.oclc.org/dsdl/svrl';

/** The failed assertions of an SVRL report, parsed as XML (their attributes may span several lines). */
export function failuresOf(svrl: string): Failure[] {
  const doc = create(svrl).root().node.ownerDocument;
  if (!doc) throw new Error('SVRL without a document');
  const failures: Failure[] = [];
  const nodes = doc.getElementsByTagNameNS(SVRL, 'failed-assert');
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes.item(i);
    if (!node) continue;
    failures.push({
      id: node.getAttribute('id') ?? '',
      flag: node.getAttribute('flag') ?? '',
      location: node.getAttribute('location') ?? '',
      text: (node.getElementsByTagNameNS(SVRL, 'text').item(0)?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    });
  }
  return failures;
}

export const fatal = (failures: readonly Failure[]) => failures.filter((f) => f.flag === 'fatal');

/**
 * Runs every rule set over every document (name → XML), the rule sets side by side, one Saxon run each; answers
 * per document name its reports. Names must be distinct file names ending in .xml.
 */
export async function validate(
  documents: ReadonlyMap<string, string | Buffer>,
  ruleSets: readonly RuleSet[],
): Promise<Map<string, Report[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'einvoicing-rules-'));
  try {
    const input = join(dir, 'in');
    mkdirSync(input);
    for (const [name, xml] of documents) writeFileSync(join(input, name), xml);
    const server = inject('rulesServerUrl');
    await Promise.all(
      ruleSets.map(async (ruleSet) => {
        const output = join(dir, ruleSet);
        mkdirSync(output);
        if (server) await inServer(server, RULES[ruleSet], input, output);
        else
          await run(
            'java',
            [
              ...JVM_OPTIONS,
              '-cp',
              SAXON_JAR,
              'net.sf.saxon.Transform',
              `-s:${input}`,
              `-o:${output}`,
              `-xsl:${RULES[ruleSet]}`,
            ],
            { maxBuffer: 64 * 1024 * 1024 },
          );
      }),
    );
    const reports = new Map<string, Report[]>();
    for (const name of documents.keys()) {
      reports.set(
        name,
        ruleSets.map((ruleSet) => {
          // Saxon writes each report under its input's name, its extension as .xml (BIS3_Invoice_negativ.XML).
          const file = readdirSync(join(dir, ruleSet)).find((f) => f.toLowerCase() === name.toLowerCase());
          if (!file) throw new Error(`${ruleSet} wrote no report for ${name}`);
          return { ruleSet, failures: failuresOf(readFileSync(join(dir, ruleSet, file), 'utf8')) };
        }),
      );
    }
    return reports;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fatal failures of a document's reports as readable lines (empty when it passes), for assertion messages. */
export const fatalLines = (reports: readonly Report[]): string[] =>
  reports.flatMap((r) => fatal(r.failures).map((f) => `${r.ruleSet} ${f.id} at ${f.location}: ${f.text}`));

/** One rule set over a directory in the rules server; a connection of its own, closed after (no socket left open). */
function inServer(server: string, rules: string, input: string, output: string): Promise<void> {
  const query = new URLSearchParams({ rules, in: input, out: output });
  return new Promise((resolve, reject) => {
    const req = request(`${server}/validate?${query}`, { method: 'POST', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        res.statusCode === 204
          ? resolve()
          : reject(new Error(`rules server: ${res.statusCode} ${Buffer.concat(chunks).toString()}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The rules server of a test run (global-setup.ts), or why it is not there: its JVM runs RulesServer.java with the
 * JDK's source launcher and prints its port; it ends when its stdin closes (this process gone) or on `stop`.
 */
export async function startRulesServer(): Promise<{ url: string; stop: () => void } | { reason: string }> {
  const unavailable = rulesUnavailable();
  if (unavailable) return { reason: unavailable };
  const source = join(import.meta.dirname, 'rules-server', 'RulesServer.java');
  const child = spawn('java', [...JVM_OPTIONS, '-cp', SAXON_JAR, source], { stdio: ['pipe', 'pipe', 'ignore'] });
  const port = await new Promise<string | null>((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => resolve(null));
    child.once('error', () => resolve(null));
  });
  if (!port || !/^\d+$/.test(port)) {
    child.kill();
    return { reason: 'the rules server did not start (a JRE without the JDK compiler?): a JVM per batch instead' };
  }
  child.stdout.removeAllListeners('data');
  child.unref();
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}
