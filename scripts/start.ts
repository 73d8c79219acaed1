// npm start: migrate, seed, serve. `--dev` serves through Vite with hot reload, in one process.
// Otherwise a primary process serves through workers it restarts when they die (Node's cluster; issue 20 §2):
// one on embedded PGlite, WEB_CONCURRENCY=N (or "auto": one per CPU) when the store and the caches can be
// shared: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL).
// React loads its development or production build by NODE_ENV when first imported, so it is set
// before anything else loads: the development build renders pages about twice as slowly.
process.env.NODE_ENV ??= process.argv.includes("--dev") ? "development" : "production";
const cluster = (await import("node:cluster")).default;
type Worker = import("node:cluster").Worker;
const path = await import("node:path");
const os = await import("node:os");
const { preparePortal, startPortal } = await import("#server/boot");
const { lockDataDir } = await import("#server/db");
const { createLogger } = await import("#server/logger");
const { installProcessGuard, restartDelayMs } = await import("#server/process-guard");
const { readEnv } = await import("#server/env");
const { PROVIDER_IDS, providerMode } = await import("#server/payments/providers");
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

/** Set when this start switched the payment sandboxes on for the demo (see demoPaymentsSandbox). */
let paymentsSandboxForDemo = false;
/** Set when this start switched the translation sandbox on for the demo (TRANSLATION_MODE, ADR 072). */
let translationSandboxForDemo = false;

/**
 * The demo (demo accounts seeded, no PAYMENTS_MODE given) takes payments through the providers' sandboxes and
 * says so at start-up; anything else runs them only when PAYMENTS_MODE=sandbox asks for it (ADR 053). Set in
 * process.env so the processes of a cluster read the same.
 */
