import { runInNewContext } from 'node:vm';
import { SPA_FALLBACK_FUNCTION } from '../edge-behaviour';

interface ViewerRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string }>;
  headers: Record<string, { value: string }>;
  cookies: Record<string, { value: string }>;
}
type ViewerRequestFunction = (event: { version: '1.0'; context: { eventType: 'viewer-request' }; request: ViewerRequest }) => ViewerRequest;

/**
 * The S3 behaviour's CloudFront Function, compiled from the very source the distribution deploys
 * in its own V8 context (CloudFront runs it apart from everything else too): for a request's
 * method and URI, the path S3 is asked for. Only those matter to it; the rest of CloudFront's
 * event is there empty so the source can read any field it is given in the cloud.
 */
export function viewerRequestFunction(source = SPA_FALLBACK_FUNCTION): (method: string, uri: string) => string {
  const handler = runInNewContext(`${source}; handler;`) as ViewerRequestFunction;
  return (method, uri) =>
    handler({
      version: '1.0',
      context: { eventType: 'viewer-request' },
      request: { method, uri, querystring: {}, headers: {}, cookies: {} },
    }).uri;
}
