import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sesFront, V2_REFUSALS } from '../../infra/local/ses-front';
import { SendBudget, type SesLimits } from '../../infra/local/ses-limits';
import type { SesRefusal } from '../../infra/local/ses-limits';

/**
 * The simulation's SES: the local SES's own front door (infra/local/ses-front.ts: SES's send rate
 * and 24-hour quota, counted on the simulated clock, and GetAccount) in front of a mailbox that
 * keeps every accepted mail by recipient, so that a simulated person reads their codes and links
 * as a person reads their inbox. Injected refusals (a throttle, a spent quota) are answered at the
 * door, exactly as SES answers them.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  headers: Array<{ Name: string; Value: string }>;
  /** Simulated time it was accepted. */
  at: number;
}

export class Mailbox {
  private readonly byAddress = new Map<string, Mail[]>();
  total = 0;

  add(mail: Mail): void {
    const key = mail.to.toLowerCase();
    const list = this.byAddress.get(key) ?? [];
    list.push(mail);
    this.byAddress.set(key, list);
    this.total += 1;
  }

  /** Every mail to `address` (optionally with a subject matching), oldest first. */
  to(address: string, subject?: RegExp): Mail[] {
    const all = this.byAddress.get(address.toLowerCase()) ?? [];
    return subject ? all.filter((mail) => subject.test(mail.subject)) : all;
  }

  /** The newest mail to `address` matching `subject` accepted at or after `since`. */
  latest(address: string, subject: RegExp, since = 0): Mail | undefined {
    return this.to(address, subject)
      .filter((mail) => mail.at >= since)
      .at(-1);
  }
}

const SEND_PATHS = new Set(['/v2/email/outbound-emails', '/v2/email/outbound-bulk-emails']);

/** The code of a code email: the number of its "Your … is 123456." sentence (a greeting's name may hold digits). */
export const codeIn = (mail: Mail | undefined) => (mail ? (/ is (\d{6})\./.exec(mail.text)?.[1] ?? '') : '');

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

interface SendEmailBody {
  Destination?: { ToAddresses?: string[] };
  Content?: { Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string } }; Headers?: Mail['headers'] } };
}

export interface SimSes {
  endpoint: string;
  mailbox: Mailbox;
  /** Decides, per accepted-by-the-limits send, whether an injected refusal answers it instead. */
  refuse: () => SesRefusal | undefined;
  close: () => Promise<void>;
}

export async function startSimSes(limits: SesLimits, now: () => number): Promise<SimSes> {
  const mailbox = new Mailbox();
  // the mailbox: SES v2 SendEmail (Simple content), as aws-ses-v2-local takes it
  const sink = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method !== 'POST' || req.url !== '/v2/email/outbound-emails') return res.writeHead(404).end();
      const input = JSON.parse(body.toString('utf8')) as SendEmailBody;
      const simple = input.Content?.Simple;
      const to = input.Destination?.ToAddresses ?? [];
      if (!simple || !to.length)
        return res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Bad Request Exception"}');
      for (const address of to)
        mailbox.add({
          to: address,
          subject: simple.Subject?.Data ?? '',
          text: simple.Body?.Text?.Data ?? '',
          headers: simple.Headers ?? [],
          at: now(),
        });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ MessageId: `soak-${randomUUID()}` }));
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
  const door = sesFront({ host: '127.0.0.1', port: (sink.address() as AddressInfo).port }, new SendBudget(limits, now));
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const ses: SimSes = {
    endpoint: '',
    mailbox,
    refuse: () => undefined,
    close: async () => {
      await close(front);
      await close(sink);
    },
  };
  const front: Server = createServer((req, res) => {
    // an injected refusal answers a send before the door counts it (SES refuses it uncounted)
    const path = new URL(req.url ?? '/', 'http://ses').pathname;
    const refusal = req.method === 'POST' && SEND_PATHS.has(path) ? ses.refuse() : undefined;
    if (!refusal) return door(req, res);
    req.resume();
    const { status, type, message } = V2_REFUSALS[refusal];
    res
      .writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type, 'x-amzn-requestid': randomUUID() })
      .end(JSON.stringify({ message }));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', () => resolve()));
  ses.endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return ses;
}
