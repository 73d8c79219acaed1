// The outcome of a staff action, above the page's forms: what was done (a polite status) and what was refused
// (an alert). Texts arrive translated; an empty one shows nothing.
export function ActionAlerts({ done, error }: { done?: readonly (string | null | undefined | false)[]; error?: string | null | false }) {
  return (
    <>
      {(done ?? []).map((text, i) =>
        text ? (
          <p key={i} className="alert alert-success" role="status">
            {text}
          </p>
        ) : null,
      )}
      {error ? (
        <p className="alert alert-danger" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
