// ---- The runtime: the same for every design; MIGRATION above is this plan's data. ----

import {
  AttributeValue,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  ScanCommand,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import * as fs from "node:fs";

type Item = Record<string, AttributeValue>;
type TemplatePart = string | { var: string } | { shard: number };

interface KeyRule {
  attribute: string;
  type: "S" | "N" | "B";
  template: TemplatePart[] | null;
  unchanged: boolean;
  tableKey: boolean;
}

interface Rules {
  table: string;
  role: string;
  keys: KeyRule[];
  derived: string[];
}

interface TableShape {
  key: string[];
  entities: { name: string; templates: [string, TemplatePart[]][] }[];
}

interface DataStep {
  id: string;
  kind: string;
  action: string;
  source: string;
  entity: string | null;
  targets: string[];
  /// Where an item no entity claims goes (a rebuild copies it as it is); null: left alone.
  unclaimed: string | null;
  inPlace: boolean;
}

interface Migration {
  plan: string;
  maxWcu: number;
  roles: string[];
  /// Each role's environment variable, one per role (core's env_var).
  env: Record<string, string>;
  steps: DataStep[];
  instructions: { phase: string; text: string }[];
  old: Record<string, TableShape>;
  new: Record<string, TableShape>;
  newKeys: Record<string, string[]>;
  rules: Record<string, Rules | null>;
}

class UsageError extends Error {}

interface Options {
  tables: Map<string, string>;
  endpoint: string | undefined;
  region: string;
  segments: number;
  pageSize: number;
  maxWcu: number;
  checkpoint: string;
  maxPages: number | null;
  dryRun: boolean;
}

function envName(role: string): string {
  const name = MIGRATION.env[role];
  if (name === undefined) throw new UsageError(`refusing to start: the role ${role} has no variable`);
  return name;
}

/// Refuses a migration whose roles would share a variable (compared as Windows compares them,
/// ignoring case): one table given twice, for two roles (issue 41).
function checkVariables(): void {
  const seen = new Map<string, string>();
  for (const role of MIGRATION.roles) {
    const name = envName(role).toUpperCase();
    const other = seen.get(name);
    if (other !== undefined) {
      throw new UsageError(`refusing to start: the roles ${other} and ${role} both read ${envName(role)}; a table is ambiguous`);
    }
    seen.set(name, role);
  }
}

function whole(flag: string, text: string | undefined, least: number): number {
  const n = Number(text);
  if (text === undefined || !Number.isInteger(n) || n < least) {
    throw new UsageError(`${flag} takes a whole number of at least ${least}, not ${text ?? "nothing"}`);
  }
  return n;
}

function parseArgs(argv: string[]): Options {
  checkVariables();
  const tables = new Map<string, string>();
  for (const role of MIGRATION.roles) {
    const name = process.env[envName(role)];
    if (name) tables.set(role, name);
  }
  let endpoint: string | undefined;
  let region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  let segments = 4;
  let pageSize = 100;
  let maxWcu = MIGRATION.maxWcu;
  let checkpoint = "keyplan-migration.checkpoint.json";
  let maxPages: number | null = null;
  let dryRun = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--table": {
        const pair = value();
        const at = pair.indexOf("=");
        const role = pair.slice(0, at);
        if (at <= 0 || at === pair.length - 1) {
          throw new UsageError(`--table takes ROLE=NAME, not ${pair}`);
        }
        if (!MIGRATION.roles.includes(role)) {
          throw new UsageError(`--table ${pair}: this migration has no table ${role}; its tables are ${MIGRATION.roles.join(", ")}`);
        }
        tables.set(role, pair.slice(at + 1));
        break;
      }
      case "--endpoint": endpoint = value(); break;
      case "--region": region = value(); break;
      case "--segments": segments = whole(flag, value(), 1); break;
      case "--page-size": pageSize = whole(flag, value(), 1); break;
      case "--max-wcu": maxWcu = whole(flag, value(), 1); break;
      case "--checkpoint": checkpoint = value(); break;
      case "--max-pages": maxPages = whole(flag, value(), 1); break;
      case "--dry-run": dryRun = true; break;
      default: throw new UsageError(`unknown argument ${flag}`);
    }
  }
  const missing = MIGRATION.roles.filter((r) => !tables.has(r));
  if (missing.length > 0) {
    throw new UsageError(
      "refusing to start: no table given for " +
        missing.map((r) => `${r} (--table ${r}=NAME or ${envName(r)})`).join(", "),
    );
  }
  for (const step of MIGRATION.steps) {
    for (const target of step.targets) {
      if (target !== step.source && tables.get(target) === tables.get(step.source) && !step.inPlace) {
        throw new UsageError(`refusing to start: ${target} and ${step.source} are the same table ${tables.get(target)}; a rebuild copies into a new table`);
      }
    }
  }
  if (region === undefined) {
    if (endpoint === undefined) throw new UsageError("give --region or AWS_REGION");
    region = "us-east-1";
  }
  return { tables, endpoint, region, segments, pageSize, maxWcu, checkpoint, maxPages, dryRun };
}

