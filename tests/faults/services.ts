// A Redis and a PostgreSQL that a fault test owns: started on spare ports in a temporary directory, stopped and
// started again at will, removed at the end. Never the shared services on 5432/6379 (ADR 045).
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A TCP port nothing listens on now (the kernel's choice). */
export async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on `port`, or throws after `ms`. */
export async function waitForPort(port: number, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function tempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `portal-fault-${tag}-`));
}

export class OwnRedis {
  readonly dir = tempDir("redis");
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir],
      { stdio: "ignore" },
    );
    await waitForPort(this.port);
  }

  /** Freezes Redis (SIGSTOP): its connections stay open and every command waits, the worst kind of outage. */
  freeze(): void {
    this.child?.kill("SIGSTOP");
  }

  /** Stops Redis (SIGKILL, which also ends a frozen one): the kernel closes its connections; nothing is saved. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  }

  async remove(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * PostgreSQL in a temporary cluster. initdb and the server refuse to run as root, so as root (CI) they run as
 * the `postgres` system user through runuser, with the directory handed over to it.
 */
export class OwnPostgres {
  readonly dir = tempDir("pg");
  private asRoot = process.getuid?.() === 0;
  constructor(readonly port: number) {}

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private run(command: string, args: string[]) {
    const [file, argv] = this.asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    return execFileSync(file, argv, { stdio: "pipe", timeout: 60_000 });
  }

  private get data() {
    return path.join(this.dir, "data");
  }

  async init(): Promise<void> {
    if (this.asRoot) execFileSync("chown", ["postgres", this.dir]);
    this.run("initdb", ["-D", this.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"]);
  }

  async start(): Promise<void> {
    // fsync off: the test's data need not survive a machine crash; the server's own stop/start is what is tested.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    this.run("pg_ctl", ["-D", this.data, "-o", options, "-l", path.join(this.dir, "log"), "-w", "-t", "30", "start"]);
    await waitForPort(this.port);
  }

  /** Stops the server the way an operator's restart does (fast: open connections are cut, transactions roll back). */
  async stop(): Promise<void> {
    this.run("pg_ctl", ["-D", this.data, "-m", "fast", "-w", "-t", "30", "stop"]);
  }

  async remove(): Promise<void> {
    try {
      await this.stop();
    } catch {
      // not running
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
