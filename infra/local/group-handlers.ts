import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteGroup } from '../../shared/routes';

export type GroupHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The Lambda entry of every endpoint group, as the cloud deploys them (one per group), for the
 * local server and the integration tests. Imported lazily: the environment must be set first.
 */
export async function loadGroupHandlers(): Promise<Record<RouteGroup, GroupHandler>> {
  const [auth, passkeys, learner, admin] = await Promise.all([
    import('../../functions/groups/auth'),
    import('../../functions/groups/passkeys'),
    import('../../functions/groups/learner'),
    import('../../functions/groups/admin'),
  ]);
  return {
    auth: auth.handler as unknown as GroupHandler,
    passkeys: passkeys.handler as unknown as GroupHandler,
    learner: learner.handler as unknown as GroupHandler,
    admin: admin.handler as unknown as GroupHandler,
  };
}
