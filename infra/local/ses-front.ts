import { randomUUID } from 'node:crypto';
import { request, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { SendBudget, SesRefusal } from './ses-limits';

/**
 * The local SES's front door: counts every send against SES's limits (ses-limits.ts) and answers
 * a refused one exactly as SES does, serves SES v2 GetAccount from the same counters, and passes
 * everything else (the sends it allows, the mail viewer, `GET /store`) to aws-ses-v2-local.
 */

/**
 * SES v2 (REST/JSON: the error name in `x-amzn-ErrorType`, which the SDK turns into the error
 * class; the HTTP status is part of the model): TooManyRequestsException is 429, and the SDK
 * retries it; LimitExceededException is 400.
 */
export const V2_REFUSALS: Record<SesRefusal, { status: number; type: string; message: string }> = {
  rate: { status: 429, type: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' },
  quota: { status: 400, type: 'LimitExceededException', message: 'Daily message quota exceeded.' },
};

/** SES v1 (query/XML) answers both with a 400 `Throttling` error and the same messages. */
export const v1Refusal = (refusal: SesRefusal, requestId: string) =>
  '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/">' +
  `<Error><Type>Sender</Type><Code>Throttling</Code><Message>${V2_REFUSALS[refusal].message}</Message></Error>` +
  `<RequestId>${requestId}</RequestId></ErrorResponse>`;

type Api = 'v1' | 'v2';

/** The API and the number of recipients of a send request; undefined for anything else. */
export function sendOf(method: string | undefined, path: string, body: Buffer): { api: Api; recipients: number } | undefined {
  if (method !== 'POST') return undefined;
  const count = (destination?: { ToAddresses?: unknown[]; CcAddresses?: unknown[]; BccAddresses?: unknown[] }) =>
    (destination?.ToAddresses?.length ?? 0) + (destination?.CcAddresses?.length ?? 0) + (destination?.BccAddresses?.length ?? 0);
  if (path === '/v2/email/outbound-emails' || path === '/v2/email/outbound-bulk-emails') {
    let input: { Destination?: Parameters<typeof count>[0]; BulkEmailEntries?: Array<{ Destination?: Parameters<typeof count>[0] }> };
    try {
      input = JSON.parse(body.toString('utf8')) as typeof input;
    } catch {
      return undefined; // malformed: aws-ses-v2-local refuses it, nothing is sent
    }
    const recipients = input.BulkEmailEntries
      ? input.BulkEmailEntries.reduce((sum, entry) => sum + count(entry.Destination), 0)
      : count(input.Destination);
    return { api: 'v2', recipients: Math.max(1, recipients) };
  }
  if (path === '/') {
    const form = new URLSearchParams(body.toString('utf8'));
    const action = form.get('Action');
    if (action !== 'SendEmail' && action !== 'SendRawEmail') return undefined;
    const recipients = [...form.keys()].filter((key) => /^(Destination\.(To|Cc|Bcc)Addresses|Destinations)\.member\.\d+$/.test(key)).length;
    // A raw message without Destinations names its recipients in its own headers: one here.
    return { api: 'v1', recipients: Math.max(1, recipients) };
  }
  return undefined;
}

function refuse(res: ServerResponse, api: Api, refusal: SesRefusal): void {
  const requestId = randomUUID();
  if (api === 'v1') {
    res.writeHead(400, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId }).end(v1Refusal(refusal, requestId));
    return;
  }
  const { status, type, message } = V2_REFUSALS[refusal];
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type, 'x-amzn-requestid': requestId })
    .end(JSON.stringify({ message }));
}

/** SES v2 GetAccount: a production account in good standing, with the counters of `budget`. */
function account(res: ServerResponse, budget: SendBudget): void {
  res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() }).end(
    JSON.stringify({
      DedicatedIpAutoWarmupEnabled: false,
      EnforcementStatus: 'HEALTHY',
      ProductionAccessEnabled: true,
      SendingEnabled: true,
      SendQuota: {
        Max24HourSend: budget.limits.max24HourSend,
        MaxSendRate: budget.limits.maxSendRate,
        SentLast24Hours: budget.sentLast24Hours(),
      },
      SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    }),
  );
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Passes the request to aws-ses-v2-local and its answer back; `answered` gets the status. */
function forward(
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  upstream: { host: string; port: number },
  answered: (status: number) => void = () => undefined,
) {
  const out = request({ ...upstream, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    answered(answer.statusCode ?? 502);
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => {
    answered(502);
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'content-type': 'text/plain' }).end('the local SES did not answer');
  });
  out.end(body);
}

/** The request listener of the front door, for one SES account (`budget`). */
export function sesFront(upstream: { host: string; port: number }, budget: SendBudget): RequestListener {
  return (req, res) => {
    void readBody(req).then(
      (body) => {
        const path = new URL(req.url ?? '/', 'http://ses').pathname;
        // Unsigned calls are aws-ses-v2-local's to refuse (403): they never reach SES's limits.
        const signed = /^AWS/.test(req.headers.authorization ?? '');
        if (signed && req.method === 'GET' && path === '/v2/email/account') return account(res, budget);
        const send = signed ? sendOf(req.method, path, body) : undefined;
        if (!send) return forward(req, body, res, upstream);
        const counted = budget.take(send.recipients);
        if (typeof counted === 'string') return refuse(res, send.api, counted);
        // Only what SES accepted counts: a send it refused (a malformed request) is given back.
        forward(req, body, res, upstream, (status) => {
          if (status >= 300) counted.giveBack();
        });
      },
      () => res.destroy(),
    );
  };
}
