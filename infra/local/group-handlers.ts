import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteGroup } from '../../shared/routes';
import { runAs } from './iam/twin';

export type GroupHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The Lambda entry of every endpoint group, as the cloud deploys them (one per group), for the
 * local server and the integration tests. Each runs as its own function (infra/local/iam/twin.ts):
 * its AWS calls are held to that function's IAM role. Imported lazily: the environment must be
 * set first.
 */
export async function loadGroupHandlers(): Promise<Record<RouteGroup, GroupHandler>> {
  const [auth, passkeys, learner, admin] = await Promise.all([
    import('../../functions/groups/auth'),
    import('../../functions/groups/passkeys'),
    import('../../functions/groups/learner'),
    import('../../functions/groups/admin'),
  ]);
  const asFunction =
    (group: RouteGroup, handler: unknown): GroupHandler =>
    (event, context) =>
      runAs(group, () => (handler as GroupHandler)(event, context));
  return {
    auth: asFunction('auth', auth.handler),
    passkeys: asFunction('passkeys', passkeys.handler),
    learner: asFunction('learner', learner.handler),
    admin: asFunction('admin', admin.handler),
  };
}
