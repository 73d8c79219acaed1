// The bench's floor page (ADR 079): Remix rendering a page of about {bytes} bytes with no loader and no action, so
// `npm run bench` can tell what a page costs beyond the framework itself. It sits outside the :lang/chrome tree (only
// the root's loader and layout run, as for every page), and server/app.ts answers 404 for it unless BENCH_BARE_ROUTE
// is on. The markup is the renderToString baseline's (scripts/bench.ts): a form of labelled fields, ~120 bytes each.
// It is a measuring instrument, not a page anyone reads: its words are not translated.
import { useParams } from "@remix-run/react";

export default function BenchBarePage() {
  const bytes = Math.min(Number(useParams().bytes) || 0, 2_000_000);
  const rows = Math.max(1, Math.round(bytes / 120));
  return (
    <>
      <header>
        <nav>
          {["Home", "Orders", "Account"].map((x) => (
            <a key={x} href={`/${x}`}>
              {x}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <form method="post">
          {Array.from({ length: rows }, (_, i) => (
            <div key={i} className="field">
              <label htmlFor={`f${i}`}>Field {i}</label>
              <input id={`f${i}`} name={`f${i}`} defaultValue="" />
            </div>
          ))}
        </form>
      </main>
      <footer>Footer</footer>
    </>
  );
}
