import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { GSIS, INDEX, type IndexName, KEY } from '../../functions/lib/table';

/**
 * The single DynamoDB table. Keys and indexes come from functions/lib/table.ts, the same
 * definitions the code and the local table setup use, so the three cannot drift apart.
 */
export interface DataTableProps {
  /** Default RETAIN: accounts and progress survive a stack deletion (infra/stage.ts). */
  removalPolicy?: RemovalPolicy;
  /** Default true. */
  deletionProtection?: boolean;
  /**
   * On-demand maximum throughput (request units a second) of the table and of each index: a cost
   * ceiling, over which DynamoDB throttles (docs/runbook.md#cost-guardrails). Default: none.
   */
  maxThroughput?: { table: RequestUnits; index: RequestUnits };
}

export interface RequestUnits {
  read: number;
  write: number;
}

export class DataTable extends Construct {
  readonly table: Table;
  /** The table's and each index's ARN: what a grant names, instead of a `/index/*` wildcard. */
  readonly resourceArns: string[];

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: KEY.partitionKey, type: AttributeType.STRING },
      sortKey: { name: KEY.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      maxReadRequestUnits: props.maxThroughput?.table.read,
      maxWriteRequestUnits: props.maxThroughput?.table.write,
      timeToLiveAttribute: KEY.ttl,
      // the activity aggregator compares an account's old and new last-active day (infra/constructs/activity-stream.ts)
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection ?? true,
      // Accounts and progress must survive a stack deletion or an accidental replacement (prod).
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    for (const gsi of GSIS) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: AttributeType.STRING },
        maxReadRequestUnits: props.maxThroughput?.index.read,
        maxWriteRequestUnits: props.maxThroughput?.index.write,
        // ALL where a page shows the whole item (audit entries); list fields only where an item
        // holds secrets (the user-list indexes project no password hash: functions/lib/table.ts).
        ...(gsi.projection === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...gsi.projection] }),
      });
    }
    this.resourceArns = [this.table.tableArn, ...GSIS.map((gsi) => `${this.table.tableArn}/index/${gsi.indexName}`)];
  }

  get tableArn(): string {
    return this.table.tableArn;
  }

  /** The ARN of the index serving an access pattern: what a Query grant names. */
  indexArn(name: IndexName): string {
    return `${this.table.tableArn}/index/${INDEX[name].indexName}`;
  }
}
