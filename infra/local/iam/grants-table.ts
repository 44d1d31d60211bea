import { INDEX } from '../../../functions/lib/table';
import { grantUsedByAws } from './grants-report';
import { FUNCTION_KEYS, type PolicyStatement, type TwinIamModel } from './model';

/**
 * docs/security.md's IAM table, written from the synthesized stack's roles (the IAM twin's
 * model): what each function may do, as deployed. `npm run docs:iam` rewrites the section between
 * the markers; test/infra/iam-docs.test.ts fails when the docs and the stack differ.
 */
export const GRANTS_TABLE_START = '<!-- iam-grants:start (npm run docs:iam) -->';
export const GRANTS_TABLE_END = '<!-- iam-grants:end -->';

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
/** The access patterns a physical index serves (a grant on it allows them all), e.g. "auditByEntity / stalledAt". */
const ACCESS_PATTERN_OF = new Map<string, string>(
  Object.values(INDEX).map(({ indexName }) => [
    indexName,
    Object.entries(INDEX)
      .filter(([, gsi]) => gsi.indexName === indexName)
      .map(([pattern]) => pattern)
      .join(' / '),
  ]),
);

function resourceName(model: TwinIamModel, arn: string): string {
  const named: Array<[string, string]> = [
    [model.tableArn, 'the table'],
    [model.mailIdentityArn, 'sender identity'],
    [model.configurationSetArn, 'configuration set'],
    [model.bulkConfigurationSetArn, 'bulk configuration set'],
    [model.secretArns.session, 'session key'],
    [model.secretArns.unsubscribe, 'unsubscribe key'],
    [model.secretArns.origin, 'origin secret'],
    [model.secretArns['device-audit'], 'device and audit key'],
    [model.parameterArns['app-url'], 'site address'],
    [model.queueArns.purge, 'purge queue'],
    [model.queueArns.reminders, 'reminder queue'],
    [`${model.bucketArns.exports}/exports/*`, 'export objects'],
  ];
  return named.find(([value]) => value === arn)?.[1] ?? arn;
}

export function renderGrantsTable(model: TwinIamModel): string {
  const rows = FUNCTION_KEYS.map((fn) => {
    const statements: PolicyStatement[] = model.roles[fn].policies.flatMap((policy) => policy.document.Statement);
    const items: string[] = [];
    const indexes: string[] = [];
    const other: string[] = [];
    for (const statement of statements) {
      const actions = list(statement.Action);
      // what AWS uses with the role (a dead-letter queue, the queue poller) is left out, also
      // when CloudFormation merged it into a statement with the code's own grant
      const resources = list(statement.Resource).filter(
        (resource) => !actions.every((action) => grantUsedByAws(model, fn, action, resource)),
      );
      if (!resources.length) continue;
      const patterns = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      if (patterns) {
        const prefixes = list(patterns).map((pattern) => `\`${pattern.replace(/\*$/, '')}\``);
        items.push(`${actions.map((action) => action.replace('dynamodb:', '')).join(', ')}: ${prefixes.join(' ')}`);
      } else if (resources.some((resource) => resource.includes('/index/'))) {
        indexes.push(...resources.map((resource) => ACCESS_PATTERN_OF.get(resource.split('/index/')[1]) ?? resource));
      } else {
        other.push(`${actions.join(', ')} (${resources.map((resource) => resourceName(model, resource)).join(', ')})`);
      }
    }
    return `| ${fn} | ${items.join('<br>') || '—'} | ${indexes.join(', ') || '—'} | ${other.join('<br>') || '—'} |`;
  });
  return [
    GRANTS_TABLE_START,
    '| function | table items: action, key prefixes | index queries (access pattern) | other |',
    '|---|---|---|---|',
    ...rows,
    GRANTS_TABLE_END,
  ].join('\n');
}

/** The document with its IAM table section replaced by `table`. */
export function withGrantsTable(document: string, table: string): string {
  const start = document.indexOf(GRANTS_TABLE_START);
  const end = document.indexOf(GRANTS_TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/security.md has no IAM table markers');
  return document.slice(0, start) + table + document.slice(end + GRANTS_TABLE_END.length);
}