function demoPaymentsSandbox(env: Env): Env {
  if (!env.SEED_DEMO) return env;
  // The digital translation's sandbox (Chinese; Spanish and Portuguese without Apertium) likewise (ADR 072).
  if (!process.env.TRANSLATION_MODE?.trim()) {
    process.env.TRANSLATION_MODE = "sandbox";
    translationSandboxForDemo = true;
  }
  if (process.env.PAYMENTS_MODE?.trim()) return readEnv();
  process.env.PAYMENTS_MODE = "sandbox";
  paymentsSandboxForDemo = true;
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
  // Every payment provider in test mode is named: no real money reaches them (issue 21 §3, ADR 053).
  const named = (mode: string) => PROVIDER_IDS.filter((id) => providerMode(env, id) === mode).join(", ");
  if (named("sandbox"))
    lines.push(
      `  payments: TEST MODE, no real money (PAYMENTS_MODE=sandbox${paymentsSandboxForDemo ? " for the demo" : ""}): ${named("sandbox")}`,
    );
  if (named("live")) lines.push(`  payments: live: ${named("live")}`);
  if (env.TRANSLATION_MODE === "sandbox")
    lines.push(
      `  translation: TEST MODE where no offline engine is installed (TRANSLATION_MODE=sandbox${translationSandboxForDemo ? " for the demo" : ""})`,
    );
  if (named("off")) lines.push(`  payments: not offered (no credentials, or no live client in this build): ${named("off")}`);
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
function concurrency(env: Env): { processes: number; reason?: string } {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return { processes: 1 };
  const wanted = raw === "auto" ? os.availableParallelism() : Number(raw);
  if (!Number.isInteger(wanted) || wanted < 1) return { processes: 1, reason: `WEB_CONCURRENCY=${raw} is not a number of processes` };
  if (wanted === 1) return { processes: 1 };
  // PGlite lives in one process; per-process caches and rate limits would multiply the limits by N.
  if (!env.DATABASE_URL || !env.REDIS_URL)
    return { processes: 1, reason: "several processes need DATABASE_URL (PostgreSQL) and REDIS_URL (shared caches and rate limits)" };
  return { processes: wanted };
}

/** A web process that stops at start for a reason a restart cannot mend (a locked DATA_DIR, a bad variable, a taken port). */
const EXIT_CANNOT_START = 78;

const STABLE_MS = 10_000;

/**
 * The primary (issue 20 §2, ADR 050): `npm start` always serves from worker processes it watches, so one crash is
 * never an outage. It prepares the store once (migrations, seed), holds the embedded database's lock for its
 * workers (one on PGlite), and keeps `processes` workers serving plus one standby: a process that has loaded the
 * portal's code (about 3 s of the 4–5 s a start takes) and waits. When a serving worker dies the standby opens
 * the store and listens (about 1 s), and a new standby is started behind it; the delay before that grows while
 * processes keep dying young (restartDelayMs).
 */
async function primary(env: Env, processes: number, oneProcessReason?: string) {
  const logger = createLogger(env.LOG_LEVEL);
  // On PGlite the lock is the primary's for as long as it runs: a second `npm start` on the same DATA_DIR stops
  // here, and the worker (which opens the database) takes it over from its parent only.
  if (!env.DATABASE_URL) lockDataDir(env.DATA_DIR);
  const demoAccounts = await preparePortal(env, { lockHeld: !env.DATABASE_URL });
  let stopping = false;
  let bannerShown = false;
  let deathsInARow = 0;
  let ready = 0;
  /** When each worker started serving (or was forked, for one that never did), and which one is the standby. */
  const started = new Map<number, number>();
  let standby: { worker: Worker; loaded: boolean } | null = null;
  let waitingForStandby = 0;
  const workerEnv = { PORTAL_PREPARED: "1", PORTAL_PRIMARY_LOCK: env.DATABASE_URL ? "" : String(process.pid) };

  const forkServing = () => {
    if (stopping) return;
    started.set(cluster.fork(workerEnv).id, Date.now());
  };
  const forkStandby = () => {
    if (stopping || standby) return;
    standby = { worker: cluster.fork({ ...workerEnv, PORTAL_STANDBY: "1" }), loaded: false };
  };
  /** A serving worker is needed: the loaded standby takes over, or a cold worker is forked when there is none. */
  const replace = () => {
    if (stopping) return;
    if (standby?.loaded) {
      const taking = standby.worker;
      standby = null;
      started.set(taking.id, Date.now());
      taking.send({ type: "portal-activate" });
      forkStandby();
    } else if (standby) waitingForStandby++;
    else forkServing();
  };

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    if (standby?.worker === worker) {
      // The standby died while waiting: another one, after the same backoff as any young death.
      standby = null;
      deathsInARow++;
      logger.error({ pid: worker.process.pid, exitCode: code, signal }, "the standby web process exited; starting another");
      setTimeout(() => {
        forkStandby();
        for (; waitingForStandby > 0; waitingForStandby--) forkServing();
      }, restartDelayMs(deathsInARow));
      return;
    }
    const lived = Date.now() - (started.get(worker.id) ?? Date.now());
    started.delete(worker.id);
    if (code === EXIT_CANNOT_START) {
      // Said by the worker on its stderr already; restarting would fail the same way.
      logger.fatal({ pid: worker.process.pid }, "the web process cannot start; stopping");
      return void shutdown(1);
    }
    deathsInARow = lived < STABLE_MS ? deathsInARow + 1 : 1;
    const delay = restartDelayMs(deathsInARow);
    logger.error(
      { pid: worker.process.pid, exitCode: code, signal, livedMs: lived, restartInMs: delay },
      "a web process exited; starting another",
    );
    setTimeout(replace, delay);
  });
  cluster.on("message", (worker, message: { type?: string; cache?: string }) => {
    if (message?.type === "portal-standby" && standby?.worker === worker) {
      standby.loaded = true;
      logger.info({ pid: worker.process.pid }, "standby web process loaded");
      if (waitingForStandby > 0) {
        waitingForStandby--;
        replace();
      }
      return;
    }
    if (message?.type !== "portal-ready") return;
    if (bannerShown) return void logger.info({ pid: worker.process.pid }, "web process ready");
    if (++ready === processes) {
      bannerShown = true;
      banner(`http://${env.HOST}:${env.PORT}`, env, message.cache ?? "Redis", demoAccounts, processes, oneProcessReason);
      // The standby loads after the first start, so it never slows it.
      forkStandby();
    }
  });
  for (let i = 0; i < processes; i++) forkServing();

  const shutdown = (status = 0) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    const force = setTimeout(() => process.exit(1), 8000);
    force.unref();
    let left = workers.length;
    if (!left) process.exit(status);
    for (const w of workers) {
      w.once("exit", () => {
        if (--left === 0) process.exit(status);
      });
      w.process.kill("SIGTERM");
    }
  };
  process.on("SIGTERM", () => shutdown());
  process.on("SIGINT", () => shutdown());
}

