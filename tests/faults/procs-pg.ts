// A PostgreSQL server of the test's own (ADR 046): initdb into a temporary folder, started on a spare port,
// removed afterwards. The process-fault tests need one that several processes share (PGlite belongs to one
// process) and must never touch the shared server CI runs on 5432. initdb refuses to run as root, so under
// root the server runs as the `postgres` user.
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; closed again at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function binary(name: string): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const versions = fs.existsSync("/usr/lib/postgresql") ? fs.readdirSync("/usr/lib/postgresql").sort().reverse() : [];
  for (const v of versions) if (fs.existsSync(`/usr/lib/postgresql/${v}/bin/${name}`)) return `/usr/lib/postgresql/${v}/bin/${name}`;
  throw new Error(`${name} not found: the process-fault tests start their own PostgreSQL (install the postgresql server package)`);
}

/** Runs a PostgreSQL tool, as `postgres` when this process is root. */
async function tool(name: string, args: string[]): Promise<void> {
  const bin = binary(name);
  const asRoot = process.getuid?.() === 0;
  await run(asRoot ? "runuser" : bin, asRoot ? ["-u", "postgres", "--", bin, ...args] : args, { timeout: 60_000 });
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "procs-pg-"));
  if (process.getuid?.() === 0) await run("chown", ["postgres:", dir]);
  const data = path.join(dir, "data");
  await tool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale", "C"]);
  const port = await freePort();
  // fsync off: the server's own crash safety is not what these tests are about, and it costs seconds.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  await tool("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await tool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
