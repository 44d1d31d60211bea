import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/**
 * The local servers' Host check (docs/security.md#local-runtime-bound-to-127001): loopback
 * binding alone does not stop DNS rebinding, where a page of some other site has its own name
 * re-pointed to 127.0.0.1 and then reads the app or the mail viewer (every reset link and code)
 * as if it were that site. The browser then sends that site's name as Host, so only names that
 * can only mean this machine are answered: `localhost` (and `*.localhost`, which browsers resolve
 * to loopback themselves), 127.0.0.1 and [::1], each with the port the request came in on.
 * When HOST widens the listening address, IP literals are answered too (a phone on the LAN
 * opens `http://192.168.x.y:3000`): an address cannot be rebound, only a name can.
 */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a Host header names this machine at `port`. */
export function isAllowedHost(host: string | undefined, port: number, widened = false): boolean {
  if (!host) return false;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d+))?$/i.exec(host.trim().toLowerCase());
  if (!match) return false;
  const [, name, portText] = match;
  if (Number(portText ?? 80) !== port) return false;
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return true;
  return widened && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/**
 * `listener` behind the Host check: a request naming any other host gets 421 Misdirected
 * Request (`host_not_allowed`) and goes no further. `widened`: the server listens beyond loopback.
 */
export function withHostCheck(listener: RequestListener, widened = false): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (isAllowedHost(req.headers.host, req.socket.localPort ?? 0, widened)) {
      listener(req, res);
      return;
    }
    res.writeHead(421, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: 'host_not_allowed' }));
  };
}
