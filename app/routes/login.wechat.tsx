// Placeholder until the capability lands: a 404 page.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}
export default function Placeholder() {
  return null;
}
