import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GRANTS_USED_BY_AWS } from '../../constructs/app-function';
import { type GrantUnit, grantUnits, unitId, wildcardMatch } from './grants';
import type { TwinIamModel } from './model';
import type { DeniedCall, RecordLine } from './twin';

export interface GrantsReport {
  /** Grant units some call of the run used. */
  used: GrantUnit[];
  /** Grant units no call used and no AWS service uses on the function's behalf. */
  unused: GrantUnit[];
  /** Grant units AWS itself uses with the function's role (the runtime's logs, a queue's poller), with the reason. */
  usedByAws: Array<GrantUnit & { reason: string }>;
  /** Calls the twin refused. */
  denied: DeniedCall[];
}

/** The lines every process of a run recorded (infra/local/iam/twin.ts, IAM_TWIN_RECORD_DIR). */
export function readRecords(dir: string): RecordLine[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(path.join(dir, file), 'utf8').split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordLine);
}

/** The GRANTS_USED_BY_AWS entry that accounts for `action` on `resource` in `fn`'s role, if any. */
export function grantUsedByAws(model: TwinIamModel, fn: string, action: string, resource: string) {
  const workQueues: string[] = Object.values(model.queueArns);
  return GRANTS_USED_BY_AWS.find(
    (grant) =>
      (!grant.functions || grant.functions.includes(fn)) &&
      !(grant.notOnWorkQueues && workQueues.includes(resource)) &&
      grant.actions.some((a) => wildcardMatch(a, action, true)),
  );
}

export function grantsReport(model: TwinIamModel, records: RecordLine[]): GrantsReport {
  const usedIds = new Set(records.flatMap((line) => ('used' in line ? [unitId(line.used)] : [])));
  const denied = [
    ...new Map(records.flatMap((line) => ('denied' in line ? [line.denied] : [])).map((d) => [JSON.stringify(d), d])).values(),
  ];
  const report: GrantsReport = { used: [], unused: [], usedByAws: [], denied };
  for (const unit of grantUnits(model)) {
    if (usedIds.has(unitId(unit))) {
      report.used.push(unit);
      continue;
    }
    const byAws = grantUsedByAws(model, unit.fn, unit.action, unit.resource);
    if (byAws) report.usedByAws.push({ ...unit, reason: byAws.reason });
    else report.unused.push(unit);
  }
  return report;
}

const describe = (unit: GrantUnit) => `${unit.fn}: ${unit.action} on ${unit.resource}${unit.leadingKeys ? ` for ${unit.leadingKeys}` : ''}`;

export function formatReport(report: GrantsReport): string {
  return [
    `IAM twin: ${report.used.length} grant units used, ${report.usedByAws.length} used by AWS on the functions' behalf, ` +
      `${report.unused.length} unused, ${report.denied.length} calls denied.`,
    ...report.denied.map(
      (call) =>
        `  denied  ${call.fn}: ${call.action} on ${call.resource}${call.leadingKeys?.length ? ` [${call.leadingKeys.join(', ')}]` : ''}`,
    ),
    ...report.unused.map((unit) => `  unused  ${describe(unit)}`),
  ].join('\n');
}