// ---- Items: key text, templates, the rules core's migrated_item applies ----

function keyText(v: AttributeValue | undefined): string | null {
  if (v === undefined) return null;
  if (v.S !== undefined) return v.S;
  if (v.N !== undefined) return v.N;
  if (v.B !== undefined) return Buffer.from(v.B).toString("base64");
  return null;
}

/// A number's text as DynamoDB returns it (plain decimal, no exponent), or null.
function canonicalNumber(text: string): string | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const [intPart, fracPart] = [m[2], m[3] ?? ""];
  const all = intPart + fracPart;
  const first = all.search(/[1-9]/);
  if (first < 0) return "0";
  const digits = all.slice(first).replace(/0+$/, "");
  if (digits.length > 38) return null;
  const exponent = intPart.length - first + Number(m[4] ?? "0");
  if (exponent < -129 || exponent > 126) return null;
  let out: string;
  if (exponent <= 0) out = "0." + "0".repeat(-exponent) + digits;
  else if (exponent >= digits.length) out = digits + "0".repeat(exponent - digits.length);
  else out = digits.slice(0, exponent) + "." + digits.slice(exponent);
  return (m[1] === "-" ? "-" : "") + out;
}

function typedKey(text: string, type: KeyRule["type"]): AttributeValue | null {
  if (text === "") return null;
  if (type === "S") return { S: text };
  if (type === "N") {
    const n = canonicalNumber(text);
    return n === null ? null : { N: n };
  }
  return { B: Buffer.from(text, "utf8") };
}

function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/// FNV-1a over the item's names and key texts, leaving out derived keys: core's shard_of.
function shardOf(item: Item, derived: Set<string>, n: number): number {
  const mask = (BigInt(1) << BigInt(64)) - BigInt(1);
  const prime = BigInt("0x100000001b3");
  let hash = BigInt("0xcbf29ce484222325");
  for (const name of Object.keys(item).sort(byUtf8)) {
    if (derived.has(name)) continue;
    const bytes = [...Buffer.from(name, "utf8"), 0, ...Buffer.from(keyText(item[name]) ?? "", "utf8"), 0];
    for (const b of bytes) {
      hash = ((hash ^ BigInt(b)) * prime) & mask;
    }
  }
  return Number(hash % BigInt(Math.max(n, 1)));
}

function render(parts: TemplatePart[], type: KeyRule["type"], item: Item, derived: Set<string>): AttributeValue | null {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (type === "B" && only !== undefined && typeof only !== "string" && "var" in only) {
    const v = item[only.var];
    if (v !== undefined && v.B !== undefined) return { B: v.B };
  }
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") {
      text += part;
    } else if ("shard" in part) {
      text += String(shardOf(item, derived, part.shard));
    } else {
      const t = keyText(item[part.var]);
      if (t === null) return null;
      text += t;
    }
  }
  return typedKey(text, type);
}

function has(item: Item, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(item, name);
}

/// The item in the new design's shape: core's migrated_item, rule for rule.
function migrate(entity: string, rules: Rules, item: Item): Item {
  const out: Item = { ...item };
  const derived = new Set(rules.derived);
  for (const rule of rules.keys) {
    if (rule.unchanged && (rule.template === null || has(item, rule.attribute))) continue;
    delete out[rule.attribute];
    if (rule.template === null) continue;
    const value = render(rule.template, rule.type, item, derived);
    if (value !== null) out[rule.attribute] = value;
    else if (rule.tableKey) {
      throw new Error(`an item of ${entity} has no value for every variable of ${rule.attribute}'s template (key ${JSON.stringify(toJson(item))})`);
    }
  }
  return out;
}

