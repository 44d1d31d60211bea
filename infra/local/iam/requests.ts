import { GSIS, KEY } from '../../../functions/lib/table';
import type { TwinIamModel } from './model';

/**
 * One authorisation AWS makes for a call: an action on a resource, with the partition keys the
 * call touches (`dynamodb:LeadingKeys`). A call can need several: each item of a transaction is
 * authorised as its own PutItem/UpdateItem/DeleteItem/ConditionCheckItem, and an SES send with a
 * configuration set is authorised on the identity and on the set.
 */
export interface IamRequest {
  action: string;
  resource: string;
  leadingKeys?: string[];
  /**
   * A call that carries keys, one of which the twin could not read (not a string, missing, a
   * Query without an equality on its partition key): AWS judges `dynamodb:LeadingKeys` on the key
   * DynamoDB reads, the twin cannot, so it refuses the call (fails closed).
   */
  unreadableKey?: true;
}

type Input = Record<string, unknown>;
type Item = Record<string, unknown> | undefined;

/** A key attribute's value, marshalled (`{ S: "USER#…" }`, after lib-dynamodb) or not. */
function stringValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { S?: unknown }).S === 'string') return (value as { S: string }).S;
  return undefined;
}

const partitionKeyOf = (item: Item) => stringValue(item?.[KEY.partitionKey]);

/** A request on the items with these partition keys: every one read, or the request marked unreadable. */
function keyed(action: string, resource: string, keys: Array<string | undefined>): IamRequest {
  const leadingKeys = keys.filter((value): value is string => value !== undefined);
  return leadingKeys.length === keys.length && keys.length
    ? { action, resource, leadingKeys }
    : { action, resource, leadingKeys, unreadableKey: true };
}
const PARTITION_KEY_OF_INDEX = new Map(GSIS.map((gsi) => [gsi.indexName, gsi.partitionKey]));

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The partition key value a Query names: the equality on the table's (or index's) partition key. */
export function queriedPartition(input: Input): string | undefined {
  const index = text(input.IndexName);
  const attribute = index ? PARTITION_KEY_OF_INDEX.get(index) : KEY.partitionKey;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  for (const [, name, placeholder] of (text(input.KeyConditionExpression) ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[name] ?? name) === attribute) return stringValue(values[placeholder]);
  }
  return undefined;
}

const TRANSACT_WRITE_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
};

/** The authorisations a DynamoDB call needs; any local table name stands for the stack's table. */
export function dynamoDbRequests(commandName: string, input: Input, model: TwinIamModel): IamRequest[] {
  const operation = commandName.replace(/Command$/, '');
  const table = model.tableArn;
  switch (operation) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [keyed(`dynamodb:${operation}`, table, [partitionKeyOf(input.Key as Item)])];
    case 'PutItem':
      return [keyed('dynamodb:PutItem', table, [partitionKeyOf(input.Item as Item)])];
    case 'Query': {
      const index = text(input.IndexName);
      const resource = index ? (model.indexArns[index] ?? `${table}/index/${index}`) : table;
      return [keyed('dynamodb:Query', resource, [queriedPartition(input)])];
    }
    case 'BatchGetItem': {
      const requests = Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: Item[] }>);
      const keys = requests.flatMap((request) => (request.Keys ?? []).map(partitionKeyOf));
      return [keyed('dynamodb:BatchGetItem', table, keys)];
    }
    case 'BatchWriteItem': {
      const writes = Object.values((input.RequestItems ?? {}) as Record<string, Array<Record<string, { Item?: Item; Key?: Item }>>>).flat();
      const keys = writes.map((write) => partitionKeyOf(write?.PutRequest?.Item ?? write?.DeleteRequest?.Key));
      return [keyed('dynamodb:BatchWriteItem', table, keys)];
    }
    case 'TransactWriteItems': {
      const entries = (input.TransactItems ?? []) as Array<Record<string, { Key?: Item; Item?: Item } | undefined>>;
      if (!entries.length) return [keyed('dynamodb:TransactWriteItems', table, [])];
      return entries.map((entry) => {
        const [kind, operationInput] = Object.entries(entry ?? {})[0] ?? ['', undefined];
        const key = partitionKeyOf(operationInput?.Item ?? operationInput?.Key);
        return keyed(TRANSACT_WRITE_ACTIONS[kind] ?? `dynamodb:${kind}`, table, [key]);
      });
    }
    case 'TransactGetItems': {
      const entries = (input.TransactItems ?? []) as Array<{ Get?: { Key?: Item } } | undefined>;
      if (!entries.length) return [keyed('dynamodb:GetItem', table, [])];
      return entries.map((entry) => keyed('dynamodb:GetItem', table, [partitionKeyOf(entry?.Get?.Key)]));
    }
    default:
      // DescribeTable, Scan and the table-management calls: no item, no leading key.
      return [{ action: `dynamodb:${operation}`, resource: table }];
  }
}

/** The ARN of a configuration set named in a send: one of the stack's two, or one it does not have. */
function configurationSetArnOf(name: string, model: TwinIamModel): string {
  if (name === model.configurationSetName) return model.configurationSetArn;
  if (name === model.bulkConfigurationSetName) return model.bulkConfigurationSetArn;
  return `arn:aws:ses:${model.region}:${model.account}:configuration-set/${name}`;
}

/** The authorisations an SES call needs: the sending identity, and the configuration set (of either mail stream) when one is named. */
export function sesRequests(commandName: string, input: Input, model: TwinIamModel): IamRequest[] {
  const operation = commandName.replace(/Command$/, '');
  if (operation === 'SendEmail' || operation === 'SendRawEmail') {
    // SES v2 authorises every send (raw content included) as ses:SendEmail; SES v1 has SendRawEmail.
    const action = operation === 'SendRawEmail' ? 'ses:SendRawEmail' : 'ses:SendEmail';
    const requests: IamRequest[] = [{ action, resource: model.mailIdentityArn }];
    if (input.ConfigurationSetName) requests.push({ action, resource: configurationSetArnOf(input.ConfigurationSetName as string, model) });
    return requests;
  }
  return [{ action: `ses:${operation}`, resource: '*' }];
}
