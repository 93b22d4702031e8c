// A tiny TCP proxy for outage tests: put it between a pool and Postgres, then `pause()` to make the
// database unreachable and `resume()` to bring it back. Deterministic where stopping a shared
// server is not, and nothing else on the machine notices.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * `refuse`: a server that went down: open connections are cut, new ones reset at once.
 * `stall`: a network partition: nothing gets through either way, nothing is closed; on `resume()`
 * what was held is delivered in order (a query sent during the stall then completes late).
 */
export type OutageMode = 'refuse' | 'stall';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's (a Postgres URL keeps user and database). */
  proxiedUrl(url: string): string;
  pause(mode?: OutageMode): Promise<void>;
  resume(): void;
  /** Connections refused or held during outages: proof that something tried. */
  readonly turnedAway: number;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream?: Socket;
  /** Writes held back by a stall, in arrival order. */
  held: (() => void)[];
  cut(): void;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let outage: OutageMode | undefined;
  let turnedAway = 0;

  const relay = (link: Link, from: Socket, to: () => Socket | undefined) => {
    from.on('data', (chunk: Buffer) => {
      const send = () => to()?.write(chunk);
      // Once anything is held, later chunks queue behind it so the byte order never changes.
      if (outage === 'stall' || link.held.length || !to()) link.held.push(send);
      else send();
    });
  };

  const openUpstream = (link: Link) => {
    const upstream = connect(target.port, target.host);
    link.upstream = upstream;
    relay(link, upstream, () => link.client);
    upstream.on('error', link.cut);
    upstream.on('close', link.cut);
    upstream.once('connect', () => flush(link));
  };

  const flush = (link: Link) => {
    if (outage === 'stall' || !link.upstream || link.upstream.connecting) return;
    for (const send of link.held.splice(0)) send();
  };

  const server: Server = createServer((client) => {
    if (outage === 'refuse') {
      // A reset looks like a server that died mid-handshake, which pg reports at once ("Connection
      // terminated unexpectedly") rather than after its connect timeout.
      turnedAway += 1;
      client.resetAndDestroy();
      return;
    }
    const link: Link = {
      client,
      held: [],
      cut: () => {
        client.destroy();
        link.upstream?.destroy();
        links.delete(link);
      },
    };
    links.add(link);
    relay(link, client, () => (link.upstream && !link.upstream.connecting ? link.upstream : undefined));
    client.on('error', link.cut);
    client.on('close', link.cut);
    if (outage === 'stall')
      turnedAway += 1; // held: connected upstream on resume()
    else openUpstream(link);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const cutAll = async () => {
    const sockets = [...links]
      .flatMap((l) => [l.client, l.upstream])
      .filter((s): s is Socket => Boolean(s && !s.destroyed));
    const closed = sockets.map((s) => new Promise<void>((r) => s.once('close', () => r())));
    for (const l of [...links]) l.cut();
    await Promise.all(closed);
  };

  return {
    port,
    proxiedUrl(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async pause(mode: OutageMode = 'refuse') {
      outage = mode;
      if (mode === 'refuse') await cutAll();
    },
    resume() {
      outage = undefined;
      for (const link of links) {
        if (!link.upstream) openUpstream(link);
        else flush(link);
      }
    },
    get turnedAway() {
      return turnedAway;
    },
    async close() {
      outage = 'refuse';
      await cutAll();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