function matchTemplate(parts: TemplatePart[], text: string): [string, string][] | null {
  const out: [string, string][] = [];
  let rest = text;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (typeof part === "string") {
      if (!rest.startsWith(part)) return null;
      rest = rest.slice(part.length);
      continue;
    }
    const next = parts[i + 1];
    let value: string;
    if (typeof next === "string") {
      const at = rest.indexOf(next);
      if (at < 0) return null;
      value = rest.slice(0, at);
    } else if (next !== undefined) {
      const code = rest.codePointAt(0);
      if (code === undefined || code > 0x7f) return null;
      value = rest.slice(0, 1);
    } else {
      value = rest;
    }
    if (value === "") return null;
    if ("shard" in part) {
      if (!/^[0-9]+$/.test(value)) return null;
    } else {
      out.push([part.var, value]);
    }
    rest = rest.slice(value.length);
  }
  return rest === "" ? out : null;
}

const MARKERS = ["entityType", "entity_type", "type", "_type", "__typename"];

/// The entity whose key templates match the item: core's sample::identify.
function identify(shape: TableShape, item: Item): string | null {
  for (const marker of MARKERS) {
    const name = item[marker]?.S;
    if (name !== undefined && shape.entities.some((e) => e.name === name)) return name;
  }
  let best: [number, string] | null = null;
  for (const entity of shape.entities) {
    if (entity.templates.length === 0) continue;
    let literal = 0;
    let ok = true;
    for (const [name, parts] of entity.templates) {
      const text = keyText(item[name]);
      const vars = text === null ? null : matchTemplate(parts, text);
      if (vars === null) {
        ok = false;
        continue;
      }
      for (const part of parts) if (typeof part === "string") literal += Buffer.byteLength(part, "utf8");
      for (const [variable, value] of vars) {
        const own = keyText(item[variable]);
        if (own !== null && own !== value) ok = false;
      }
    }
    if (ok && (best === null || literal > best[0])) best = [literal, entity.name];
  }
  return best === null ? null : best[1];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function valueJson(v: AttributeValue): Json {
  if (v.S !== undefined) return { S: v.S };
  if (v.N !== undefined) return { N: v.N };
  if (v.B !== undefined) return { B: Buffer.from(v.B).toString("base64") };
  if (v.BOOL !== undefined) return { BOOL: v.BOOL };
  if (v.NULL !== undefined) return { NULL: v.NULL };
  if (v.SS !== undefined) return { SS: [...v.SS].sort() };
  if (v.NS !== undefined) return { NS: [...v.NS].sort() };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b).toString("base64")).sort() };
  if (v.L !== undefined) return { L: v.L.map(valueJson) };
  if (v.M !== undefined) return { M: toJson(v.M) };
  return null;
}

function toJson(item: Item): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const name of Object.keys(item).sort(byUtf8)) out[name] = valueJson(item[name]);
  return out;
}

function fromJsonKey(key: { [key: string]: Json }): Item {
  const out: Item = {};
  for (const [name, v] of Object.entries(key)) {
    const value = v as { S?: string; N?: string; B?: string };
    if (value.S !== undefined) out[name] = { S: value.S };
    else if (value.N !== undefined) out[name] = { N: value.N };
    else if (value.B !== undefined) out[name] = { B: Buffer.from(value.B, "base64") };
  }
  return out;
}

function same(a: Item, b: Item): boolean {
  return JSON.stringify(toJson(a)) === JSON.stringify(toJson(b));
}

function sameValue(a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  return JSON.stringify(a === undefined ? null : valueJson(a)) === JSON.stringify(b === undefined ? null : valueJson(b));
}

function keyOf(names: string[], item: Item): Item {
  const out: Item = {};
  for (const name of names) if (item[name] !== undefined) out[name] = item[name];
  return out;
}