/**
 * A standby worker: loads the portal's code (the server modules are loaded by now; the Remix build is imported
 * here) and waits for its primary's word to serve. Nothing is opened: on PGlite the database belongs to the one
 * serving process until it dies.
 */
async function standBy(): Promise<void> {
  await import(/* @vite-ignore */ path.join(process.cwd(), "build/server/index.js"));
  const leave = () => process.exit(0);
  await new Promise<void>((resolve) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== "portal-activate") return;
      process.off("message", onMessage);
      resolve();
    };
    process.on("message", onMessage);
    process.send?.({ type: "portal-standby" });
    process.once("disconnect", leave);
    process.once("SIGTERM", leave);
  });
  // Serving from now on: serve() sets its own, graceful, handlers.
  process.off("disconnect", leave);
  process.off("SIGTERM", leave);
}

async function serve(env: Env, options: { dev: boolean; prepared: boolean; reason?: string }) {
  let devMiddleware;
  let build;
  if (options.dev) {
    const vite = await import("vite");
    const server = await vite.createServer({ server: { middlewareMode: true } });
    devMiddleware = server.middlewares;
    build = () => server.ssrLoadModule("virtual:remix/server-build") as never;
  }
  const primaryLock = Number(process.env.PORTAL_PRIMARY_LOCK);
  const portal = await startPortal({
    env,
    devMiddleware,
    build,
    prepared: options.prepared,
    lockHeldBy: cluster.isWorker && primaryLock === process.ppid ? primaryLock : undefined,
  });
  // A failure outside every handler is logged with its request; an uncaught exception ends this process, whose
  // primary starts a fresh one (issue 20 §2).
  installProcessGuard({
    logger: portal.ctx.logger,
    onFatal: () =>
      new Promise<void>((resolve) => {
        portal.server.close(() => resolve());
        portal.server.closeIdleConnections();
      }),
  });
  const cacheKind = portal.ctx.cache.kind === "redis" ? "Redis" : "in-process";
  if (cluster.isWorker) process.send?.({ type: "portal-ready", cache: cacheKind });
  else banner(portal.url, env, cacheKind, portal.demoAccounts, 1, options.reason);

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
  // A primary that died (SIGKILL, OOM) can restart nothing: its workers stop too, so no orphan keeps the port or
  // the embedded database.
  if (cluster.isWorker) process.on("disconnect", () => shutdown("primary gone"));
}

async function main() {
  const env = cluster.isWorker ? readEnv() : demoPaymentsSandbox(demoWechatSandbox(readEnv()));
  if (cluster.isWorker) {
    if (process.env.PORTAL_STANDBY === "1") await standBy();
    return serve(env, { dev: false, prepared: process.env.PORTAL_PREPARED === "1" });
  }
  // The development server (Vite, hot reload) is one process; everything else is served by a primary's workers.
  if (process.argv.includes("--dev")) return serve(env, { dev: true, prepared: false });
  const { processes, reason } = concurrency(env);
  return primary(env, processes, reason);
}

main().catch((error) => {
  // Operator mistakes (a locked DATA_DIR, a bad variable, a taken port) say what to fix, without a stack trace,
  // and a worker tells its primary not to try again (EXIT_CANNOT_START).
  const code = (error as { code?: string }).code ?? "";
  if (["DATA_DIR_LOCKED", "INVALID_ENV"].includes(code)) {
    process.stderr.write(`\n${(error as Error).message}\n\n`);
  } else if (code === "EADDRINUSE" || code === "EACCES") {
    process.stderr.write(
      `\nThe portal cannot listen on ${process.env.HOST ?? "127.0.0.1"}:${process.env.PORT ?? 3000}: ${(error as Error).message}\n\n`,
    );
  } else {
    process.stderr.write(`\nThe portal could not start: ${(error as Error).stack ?? error}\n\n`);
    process.exit(1);
  }
  process.exit(cluster.isWorker ? EXIT_CANNOT_START : 1);
});
