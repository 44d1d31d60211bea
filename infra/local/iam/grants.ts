import type { IamRequest } from './requests';
import { FUNCTION_KEYS, type FunctionKey, type PolicyStatement, type TwinIamModel } from './model';

/**
 * A grant, cut into the smallest pieces a call can use: one action on one resource, for one
 * `dynamodb:LeadingKeys` pattern when the statement has one. The twin records which pieces the
 * calls of a run used; a piece no call used is a grant broader than the code needs.
 */
export interface GrantUnit {
  fn: FunctionKey;
  /** `<policy logical ID>/<statement index>` */
  statement: string;
  action: string;
  resource: string;
  leadingKeys?: string;
}

export const unitId = (unit: GrantUnit) => [unit.fn, unit.statement, unit.action, unit.resource, unit.leadingKeys ?? ''].join(' ');

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** IAM's wildcards (`*`, `?`; neither matches a line break, as in the evaluator), actions compared case-insensitively. */
const compiled = new Map<string, RegExp>();
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const cacheKey = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let regex = compiled.get(cacheKey);
  if (!regex) {
    const source = pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    regex = new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
    compiled.set(cacheKey, regex);
  }
  return regex.test(value);
}

const LEADING_KEYS_CONDITION = 'ForAllValues:StringLike';
const leadingKeyPatterns = (statement: PolicyStatement): string[] | undefined => {
  const patterns = statement.Condition?.[LEADING_KEYS_CONDITION]?.['dynamodb:LeadingKeys'];
  return patterns === undefined ? undefined : list(patterns);
};

/** Every statement of a role, each as its own policy so the evaluator says which one allowed a call. */
export function statementsOf(model: TwinIamModel, fn: FunctionKey): Array<{ id: string; statement: PolicyStatement }> {
  return model.roles[fn].policies.flatMap((policy) =>
    policy.document.Statement.map((statement, index) => ({ id: `${policy.name}/${index}`, statement })),
  );
}

/** Every grant unit of every function's role. */
export function grantUnits(model: TwinIamModel): GrantUnit[] {
  return FUNCTION_KEYS.flatMap((fn) =>
    statementsOf(model, fn)
      .filter(({ statement }) => statement.Effect === 'Allow')
      .flatMap(({ id, statement }) =>
        list(statement.Action).flatMap((action) =>
          list(statement.Resource).flatMap((resource) => {
            const patterns = leadingKeyPatterns(statement);
            return patterns
              ? patterns.map((leadingKeys) => ({ fn, statement: id, action, resource, leadingKeys }))
              : [{ fn, statement: id, action, resource }];
          }),
        ),
      ),
  );
}

/** The units of `statement` that an allowed request used. */
export function unitsUsed(fn: FunctionKey, id: string, statement: PolicyStatement, request: IamRequest): GrantUnit[] {
  const actions = list(statement.Action).filter((action) => wildcardMatch(action, request.action, true));
  const resources = list(statement.Resource).filter((resource) => wildcardMatch(resource, request.resource));
  const patterns = leadingKeyPatterns(statement);
  const used = patterns
    ? patterns.filter((pattern) => (request.leadingKeys ?? []).some((key) => wildcardMatch(pattern, key)))
    : [undefined];
  return actions.flatMap((action) =>
    resources.flatMap((resource) => used.map((leadingKeys) => ({ fn, statement: id, action, resource, leadingKeys }))),
  );
}

/**
 * When a role's only conditions are `ForAllValues:StringLike` on `dynamodb:LeadingKeys`, IAM's
 * answer to a call depends on its keys only through the patterns each key matches: calls with
 * the same action, resource and set of matched patterns get the same answer (and use the same
 * grant units). The twin asks the evaluator once per such class; `undefined` when another
 * condition makes that untrue.
 */
export function leadingKeyClasses(statements: PolicyStatement[]): ((keys: string[]) => string) | undefined {
  const patterns: string[] = [];
  for (const statement of statements) {
    const onlyLeadingKeys = Object.entries(statement.Condition ?? {}).every(
      ([operator, values]) => operator === LEADING_KEYS_CONDITION && Object.keys(values).every((key) => key === 'dynamodb:LeadingKeys'),
    );
    if (!onlyLeadingKeys) return undefined;
    patterns.push(...(leadingKeyPatterns(statement) ?? []));
  }
  const distinct = [...new Set(patterns)];
  const classOf = (key: string) => distinct.filter((pattern) => wildcardMatch(pattern, key)).join('|');
  return (keys) => [...new Set(keys.map(classOf))].sort().join(' ; ');
}
