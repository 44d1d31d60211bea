import { stageSettings } from './stage';

/**
 * The stacks of a stage (`-c stage=…`): prod keeps the established names, dev gets its own
 * (infra/stage.ts). The smoke script finds the deployed stacks by these names.
 */
export function stackNames(stage?: string): { edge: string; main: string; edgeLogs: string } {
  const name = stageSettings(stage).name;
  const suffix = name === 'prod' ? '' : `-${name}`;
  return { edge: `CareerProgramEdge${suffix}`, main: `CareerProgramStack${suffix}`, edgeLogs: `CareerProgramEdgeLogs${suffix}` };
}
