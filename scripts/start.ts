// npm start: migrate, seed, serve. `--dev` serves through Vite with hot reload.
// WEB_CONCURRENCY=N (or "auto": one per CPU) serves from N processes sharing the port (Node's cluster),
// when the store and the caches can be shared: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).
// React loads its development or production build by NODE_ENV when first imported, so it is set
// before anything else loads: the development build renders pages about twice as slowly.
process.env.NODE_ENV ??= process.argv.includes("--dev") ? "development" : "production";
const cluster = (await import("node:cluster")).default;
const os = await import("node:os");
const { preparePortal, startPortal } = await import("#server/boot");
const { readEnv } = await import("#server/env");
const { mailPickupDir, publicOrigin } = await import("#server/mail");
export {};

type Env = ReturnType<typeof readEnv>;
type DemoAccount = Awaited<ReturnType<typeof preparePortal>>[number];

/** Set when this start switched the WeChat sandbox on for the demo (see demoWechatSandbox). */
let wechatSandboxForDemo = false;

/**
 * The demo (demo accounts seeded, no WECHAT_MODE given) shows WeChat sign-in in its sandbox, the only
 * provider there is, and says so at start-up. Anything else gets WeChat only when WECHAT_MODE asks for it
 * (ADR 024). Set in process.env so the processes of a cluster read the same.
 */
function demoWechatSandbox(env: Env): Env {
  if (process.env.WECHAT_MODE?.trim() || !env.SEED_DEMO) return env;
  process.env.WECHAT_MODE = "sandbox";
  wechatSandboxForDemo = true;
  return readEnv();
}

function banner(url: string, env: Env, cacheKind: string, demoAccounts: DemoAccount[], processes: number, oneProcessReason?: string) {
  const lines = [
    "",
    `Researcher portal is running at ${url}/`,
    `  database: ${env.DATABASE_URL ? "PostgreSQL" : `embedded PGlite in ${env.DATA_DIR}`}`,
    `  cache:    ${cacheKind}`,
  ];
  if (wechatSandboxForDemo)
    lines.push("  WeChat:   sandbox (test mode) for the demo: no WeChat provider is configured; WECHAT_MODE=off turns it off");
  if (processes > 1) lines.push(`  processes: ${processes} (WEB_CONCURRENCY)`);
  // In the banner's one write: whoever waits for "Stop with Ctrl+C." has read it too.
  if (oneProcessReason) lines.push(`  One process: ${oneProcessReason}.`);
  // Without SMTP, reset links reach their recipient only through the pickup folder (ADR 018): say where it is.
  const pickup = mailPickupDir({ env });
  lines.push(
    `  e-mail:   ${
      env.SMTP_URL
        ? "sent through SMTP_URL"
        : pickup
          ? `no SMTP_URL: whole messages (reset links) for their recipients in ${pickup}`
          : "no SMTP_URL: kept in the staff outbox with reset links redacted (set SMTP_URL, or MAIL_PICKUP_DIR on a test machine)"
    }`,
  );
  // Whose X-Forwarded-For is believed (ADR 025): a hop count trusts whoever connects, so it says so.
  const trust = env.TRUST_PROXY;
  lines.push(
    `  proxy:    ${
      trust === false
        ? "none trusted (X-Forwarded-* ignored; TRUST_PROXY names the proxy)"
        : typeof trust === "number"
          ? `the nearest ${trust} hop(s), whatever their address: only safe when nothing but the proxy can reach this port (TRUST_PROXY can name its address instead)`
          : `X-Forwarded-* believed from ${trust.join(", ")}`
    }`,
  );
  // E-mailed links lead here, whatever address a request names (issue 10 item 1).
  lines.push(
    `  links:    e-mails link to ${publicOrigin(env)}${env.PUBLIC_URL ? "" : " (HOST:PORT; set PUBLIC_URL to the public address)"}`,
  );
  if (demoAccounts.length) {
    lines.push("  demo accounts:");
    for (const a of demoAccounts) lines.push(`    ${a.role.padEnd(10)} ${a.email}  password: ${a.password}`);
  }
  lines.push("  Stop with Ctrl+C.", "");
  process.stdout.write(lines.join("\n") + "\n");
}

