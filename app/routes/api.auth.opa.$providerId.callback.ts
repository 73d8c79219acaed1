// Placeholder until the capability lands: answers 404.
export function loader() {
  return Response.json({ error: "not-found" }, { status: 404 });
}