function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return Buffer.byteLength(v.S, "utf8");
  if (v.N !== undefined) return Math.ceil(v.N.replace(/[^0-9]/g, "").length / 2) + 1;
  if (v.B !== undefined) return v.B.length;
  if (v.SS !== undefined) return v.SS.reduce((n, s) => n + Buffer.byteLength(s, "utf8"), 0);
  if (v.NS !== undefined) return v.NS.reduce((n, s) => n + s.length, 0);
  if (v.BS !== undefined) return v.BS.reduce((n, b) => n + b.length, 0);
  if (v.L !== undefined) return 3 + v.L.reduce((n, x) => n + 1 + valueSize(x), 0);
  if (v.M !== undefined) return 3 + itemSize(v.M);
  return 1;
}

function itemSize(item: Item): number {
  let n = 0;
  for (const [name, v] of Object.entries(item)) n += Buffer.byteLength(name, "utf8") + valueSize(v);
  return n;
}

/// Write units of a write of an item this size: one per KB started.
function units(...items: Item[]): number {
  return Math.max(1, ...items.map((i) => Math.ceil(itemSize(i) / 1024)));
}

// ---- Rate, checkpoint, writes ----

/// A token bucket of write units, refilled at `rate` a second.
class Bucket {
  private tokens: number;
  private last = Date.now();
  constructor(private readonly rate: number) {
    this.tokens = rate;
  }
  async take(n: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.rate, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      const need = Math.min(n, this.rate);
      if (this.tokens >= need) {
        this.tokens -= n;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((need - this.tokens) / this.rate) * 1000)));
    }
  }
}

interface SegmentPlace {
  done: boolean;
  lastKey: { [key: string]: Json } | null;
}

interface Checkpoint {
  plan: string;
  segments: number;
  tables: Record<string, string>;
  steps: Record<string, Record<string, SegmentPlace>>;
}

interface Counts {
  written: number;
  updated: number;
  deleted: number;
  present: number;
  gone: number;
  unchanged: number;
  scanned: number;
  units: number;
}

interface Context {
  options: Options;
  client: DynamoDBClient;
  bucket: Bucket;
  checkpoint: Checkpoint;
  counts: Counts;
  pages: number;
  stopped: boolean;
}

function loadCheckpoint(options: Options): Checkpoint {
  const tables = Object.fromEntries([...options.tables.entries()].sort());
  const fresh: Checkpoint = { plan: MIGRATION.plan, segments: options.segments, tables, steps: {} };
  if (!fs.existsSync(options.checkpoint)) return fresh;
  let found: Checkpoint;
  try {
    found = JSON.parse(fs.readFileSync(options.checkpoint, "utf8")) as Checkpoint;
  } catch (error) {
    throw new UsageError(`the checkpoint ${options.checkpoint} cannot be read: ${(error as Error).message}`);
  }
  if (found.plan !== MIGRATION.plan) {
    throw new UsageError(`the checkpoint ${options.checkpoint} is of another migration (plan ${found.plan}, this one is ${MIGRATION.plan}): remove it or give another --checkpoint`);
  }
  if (found.segments !== options.segments) {
    throw new UsageError(`the checkpoint ${options.checkpoint} was made with --segments ${found.segments}: resume with the same`);
  }
  if (JSON.stringify(found.tables) !== JSON.stringify(tables)) {
    throw new UsageError(`the checkpoint ${options.checkpoint} is for the tables ${JSON.stringify(found.tables)}, not ${JSON.stringify(tables)}`);
  }
  return found;
}

function saveCheckpoint(ctx: Context): void {
  if (ctx.options.dryRun) return;
  const temporary = ctx.options.checkpoint + ".tmp";
  fs.writeFileSync(temporary, JSON.stringify(ctx.checkpoint, null, 2));
  fs.renameSync(temporary, ctx.options.checkpoint);
}

/// The real name of a table the step may write: its source or one of its targets, as mapped.
function tableFor(ctx: Context, step: DataStep, role: string): string {
  const name = ctx.options.tables.get(role);
  if ((role !== step.source && !step.targets.includes(role)) || name === undefined) {
    throw new Error(`refusing to write to ${role}: step ${step.id} writes only ${[step.source, ...step.targets].join(", ")}`);
  }
  return name;
}

