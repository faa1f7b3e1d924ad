// The reader behind test/platform/distributable-queries.test.ts: it finds the SQL of a TypeScript file (with the
// TypeScript parser) and checks that every query block keeps its tenant relations inside one company.
//
// The rule. In each query block — a SELECT's FROM list with its joins, an UPDATE's target with its FROM list, a
// DELETE's target with its USING list — the tenant relations must all be tied to one company. Tenant relations
// are the tenant tables (every table with company_id), `companies` (its company is its id), and the CTEs and
// subqueries whose own query reads a tenant relation. Two relations are tied when a top-level AND conjunct of an
// ON condition or of the WHERE equates their company columns (`a.company_id = b.company_id`, `using
// (company_id, …)`), or when both are pinned to the same value (`a.company_id = ${companyId}` and
// `b.company_id = ${companyId}`, the same interpolated expression). A CTE or subquery is pinned when its own
// query is. A subquery in the WHERE, an ON or the select list that refers to a relation of the block around it
// (a correlated subquery, and a LATERAL one) must tie its tenant relations to that relation as well. An OR
// never ties. Under Citus such a block is one co-located join, or a router query on the company's node.
//
// What it cannot read fails rather than passes: a join in a fragment that is not inlined, an interpolation in a
// FROM list (a join from another file), a natural join or a parenthesized join between tenant relations, and an
// interpolated relation in a block of several.
import ts from 'typescript';

export type Tenancy = {
  /** SQL names of the tenant tables (with company_id). */
  names: Set<string>;
  /**
   * Every drizzle table by the name src/ imports it as (`${events}`), with its SQL name and its columns by
   * property (`${events.companyId}` is `events.company_id`).
   */
  tables: Map<string, { name: string; columns: Map<string, string> }>;
};

export type Finding = { file: string; line: number; problem: string; statement: string };

export type FileReport = {
  /** Blocks with two or more tenant relations: what the rule is about. */
  checked: { file: string; line: number; relations: string[] }[];
  violations: Finding[];
  /** SQL the reader could not follow: the test fails on these too. */
  unreadable: Finding[];
  /** drizzle query-builder joins (innerJoin, leftJoin, …) of tenant tables, and whether they match companyId. */
  builderJoins: { file: string; line: number; join: string; scoped: boolean }[];
};

// ---------------------------------------------------------------------------------------------------------------
// Tokens

type Tok = { kind: 'word' | 'param' | 'str' | 'num' | 'op'; v: string; line: number };
type Group = { kind: 'group'; items: Item[]; line: number };
type Item = Tok | Group;

const isGroup = (n: Item | undefined): n is Group => n?.kind === 'group';
const isWord = (n: Item | undefined, ...words: string[]): n is Tok =>
  n?.kind === 'word' && (words.length === 0 || words.includes(n.v));
const isOp = (n: Item | undefined, op: string): boolean => n?.kind === 'op' && n.v === op;

/** A piece of SQL text and what follows it: an interpolation (param or tokens of an inlined fragment). */
type Piece = { text: string; line: number } | { tokens: Tok[] };

