// The address form's state rules without its schema (./address.ts): what the page runs in the browser when the
// country changes.
/**
 * The state rule: chosen from the list when the country has states, free text otherwise.
 * Returns the error key, or null.
 */
export function stateError(state: string | undefined, states: { code: string }[]): string | null {
  if (!states.length) return null;
  if (!state) return "account:address.errors.stateRequired";
  return states.some((s) => s.code === state) ? null : "account:address.errors.stateRequired";
}

/** When the country changes, a state that is not in the new country's list is cleared; with no list it is kept. */
export function stateAfterCountryChange(state: string | undefined, newCountryStates: { code: string }[]): string | undefined {
  if (!newCountryStates.length) return state;
  return newCountryStates.some((s) => s.code === state) ? state : undefined;
}