function conditionFailed(error: unknown): boolean {
  return (error as { name?: string }).name === "ConditionalCheckFailedException";
}

function dryRun(what: string, table: string, item: Item): void {
  console.log(`DRY RUN ${what} ${table} ${JSON.stringify(toJson(item))}`);
}

type CountName = "written" | "updated" | "deleted" | "present" | "gone";

/// Sends a conditional write of `n` units, counting it `done`, or `failed` when its condition
/// did not hold (the write was already made, or the item is gone).
async function conditional(
  ctx: Context,
  n: number,
  command: PutItemCommand | UpdateItemCommand | DeleteItemCommand,
  done: CountName,
  failed: CountName,
): Promise<void> {
  await ctx.bucket.take(n);
  ctx.counts.units += n;
  try {
    // One call per command type: the client's overloads take one at a time.
    if (command instanceof PutItemCommand) await ctx.client.send(command);
    else if (command instanceof UpdateItemCommand) await ctx.client.send(command);
    else await ctx.client.send(command);
    ctx.counts[done]++;
  } catch (error) {
    if (!conditionFailed(error)) throw error;
    ctx.counts[failed]++;
  }
}

async function put(ctx: Context, step: DataStep, role: string, key: string[], item: Item): Promise<void> {
  const table = tableFor(ctx, step, role);
  if (ctx.options.dryRun) return dryRun("put-if-absent", table, item);
  const command = new PutItemCommand({
    TableName: table,
    Item: item,
    ConditionExpression: "attribute_not_exists(#k)",
    ExpressionAttributeNames: { "#k": key[0] },
  });
  await conditional(ctx, units(item), command, "written", "present");
}

async function update(ctx: Context, step: DataStep, key: string[], before: Item, after: Item): Promise<void> {
  const table = tableFor(ctx, step, step.source);
  if (ctx.options.dryRun) return dryRun("update", table, after);
  const names: Record<string, string> = { "#k": key[0] };
  const values: Item = {};
  const set: string[] = [];
  const remove: string[] = [];
  const all = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(byUtf8);
  all.forEach((name, i) => {
    const [a, b] = [before[name], after[name]];
    if (b === undefined) {
      names[`#a${i}`] = name;
      remove.push(`#a${i}`);
    } else if (!sameValue(a, b)) {
      names[`#a${i}`] = name;
      values[`:v${i}`] = b;
      set.push(`#a${i} = :v${i}`);
    }
  });
  const expression = [set.length > 0 ? "SET " + set.join(", ") : "", remove.length > 0 ? "REMOVE " + remove.join(", ") : ""]
    .filter((s) => s !== "")
    .join(" ");
  const command = new UpdateItemCommand({
    TableName: table,
    Key: keyOf(key, before),
    UpdateExpression: expression,
    ConditionExpression: "attribute_exists(#k)",
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: Object.keys(values).length > 0 ? values : undefined,
  });
  await conditional(ctx, units(before, after), command, "updated", "gone");
}

async function remove(ctx: Context, step: DataStep, key: string[], item: Item): Promise<void> {
  const table = tableFor(ctx, step, step.source);
  if (ctx.options.dryRun) return dryRun("delete", table, keyOf(key, item));
  const command = new DeleteItemCommand({
    TableName: table,
    Key: keyOf(key, item),
    ConditionExpression: "attribute_exists(#k)",
    ExpressionAttributeNames: { "#k": key[0] },
  });
  await conditional(ctx, units(item), command, "deleted", "gone");
}

