import type { StageName } from '../stage';
import { API_ORIGIN_SETTINGS, placeholderIn, SETTINGS, type SettingName, type StageValues } from './stage-file';

/** Where a value came from: the stage file, or a `-c` flag of this deploy. */
export type SettingSource = 'file' | '-c';

export interface ResolvedStage {
  stage: StageName;
  /** The stage file, as the report names it (relative to the repository). */
  file: string;
  values: StageValues;
  sources: Partial<Record<SettingName, SettingSource>>;
}

/** Every problem of a stage's settings at once, each naming its setting. */
export class StageSettingsError extends Error {
  constructor(
    readonly stage: StageName,
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      [
        `The ${stage} settings cannot be synthesized (${file}):`,
        ...problems.map((problem) => `  - ${problem}`),
        `Write each in ${file}, or give one deploy's value with -c <name>=<value>.`,
      ].join('\n'),
    );
    this.name = 'StageSettingsError';
  }
}

/** Context keys the app reads besides the settings: `-c stage=…` and `-c settingsFile=…` (infra/stages/load-settings.ts). */
export const SELECTION_KEYS = ['stage', 'settingsFile'] as const;

const isSetting = (key: string): key is SettingName => Object.hasOwn(SETTINGS, key);
const show = (value: unknown) => JSON.stringify(value);

/** A `-c` value as its setting's type: the CLI hands every flag over as a string. `-c name=` is "none". */
function fromContext(name: SettingName, value: unknown): { value?: string | number | boolean | null; problem?: string } {
  if (value === '' || value === null) return { value: null };
  const { kind } = SETTINGS[name];
  if (typeof value === kind) return { value: value as string | number | boolean };
  if (typeof value !== 'string') return { problem: `${name}: -c must be a ${kind}, got ${show(value)}` };
  if (kind === 'string') return { value };
  if (kind === 'boolean')
    return value === 'true' || value === 'false'
      ? { value: value === 'true' }
      : { problem: `${name}: -c must be true or false, got ${show(value)}` };
  const number = Number(value);
  return Number.isFinite(number) ? { value: number } : { problem: `${name}: -c must be a number, got ${show(value)}` };
}

/**
 * The stage's settings: the stage file's values, each overridden by a `-c` flag of the same name,
 * checked against their types, and in prod against what a real deploy needs (infra/stages/stage-file.ts).
 * Throws a StageSettingsError that names every setting at fault.
 */
export function resolveStage(stage: StageName, file: { path: string; contents: unknown }, context: Record<string, unknown>): ResolvedStage {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const sources: ResolvedStage['sources'] = {};

  const contents = file.contents;
  if (typeof contents !== 'object' || contents === null)
    throw new StageSettingsError(stage, file.path, ['the file has no default export object']);
  for (const [key, value] of Object.entries(contents)) {
    if (key === 'stage') {
      if (value !== stage) problems.push(`stage: the file is for stage ${show(value)}, not ${stage}`);
    } else if (!isSetting(key)) problems.push(`${key}: not a setting (infra/stages/stage-file.ts lists them)`);
    else if (value !== undefined) {
      values[key] = value;
      sources[key] = 'file';
    }
  }
  if (!('stage' in contents)) problems.push(`stage: the file must say stage: '${stage}'`);

  for (const [key, raw] of Object.entries(context)) {
    if (isSetting(key)) {
      const parsed = fromContext(key, raw);
      if (parsed.problem) problems.push(parsed.problem);
      else {
        values[key] = parsed.value;
        sources[key] = '-c';
      }
      // the CDK's own context has colons, slashes or an @ (feature flags, lookups): a plain word is a mistyped setting
    } else if (/^[A-Za-z][A-Za-z0-9]*$/.test(key) && !(SELECTION_KEYS as readonly string[]).includes(key))
      problems.push(`${key}: -c names no setting (infra/stages/stage-file.ts lists them)`);
  }

  for (const [key, value] of Object.entries(values)) {
    if (value === null || !isSetting(key)) continue;
    const spec = SETTINGS[key];
    if (typeof value !== spec.kind) {
      problems.push(`${key}: must be a ${spec.kind}, got ${show(value)}`);
      continue;
    }
    const placeholder = stage === 'prod' && typeof value === 'string' ? placeholderIn(value) : undefined;
    if (placeholder) {
      problems.push(`${key}: ${placeholder}, ${show(value)} — ${spec.about}`);
      continue;
    }
    const checked = spec.schema.safeParse(value);
    if (!checked.success) problems.push(`${key}: must be ${checked.error.issues[0]?.message ?? 'valid'}, got ${show(value)}`);
  }

  if (stage === 'prod') {
    const apiOnExecuteApi = values.executeApiEndpoint === true;
    for (const [key, spec] of Object.entries(SETTINGS) as Array<[SettingName, (typeof SETTINGS)[SettingName]]>) {
      const rule = spec.prod;
      if (!rule) continue;
      const required = rule === 'required' && !(apiOnExecuteApi && (API_ORIGIN_SETTINGS as readonly string[]).includes(key));
      if (values[key] === undefined)
        problems.push(`${key}: missing, ${required ? 'required in prod' : 'a value, or null for none'} — ${spec.about}`);
      else if (values[key] === null && required) problems.push(`${key}: required in prod, not null — ${spec.about}`);
    }
  }

  const given = (key: SettingName) => values[key] !== undefined && values[key] !== null;
  if (given('domainName') !== given('certificateArn')) problems.push('domainName and certificateArn: both or neither');
  const apiOrigin = API_ORIGIN_SETTINGS.filter(given);
  if ((apiOrigin.length > 0 || given('apiTruststoreVersion')) && apiOrigin.length < API_ORIGIN_SETTINGS.length)
    problems.push(
      `${API_ORIGIN_SETTINGS.join(', ')}: all or none. The API domain's name is public (Certificate Transparency logs), ` +
        "so only CloudFront's client certificate may pass (docs/runbook.md#api-origin)",
    );

  if (problems.length) throw new StageSettingsError(stage, file.path, problems);
  return { stage, file: file.path, values, sources };
}

/** What the synth prints before it builds: each setting given, its value and whether the file or a `-c` flag set it. */
export function settingsReport(resolved: ResolvedStage): string {
  const names = Object.keys(resolved.sources) as SettingName[];
  const width = Math.max(0, ...names.map((name) => name.length));
  const lines = names.map((name) => {
    const value = resolved.values[name];
    return `  ${name.padEnd(width)}  ${value === null ? '(none)' : String(value)}  [${resolved.sources[name] === '-c' ? '-c' : 'file'}]`;
  });
  const defaults = Object.keys(SETTINGS).length - names.length;
  return [
    `Stage ${resolved.stage}: settings from ${resolved.file}, [-c] overridden for this deploy`,
    ...lines,
    `  (${defaults} more at the stack's defaults, infra/stack-defaults.ts)`,
  ].join('\n');
}
