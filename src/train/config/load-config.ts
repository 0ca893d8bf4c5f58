/**
 * Loading, validating and overriding training configurations (JSON or YAML).
 */
import { readFile } from 'node:fs/promises';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { isPlainObject } from '../../gym/check/result-checks.js';
import type { ConfigSection } from './config-section.js';
import { suggestName } from './did-you-mean.js';
import { grpoTrainSplit, TRAIN_CONFIG_SCHEMA, type ConfigSchemaNode, type TrainConfig } from './schema.js';
import { TrainError } from '../train-error.js';

/** Thrown for an invalid configuration; `problems` lists every issue with its path. */
export class TrainConfigError extends TrainError {
  constructor(readonly problems: string[]) {
    super(`invalid training config:\n  - ${problems.join('\n  - ')}`);
    this.name = 'TrainConfigError';
  }
}

/** A section of any key and value, as the loader handles it (its value's type matters only to the caller). */
type AnySection = ConfigSection<string, unknown>;

/** The trainer's schema with a recipe's section added at the top level (the trainer's schema alone without one). */
function schemaWith(section: AnySection | undefined): ConfigSchemaNode {
  if (!section) return TRAIN_CONFIG_SCHEMA;
  if (TRAIN_CONFIG_SCHEMA.properties?.[section.key]) throw new TrainConfigError([`a recipe's config section cannot be named "${section.key}": the trainer has a section of that name`]);
  return { ...TRAIN_CONFIG_SCHEMA, properties: { ...TRAIN_CONFIG_SCHEMA.properties, [section.key]: section.schema } };
}

function schemaAt(schema: ConfigSchemaNode, path: string): ConfigSchemaNode | undefined {
  let node: ConfigSchemaNode | undefined = schema;
  for (const part of path.split('/').filter(Boolean)) node = node?.properties?.[part];
  return node;
}

function describeError(e: ErrorObject, schema: ConfigSchemaNode): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(top level)';
  if (e.keyword === 'additionalProperties') {
    const key = String((e.params as { additionalProperty: string }).additionalProperty);
    const known = Object.keys(schemaAt(schema, e.instancePath)?.properties ?? {});
    const suggestion = suggestName(key, known);
    const full = e.instancePath ? `${where}.${key}` : key;
    return `unknown option "${full}"` + (suggestion ? ` — did you mean "${suggestion}"?` : ` (known here: ${known.join(', ')})`);
  }
  if (e.keyword === 'enum') {
    return `${where}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where}: ${e.message ?? e.keyword}`;
}

/**
 * Takes the options a section says moved out of the trainer's sections out of `config` (so the schema does not
 * report them again as unknown) and returns one problem per option found, naming its new path.
 */
function movedOptions(config: unknown, section: AnySection | undefined): string[] {
  const problems: string[] = [];
  for (const [from, to] of Object.entries(section?.moved ?? {})) {
    const path = from.split('.');
    let node: unknown = config;
    for (const part of path.slice(0, -1)) node = isPlainObject(node) ? node[part] : undefined;
    const last = path[path.length - 1]!;
    if (!isPlainObject(node) || !(last in node)) continue;
    delete node[last];
    problems.push(`option "${from}" has moved to "${to}" (the ${section!.key} recipe's section): write it there instead`);
  }
  return problems;
}

/**
 * Validates a parsed config object, fills every default, and returns the typed config. A recipe's `section`, when
 * given, is validated and defaulted as a top-level section of its own, and its checks run; without one, a
 * recipe's section is an unknown option like any other.
 * Throws {@link TrainConfigError} listing all problems (unknown keys come with a suggestion; options that moved
 * into the section name their new path).
 *
 * @example
 * ```ts
 * const cfg = resolveTrainConfig({ rollout: { numGenerations: 4 } });
 * cfg.grpo.advantage.estimator; // 'grpo'
 * resolveTrainConfig({ rollout: { numGeneration: 4 } }); // throws: … did you mean "numGenerations"?
 * resolveTrainConfig({ sql: { compactTools: true } }, SQL_CONFIG_SECTION).sql.compactTools; // true
 * ```
 */
export function resolveTrainConfig<Key extends string, Value>(input: unknown, section: ConfigSection<Key, Value>): TrainConfig & Record<Key, Value>;
export function resolveTrainConfig(input: unknown): TrainConfig;
export function resolveTrainConfig(input: unknown, section?: AnySection): TrainConfig {
  const schema = schemaWith(section);
  // One Ajv per call: it is cheap for this schema and keeps no module-level state.
  const ajv = new Ajv({ useDefaults: true, allErrors: true, strict: false });
  // The recipe's section, when given, sits beside the trainer's sections under its own key.
  const validate = ajv.compile<TrainConfig & Record<string, unknown>>(schema);
  const copy: unknown = structuredClone(input ?? {});
  const moved = movedOptions(copy, section);
  const valid = validate(copy);
  if (!valid || moved.length > 0) throw new TrainConfigError([...moved, ...(valid ? [] : (validate.errors ?? []).map((e) => describeError(e, schema)))]);
  const { sft, env, grpo, eval: evaluation } = copy;
  const problems = [
    sft.validationEpisodes > 0 && sft.epochs > 0 && sft.minEpochs > sft.epochs
      ? `sft.minEpochs (${sft.minEpochs}) exceeds sft.epochs (${sft.epochs}): SFT would never validate. Lower sft.minEpochs or raise sft.epochs.`
      : '',
    grpo.questions === 'beyond_sft' && grpoTrainSplit(copy) !== env.trainSplit
      ? `grpo.questions 'beyond_sft' skips the questions SFT learned from, which are env.trainSplit's ("${env.trainSplit}"), but grpo.trainSplit "${grpo.trainSplit}" is another split. Set grpo.questions 'all', or grpo.trainSplit ''.`
      : '',
    ...outsideValidationSplits('sft.validationSplits', sft.validationSplits, env.validationSplits),
    ...outsideValidationSplits('eval.curveSplits', evaluation.curveSplits, env.validationSplits),
    ...(section?.check?.(copy) ?? []),
  ].filter(Boolean);
  if (problems.length > 0) throw new TrainConfigError(problems);
  return copy;
}

