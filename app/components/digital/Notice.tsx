// A success notice at the top of a digital page (after a delete, a subscription, a survey, a trial).
export function Notice({ text, tone = "success" }: { text: string; tone?: "success" | "danger" | "info" }) {
  return (
    <p className={`alert alert-${tone}`} role="status">
      {text}
    </p>
  );
}