/// One scanned item: left alone when it already has the new shape, else written in it.
async function processItem(ctx: Context, step: DataStep, item: Item): Promise<void> {
  const oldShape = MIGRATION.old[step.source];
  const newShape = MIGRATION.new[step.source];
  if (step.inPlace && newShape !== undefined) {
    const current = identify(newShape, item);
    const rules = current === null ? undefined : MIGRATION.rules[current];
    if (current !== null && rules && rules.role === step.source && same(migrate(current, rules, item), item)) {
      ctx.counts.unchanged++;
      return;
    }
  }
  const entity = identify(oldShape, item);
  if (step.entity !== null && entity !== step.entity) return;
  const rules = entity === null ? undefined : MIGRATION.rules[entity];
  if (rules === null) {
    // The new design drops the entity.
    if (step.inPlace) await remove(ctx, step, oldShape.key, item);
    return;
  }
  const after = rules === undefined ? item : migrate(entity ?? "", rules, item);
  const role = rules === undefined ? step.unclaimed : rules.role;
  if (role === null) return;
  const newKey = MIGRATION.newKeys[rules === undefined ? step.source : rules.table];
  if (role === step.source && oldShape.key.every((k) => sameValue(item[k], after[k]))) {
    if (same(item, after)) ctx.counts.unchanged++;
    else await update(ctx, step, oldShape.key, item, after);
    return;
  }
  await put(ctx, step, role, newKey, after);
  // The old key goes only once the new one is there.
  if (step.inPlace) await remove(ctx, step, oldShape.key, item);
}

async function runSegment(ctx: Context, step: DataStep, segment: number): Promise<void> {
  const places = (ctx.checkpoint.steps[step.id] ??= {});
  const place = (places[String(segment)] ??= { done: false, lastKey: null });
  const source = tableFor(ctx, step, step.source);
  while (!place.done && !ctx.stopped) {
    const page = await ctx.client.send(new ScanCommand({
      TableName: source,
      Segment: segment,
      TotalSegments: ctx.options.segments,
      Limit: ctx.options.pageSize,
      ExclusiveStartKey: place.lastKey === null ? undefined : fromJsonKey(place.lastKey),
    }));
    ctx.counts.scanned += (page.Items ?? []).length;
    for (const item of page.Items ?? []) await processItem(ctx, step, item);
    const last = page.LastEvaluatedKey;
    if (last === undefined || Object.keys(last).length === 0) {
      place.done = true;
      place.lastKey = null;
    } else {
      place.lastKey = toJson(last);
    }
    saveCheckpoint(ctx);
    ctx.pages++;
    if (ctx.options.maxPages !== null && ctx.pages >= ctx.options.maxPages) ctx.stopped = true;
  }
}

function summary(ctx: Context, done: boolean): string {
  const c = ctx.counts;
  return JSON.stringify({ done, dryRun: ctx.options.dryRun, writes: c.written + c.updated + c.deleted, ...c });
}

async function main(argv: string[]): Promise<number> {
  let options: Options;
  let checkpoint: Checkpoint;
  try {
    options = parseArgs(argv);
    checkpoint = loadCheckpoint(options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }
  const client = new DynamoDBClient({ endpoint: options.endpoint, region: options.region, maxAttempts: 10 });
  for (const instruction of MIGRATION.instructions.filter((i) => i.phase === "expand")) {
    console.log(`Before this program (not done by it): ${instruction.text}`);
  }
  for (const [role, name] of [...options.tables.entries()].sort()) {
    try {
      await client.send(new DescribeTableCommand({ TableName: name }));
    } catch (error) {
      console.error(`refusing to start: table ${name} (${role}) cannot be described: ${(error as Error).message}`);
      return 2;
    }
  }
  const ctx: Context = {
    options,
    client,
    bucket: new Bucket(options.maxWcu),
    checkpoint,
    counts: { written: 0, updated: 0, deleted: 0, present: 0, gone: 0, unchanged: 0, units: 0, scanned: 0 },
    pages: 0,
    stopped: false,
  };
  for (const step of MIGRATION.steps) {
    console.log(`Step ${step.id}: ${step.action}`);
    const segments = [...Array(options.segments).keys()].map((s) => runSegment(ctx, step, s));
    const results = await Promise.allSettled(segments);
    for (const result of results) if (result.status === "rejected") throw result.reason;
    if (ctx.stopped && !Object.values(ctx.checkpoint.steps[step.id] ?? {}).every((p) => p.done)) {
      console.log(`Stopped after ${ctx.pages} pages (--max-pages); run again to resume from ${options.checkpoint}.`);
      console.log(summary(ctx, false));
      return 3;
    }
  }
  for (const instruction of MIGRATION.instructions.filter((i) => i.phase !== "expand")) {
    console.log(`After this program, once nothing reads the old shape (not done by it): ${instruction.text}`);
  }
  console.log(summary(ctx, true));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