/** One problem per split an option names that env.validationSplits does not hold. */
function outsideValidationSplits(option: string, names: readonly string[], validationSplits: readonly string[]): string[] {
  const known = validationSplits.map((v) => `"${v}"`).join(', ') || 'none';
  return names.filter((s) => !validationSplits.includes(s)).map((s) => `${option}: "${s}" is not one of env.validationSplits (${known}). Add it there or remove it here.`);
}

/**
 * Parses JSON or YAML text (chosen by file extension, JSON first when unknown).
 *
 * @example
 * ```ts
 * parseConfigText('grpo:\n  steps: 7\n', 'c.yaml'); // { grpo: { steps: 7 } }
 * ```
 */
export function parseConfigText(text: string, fileName = 'config.json'): unknown {
  if (/\.ya?ml$/i.test(fileName)) return parseYaml(text);
  try {
    return JSON.parse(text);
  } catch (err) {
    if (/\.json$/i.test(fileName)) throw new TrainConfigError([`${fileName}: not valid JSON (${(err as Error).message})`]);
    return parseYaml(text);
  }
}

/**
 * Applies `key.path=value` overrides to a raw config object (values parsed as JSON when they
 * parse, else kept as strings), creating intermediate objects as needed. Returns a new object.
 *
 * @example
 * ```ts
 * applyOverrides({}, ['grpo.steps=5', 'env.trainSplit=smoke']); // { grpo: { steps: 5 }, env: { trainSplit: 'smoke' } }
 * ```
 */
export function applyOverrides(raw: unknown, overrides: readonly string[]): Record<string, unknown> {
  const root = structuredClone((raw ?? {}) as Record<string, unknown>);
  for (const o of overrides) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw new TrainConfigError([`override "${o}" must look like key.path=value (e.g. grpo.steps=10)`]);
    const path = o.slice(0, eq).split('.');
    const text = o.slice(eq + 1);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
    let node = root;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  }
  return root;
}

/**
 * Reads a JSON/YAML config file, applies overrides and resolves it (with a recipe's section, when given).
 *
 * @example
 * ```ts
 * const cfg = await loadTrainConfig('examples/grpo-sql/config.json', ['grpo.steps=5'], SQL_CONFIG_SECTION);
 * ```
 */
export async function loadTrainConfig<Key extends string, Value>(
  file: string | undefined,
  overrides: readonly string[],
  section: ConfigSection<Key, Value>,
): Promise<TrainConfig & Record<Key, Value>>;
export async function loadTrainConfig(file: string | undefined, overrides?: readonly string[]): Promise<TrainConfig>;
export async function loadTrainConfig(file: string | undefined, overrides: readonly string[] = [], section?: AnySection): Promise<TrainConfig> {
  const raw = file ? parseConfigText(await readFile(file, 'utf8'), file) : {};
  const resolved = applyOverrides(raw, overrides);
  return section ? resolveTrainConfig(resolved, section) : resolveTrainConfig(resolved);
}

/**
 * A markdown table of every option (dotted path, type, default, description), generated from
 * the schema so the documentation cannot drift from the validator; a recipe's section, when
 * given, is listed after the trainer's options.
 *
 * @example
 * ```ts
 * configDocsTable().split('\n')[0]; // '| option | type | default | description |'
 * configDocsTable(SQL_CONFIG_SECTION).includes('`sql.compactTools`'); // true
 * ```
 */
export function configDocsTable(section?: AnySection): string {
  const rows: string[] = ['| option | type | default | description |', '| --- | --- | --- | --- |'];
  const walk = (node: ConfigSchemaNode, path: string) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const p = path ? `${path}.${key}` : key;
      if (child.type === 'object' && child.properties) {
        walk(child, p);
        continue;
      }
      const type = child.enum ? child.enum.map((v) => `\`${String(v)}\``).join(' \\| ') : String(child.type);
      const def = child.default === undefined ? '—' : `\`${JSON.stringify(child.default)}\``;
      rows.push(`| \`${p}\` | ${type} | ${def} | ${(child.description ?? '').replace(/\|/g, '\\|')} |`);
    }
  };
  walk(schemaWith(section), '');
  return rows.join('\n');
}
