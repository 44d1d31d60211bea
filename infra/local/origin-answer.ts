import type { ServerResponse } from 'node:http';

/** What an origin (the S3 bucket, API Gateway) answers the local CloudFront: header names in lower case. */
export interface OriginAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** An answer with a JSON body, as API Gateway and the local server's own endpoints send them. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): OriginAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

export function sendAnswer(res: ServerResponse, answer: OriginAnswer): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
  res.end(answer.body);
}
