import type { LoaderFunctionArgs } from "@remix-run/node";

// Any path under a language prefix that matches no page.
export function loader(_: LoaderFunctionArgs) {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
