import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stageSettings } from '../stage';
import { type ResolvedStage, resolveStage } from './resolve-settings';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The stage file of a stage in the repository: infra/stages/<stage>.ts. */
export const stageFilePath = (stage: string): string => path.join(REPO_ROOT, 'infra', 'stages', `${stage}.ts`);

/**
 * The settings of the stage `-c stage=…` names (prod when unset): its file in the repository,
 * or the file `-c settingsFile=<path>` names (one kept outside the repository, or a test's), then
 * the `-c` flags over it (infra/stages/resolve-settings.ts).
 */
export async function loadStageSettings(context: Record<string, unknown>): Promise<ResolvedStage> {
  const stage = stageSettings(typeof context.stage === 'string' && context.stage ? context.stage : undefined).name;
  const given = typeof context.settingsFile === 'string' && context.settingsFile ? path.resolve(context.settingsFile) : undefined;
  const file = given ?? stageFilePath(stage);
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const shown = path.relative(REPO_ROOT, file);
  return resolveStage(stage, { path: shown.startsWith('..') ? file : shown, contents: module.default }, context);
}