/** Token patterns in order; a null kind is skipped (space, comments). */
const TOKENS: [RegExp, Tok['kind'] | null][] = [
  [/^\s+/, null],
  [/^--[^\n]*/, null],
  [/^\/\*[\s\S]*?\*\//, null],
  [/^[eE]?'(?:[^']|'')*'/, 'str'],
  [/^"(?:[^"]|"")*"/, 'word'],
  [/^\$\d+/, 'param'],
  [/^[A-Za-z_][A-Za-z0-9_$]*/, 'word'],
  [/^\d+(\.\d+)?/, 'num'],
  [/^(::|<=|>=|<>|!=|\|\||->>|->|#>>|@>|<@|&&)/, 'op'],
  [/^[\s\S]/, 'op'],
];

function tokenize(pieces: Piece[]): Tok[] {
  const out: Tok[] = [];
  for (const piece of pieces) {
    if ('tokens' in piece) {
      out.push(...piece.tokens);
      continue;
    }
    let line = piece.line;
    let rest = piece.text;
    while (rest.length > 0) {
      for (const [pattern, kind] of TOKENS) {
        const match = pattern.exec(rest)?.[0];
        if (match === undefined) continue;
        if (kind === 'word') {
          const quoted = match.startsWith('"');
          out.push({ kind, v: quoted ? match.slice(1, -1).replace(/""/g, '"') : match.toLowerCase(), line });
        } else if (kind) out.push({ kind, v: match, line });
        line += match.split('\n').length - 1;
        rest = rest.slice(match.length);
        break;
      }
    }
  }
  return out;
}

/** Parentheses into a tree. */
function nest(tokens: Tok[]): Item[] {
  const root: Item[] = [];
  const stack: Item[][] = [root];
  for (const t of tokens) {
    const top = stack[stack.length - 1] ?? root;
    if (isOp(t, '(')) {
      const group: Group = { kind: 'group', items: [], line: t.line };
      top.push(group);
      stack.push(group.items);
    } else if (isOp(t, ')') && stack.length > 1) stack.pop();
    else top.push(t);
  }
  return root;
}

const text = (items: Item[]): string =>
  items
    .map((n) => (isGroup(n) ? `(${text(n.items)})` : n.v))
    .join(' ')
    .replace(/ ?([.,:]) ?/g, '$1')
    .replace(/\( /g, '(');

const lineOf = (items: Item[]): number => {
  const first = items[0];
  return first === undefined ? 0 : first.line;
};

/** Split at top-level words (e.g. `and`, or the commas of a list). */
function splitAt(items: Item[], at: (n: Item, i: number) => boolean): Item[][] {
  const parts: Item[][] = [[]];
  items.forEach((n, i) => {
    if (at(n, i)) parts.push([]);
    else parts[parts.length - 1]?.push(n);
  });
  return parts;
}

const startsQuery = (items: Item[]): boolean => isWord(items[0], 'select', 'with', 'values');

// ---------------------------------------------------------------------------------------------------------------
// Blocks

/** What a query gives the block that uses it as a relation. */
type Output = { tenant: boolean; pins: Set<string> };

type Rel = {
  alias: string;
  label: string;
  tenant: boolean;
  /** The column that names the row's company. */
  key: string;
  pins: Set<string>;
  /** For a relation of an enclosing block: its company class there. */
  outerClass?: string;
  classPins?: Set<string>;
  classId?: string;
};

type Env = { ctes: Map<string, Output>; outer: Rel[] };

/** The clauses that may follow a WHERE in a SELECT, in order. */
const AFTER_WHERE = ['group', 'having', 'window', 'order', 'limit', 'offset', 'fetch', 'for'];

const CLAUSE = new Set(['where', ...AFTER_WHERE, 'union', 'intersect', 'except', 'returning', 'on', 'set']);
const JOIN_WORDS = new Set(['join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'outer']);
const NOT_ALIAS = new Set([...CLAUSE, ...JOIN_WORDS, 'using', 'lateral', 'tablesample', 'as', 'with']);

class Reader {
  readonly report: Omit<FileReport, 'builderJoins'> = { checked: [], violations: [], unreadable: [] };
  private readonly seen = new WeakSet<Group>();

  constructor(
    private readonly file: string,
    private readonly tenancy: Tenancy,
    private readonly statement: string,
  ) {}

  private finding(kind: 'violations' | 'unreadable', line: number, problem: string) {
    this.report[kind].push({ file: this.file, line, problem, statement: this.statement });
  }

  /** A statement, or a fragment (whose subqueries are still read). */
  top(items: Item[]) {
    if (startsQuery(items) || isWord(items[0], 'insert', 'update', 'delete')) this.query(items, emptyEnv());
    else {
      const joins = items.filter((n) => isWord(n, 'join'));
      if (joins.length > 0) this.finding('unreadable', lineOf(joins), 'a join in a fragment that is not inlined');
      // A fragment's subqueries may name the tables of the drizzle query around it (`${deals.id}`): relations
      // of an enclosing block, whose company the reader cannot see, so a subquery must tie itself to them.
      const outer = [...referencedAliases(items, new Set([...this.tenancy.names, 'companies']))].map((name) =>
        this.relationOf(name, emptyEnv()),
      );
      this.subqueries(items, { ctes: new Map(), outer });
    }
  }

  query(items: Item[], env: Env): Output {
    let rest = items;
    let ctes = env.ctes;
    if (isWord(rest[0], 'with')) {
      ctes = new Map(ctes);
      let i = isWord(rest[1], 'recursive') ? 2 : 1;
      for (;;) {
        const name = rest[i];
        if (!isWord(name)) break;
        i++;
        if (isGroup(rest[i]) && !isWord(rest[i + 1], 'select')) {
          if (isWord(rest[i + 1], 'as')) i++; // column list
        }
        if (isWord(rest[i], 'as')) i++;
        if (isWord(rest[i], 'not')) i++;
        if (isWord(rest[i], 'materialized')) i++;
        const body = rest[i];
        if (!isGroup(body)) break;
        this.seen.add(body);
        ctes.set(name.v, this.query(body.items, { ctes, outer: env.outer }));
        i++;
        if (isOp(rest[i], ',')) i++;
        else break;
      }
      rest = rest.slice(i);
    }
    const branches = splitAt(rest, (n) => isWord(n, 'union', 'intersect', 'except'));
    const outputs = branches.map((b) => {
      const branch = isWord(b[0], 'all', 'distinct') ? b.slice(1) : b;
      const only = branch[0];
      if (branch.length === 1 && isGroup(only)) {
        this.seen.add(only);
        return this.query(only.items, { ctes, outer: env.outer });
      }
      return this.simple(branch, { ctes, outer: env.outer });
    });
    const tenant = outputs.filter((o) => o.tenant);
    return { tenant: tenant.length > 0, pins: intersect(tenant.map((o) => o.pins)) };
  }

  /** One SELECT, INSERT, UPDATE, DELETE or VALUES without set operations. */
  private simple(items: Item[], env: Env): Output {
    const head = items[0];
    if (isWord(head, 'select')) {
      const from = items.findIndex((n) => isWord(n, 'from'));
      if (from < 0) return this.block(items, [], [], env);
      const end = nextClause(items, from + 1, ['where', ...AFTER_WHERE]);
      return this.block(items, items.slice(from + 1, end), [], env);
    }
    if (isWord(head, 'update')) {
      const set = items.findIndex((n) => isWord(n, 'set'));
      const target = items.slice(isWord(items[1], 'only') ? 2 : 1, set < 0 ? items.length : set);
      const from = items.findIndex((n) => isWord(n, 'from'));
      const list = from < 0 ? [] : items.slice(from + 1, nextClause(items, from + 1, ['where', 'returning']));
      return this.block(items, list, target, env);
    }
    if (isWord(head, 'delete')) {
      const using = items.findIndex((n) => isWord(n, 'using'));
      const targetEnd = nextClause(items, 2, ['using', 'where', 'returning']);
      const target = items.slice(isWord(items[2], 'only') ? 3 : 2, targetEnd);
      const list = using < 0 ? [] : items.slice(using + 1, nextClause(items, using + 1, ['where', 'returning']));
      return this.block(items, list, target, env);
    }
    if (isWord(head, 'insert')) return this.insert(items, env);
    // VALUES, or something else: no relations of its own.
    this.subqueries(items, env);
    return { tenant: false, pins: new Set() };
  }

  /** INSERT INTO t [(cols)] <query> [ON CONFLICT …] [RETURNING …]: its rows are of t, pinned by what it inserts. */
  private insert(items: Item[], env: Env): Output {
    const name = items[2];
    const table = isWord(name) ? this.relationOf(name.v, env) : undefined;
    let i = 3;
    if (isWord(items[i], 'as')) i += 2;
    const columns = isGroup(items[i]) && !startsQuery((items[i] as Group).items) ? (items[i] as Group) : undefined;
    if (columns) i++;
    let end = items.length;
    for (let j = i; j < items.length; j++)
      if ((isWord(items[j], 'on') && isWord(items[j + 1], 'conflict')) || isWord(items[j], 'returning')) {
        end = j;
        break;
      }
    const body = items.slice(i, end);
    const inner = body.length === 1 && isGroup(body[0]) ? body[0].items : body;
    const output = this.query(inner, env);
    this.subqueries(items.slice(end), env);
    if (!table?.tenant) return { tenant: false, pins: new Set() };
    // The value inserted as company_id, when it is one for every row.
    const pins = new Set(output.pins);
    const position = columns
      ? splitAt(columns.items, (n) => isOp(n, ',')).findIndex((c) => isWord(c[0], 'company_id'))
      : -1;
    if (position >= 0) {
      let values: Item[] | undefined;
      if (isWord(inner[0], 'select')) {
        const from = inner.findIndex((n) => isWord(n, 'from'));
        values = splitAt(inner.slice(isWord(inner[1], 'distinct') ? 2 : 1, from < 0 ? inner.length : from), (n) =>
          isOp(n, ','),
        )[position];
      } else if (isWord(inner[0], 'values') && isGroup(inner[1]) && inner.length === 2)
        values = splitAt(inner[1].items, (n) => isOp(n, ','))[position];
      const pin = values && constantOf(values);
      if (pin) pins.add(pin);
    }
    return { tenant: true, pins };
  }

  private relationOf(name: string, env: Env, alias = name): Rel {
    const cte = env.ctes.get(name);
    if (cte) return { alias, label: name, tenant: cte.tenant, key: 'company_id', pins: new Set(cte.pins) };
    if (name === 'companies') return { alias, label: name, tenant: true, key: 'id', pins: new Set() };
    return { alias, label: name, tenant: this.tenancy.names.has(name), key: 'company_id', pins: new Set() };
  }

  /**
   * A block: its relations (an UPDATE's or DELETE's target, then the FROM list with its joins), the conjuncts of
   * its ONs and WHERE, and the check that its tenant relations are tied to one company.
   */
  private block(items: Item[], list: Item[], target: Item[], env: Env): Output {
    const rels: Rel[] = [];
    const conjuncts: Item[][] = [];
    const usingCompany: [Rel, Rel][] = [];
    /** The ON conditions, whose subqueries are read with the block's company classes known. */
    const conditions: Item[] = [];
    if (target.length > 0) {
      const rel = this.item(target, env, rels);
      if (rel) rels.push(rel);
    }
    // The FROM list: items separated by commas or joins; a join's ON or USING follows its item.
    let i = 0;
    while (i < list.length) {
      const start = i;
      while (
        i < list.length &&
        !isOp(list[i], ',') &&
        !isWord(list[i], ...JOIN_WORDS) &&
        !isWord(list[i], 'on', 'using')
      )
        i++;
      const natural = start > 0 && list.slice(Math.max(0, start - 4), start).some((n) => isWord(n, 'natural'));
      const rel = this.item(list.slice(start, i), env, rels);
      if (rel) {
        if (natural && rel.tenant)
          this.finding('unreadable', lineOf(list.slice(start)), 'a natural join of a tenant relation');
        rels.push(rel);
      }
      if (isWord(list[i], 'on')) {
        const end = nextJoin(list, i + 1);
        conjuncts.push(...conjunctsOf(list.slice(i + 1, end)));
        conditions.push(...list.slice(i + 1, end));
        i = end;
      } else if (isWord(list[i], 'using')) {
        const columns = list[i + 1];
        const left = [...rels]
          .slice(0, -1)
          .reverse()
          .find((r) => r.tenant);
        if (rel && left && isGroup(columns) && columns.items.some((n) => isWord(n, 'company_id')))
          usingCompany.push([left, rel]);
        i += 2;
      }
      while (i < list.length && (isOp(list[i], ',') || isWord(list[i], ...JOIN_WORDS))) i++;
    }
    const where = items.findIndex((n) => isWord(n, 'where'));
    const whereItems =
      where < 0 ? [] : items.slice(where + 1, nextClause(items, where + 1, [...AFTER_WHERE, 'returning']));
    conjuncts.push(...conjunctsOf(whereItems));

    // Company classes: union by equal company columns and by a shared pinned value.
    const parent = new Map<Rel, Rel>();
    const find = (r: Rel): Rel => {
      const p = parent.get(r);
      if (!p || p === r) return r;
      const root = find(p);
      parent.set(r, root);
      return root;
    };
    const union = (a: Rel, b: Rel) => parent.set(find(a), find(b));
    const outers = new Map<string, Rel>();
    const resolve = (ref: ColumnRef): Rel | undefined => {
      const local = ref.alias
        ? rels.find((r) => r.alias === ref.alias)
        : rels.length === 1
          ? rels[0]
          : onlyOne(rels.filter((r) => r.tenant && r.key === ref.column && !env.ctes.has(r.label)));
      if (local) return local.key === ref.column ? local : undefined;
      const outer = ref.alias ? env.outer.find((r) => r.alias === ref.alias) : undefined;
      if (!outer || outer.key !== ref.column) return undefined;
      return this.outerMember(outer, outers);
    };
    for (const [a, b] of usingCompany) union(a, b);
    for (const conjunct of conjuncts) {
      const eq = equality(conjunct);
      if (!eq) continue;
      const [left, right] = eq;
      const a = columnRef(left);
      const b = columnRef(right);
      const ra = a && resolve(a);
      const rb = b && resolve(b);
      if (ra && rb) union(ra, rb);
      else if (ra && !b) addPin(ra, constantOf(right));
      else if (rb && !a) addPin(rb, constantOf(left));
    }
    // A subquery in the select list, WHERE, SET or RETURNING that names a relation of this block joins it.
    const referenced = referencedAliases(items, new Set(env.outer.map((r) => r.alias)));
    for (const r of env.outer)
      if (referenced.has(r.alias) && r.tenant && !rels.some((l) => l.alias === r.alias)) this.outerMember(r, outers);
    const members = [...rels, ...outers.values()];
    for (const m of members) if (!parent.has(m)) parent.set(m, m);
    const byPin = new Map<string, Rel>();
    for (const m of members)
      for (const pin of m.pins) {
        const other = byPin.get(pin);
        if (other) union(m, other);
        else byPin.set(pin, m);
      }
    const classes = new Map<Rel, Rel[]>();
    for (const m of members.filter((r) => r.tenant)) classes.set(find(m), [...(classes.get(find(m)) ?? []), m]);
    const tenantRels = members.filter((r) => r.tenant);
    if (tenantRels.length >= 2)
      this.report.checked.push({ file: this.file, line: lineOf(items), relations: tenantRels.map(describe) });
    if (classes.size > 1)
      this.finding(
        'violations',
        lineOf(list.length > 0 ? list : items),
        `tenant relations not tied to one company: ${[...classes.values()].map((c) => c.map(describe).join(' = ')).join(' | ')}`,
      );
    const unknown = rels.filter((r) => r.label === '?');
    if (unknown.length > 0 && rels.length > 1)
      this.finding('unreadable', lineOf(list), 'an interpolated relation joined with others');

    // The class of each relation, for the subqueries of this block.
    const classPins = new Map<Rel, Set<string>>();
    for (const [root, ms] of classes) classPins.set(root, new Set(ms.flatMap((m) => [...m.pins])));
    for (const r of rels) {
      const root = find(r);
      r.classId = root.outerClass ?? `${this.file}:${lineOf(items)}:${rels.indexOf(root)}:${root.alias}`;
      r.classPins = classPins.get(find(r)) ?? r.pins;
    }
    this.subqueries([...items.filter((n) => !list.includes(n) && !target.includes(n)), ...conditions], {
      ctes: env.ctes,
      outer: [...rels, ...env.outer],
    });
    const only = [...classes.values()];
    return only.length === 1
      ? { tenant: true, pins: classPins.get(find(only[0]?.[0] as Rel)) ?? new Set() }
      : { tenant: only.length > 0, pins: new Set() };
  }

  /** A relation of an enclosing block, as one member per company class of that block. */
  private outerMember(outer: Rel, outers: Map<string, Rel>): Rel {
    const id = outer.classId ?? outer.alias;
    let member = outers.get(id);
    if (!member) {
      member = {
        alias: outer.alias,
        label: `outer ${outer.label}`,
        tenant: outer.tenant,
        key: outer.key,
        pins: new Set(outer.classPins ?? outer.pins),
        outerClass: id,
      };
      outers.set(id, member);
    }
    return member;
  }

  /** One item of a FROM list: a table or CTE, a subquery, a function; with its alias. */
  private item(items: Item[], env: Env, left: Rel[]): Rel | undefined {
    let i = 0;
    const lateral = isWord(items[0], 'lateral');
    if (lateral) i++;
    if (isWord(items[i], 'only')) i++;
    const first = items[i];
    let rel: Rel;
    if (first !== undefined && first.kind === 'param') {
      rel = { alias: '', label: '?', tenant: false, key: 'company_id', pins: new Set() };
      i++;
    } else if (isGroup(first)) {
      this.seen.add(first);
      if (!startsQuery(first.items)) {
        this.finding('unreadable', first.line, 'a parenthesized join');
        return undefined;
      }
      const output = this.query(first.items, { ctes: env.ctes, outer: lateral ? [...left, ...env.outer] : env.outer });
      rel = { alias: '', label: 'subquery', tenant: output.tenant, key: 'company_id', pins: new Set(output.pins) };
      i++;
    } else if (isWord(first) && isGroup(items[i + 1])) {
      // A function in FROM (json_to_recordset, unnest, generate_series): rows of its arguments.
      this.subqueries([items[i + 1] as Item], { ctes: env.ctes, outer: [...left, ...env.outer] });
      rel = { alias: first.v, label: `${first.v}()`, tenant: false, key: 'company_id', pins: new Set() };
      i += 2;
      if (isWord(items[i], 'with') && isWord(items[i + 1], 'ordinality')) i += 2;
    } else if (isWord(first)) {
      let name = first.v;
      i++;
      if (isOp(items[i], '.') && isWord(items[i + 1])) {
        const qualified = items[i + 1] as Tok;
        i += 2;
        if (name !== 'public') {
          rel = {
            alias: qualified.v,
            label: `${name}.${qualified.v}`,
            tenant: false,
            key: 'company_id',
            pins: new Set(),
          };
          return withAlias(rel, items, i, (line, problem) => this.finding('unreadable', line, problem));
        }
        name = qualified.v;
      }
      rel = this.relationOf(name, env);
    } else return undefined;
    return withAlias(rel, items, i, (line, problem) => this.finding('unreadable', line, problem));
  }

  /** The subqueries inside these items (not FROM items, which are read with their block). */
  subqueries(items: Item[], env: Env) {
    for (const n of items) {
      if (!isGroup(n) || this.seen.has(n)) continue;
      this.seen.add(n);
      if (startsQuery(n.items)) this.query(n.items, env);
      else this.subqueries(n.items, env);
    }
  }
}

/** The relation with its alias; what follows the alias (a column list) must not be an interpolation. */
function withAlias(rel: Rel, items: Item[], from: number, unreadable: (line: number, problem: string) => void): Rel {
  let i = from;
  if (isWord(items[i], 'as')) i++;
  const alias = items[i];
  const named = isWord(alias) && !NOT_ALIAS.has(alias.v) ? { ...rel, alias: alias.v } : rel;
  const rest = items.slice(named === rel ? i : i + 1);
  const hidden = rest.find((n): n is Tok => n.kind === 'param');
  if (hidden) unreadable(hidden.line, `an interpolation in a FROM list (${hidden.v})`);
  return named;
}

const emptyEnv = (): Env => ({ ctes: new Map(), outer: [] });
const describe = (r: Rel) => (r.alias && r.alias !== r.label ? `${r.label} ${r.alias}` : r.label);
const onlyOne = <T>(xs: T[]): T | undefined => (xs.length === 1 ? xs[0] : undefined);
const addPin = (r: Rel, pin: string | undefined) => {
  if (pin) r.pins.add(pin);
};

function intersect(sets: Set<string>[]): Set<string> {
  const [first, ...rest] = sets;
  if (!first) return new Set();
  return new Set([...first].filter((v) => rest.every((s) => s.has(v))));
}

function nextClause(items: Item[], from: number, words: string[]): number {
  for (let i = from; i < items.length; i++) if (isWord(items[i], ...words)) return i;
  return items.length;
}

/** The end of a join's ON condition: the next join, comma or clause of the FROM list. */
function nextJoin(items: Item[], from: number): number {
  for (let i = from; i < items.length; i++) {
    const n = items[i];
    if (isOp(n, ',') || isWord(n, 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural')) return i;
  }
  return items.length;
}

/** Top-level AND conjuncts (an AND of BETWEEN stays in its conjunct). */
function conjunctsOf(items: Item[]): Item[][] {
  const parts: Item[][] = [[]];
  let between = false;
  for (const n of items) {
    if (isWord(n, 'between')) between = true;
    if (isWord(n, 'and') && !between) parts.push([]);
    else {
      if (isWord(n, 'and')) between = false;
      parts[parts.length - 1]?.push(n);
    }
  }
  // A conjunct that is one parenthesized condition: its own conjuncts.
  return parts.flatMap((p) =>
    p.length === 1 && isGroup(p[0]) && !startsQuery(p[0].items) ? conjunctsOf(p[0].items) : [p],
  );
}

function equality(conjunct: Item[]): [Item[], Item[]] | undefined {
  const at = conjunct.findIndex((n) => isOp(n, '='));
  if (at < 0 || conjunct.some((n) => isWord(n, 'or'))) return undefined;
  return [conjunct.slice(0, at), conjunct.slice(at + 1)];
}

type ColumnRef = { alias?: string; column: string };

function columnRef(items: Item[]): ColumnRef | undefined {
  const [a, dot, b] = items;
  if (items.length === 3 && isWord(a) && isOp(dot, '.') && isWord(b)) return { alias: a.v, column: b.v };
  if (items.length === 1 && isWord(a) && !['null', 'true', 'false', 'current_date'].includes(a.v))
    return { column: a.v };
  return undefined;
}

/** A value the same for every row: a parameter, a literal, a function call without columns; cast or not. */
function constantOf(items: Item[]): string | undefined {
  if (items.length === 0 || isWord(items[0], 'any', 'all', 'some')) return undefined;
  for (let i = 0; i < items.length; i++) {
    const n = items[i];
    if (isGroup(n)) {
      if (startsQuery(n.items)) return undefined;
      continue;
    }
    if (n?.kind !== 'word') continue;
    const isType = isOp(items[i - 1], '::');
    const isCall = isGroup(items[i + 1]);
    if (!isType && !isCall) return undefined;
  }
  // The same value however it is cast.
  return text(items.filter((n, i) => !isOp(n, '::') && !isOp(items[i - 1], '::')));
}

/** Aliases of enclosing blocks named (`alias.column`) anywhere in these items. */
function referencedAliases(items: Item[], outer: Set<string>, found = new Set<string>()): Set<string> {
  items.forEach((n, i) => {
    if (isGroup(n)) referencedAliases(n.items, outer, found);
    else if (isWord(n) && isOp(items[i + 1], '.') && outer.has(n.v)) found.add(n.v);
  });
  return found;
}

// ---------------------------------------------------------------------------------------------------------------
// TypeScript: the SQL templates of a file, fragments inlined

const SQL_TAG = /(^|\.)(sql|tx|db|tenantSql|reserved|client)$/;
const BUILDER_JOIN = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin']);

/** Check one TypeScript source. */
export function readFile(file: string, source: string, tenancy: Tenancy): FileReport {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const report: FileReport = { checked: [], violations: [], unreadable: [], builderJoins: [] };
  const lineAt = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

  // Fragments: a function or constant of this file whose value is one SQL template.
  const fragments = new Map<string, ts.TaggedTemplateExpression>();
  const visitDecls = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) {
      const returns: ts.TaggedTemplateExpression[] = [];
      const walk = (n: ts.Node) => {
        if (ts.isReturnStatement(n) && n.expression && ts.isTaggedTemplateExpression(n.expression))
          returns.push(n.expression);
        else if (!ts.isFunctionLike(n)) ts.forEachChild(n, walk);
      };
      ts.forEachChild(node.body, walk);
      if (returns.length === 1 && returns[0]) fragments.set(node.name.text, returns[0]);
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = ts.isArrowFunction(node.initializer) ? node.initializer.body : node.initializer;
      if (ts.isTaggedTemplateExpression(init)) fragments.set(node.name.text, init);
    }
    ts.forEachChild(node, visitDecls);
  };
  visitDecls(sf);

  const inlined = new Set<ts.Node>();
  const piecesOf = (template: ts.TemplateLiteral, depth: number): Piece[] => {
    if (ts.isNoSubstitutionTemplateLiteral(template))
      return [{ text: template.text, line: lineAt(template.getStart() + 1) }];
    const pieces: Piece[] = [{ text: template.head.text, line: lineAt(template.head.getStart() + 1) }];
    for (const span of template.templateSpans) {
      pieces.push({ tokens: interpolation(span.expression, depth) });
      pieces.push({ text: span.literal.text, line: lineAt(span.literal.getStart() + 1) });
    }
    return pieces;
  };
  const interpolation = (expr: ts.Expression, depth: number): Tok[] => {
    const line = lineAt(expr.getStart());
    if (ts.isIdentifier(expr)) {
      const table = tenancy.tables.get(expr.text);
      if (table) return [{ kind: 'word', v: table.name, line }];
    }
    if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression)) {
      const table = tenancy.tables.get(expr.expression.text);
      const column = table?.columns.get(expr.name.text);
      if (table && column)
        return [
          { kind: 'word', v: table.name, line },
          { kind: 'op', v: '.', line },
          { kind: 'word', v: column, line },
        ];
    }
    const callee = ts.isCallExpression(expr) ? expr.expression : expr;
    const fragment = ts.isIdentifier(callee) ? fragments.get(callee.text) : undefined;
    if (fragment && depth < 5) {
      inlined.add(fragment);
      return tokenize(piecesOf(fragment.template, depth + 1));
    }
    if (ts.isTaggedTemplateExpression(expr)) {
      inlined.add(expr);
      return tokenize(piecesOf(expr.template, depth + 1));
    }
    // A value: the same expression is the same value within one statement.
    return [{ kind: 'param', v: `\${${expr.getText().replace(/\s+/g, ' ')}}`, line }];
  };

  const templates: { node: ts.TaggedTemplateExpression | ts.TemplateLiteral; template: ts.TemplateLiteral }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node) && SQL_TAG.test(node.tag.getText()))
      templates.push({ node, template: node.template });
    else if (
      (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      !ts.isTaggedTemplateExpression(node.parent) &&
      ts.isCallExpression(node.parent) &&
      ts.isPropertyAccessExpression(node.parent.expression) &&
      node.parent.expression.name.text === 'unsafe'
    )
      templates.push({ node, template: node });
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      BUILDER_JOIN.has(node.expression.name.text)
    ) {
      const [table, condition] = node.arguments;
      const joined = table && ts.isIdentifier(table) ? tenancy.tables.get(table.text) : undefined;
      if (table && ts.isIdentifier(table) && joined && tenancy.names.has(joined.name)) {
        const scoped =
          condition !== undefined && new RegExp(`\\b${table.text}\\.companyId\\b`).test(condition.getText());
        report.builderJoins.push({
          file,
          line: lineAt(node.expression.name.getStart()),
          join: `${node.expression.name.text}(${table.text}, …)`,
          scoped,
        });
      }
    }
    // A drizzle subquery under exists()/notExists() is a (semi-)join to the query around it.
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      ['exists', 'notExists'].includes(node.expression.text)
    ) {
      const from = (n: ts.Node): ts.Identifier[] =>
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        n.expression.name.text === 'from' &&
        n.arguments[0] &&
        ts.isIdentifier(n.arguments[0])
          ? [n.arguments[0], ...n.getChildren().flatMap(from)]
          : n.getChildren().flatMap(from);
      for (const table of from(node)) {
        const joined = tenancy.tables.get(table.text);
        if (!joined || !tenancy.names.has(joined.name)) continue;
        const scoped = new RegExp(`\\b${table.text}\\.companyId\\b`).test(node.getText());
        report.builderJoins.push({
          file,
          line: lineAt(node.getStart()),
          join: `${node.expression.text}(… from(${table.text}) …)`,
          scoped,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);

  // Tokenized first: a fragment is known as inlined only once every template has been read.
  const statements = templates.map(({ node, template }) => ({ node, items: nest(tokenize(piecesOf(template, 0))) }));
  for (const { node, items } of statements) {
    if (inlined.has(node)) continue;
    const reader = new Reader(file, tenancy, text(items).slice(0, 160));
    reader.top(items);
    report.checked.push(...reader.report.checked);
    report.violations.push(...reader.report.violations);
    report.unreadable.push(...reader.report.unreadable);
  }
  return report;
}
