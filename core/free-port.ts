import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Ports the kernel hands out itself (listen(0), and the local end of every outgoing connection)
// come from this range. A port picked there and bound later (a worker restarted on its old port,
// a child process told which port to take) can be taken in between by any client socket on the
// machine: seen as EADDRINUSE in the chaos suite on a busy CI run. Below the range, only another
// picker can collide, and the bind probe catches that.
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (lo && hi && lo < hi) return [lo, hi];
  } catch {
    // Not Linux: fall through to the IANA dynamic range.
  }
  return [49152, 65535];
}

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

function kernelPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const p = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(p));
    });
  });
}

const LOWEST = 10_000;

/** A port free now on `host`, chosen outside the kernel's ephemeral range where there is room. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const span = ephemeralLow - LOWEST;
  if (span >= 1000) {
    for (let i = 0; i < 50; i++) {
      const port = LOWEST + Math.floor(Math.random() * span);
      if (await canBind(port, host)) return port;
    }
  }
  return kernelPort(host);
}