/** How many processes to serve from, and why not more when it is one. */
function concurrency(env: Env, dev: boolean): { processes: number; reason?: string } {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return { processes: 1 };
  const wanted = raw === "auto" ? os.availableParallelism() : Number(raw);
  if (!Number.isInteger(wanted) || wanted < 1) return { processes: 1, reason: `WEB_CONCURRENCY=${raw} is not a number of processes` };
  if (wanted === 1) return { processes: 1 };
  if (dev) return { processes: 1, reason: "the development server runs in one process" };
  // PGlite lives in one process; per-process caches and rate limits would multiply the limits by N.
  if (!env.DATABASE_URL || !env.REDIS_URL)
    return { processes: 1, reason: "several processes need DATABASE_URL (PostgreSQL) and REDIS_URL (shared caches and rate limits)" };
  if (env.PORT === 0) return { processes: 1, reason: "several processes need a fixed PORT" };
  return { processes: wanted };
}

/** The primary of a cluster: prepares the store once, then keeps `processes` workers serving. */
async function primary(env: Env, processes: number) {
  const demoAccounts = await preparePortal(env);
  let stopping = false;
  const started = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork({ PORTAL_PREPARED: "1" });
    started.set(worker.id, Date.now());
  };
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    process.stderr.write(`portal worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    // A worker that dies at once would die again: wait a little so a broken start does not spin.
    setTimeout(fork, lived < 5000 ? 2000 : 0);
  });
  let ready = 0;
  cluster.on("message", (_worker, message: { type?: string; cache?: string }) => {
    if (message?.type === "portal-ready" && ++ready === processes)
      banner(`http://${env.HOST}:${env.PORT}`, env, message.cache ?? "Redis", demoAccounts, processes);
  });
  for (let i = 0; i < processes; i++) fork();

  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    const force = setTimeout(() => process.exit(1), 8000);
    force.unref();
    let left = workers.length;
    if (!left) process.exit(0);
    for (const w of workers) {
      w.once("exit", () => {
        if (--left === 0) process.exit(0);
      });
      w.process.kill("SIGTERM");
    }
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

async function serve(env: Env, options: { dev: boolean; prepared: boolean; processes: number; reason?: string }) {
  let devMiddleware;
  let build;
  if (options.dev) {
    const vite = await import("vite");
    const server = await vite.createServer({ server: { middlewareMode: true } });
    devMiddleware = server.middlewares;
    build = () => server.ssrLoadModule("virtual:remix/server-build") as never;
  }
  const portal = await startPortal({ env, devMiddleware, build, prepared: options.prepared });
  const cacheKind = portal.ctx.cache.kind === "redis" ? "Redis" : "in-process";
  if (cluster.isWorker) process.send?.({ type: "portal-ready", cache: cacheKind });
  else {
    banner(portal.url, env, cacheKind, portal.demoAccounts, 1, options.reason);
  }

  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    portal.ctx.logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 8000);
    force.unref();
    portal.stop().then(
      () => process.exit(0),
      (error) => {
        portal.ctx.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  // In a cluster Ctrl+C reaches every process; the primary stops the workers in order.
  process.on("SIGINT", () => (cluster.isWorker ? undefined : shutdown("SIGINT")));
}

async function main() {
  const env = cluster.isWorker ? readEnv() : demoWechatSandbox(readEnv());
  const dev = process.argv.includes("--dev");
  if (cluster.isWorker) return serve(env, { dev: false, prepared: process.env.PORTAL_PREPARED === "1", processes: 1 });
  const { processes, reason } = concurrency(env, dev);
  if (processes > 1) return primary(env, processes);
  return serve(env, { dev, prepared: false, processes: 1, reason });
}

main().catch((error) => {
  // Operator mistakes (a locked DATA_DIR, a bad variable) say what to fix, without a stack trace.
  if (["DATA_DIR_LOCKED", "INVALID_ENV"].includes((error as { code?: string }).code ?? "")) {
    process.stderr.write(`\n${(error as Error).message}\n\n`);
  } else {
    process.stderr.write(`\nThe portal could not start: ${(error as Error).stack ?? error}\n\n`);
  }
  process.exit(1);
});
